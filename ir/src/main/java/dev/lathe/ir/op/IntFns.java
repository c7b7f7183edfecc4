package dev.lathe.ir.op;

import static dev.lathe.ir.op.Bits.mask;
import static dev.lathe.ir.op.Bits.maxSigned;
import static dev.lathe.ir.op.Bits.minSigned;
import static dev.lathe.ir.op.Bits.sext;
import static dev.lathe.ir.op.Bits.zext;

/**
 * Evaluation of the integer and bitwise ops at 1 (bitwise only), 8, 16, 32 and 64 bits.
 *
 * <p>Arithmetic wraps modulo 2^bits. Every case C leaves undefined has one defined result here,
 * written next to the function and in {@code ir/README.md}.
 */
final class IntFns {
    private IntFns() {}

    static long iadd(long a, long b, int n) {
        return a + b;
    }

    static long isub(long a, long b, int n) {
        return a - b;
    }

    static long imul(long a, long b, int n) {
        return a * b;
    }

    static long ineg(long a, int n) {
        return -a;
    }

    /** |a|; iabs(MIN) = MIN (wraps). */
    static long iabs(long a, int n) {
        long x = sext(a, n);
        return x < 0 ? -x : x;
    }

    static long isign(long a, int n) {
        return Long.signum(sext(a, n));
    }

    /** Signed division truncating toward zero; x / 0 = 0; MIN / -1 = MIN. */
    static long idiv(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        if (y == 0) return 0;
        if (y == -1) return -x; // wraps for MIN, without Java's exception-free but odd 64-bit case
        return x / y;
    }

    /** Unsigned division; x / 0 = 0. */
    static long udiv(long a, long b, int n) {
        long y = zext(b, n);
        if (y == 0) return 0;
        return Long.divideUnsigned(zext(a, n), y);
    }

    /** Remainder with the sign of the dividend (C %); x % 0 = 0; MIN % -1 = 0. */
    static long irem(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        if (y == 0 || y == -1) return 0;
        return x % y;
    }

    /** Remainder with the sign of the divisor (GLSL/floored); x mod 0 = 0. */
    static long imod(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        if (y == 0 || y == -1) return 0;
        long r = x % y;
        return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
    }

    /** Unsigned remainder; x % 0 = 0. */
    static long umod(long a, long b, int n) {
        long y = zext(b, n);
        if (y == 0) return 0;
        return Long.remainderUnsigned(zext(a, n), y);
    }

    static long imin(long a, long b, int n) {
        return sext(a, n) <= sext(b, n) ? a : b;
    }

    static long imax(long a, long b, int n) {
        return sext(a, n) >= sext(b, n) ? a : b;
    }

    static long umin(long a, long b, int n) {
        return Long.compareUnsigned(zext(a, n), zext(b, n)) <= 0 ? a : b;
    }

    static long umax(long a, long b, int n) {
        return Long.compareUnsigned(zext(a, n), zext(b, n)) >= 0 ? a : b;
    }

    /** The high half of the 2n-bit signed product. */
    static long imulHigh(long a, long b, int n) {
        if (n == 64) return Math.multiplyHigh(a, b);
        return (sext(a, n) * sext(b, n)) >> n;
    }

    /** The high half of the 2n-bit unsigned product. */
    static long umulHigh(long a, long b, int n) {
        if (n == 64) return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        // For n <= 32 the product fits in 64 unsigned bits.
        return (zext(a, n) * zext(b, n)) >>> n;
    }

    static long iaddSat(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        if (n == 64) {
            long r = x + y;
            if (((x ^ r) & (y ^ r)) < 0) return x < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            return r;
        }
        return Math.max(minSigned(n), Math.min(maxSigned(n), x + y));
    }

    static long isubSat(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        if (n == 64) {
            long r = x - y;
            if (((x ^ y) & (x ^ r)) < 0) return x < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            return r;
        }
        return Math.max(minSigned(n), Math.min(maxSigned(n), x - y));
    }

    static long uaddSat(long a, long b, int n) {
        long x = zext(a, n), y = zext(b, n);
        long r = (x + y) & mask(n);
        return Long.compareUnsigned(r, x) < 0 ? mask(n) : r;
    }

