package dev.lathe.ir.op;

import static dev.lathe.ir.op.Bits.maxSigned;
import static dev.lathe.ir.op.Bits.minSigned;
import static dev.lathe.ir.op.Bits.sext;
import static dev.lathe.ir.op.Bits.zext;

/**
 * Conversions between float, signed, unsigned and boolean values of every size.
 *
 * <p>float to int truncates toward zero and saturates to the destination range; NaN gives 0.
 * int to float rounds to nearest, ties to even (exactly, with no double rounding). float to
 * float rounds to nearest even (f2f16_rtz rounds toward zero and keeps finite values finite).
 */
final class ConvertFns {
    private ConvertFns() {}

    static Eval.Unary f2f(int dstBits) {
        return (a, n) -> FloatBits.fromDouble(FloatBits.toDouble(a, n), dstBits);
    }

    static long f2f16Rtz(long a, int n) {
        return Fp16.fromDoubleTowardZero(FloatBits.toDouble(a, n));
    }

    /** float to signed int of {@code dstBits}: truncate, saturate, NaN to 0. */
    static Eval.Unary f2i(int dstBits) {
        return (a, n) -> {
            double x = FloatBits.toDouble(a, n);
            if (x != x) return 0;
            if (x <= (double) minSigned(dstBits)) return minSigned(dstBits);
            if (x >= (double) maxSigned(dstBits)) return maxSigned(dstBits);
            return (long) x;
        };
    }

    /** float to unsigned int of {@code dstBits}: truncate, saturate (negative to 0), NaN to 0. */
    static Eval.Unary f2u(int dstBits) {
        return (a, n) -> {
            double x = FloatBits.toDouble(a, n);
            if (x != x || x <= 0) return 0;
            if (dstBits == 64) {
                if (x >= 0x1p64) return -1L;
                if (x >= 0x1p63) return ((long) (x - 0x1p63)) ^ Long.MIN_VALUE;
                return (long) x;
            }
            double max = (double) Bits.mask(dstBits);
            if (x >= max) return Bits.mask(dstBits);
            return (long) x;
        };
    }

    /** signed int to float of {@code dstBits}, rounded to nearest even. */
    static Eval.Unary i2f(int dstBits) {
        return (a, n) -> fromSigned(sext(a, n), dstBits);
    }

    /** unsigned int to float of {@code dstBits}, rounded to nearest even. */
    static Eval.Unary u2f(int dstBits) {
        return (a, n) -> {
            long x = zext(a, n);
            if (x >= 0) return fromSigned(x, dstBits);
            // x >= 2^63: halve with a sticky bit (rounding is unchanged), convert, double.
            long half = (x >>> 1) | (x & 1);
            return switch (dstBits) {
                case 16 -> Fp16.POSITIVE_INFINITY;
                case 32 -> Float.floatToRawIntBits((float) half * 2.0f) & 0xffffffffL;
                default -> Double.doubleToRawLongBits((double) half * 2.0);
            };
        };
    }

    private static long fromSigned(long x, int dstBits) {
        return switch (dstBits) {
            case 16 -> {
                // every integer below 2^53 is exact in double; anything of 65520 or more is inf
                if (Math.abs(x) < (1L << 53) && x != Long.MIN_VALUE) yield Fp16.fromDouble((double) x);
                yield x < 0 ? Fp16.NEGATIVE_INFINITY : Fp16.POSITIVE_INFINITY;
            }
            case 32 -> Float.floatToRawIntBits((float) x) & 0xffffffffL;
            default -> Double.doubleToRawLongBits((double) x);
        };
    }

    /** Sign-extend or truncate. */
    static long i2i(long a, int n) {
        return sext(a, n);
    }

    /** Zero-extend or truncate. */
    static long u2u(long a, int n) {
        return zext(a, n);
    }

    static Eval.Unary b2f(int dstBits) {
        long one = FloatBits.fromDouble(1.0, dstBits);
        return (a, n) -> (a & 1) != 0 ? one : 0;
    }

    static long b2i(long a, int n) {
        return a & 1;
    }

    /** a != 0.0 (so NaN is true and -0.0 is false). */
    static long f2b(long a, int n) {
        return FloatBits.toDouble(a, n) != 0.0 ? 1 : 0;
    }

    static long i2b(long a, int n) {
        return zext(a, n) != 0 ? 1 : 0;
    }
}
