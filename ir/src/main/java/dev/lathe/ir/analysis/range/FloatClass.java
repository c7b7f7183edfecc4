package dev.lathe.ir.analysis.range;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;

/**
 * The eleven classes a floating-point value falls into, as bits of a mask, in value order:
 * -inf, below -1, -1, between -1 and 0, -0, +0, between 0 and 1, 1, above 1, +inf, and NaN
 * (last, outside the order). The boundaries are exactly representable at every size, so
 * rounding never moves a value past one: a result in an open class rounds into that class or
 * onto a boundary next to it.
 *
 * <p>Each class is also a <em>piece</em> for the transfer functions: a set of representable
 * values all of one sign whose least and greatest members ({@link #corners}) are known at each
 * size. An op that is monotone in each argument on such pieces takes its extreme results at
 * the corners (see {@link RangeTransfer}).
 */
public final class FloatClass {
    private FloatClass() {}

    public static final int NEG_INF = 0,
            LT_NEG1 = 1,
            NEG1 = 2,
            NEG1_0 = 3,
            NEG_ZERO = 4,
            POS_ZERO = 5,
            ZERO_1 = 6,
            ONE = 7,
            GT1 = 8,
            POS_INF = 9,
            NAN = 10;
    public static final int COUNT = 11;
    public static final int ALL = (1 << COUNT) - 1;

    /** Classes in which every value is a whole number or infinite (or NaN, which has no value). */
    static final int WHOLE_POINTS =
            bit(NEG_INF) | bit(NEG1) | bit(NEG_ZERO) | bit(POS_ZERO) | bit(ONE) | bit(POS_INF) | bit(NAN);
    /** Classes holding no whole number at all. */
    static final int FRACTIONS = bit(NEG1_0) | bit(ZERO_1);

    static final int ZEROS = bit(NEG_ZERO) | bit(POS_ZERO);

    private static final String[] NAMES = {"-inf", "<-1", "-1", "(-1,0)", "-0", "+0", "(0,1)", "1", ">1", "+inf", "nan"
    };

    public static int bit(int cls) {
        return 1 << cls;
    }

    public static String name(int cls) {
        return NAMES[cls];
    }

    /** Whether values of this size have a float reading (16, 32 and 64 bits). */
    public static boolean isFloatSize(int bits) {
        return bits == 16 || bits == 32 || bits == 64;
    }

    /** The class of a float pattern of the given size. */
    public static int of(long v, int bits) {
        double x = FloatBits.toDouble(v, bits);
        if (x != x) return NAN;
        if (x == Double.NEGATIVE_INFINITY) return NEG_INF;
        if (x == Double.POSITIVE_INFINITY) return POS_INF;
        if (x == 0.0) return FloatBits.isNegative(v, bits) ? NEG_ZERO : POS_ZERO;
        if (x < -1.0) return LT_NEG1;
        if (x == -1.0) return NEG1;
        if (x < 0.0) return NEG1_0;
        if (x < 1.0) return ZERO_1;
        if (x == 1.0) return ONE;
        return GT1;
    }

    /** The classes from {@code lo} to {@code hi} in value order, both included (not NaN). */
    public static int between(int lo, int hi) {
        int m = 0;
        for (int c = lo; c <= hi; c++) m |= bit(c);
        return m;
    }

    /**
     * The least and greatest values of a class at a size, as patterns (one for a point class).
     * With {@code whole}, the least and greatest whole numbers of the class (-2 and 2 bound the
     * classes beyond ±1; the fraction classes have none and give an empty array).
     */
    static long[] corners(int cls, int bits, boolean whole) {
        int size = sizeIndex(bits);
        if (size < 0 || cls < 0 || cls >= COUNT) return computeCorners(cls, bits, whole);
        return CORNERS[cls][size][whole ? 1 : 0];
    }

    /** 0, 1, 2 for the float sizes 16, 32, 64 (the index of per-size tables); -1 for others. */
    static int sizeIndex(int bits) {
        return bits == 16 ? 0 : bits == 32 ? 1 : bits == 64 ? 2 : -1;
    }

    /**
     * {@link #corners} of every class, size and wholeness, made once (the corner method asks
     * for them for every box it evaluates). Shared arrays: callers only read them.
     */
    private static final long[][][][] CORNERS = new long[COUNT][3][2][];

    static {
        int[] sizes = {16, 32, 64};
        for (int c = 0; c < COUNT; c++) {
            for (int k = 0; k < 3; k++) {
                CORNERS[c][k][0] = computeCorners(c, sizes[k], false);
                CORNERS[c][k][1] = computeCorners(c, sizes[k], true);
            }
        }
    }

    private static long[] computeCorners(int cls, int bits, boolean whole) {
        long sign = FloatBits.signBit(bits);
        long one = FloatBits.fromDouble(1.0, bits);
        long two = FloatBits.fromDouble(2.0, bits);
        long max = FloatBits.fromDouble(Double.POSITIVE_INFINITY, bits) - 1; // largest finite
        return switch (cls) {
            case NEG_INF -> new long[] {FloatBits.fromDouble(Double.NEGATIVE_INFINITY, bits)};
            case LT_NEG1 -> new long[] {max | sign, (whole ? two : one + 1) | sign};
            case NEG1 -> new long[] {one | sign};
            case NEG1_0 -> whole ? new long[0] : new long[] {(one - 1) | sign, 1 | sign};
            case NEG_ZERO -> new long[] {sign};
            case POS_ZERO -> new long[] {0};
            case ZERO_1 -> whole ? new long[0] : new long[] {1, one - 1};
            case ONE -> new long[] {one};
            case GT1 -> new long[] {whole ? two : one + 1, max};
            case POS_INF -> new long[] {FloatBits.fromDouble(Double.POSITIVE_INFINITY, bits)};
            case NAN -> new long[] {FloatBits.canonicalNaN(bits)};
            default -> throw new IllegalArgumentException("no class " + cls);
        };
    }

    /** Orders two non-NaN patterns by value, -0 below +0. */
    static int compare(long a, long b, int bits) {
        double x = FloatBits.toDouble(a, bits), y = FloatBits.toDouble(b, bits);
        if (x != y) return x < y ? -1 : 1;
        boolean na = FloatBits.isNegative(a, bits), nb = FloatBits.isNegative(b, bits);
        return na == nb ? 0 : (na ? -1 : 1);
    }

    /** Whether a pattern is a whole number (finite values only; NaN and infinities are not asked). */
    static boolean isWhole(long v, int bits) {
        double x = FloatBits.toDouble(v, bits);
        return Math.floor(x) == x;
    }

    static long mask(int bits) {
        return Bits.mask(bits);
    }
}
