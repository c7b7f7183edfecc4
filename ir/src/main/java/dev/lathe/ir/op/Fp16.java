package dev.lathe.ir.op;

import java.math.BigDecimal;

/**
 * IEEE-754 binary16 ("half") conversions, all exact and rounding to nearest, ties to even.
 *
 * <p>Halves are handled as their 16-bit pattern in an {@code int}. Arithmetic on halves is done
 * by widening to {@code double} (exact), computing there and rounding back once with
 * {@link #fromDouble}: for +, -, *, / and sqrt that gives the correctly rounded half result
 * because double has more than 2*11+2 significand bits.
 */
public final class Fp16 {
    private Fp16() {}

    /** The canonical quiet NaN produced by every half operation that yields NaN. */
    public static final int CANONICAL_NAN = 0x7e00;

    public static final int POSITIVE_INFINITY = 0x7c00;
    public static final int NEGATIVE_INFINITY = 0xfc00;
    /** 65504, the largest finite half. */
    public static final int MAX_VALUE = 0x7bff;

    public static boolean isNaN(int h) {
        return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    }

    /** The exact value of a half as a double (NaN keeps only its sign; payloads are not kept). */
    public static double toDouble(int h) {
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        double v;
        if (exp == 0) {
            v = mant * 0x1p-24;
        } else if (exp == 31) {
            v = mant == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else {
            // the same exponent and leading significand bits in a double's fields: exact, and
            // much cheaper than Math.scalb
            v = Double.longBitsToDouble((long) (exp - 15 + 1023) << 52 | (long) mant << 42);
        }
        return (h & 0x8000) != 0 ? -v : v;
    }

    /** Rounds a double to the nearest half, ties to even; NaN becomes {@link #CANONICAL_NAN}. */
    public static int fromDouble(double d) {
        if (Double.isNaN(d)) return CANONICAL_NAN;
        int sign = (Double.doubleToRawLongBits(d) < 0) ? 0x8000 : 0;
        double a = Math.abs(d);
        // 65520 lies halfway between 65504 (odd significand) and 2^16: ties to even go to infinity.
        if (a >= 65520.0) return sign | POSITIVE_INFINITY;
        if (a < 0x1p-14) {
            // Subnormal range: the result is an integer multiple of 2^-24. The scaling is exact.
            long m = (long) Math.rint(a * 0x1p24);
            return sign | (int) m; // m == 1024 is the smallest normal, encoded the same way
        }
        int e = Math.getExponent(a);
        // a * 2^(10 - e) (e is in [-14, 15] here, so the power of two is a normal double and the product exact)
        long m = (long) Math.rint(a * Double.longBitsToDouble((long) (1023 + 10 - e) << 52)); // in [1024, 2048]
        int he = e + 15;
        if (m == 2048) {
            m = 1024;
            he++;
        }
        if (he >= 31) return sign | POSITIVE_INFINITY;
        return sign | (he << 10) | (int) (m - 1024);
    }

    /** Rounds a double to the nearest half toward zero; finite values never become infinite. */
    public static int fromDoubleTowardZero(double d) {
        if (Double.isNaN(d)) return CANONICAL_NAN;
        int sign = (Double.doubleToRawLongBits(d) < 0) ? 0x8000 : 0;
        double a = Math.abs(d);
        if (Double.isInfinite(a)) return sign | POSITIVE_INFINITY;
        if (a >= 65504.0) return sign | MAX_VALUE;
        if (a < 0x1p-14) {
            return sign | (int) Math.floor(a * 0x1p24);
        }
        int e = Math.getExponent(a);
        long m = (long) Math.floor(Math.scalb(a, 10 - e));
        return sign | ((e + 15) << 10) | (int) (m - 1024);
    }

    /** The half nearest to a decimal literal, rounded once (no double rounding through double). */
    public static int parse(String text) {
        double d = Double.parseDouble(text);
        if (Double.isFinite(d) && d != 0.0) {
            BigDecimal exact = new BigDecimal(text.trim());
            d = roundToOdd(d, exact.compareTo(new BigDecimal(d)));
        }
        return fromDouble(d);
    }

    /**
     * Given a double {@code d} rounded to nearest from an exact value, and the sign of
     * (exact - d), returns the double rounded to odd instead. Rounding that once more to a
     * narrower format (at least two bits narrower) gives the correctly rounded result.
     */
    static double roundToOdd(double d, int exactMinusD) {
        if (exactMinusD == 0 || (Double.doubleToRawLongBits(d) & 1L) != 0) return d;
        return exactMinusD > 0 ? Math.nextUp(d) : Math.nextDown(d);
    }
}