    static long usubSat(long a, long b, int n) {
        long x = zext(a, n), y = zext(b, n);
        return Long.compareUnsigned(x, y) < 0 ? 0 : x - y;
    }

    /** floor((a + b) / 2) without overflow, signed. */
    static long ihadd(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        return (x & y) + ((x ^ y) >> 1);
    }

    static long uhadd(long a, long b, int n) {
        long x = zext(a, n), y = zext(b, n);
        return (x & y) + ((x ^ y) >>> 1);
    }

    /** ceil((a + b) / 2) without overflow, signed. */
    static long irhadd(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        return (x | y) - ((x ^ y) >> 1);
    }

    static long urhadd(long a, long b, int n) {
        long x = zext(a, n), y = zext(b, n);
        return (x | y) - ((x ^ y) >>> 1);
    }

    /** |a - b| of signed operands, as an unsigned result (never overflows). */
    static long uabsIsub(long a, long b, int n) {
        long x = sext(a, n), y = sext(b, n);
        if (n == 64) return x > y ? x - y : y - x;
        return Math.abs(x - y);
    }

    static long uabsUsub(long a, long b, int n) {
        long x = zext(a, n), y = zext(b, n);
        return Long.compareUnsigned(x, y) > 0 ? x - y : y - x;
    }

    static long iand(long a, long b, int n) {
        return a & b;
    }

    static long ior(long a, long b, int n) {
        return a | b;
    }

    static long ixor(long a, long b, int n) {
        return a ^ b;
    }

    static long inot(long a, int n) {
        return ~a;
    }

    /** Shift counts are taken modulo the bit size (as NIR does). */
    static long ishl(long a, long b, int n) {
        return a << (b & (n - 1));
    }

    static long ishr(long a, long b, int n) {
        return sext(a, n) >> (b & (n - 1));
    }

    static long ushr(long a, long b, int n) {
        return zext(a, n) >>> (b & (n - 1));
    }

    static long urol(long a, long b, int n) {
        int s = (int) (b & (n - 1));
        long x = zext(a, n);
        return s == 0 ? x : (x << s) | (x >>> (n - s));
    }

    static long uror(long a, long b, int n) {
        int s = (int) (b & (n - 1));
        long x = zext(a, n);
        return s == 0 ? x : (x >>> s) | (x << (n - s));
    }

    static long bitCount(long a, int n) {
        return Long.bitCount(zext(a, n));
    }

    /** The index of the lowest set bit, or -1 for 0. */
    static long findLsb(long a, int n) {
        long x = zext(a, n);
        return x == 0 ? -1 : Long.numberOfTrailingZeros(x);
    }

    /** The index of the highest set bit, or -1 for 0. */
    static long ufindMsb(long a, int n) {
        long x = zext(a, n);
        return x == 0 ? -1 : 63 - Long.numberOfLeadingZeros(x);
    }

    /** The index of the highest bit that differs from the sign bit, or -1 for 0 and -1. */
    static long ifindMsb(long a, int n) {
        long x = sext(a, n);
        if (x < 0) x = ~x;
        return x == 0 ? -1 : 63 - Long.numberOfLeadingZeros(x);
    }

    /** Leading zeros within the bit size (uclz(0) = bit size). */
    static long uclz(long a, int n) {
        return Long.numberOfLeadingZeros(zext(a, n)) - (64 - n);
    }

    static long bitfieldReverse(long a, int n) {
        return Long.reverse(a) >>> (64 - n);
    }

    static long iadd3(long a, long b, long c, int n) {
        return a + b + c;
    }

    static long imin3(long a, long b, long c, int n) {
        return imin(imin(a, b, n), c, n);
    }

    static long imax3(long a, long b, long c, int n) {
        return imax(imax(a, b, n), c, n);
    }

    static long umin3(long a, long b, long c, int n) {
        return umin(umin(a, b, n), c, n);
    }

    static long umax3(long a, long b, long c, int n) {
        return umax(umax(a, b, n), c, n);
    }

    static long imed3(long a, long b, long c, int n) {
        return imax(imin(a, b, n), imin(imax(a, b, n), c, n), n);
    }

