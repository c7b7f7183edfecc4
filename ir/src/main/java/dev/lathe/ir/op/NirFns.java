package dev.lathe.ir.op;

/**
 * The evaluation functions of NIR's generic ALU ops that Lathe's own ops do not already cover
 * ({@code seq}, {@code bitz}, {@code uadd_carry}, {@code ffmaz}, {@code ubfe}, {@code imul24} …),
 * each as NIR's {@code nir_opcodes.py} defines it (the facts are NIR's; the code is ours). An
 * op of a fixed size gets {@code n == 0} and works at its size.
 */
final class NirFns {
    private NirFns() {}

    private static double d(long a, int n) {
        return FloatBits.toDouble(a, n);
    }

    private static long f(boolean b, int n) {
        return FloatBits.fromDouble(b ? 1.0 : 0.0, n);
    }

    /** seq: 1.0 where a == b (a NaN compares unequal), else 0.0. */
    static long seq(long a, long b, int n) {
        return f(d(a, n) == d(b, n), n);
    }

    /** sne: 1.0 where a != b (a NaN compares unequal), else 0.0. */
    static long sne(long a, long b, int n) {
        return f(d(a, n) != d(b, n), n);
    }

    static long slt(long a, long b, int n) {
        return f(d(a, n) < d(b, n), n);
    }

    static long sge(long a, long b, int n) {
        return f(d(a, n) >= d(b, n), n);
    }

    /** bitz: whether bit (b mod n) of a is clear. */
    static long bitz(long a, long b, int n) {
        return ((Bits.zext(a, n) >>> (b & (n - 1))) & 1) == 0 ? 1 : 0;
    }

    static long bitnz(long a, long b, int n) {
        return 1 - bitz(a, b, n);
    }

    /** uadd_carry: 1 where a + b carries out of n bits. */
    static long uaddCarry(long a, long b, int n) {
        return Long.compareUnsigned(Bits.zext(a + b, n), Bits.zext(a, n)) < 0 ? 1 : 0;
    }

    /** usub_borrow: 1 where a - b borrows (a < b unsigned). */
    static long usubBorrow(long a, long b, int n) {
        return Long.compareUnsigned(Bits.zext(a, n), Bits.zext(b, n)) < 0 ? 1 : 0;
    }

    /** ffmaz: ffma, but 0 times anything (inf and NaN too) is +0, so a zero factor gives +0 + c. */
    static long ffmaz(long a, long b, long c, int n) {
        if (d(a, 32) == 0.0 || d(b, 32) == 0.0) return FloatFns.fadd(0, c, 32);
        return FloatFns.ffma(a, b, c, 32);
    }

    /** ufind_msb_rev: the highest set bit counted from the top (bit 31 is 0); 0 gives -1. */
    static long ufindMsbRev(long a, int n) {
        long x = Bits.zext(a, 32);
        return x == 0 ? -1 : Long.numberOfLeadingZeros(x) - 32;
    }

    /** ifind_msb_rev: the highest bit unlike the sign, counted from the top; 0 and -1 give -1. */
    static long ifindMsbRev(long a, int n) {
        long m = IntFns.ifindMsb(a, 32);
        return m < 0 ? -1 : 31 - m;
    }

    /** ubfe: the field of (c mod 32) bits at (b mod 32) of a, zero-extended; past bit 31 it is a >> b. */
    static long ubfe(long a, long b, long c, int n) {
        long base = Bits.zext(a, 32);
        int offset = (int) (b & 31), bits = (int) (c & 31);
        if (bits == 0) return 0;
        if (offset + bits < 32) return ((base << (32 - bits - offset)) & 0xffffffffL) >>> (32 - bits);
        return base >>> offset;
    }

    /** ibfe: as ubfe, sign-extended from the field's top bit (past bit 31: a >> b, arithmetic). */
    static long ibfe(long a, long b, long c, int n) {
        int base = (int) a;
        int offset = (int) (b & 31), bits = (int) (c & 31);
        if (bits == 0) return 0;
        if (offset + bits < 32) return (base << (32 - bits - offset)) >> (32 - bits);
        return base >> offset;
    }

    /** bfi: base with the bits of mask replaced by insert, shifted up to mask's lowest set bit. */
    static long bfi(long mask, long insert, long base, int n) {
        long m = Bits.zext(mask, 32);
        if (m == 0) return base;
        long shifted = insert << Long.numberOfTrailingZeros(m);
        return (base & ~m) | (shifted & m);
    }

