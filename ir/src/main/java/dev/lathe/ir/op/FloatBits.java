package dev.lathe.ir.op;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Reading and writing floating-point values of 16, 32 and 64 bits stored as raw patterns.
 *
 * <p>Every float result that is NaN is written as the canonical quiet NaN of its size, so the
 * same program gives the same bits on every JVM. Only the sign-bit operations (fneg, fabs) and
 * pure data movement keep NaN payloads.
 */
public final class FloatBits {
    private FloatBits() {}

    public static final long NAN32 = 0x7fc00000L;
    public static final long NAN64 = 0x7ff8000000000000L;

    /** The canonical NaN pattern of a float size. */
    public static long canonicalNaN(int bits) {
        return switch (bits) {
            case 16 -> Fp16.CANONICAL_NAN;
            case 32 -> NAN32;
            case 64 -> NAN64;
            default -> throw new IllegalArgumentException("not a float size: " + bits);
        };
    }

    /** The exact value of a float pattern of the given size. */
    public static double toDouble(long v, int bits) {
        return switch (bits) {
            case 16 -> Fp16.toDouble((int) v & 0xffff);
            case 32 -> Float.intBitsToFloat((int) v);
            case 64 -> Double.longBitsToDouble(v);
            default -> throw new IllegalArgumentException("not a float size: " + bits);
        };
    }

    /** Rounds {@code d} to nearest-even in the given size; NaN becomes the canonical NaN. */
    public static long fromDouble(double d, int bits) {
        if (d != d) return canonicalNaN(bits);
        return switch (bits) {
            case 16 -> Fp16.fromDouble(d);
            case 32 -> Float.floatToRawIntBits((float) d) & 0xffffffffL;
            case 64 -> Double.doubleToRawLongBits(d);
            default -> throw new IllegalArgumentException("not a float size: " + bits);
        };
    }

    /** {@code d} rounded to the precision and range of the given size, as a double. */
    public static double round(double d, int bits) {
        return switch (bits) {
            case 16 -> Fp16.toDouble(Fp16.fromDouble(d));
            case 32 -> (float) d;
            case 64 -> d;
            default -> throw new IllegalArgumentException("not a float size: " + bits);
        };
    }

    /** The sign bit of the given size. */
    public static long signBit(int bits) {
        return 1L << (bits - 1);
    }

    public static boolean isNaN(long v, int bits) {
        double d = toDouble(v, bits);
        return d != d;
    }

    public static boolean isNegative(long v, int bits) {
        return (v & signBit(bits)) != 0;
    }

    /** A readable, round-trippable decimal for a float pattern: shortest digits that read back. */
    public static String format(long v, int bits) {
        double d = toDouble(v, bits);
        if (d != d) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        return switch (bits) {
            case 32 -> Float.toString((float) d);
            case 64 -> Double.toString(d);
            default -> shortestHalf((int) v & 0xffff, d);
        };
    }

    /**
     * A half as decimal: its exact value when that is short (65504, 0.5, 1.25), else the
     * fewest digits that read back to the same half (0.1 for 0x2e66).
     */
    private static String shortestHalf(int h, double d) {
        if (d == 0) return (h & 0x8000) != 0 ? "-0.0" : "0.0";
        BigDecimal exact = new BigDecimal(d).stripTrailingZeros();
        if (exact.precision() <= 6) {
            String plain = exact.toPlainString();
            return plain.contains(".") ? plain : plain + ".0";
        }
        for (int digits = 1; digits <= 8; digits++) {
            String s = new BigDecimal(d).round(new MathContext(digits)).toString();
            if (Fp16.parse(s) == h) {
                String plain = new BigDecimal(s).stripTrailingZeros().toPlainString();
                if (plain.length() <= 12) {
                    return plain.contains(".") ? plain : plain + ".0";
                }
                return s;
            }
        }
        return Double.toString(d);
    }
}
