package dev.lathe.ir.analysis.range;

/**
 * Orders whole elements: whether every value of one is at most every value of another, the
 * question min/max elimination asks. Floats are ordered by value with -0 below +0 (the order
 * fmin and fmax use); NaN is left out and asked about separately ({@link #mayBeNaN}). A float
 * element's least and greatest values are the corners of its lowest and highest classes, or the
 * value itself for a constant.
 */
public final class RangeOrder {
    private RangeOrder() {}

    /** Every non-NaN float of {@code a} is at most (-0 below +0) every non-NaN float of {@code b}. */
    public static boolean floatsAtMost(Range a, Range b) {
        if (a.empty() || b.empty() || !a.isFloatSize() || a.bits() != b.bits()) return false;
        int ordered = FloatClass.ALL & ~FloatClass.bit(FloatClass.NAN);
        if ((classes(a) & ordered) == 0 || (classes(b) & ordered) == 0) return true; // nothing to compare
        return FloatClass.compare(greatest(a), least(b), a.bits()) <= 0;
    }

    /** Whether a value of the element may be NaN. */
    public static boolean mayBeNaN(Range r) {
        return !r.isFloatSize() || (classes(r) & FloatClass.bit(FloatClass.NAN)) != 0;
    }

    /** The float classes the element's values can be in; a pinned-down pattern is in exactly one. */
    public static int classes(Range r) {
        return r.isConstant() ? FloatClass.bit(FloatClass.of(r.uLo(), r.bits())) : r.classes();
    }

    /** Every value of {@code a} is at most every value of {@code b}, signed. */
    public static boolean signedAtMost(Range a, Range b) {
        return !a.empty() && !b.empty() && a.sHi() <= b.sLo();
    }

    /** Every value of {@code a} is at most every value of {@code b}, unsigned. */
    public static boolean unsignedAtMost(Range a, Range b) {
        return !a.empty() && !b.empty() && Long.compareUnsigned(a.uHi(), b.uLo()) <= 0;
    }

    /** Every non-NaN value lies in the classes of {@code mask}. */
    public static boolean floatsOnlyIn(Range r, int mask) {
        return r.isFloatSize() && (classes(r) & ~(mask | FloatClass.bit(FloatClass.NAN))) == 0;
    }

    private static long least(Range r) {
        if (r.isConstant()) return r.uLo();
        for (int c = 0; c < FloatClass.NAN; c++) {
            if (r.mayBe(FloatClass.bit(c))) return FloatClass.corners(c, r.bits(), false)[0];
        }
        throw new IllegalStateException("no ordered class");
    }

    private static long greatest(Range r) {
        if (r.isConstant()) return r.uLo();
        for (int c = FloatClass.NAN - 1; c >= 0; c--) {
            if (r.mayBe(FloatClass.bit(c))) {
                long[] k = FloatClass.corners(c, r.bits(), false);
                return k[k.length - 1];
            }
        }
        throw new IllegalStateException("no ordered class");
    }
}
