package dev.lathe.ir.analysis.range;

import dev.lathe.ir.op.Bits;

/**
 * The integer transfer functions of {@link RangeTransfer}: intervals in the signed and the
 * unsigned reading. An op that can wrap gives the full interval of that reading when a bound
 * overflows; a result known both ways keeps the tighter of each.
 */
final class IntRanges {
    private IntRanges() {}

    static Range full(int bits) {
        return Range.top(bits);
    }

    private static boolean fitsSigned(long lo, long hi, int bits) {
        return lo >= Bits.minSigned(bits) && hi <= Bits.maxSigned(bits);
    }

    // Overflow tests without exceptions (Math.*Exact throws, and a throw per evaluation showed in profiles).
    private static boolean addWraps(long x, long y, long sum) {
        return ((x ^ sum) & (y ^ sum)) < 0;
    }

    private static boolean subWraps(long x, long y, long diff) {
        return ((x ^ y) & (x ^ diff)) < 0;
    }

    private static boolean mulWraps(long x, long y) {
        return Math.multiplyHigh(x, y) != (x * y) >> 63;
    }

    private static Range both(Range signed, Range unsigned) {
        return signed.meetIntegers(unsigned);
    }

    static Range add(Range a, Range b) {
        int n = a.bits();
        Range s = full(n), u = full(n);
        long lo = a.sLo() + b.sLo(), hi = a.sHi() + b.sHi();
        // a 64-bit sum that wraps says nothing
        if (!addWraps(a.sLo(), b.sLo(), lo) && !addWraps(a.sHi(), b.sHi(), hi) && fitsSigned(lo, hi, n))
            s = Range.signed(n, lo, hi);
        long ulo = a.uLo() + b.uLo(), uhi = a.uHi() + b.uHi();
        boolean wraps = n == 64 ? Long.compareUnsigned(uhi, a.uHi()) < 0 : Long.compareUnsigned(uhi, Bits.mask(n)) > 0;
        if (!wraps) u = Range.unsigned(n, ulo, uhi);
        return both(s, u);
    }

    static Range sub(Range a, Range b) {
        int n = a.bits();
        Range s = full(n), u = full(n);
        long lo = a.sLo() - b.sHi(), hi = a.sHi() - b.sLo();
        if (!subWraps(a.sLo(), b.sHi(), lo) && !subWraps(a.sHi(), b.sLo(), hi) && fitsSigned(lo, hi, n))
            s = Range.signed(n, lo, hi);
        if (Long.compareUnsigned(a.uLo(), b.uHi()) >= 0) u = Range.unsigned(n, a.uLo() - b.uHi(), a.uHi() - b.uLo());
        return both(s, u);
    }

    static Range mul(Range a, Range b) {
        int n = a.bits();
        Range s = full(n), u = full(n);
        if (!mulWraps(a.sLo(), b.sLo())
                && !mulWraps(a.sLo(), b.sHi())
                && !mulWraps(a.sHi(), b.sLo())
                && !mulWraps(a.sHi(), b.sHi())) {
            long p1 = a.sLo() * b.sLo(), p2 = a.sLo() * b.sHi(), p3 = a.sHi() * b.sLo(), p4 = a.sHi() * b.sHi();
            long lo = Math.min(Math.min(p1, p2), Math.min(p3, p4)), hi = Math.max(Math.max(p1, p2), Math.max(p3, p4));
            if (fitsSigned(lo, hi, n)) s = Range.signed(n, lo, hi);
        }
        // unsigned: both below 2^32, so the product fits 64 bits
        if (Long.compareUnsigned(a.uHi(), 0xffffffffL) <= 0 && Long.compareUnsigned(b.uHi(), 0xffffffffL) <= 0) {
            long hi = a.uHi() * b.uHi();
            if (Long.compareUnsigned(hi, Bits.mask(n)) <= 0) u = Range.unsigned(n, a.uLo() * b.uLo(), hi);
        }
        return both(s, u);
    }

    /** -a: the signed interval mirrored, except that MIN stays MIN. */
    static Range neg(Range a) {
        int n = a.bits();
        long min = Bits.minSigned(n);
        Range s;
        if (a.sLo() > min) s = Range.signed(n, -a.sHi(), -a.sLo());
        else if (a.sHi() == min) s = Range.signed(n, min, min);
        else s = full(n);
        Range u;
        if (a.uLo() != 0) u = Range.unsigned(n, Bits.trunc(-a.uHi(), n), Bits.trunc(-a.uLo(), n));
        else if (a.uHi() == 0) u = Range.unsigned(n, 0, 0);
        else u = full(n);
        return both(s, u);
    }