    static long umed3(long a, long b, long c, int n) {
        return umax(umin(a, b, n), umin(umax(a, b, n), c, n), n);
    }

    /**
     * The bit range [offset, offset + count) of an n-bit value, with offset and count read as
     * unsigned 32-bit integers: empty (0) when count is 0 or offset is at least n; a range that
     * runs past bit n-1 stops there. Returns {offset, width}, or null when empty.
     */
    private static int[] field(long offset, long count, int n) {
        long off = zext(offset, 32), cnt = zext(count, 32);
        if (cnt == 0 || off >= n) return null;
        long end = Math.min(off + cnt, n);
        return new int[] {(int) off, (int) (end - off)};
    }

    static long ubitfieldExtract(long base, long offset, long count, int n) {
        int[] f = field(offset, count, n);
        if (f == null) return 0;
        return (zext(base, n) >>> f[0]) & mask(f[1]);
    }

    static long ibitfieldExtract(long base, long offset, long count, int n) {
        int[] f = field(offset, count, n);
        if (f == null) return 0;
        return sext((zext(base, n) >>> f[0]) & mask(f[1]), f[1]);
    }

    static long bitfieldInsert(long base, long insert, long offset, long count, int n) {
        int[] f = field(offset, count, n);
        if (f == null) return base;
        long m = mask(f[1]) << f[0];
        return (base & ~m) | ((insert << f[0]) & m);
    }

    /** ((1 << (bits & 31)) - 1) << (offset & 31), 32-bit (so bfm(32, x) = 0, as NIR). */
    static long bfm(long bits, long offset, int n) {
        return ((1L << (bits & 31)) - 1) << (offset & 31);
    }

    /** (mask & insert) | (~mask & base). */
    static long bitfieldSelect(long m, long insert, long base, int n) {
        return (m & insert) | (~m & base);
    }

    /** Byte or half-word number (b modulo the count that fits) of a, zero- or sign-extended. */
    static Eval.Binary extract(int fieldBits, boolean signed) {
        return (a, b, n) -> {
            int count = n / fieldBits;
            int idx = (int) Long.remainderUnsigned(zext(b, n), count);
            long v = (zext(a, n) >>> (idx * fieldBits)) & mask(fieldBits);
            return signed ? sext(v, fieldBits) : v;
        };
    }

    /** The low byte or half-word of a, moved to field number b (modulo the count that fits). */
    static Eval.Binary insert(int fieldBits) {
        return (a, b, n) -> {
            int count = n / fieldBits;
            int idx = (int) Long.remainderUnsigned(zext(b, n), count);
            return (a & mask(fieldBits)) << (idx * fieldBits);
        };
    }

    static long ilt(long a, long b, int n) {
        return sext(a, n) < sext(b, n) ? 1 : 0;
    }

    static long ige(long a, long b, int n) {
        return sext(a, n) >= sext(b, n) ? 1 : 0;
    }

    static long ieq(long a, long b, int n) {
        return zext(a, n) == zext(b, n) ? 1 : 0;
    }

    static long ine(long a, long b, int n) {
        return zext(a, n) != zext(b, n) ? 1 : 0;
    }

    static long ult(long a, long b, int n) {
        return Long.compareUnsigned(zext(a, n), zext(b, n)) < 0 ? 1 : 0;
    }

    static long uge(long a, long b, int n) {
        return Long.compareUnsigned(zext(a, n), zext(b, n)) >= 0 ? 1 : 0;
    }

    static long bcsel(long c, long a, long b, int n) {
        return (c & 1) != 0 ? a : b;
    }

    /** True when every component pair is equal. */
    static void ballIequal(long[][] s, long[] dst, int n) {
        long r = 1;
        for (int i = 0; i < s[0].length; i++) r &= ieq(s[0][i], s[1][i], n);
        dst[0] = r;
    }

    /** True when some component pair differs. */
    static void banyInequal(long[][] s, long[] dst, int n) {
        long r = 0;
        for (int i = 0; i < s[0].length; i++) r |= ine(s[0][i], s[1][i], n);
        dst[0] = r;
    }
}