    /** icsel_eqz: b where a is 0, else c. */
    static long icselEqz(long a, long b, long c, int n) {
        return Bits.zext(a, n) == 0 ? b : c;
    }

    static long i32cselGt(long a, long b, long c, int n) {
        return (int) a > 0 ? b : c;
    }

    static long i32cselGe(long a, long b, long c, int n) {
        return (int) a >= 0 ? b : c;
    }

    /** fcsel_gt: b where a > 0.0 (a NaN is not), else c. */
    static long fcselGt(long a, long b, long c, int n) {
        return d(a, 32) > 0.0 ? b : c;
    }

    static long fcselGe(long a, long b, long c, int n) {
        return d(a, 32) >= 0.0 ? b : c;
    }

    /** fisnormal: a is finite, not zero and not subnormal. */
    static long fisnormal(long a, int n) {
        double x = Math.abs(d(a, n));
        double minNormal = n == 16 ? 0x1p-14 : n == 32 ? 0x1p-126 : 0x1p-1022;
        return Double.isFinite(x) && x >= minNormal ? 1 : 0;
    }

    private static long low24(long a) {
        return a & 0xffffff;
    }

    private static long signed24(long a) {
        return (long) ((int) (a << 8) >> 8);
    }

    /** umul24: the low 24 bits of each, multiplied (the low 32 bits of the product). */
    static long umul24(long a, long b, int n) {
        return low24(a) * low24(b);
    }

    /** imul24: the low 24 bits of each, sign-extended, multiplied. */
    static long imul24(long a, long b, int n) {
        return signed24(a) * signed24(b);
    }

    static long umad24(long a, long b, long c, int n) {
        return low24(a) * low24(b) + c;
    }

    static long imad24(long a, long b, long c, int n) {
        return signed24(a) * signed24(b) + c;
    }

    /** a * b + c (imad, the relaxed 24-bit multiply-adds). */
    static long mad(long a, long b, long c, int n) {
        return a * b + c;
    }

    /** a * b (amul, the relaxed 24-bit multiplies). */
    static long mul(long a, long b, int n) {
        return a * b;
    }

    /** umul_low: the low 16 bits of each, multiplied. */
    static long umulLow(long a, long b, int n) {
        return (a & 0xffff) * (b & 0xffff);
    }

    /** umul_32x16: a times the low 16 bits of b, zero-extended. */
    static long umul32x16(long a, long b, int n) {
        return a * (b & 0xffff);
    }

    /** imul_32x16: a times the low 16 bits of b, sign-extended. */
    static long imul32x16(long a, long b, int n) {
        return a * (short) b;
    }

    /** udiv_aligned_4: a / 4 for a multiple of 4, as NIR defines it: a >> 2. */
    static long udivAligned4(long a, int n) {
        return Bits.zext(a, n) >>> 2;
    }

    /** shfr: the 64 bits a:b shifted right by (c mod 32), low 32 bits. */
    static long shfr(long a, long b, long c, int n) {
        long src = Bits.zext(b, 32) | (Bits.zext(a, 32) << 32);
        return src >>> (c & 31);
    }

    /** pack_half_2x16_rtz_split: each float to f16 toward zero, a in the low half. */
    static long packHalf2x16RtzSplit(long a, long b, int n) {
        return ConvertFns.f2f16Rtz(a, 32) | ConvertFns.f2f16Rtz(b, 32) << 16;
    }

    /** pack_32_4x8_split: four bytes, a the lowest. */
    static long pack32x4x8Split(long a, long b, long c, long d, int n) {
        return (a & 0xff) | (b & 0xff) << 8 | (c & 0xff) << 16 | (d & 0xff) << 24;
    }

    /**
     * imadsh_mix16 as ir3 executes it (its comment in nir_opcodes.py: "al * bh << 16 + c"; ir3's
     * imul lowering relies on it). nir_opcodes.py's constant expression multiplies two multiples
     * of 2^16 in 32 bits, which is always 0, so NIR folds the op to c: a defect docs/NIR.md reports.
     */
    static long imadshMix16(long a, long b, long c, int n) {
        return (((a & 0xffff) * ((b >>> 16) & 0xffff)) << 16) + c;
    }

    /** msad_4x8: c plus |a's byte - b's byte| for every byte of a that is not 0. */
    static long msad4x8(long a, long b, long c, int n) {
        long sum = c;
        for (int i = 0; i < 32; i += 8) {
            long ref = (a >>> i) & 0xff, src = (b >>> i) & 0xff;
            if (ref != 0) sum += Math.abs(ref - src);
        }
        return sum;
    }
}