    /** |a|, whose unsigned reading is the magnitude (|MIN| = 2^(n-1), which iabs gives as MIN). */
    static Range abs(Range a) {
        int n = a.bits();
        if (a.sLo() >= 0) return Range.signed(n, a.sLo(), a.sHi());
        if (a.sHi() < 0) return neg(Range.signed(n, a.sLo(), a.sHi()));
        return Range.unsigned(n, 0, Range.umax(-a.sLo(), a.sHi()));
    }

    static Range sign(Range a) {
        long lo = a.sLo() < 0 ? -1 : a.sLo() == 0 ? 0 : 1;
        long hi = a.sHi() > 0 ? 1 : a.sHi() == 0 ? 0 : -1;
        return Range.signed(a.bits(), lo, hi);
    }

    static Range imin(Range a, Range b) {
        return Range.signed(a.bits(), Math.min(a.sLo(), b.sLo()), Math.min(a.sHi(), b.sHi()));
    }

    static Range imax(Range a, Range b) {
        return Range.signed(a.bits(), Math.max(a.sLo(), b.sLo()), Math.max(a.sHi(), b.sHi()));
    }

    static Range umin(Range a, Range b) {
        return Range.unsigned(a.bits(), Range.umin(a.uLo(), b.uLo()), Range.umin(a.uHi(), b.uHi()));
    }

    static Range umax(Range a, Range b) {
        return Range.unsigned(a.bits(), Range.umax(a.uLo(), b.uLo()), Range.umax(a.uHi(), b.uHi()));
    }

    /** The median is monotone in each operand: it lies between the medians of the bounds. */
    static Range imed3(Range a, Range b, Range c) {
        return Range.signed(
                a.bits(), median(a.sLo(), b.sLo(), c.sLo(), false), median(a.sHi(), b.sHi(), c.sHi(), false));
    }

    static Range umed3(Range a, Range b, Range c) {
        return Range.unsigned(
                a.bits(), median(a.uLo(), b.uLo(), c.uLo(), true), median(a.uHi(), b.uHi(), c.uHi(), true));
    }

    private static long median(long x, long y, long z, boolean unsigned) {
        long lo = unsigned ? Range.umin(x, y) : Math.min(x, y), hi = unsigned ? Range.umax(x, y) : Math.max(x, y);
        long m = unsigned ? Range.umin(hi, z) : Math.min(hi, z);
        return unsigned ? Range.umax(lo, m) : Math.max(lo, m);
    }

    /** All bits up to the highest set bit of x. */
    private static long fill(long x) {
        return x == 0 ? 0 : -1L >>> Long.numberOfLeadingZeros(x);
    }

    static Range and(Range a, Range b) {
        return Range.unsigned(a.bits(), 0, Range.umin(a.uHi(), b.uHi()));
    }

    static Range or(Range a, Range b) {
        return Range.unsigned(a.bits(), Range.umax(a.uLo(), b.uLo()), fill(Range.umax(a.uHi(), b.uHi())));
    }

    static Range xor(Range a, Range b) {
        return Range.unsigned(a.bits(), 0, fill(Range.umax(a.uHi(), b.uHi())));
    }

    /** ~a = -a - 1: both readings are mirrored. */
    static Range not(Range a) {
        int n = a.bits();
        long m = Bits.mask(n);
        return both(Range.signed(n, -a.sHi() - 1, -a.sLo() - 1), Range.unsigned(n, m - a.uHi(), m - a.uLo()));
    }

    /** Boolean negation of a 1-bit element. */
    static Range not1(Range b) {
        return Range.bool(b.uHi() == 1, b.uLo() == 0);
    }

    /** The shift count taken modulo the size, as an interval. */
    private static long[] count(Range c, int bits) {
        if (Long.compareUnsigned(c.uHi(), bits) < 0) return new long[] {c.uLo(), c.uHi()};
        return new long[] {0, bits - 1};
    }

    static Range shl(Range a, Range c) {
        int n = a.bits();
        long[] k = count(c, n);
        if (Long.compareUnsigned(a.uHi(), Bits.mask(n) >>> k[1]) <= 0) {
            return Range.unsigned(n, a.uLo() << k[0], a.uHi() << k[1]);
        }
        return full(n);
    }

    static Range ushr(Range a, Range c) {
        long[] k = count(c, a.bits());
        return Range.unsigned(a.bits(), a.uLo() >>> k[1], a.uHi() >>> k[0]);
    }

