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
        if (!addWraps(a.sLo(), b.sLo(), lo) && !addWraps(a.sHi(), b.sHi(), hi) && fitsSigned(lo, hi, n)) s = Range.signed(n, lo, hi);
        long ulo = a.uLo() + b.uLo(), uhi = a.uHi() + b.uHi();
        boolean wraps = n == 64 ? Long.compareUnsigned(uhi, a.uHi()) < 0 : Long.compareUnsigned(uhi, Bits.mask(n)) > 0;
        if (!wraps) u = Range.unsigned(n, ulo, uhi);
        return both(s, u);
    }

    static Range sub(Range a, Range b) {
        int n = a.bits();
        Range s = full(n), u = full(n);
        long lo = a.sLo() - b.sHi(), hi = a.sHi() - b.sLo();
        if (!subWraps(a.sLo(), b.sHi(), lo) && !subWraps(a.sHi(), b.sLo(), hi) && fitsSigned(lo, hi, n)) s = Range.signed(n, lo, hi);
        if (Long.compareUnsigned(a.uLo(), b.uHi()) >= 0) u = Range.unsigned(n, a.uLo() - b.uHi(), a.uHi() - b.uLo());
        return both(s, u);
    }

    static Range mul(Range a, Range b) {
        int n = a.bits();
        Range s = full(n), u = full(n);
        if (!mulWraps(a.sLo(), b.sLo()) && !mulWraps(a.sLo(), b.sHi()) && !mulWraps(a.sHi(), b.sLo()) && !mulWraps(a.sHi(), b.sHi())) {
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
        return Range.signed(a.bits(), median(a.sLo(), b.sLo(), c.sLo(), false), median(a.sHi(), b.sHi(), c.sHi(), false));
    }

    static Range umed3(Range a, Range b, Range c) {
        return Range.unsigned(a.bits(), median(a.uLo(), b.uLo(), c.uLo(), true), median(a.uHi(), b.uHi(), c.uHi(), true));
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
        if (b.uLo() != 0) return Range.unsigned(n, Long.divideUnsigned(a.uLo(), b.uHi()), Long.divideUnsigned(a.uHi(), b.uLo()));
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
        boolean disjoint = a.sHi() < b.sLo() || b.sHi() < a.sLo()
                || Long.compareUnsigned(a.uHi(), b.uLo()) < 0 || Long.compareUnsigned(b.uHi(), a.uLo()) < 0;
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
        if (out >= a.bits() || Long.compareUnsigned(a.uHi(), Bits.mask(out)) <= 0) return Range.unsigned(out, a.uLo(), a.uHi());
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
}