    static Range ishr(Range a, Range c) {
        long[] k = count(c, a.bits());
        long lo, hi;
        if (a.sLo() >= 0) {
            lo = a.sLo() >> k[1];
            hi = a.sHi() >> k[0];
        } else if (a.sHi() < 0) {
            lo = a.sLo() >> k[0];
            hi = a.sHi() >> k[1];
        } else {
            lo = a.sLo() >> k[0];
            hi = a.sHi() >> k[0];
        }
        return Range.signed(a.bits(), lo, hi);
    }

    /** Unsigned division; a zero divisor gives 0. */
    static Range udiv(Range a, Range b) {
        int n = a.bits();
        if (b.uLo() != 0)
            return Range.unsigned(n, Long.divideUnsigned(a.uLo(), b.uHi()), Long.divideUnsigned(a.uHi(), b.uLo()));
        if (b.uHi() == 0) return Range.constant(n, 0);
        return Range.unsigned(n, 0, a.uHi());
    }

    /** Unsigned remainder: below the divisor and at most the dividend; a zero divisor gives 0. */
    static Range umod(Range a, Range b) {
        int n = a.bits();
        if (b.uHi() == 0) return Range.constant(n, 0);
        if (Long.compareUnsigned(a.uHi(), b.uLo()) < 0) return Range.unsigned(n, a.uLo(), a.uHi());
        return Range.unsigned(n, 0, Range.umin(a.uHi(), b.uHi() - 1));
    }

    static Range ilt(Range a, Range b) {
        if (a.sHi() < b.sLo()) return Range.bool(false, true);
        if (a.sLo() >= b.sHi()) return Range.bool(true, false);
        return Range.bool(true, true);
    }

    static Range ult(Range a, Range b) {
        if (Long.compareUnsigned(a.uHi(), b.uLo()) < 0) return Range.bool(false, true);
        if (Long.compareUnsigned(a.uLo(), b.uHi()) >= 0) return Range.bool(true, false);
        return Range.bool(true, true);
    }

    static Range eq(Range a, Range b) {
        boolean disjoint = a.sHi() < b.sLo()
                || b.sHi() < a.sLo()
                || Long.compareUnsigned(a.uHi(), b.uLo()) < 0
                || Long.compareUnsigned(b.uHi(), a.uLo()) < 0;
        if (disjoint) return Range.bool(true, false);
        if (a.isConstant() && b.isConstant() && a.uLo() == b.uLo()) return Range.bool(false, true);
        return Range.bool(true, true);
    }

    /** Sign-extension or truncation to {@code out} bits. */
    static Range sext(Range a, int out) {
        if (out >= a.bits() || fitsSigned(a.sLo(), a.sHi(), out)) return Range.signed(out, a.sLo(), a.sHi());
        if (Long.compareUnsigned(a.uHi(), Bits.mask(out)) <= 0) return Range.unsigned(out, a.uLo(), a.uHi());
        return full(out);
    }

    /** Zero-extension or truncation to {@code out} bits. */
    static Range zext(Range a, int out) {
        if (out >= a.bits() || Long.compareUnsigned(a.uHi(), Bits.mask(out)) <= 0)
            return Range.unsigned(out, a.uLo(), a.uHi());
        if (fitsSigned(a.sLo(), a.sHi(), out)) return Range.signed(out, a.sLo(), a.sHi());
        return full(out);
    }

    static Range bitCount(Range a, int out) {
        if (a.uHi() == 0) return Range.constant(out, 0);
        return Range.unsigned(out, a.uLo() == 0 ? 0 : 1, 64 - Long.numberOfLeadingZeros(a.uHi()));
    }

    static Range ufindMsb(Range a, int out) {
        if (a.uHi() == 0) return Range.constant(out, -1);
        long lo = a.uLo() == 0 ? -1 : 63 - Long.numberOfLeadingZeros(a.uLo());
        return Range.signed(out, lo, 63 - Long.numberOfLeadingZeros(a.uHi()));
    }

    // ---- signed division, absolute differences, bit counts and fields -----------------------------
    // (The saturating, halving and high-half ops are monotone and go through RangeTransfer's
    // corner method.) RangeTransferProofTest proves each of these with the SMT solver on many
    // elements.

    /**
     * Signed division toward zero; b = 0 gives 0 and MIN / -1 wraps to MIN (then nothing is
     * known). On each sign of the divisor the quotient is monotone in a (the direction given by
     * that sign), and for a fixed a, monotone in b: the corners bound it.
     */
    static Range idiv(Range a, Range b) {
        int n = a.bits();
        if (a.sLo() == Bits.minSigned(n) && b.sLo() <= -1 && -1 <= b.sHi()) return full(n);
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        if (b.sLo() <= 0 && 0 <= b.sHi()) lo = hi = 0;
        long[][] pieces = {
            {b.sLo(), Math.min(b.sHi(), -1)},
            {Math.max(b.sLo(), 1), b.sHi()},
        };
        for (long[] p : pieces) {
            if (p[0] > p[1]) continue;
            for (long x : new long[] {a.sLo(), a.sHi()}) {
                for (long y : p) {
                    lo = Math.min(lo, x / y);
                    hi = Math.max(hi, x / y);
                }
            }
        }
        return Range.signed(n, lo, hi);
    }

    /** Signed remainder: the sign of a (or 0), at most |a| and below |b|. */
    static Range irem(Range a, Range b) {
        // |b| - 1 for the larger end, written so that MIN does not overflow
        long bound = Math.max(
                0, Math.max(b.sLo() < 0 ? -(b.sLo() + 1) : b.sLo() - 1, b.sHi() < 0 ? -(b.sHi() + 1) : b.sHi() - 1));
        long lo = a.sLo() < 0 ? Math.max(a.sLo(), -bound) : 0;
        long hi = a.sHi() > 0 ? Math.min(a.sHi(), bound) : 0;
        return Range.signed(a.bits(), lo, hi);
    }

    /** Signed modulo: the sign of b (or 0), below |b|; with a >= 0 and b > 0 it is at most a. */
    static Range imod(Range a, Range b) {
        long lo = b.sLo() < 0 ? b.sLo() + 1 : 0;
        long hi = b.sHi() > 0 ? b.sHi() - 1 : 0;
        if (a.sLo() >= 0 && b.sLo() >= 0) hi = Math.min(hi, a.sHi());
        return Range.signed(a.bits(), lo, hi);
    }

    /** |a - b| as unsigned, of signed or unsigned operands, exact in 64 bits below 64-bit operands. */
    static Range absDiff(Range a, Range b, boolean signed) {
        int n = a.bits();
        if (n == 64) return full(n);
        long d1 = signed ? a.sLo() - b.sHi() : a.uLo() - b.uHi();
        long d2 = signed ? a.sHi() - b.sLo() : a.uHi() - b.uLo();
        if (d1 >= 0) return Range.unsigned(n, d1, d2);
        if (d2 <= 0) return Range.unsigned(n, -d2, -d1);
        return Range.unsigned(n, 0, Math.max(-d1, d2));
    }

    /** The index of the highest bit unlike the sign: ufind_msb of a, or of ~a when a is negative. */
    static Range ifindMsb(Range a, int out) {
        if (a.sLo() >= 0) return ufindMsb(a, out);
        if (a.sHi() < 0) return ufindMsb(not(a), out);
        return Range.signed(out, -1, Math.max(-1, a.bits() - 2));
    }

    /** Leading zeros: decreasing in the unsigned value; 0 gives the bit size. */
    static Range clz(Range a, int out) {
        int n = a.bits();
        return Range.unsigned(
                out, Long.numberOfLeadingZeros(a.uHi()) - (64 - n), Long.numberOfLeadingZeros(a.uLo()) - (64 - n));
    }

    /** A byte or half-word, sign-extended. */
    static Range extractSigned(int n, int field) {
        return Range.signed(n, Bits.minSigned(field), Bits.maxSigned(field));
    }

    /**
     * The low {@code field} bits of a moved to field (b mod count): one field set. With b
     * constant and a's low field an interval, the interval shifted there.
     */
    static Range insertField(Range a, Range b, int field) {
        int n = a.bits();
        long mask = Bits.mask(field);
        if (b.isConstant()) {
            int at = (int) Long.remainderUnsigned(b.uLo(), n / field) * field;
            boolean oneField = (a.uLo() & ~mask) == (a.uHi() & ~mask);
            long lo = oneField ? a.uLo() & mask : 0, hi = oneField ? a.uHi() & mask : mask;
            return Range.unsigned(n, lo << at, hi << at);
        }
        return Range.unsigned(n, 0, mask << (n - field));
    }

    /** (m & i) | (~m & b): every set bit is one of i's or b's. */
    static Range bitSelect(Range i, Range b) {
        return Range.unsigned(i.bits(), 0, fill(i.uHi() | b.uHi()));
    }

    /** pack_64_2x32_split_x: a's high half (an interval of its own) over b. */
    static Range replaceLow(Range a, Range b) {
        return Range.unsigned(64, (a.uLo() >>> 32) << 32 | b.uLo(), (a.uHi() >>> 32) << 32 | b.uHi());
    }

    /** pack_64_2x32_split_y: b over a's low half. */
    static Range replaceHigh(Range a, Range b) {
        Range low = zext(a, 32);
        return Range.unsigned(64, b.uLo() << 32 | low.uLo(), b.uHi() << 32 | low.uHi());
    }
}
