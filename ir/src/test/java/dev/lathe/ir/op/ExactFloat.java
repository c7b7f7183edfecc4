package dev.lathe.ir.op;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * An independent, exact model of IEEE-754 binary16/32/64 used as the reference in the op-table
 * tests. It shares no code with the op table: patterns are decoded field by field into exact
 * {@link BigDecimal} / rational values, and exact rational values are rounded back to a pattern
 * with integer arithmetic only ({@link BigInteger}), never through {@code double} or
 * {@code float}.
 */
final class ExactFloat {
    private ExactFloat() {}

    /** Rounding direction of {@link #round}. */
    enum Mode {
        NEAREST_EVEN,
        /** Toward zero; finite values never overflow to infinity (they stop at the largest finite). */
        TOWARD_ZERO
    }

    /** The parameters of one binary format. */
    record Format(int bits, int precision, int expBits) {
        int bias() {
            return (1 << (expBits - 1)) - 1;
        }

        int emin() {
            return 1 - bias();
        }

        int emax() {
            return bias();
        }

        long signBit() {
            return 1L << (bits - 1);
        }

        long expMask() {
            return ((1L << expBits) - 1) << (precision - 1);
        }

        long fracMask() {
            return (1L << (precision - 1)) - 1;
        }

        long inf() {
            return expMask();
        }

        long canonicalNaN() {
            return expMask() | (1L << (precision - 2));
        }

        long maxFinite() {
            return expMask() - (1L << (precision - 1)) | fracMask();
        }
    }

    static final Format F16 = new Format(16, 11, 5);
    static final Format F32 = new Format(32, 24, 8);
    static final Format F64 = new Format(64, 53, 11);

    static Format format(int bits) {
        return switch (bits) {
            case 16 -> F16;
            case 32 -> F32;
            case 64 -> F64;
            default -> throw new IllegalArgumentException("not a float size: " + bits);
        };
    }

    // ---- classification ----------------------------------------------------------------------

    static boolean isNaN(long v, int bits) {
        Format f = format(bits);
        return (v & f.expMask()) == f.expMask() && (v & f.fracMask()) != 0;
    }

    static boolean isInf(long v, int bits) {
        Format f = format(bits);
        return (v & f.expMask()) == f.expMask() && (v & f.fracMask()) == 0;
    }

    static boolean isFinite(long v, int bits) {
        Format f = format(bits);
        return (v & f.expMask()) != f.expMask();
    }

    static boolean isZero(long v, int bits) {
        return (v & ~format(bits).signBit() & Bits.mask(bits)) == 0;
    }

    static boolean isNegative(long v, int bits) {
        return (v & format(bits).signBit()) != 0;
    }

    /** True for a nonzero pattern with a zero exponent field. */
    static boolean isSubnormal(long v, int bits) {
        Format f = format(bits);
        return (v & f.expMask()) == 0 && (v & f.fracMask()) != 0;
    }

    // ---- exact decoding ------------------------------------------------------------------------

    /**
     * A finite pattern as {integer significand (signed), binary exponent}: value = sig * 2^exp.
     */
    static BigInteger[] dyadic(long v, int bits) {
        Format f = format(bits);
        if (!isFinite(v, bits)) throw new IllegalArgumentException("not finite: " + Long.toHexString(v));
        long e = (v & f.expMask()) >>> (f.precision() - 1);
        long frac = v & f.fracMask();
        long sig;
        int exp;
        if (e == 0) {
            sig = frac;
            exp = f.emin() - (f.precision() - 1);
        } else {
            sig = frac | (1L << (f.precision() - 1));
            exp = (int) e - f.bias() - (f.precision() - 1);
        }
        BigInteger s = BigInteger.valueOf(sig);
        if (isNegative(v, bits)) s = s.negate();
        return new BigInteger[] {s, BigInteger.valueOf(exp)};
    }

    /** The exact value of a finite pattern (a negative zero decodes as 0). */
    static BigDecimal exact(long v, int bits) {
        BigInteger[] d = dyadic(v, bits);
        return scaleByPowerOfTwo(new BigDecimal(d[0]), d[1].intValueExact());
    }

    /** x * 2^k, exactly. */
    static BigDecimal scaleByPowerOfTwo(BigDecimal x, int k) {
        if (k >= 0) return x.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(k)));
        // 2^-n = 5^n / 10^n
        return x.multiply(new BigDecimal(BigInteger.valueOf(5).pow(-k))).scaleByPowerOfTen(k);
    }

    /** The decoded value as a double, for special values and orderings only (exact for every size). */
    static double approx(long v, int bits) {
        if (isNaN(v, bits)) return Double.NaN;
        boolean neg = isNegative(v, bits);
        if (isInf(v, bits)) return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (isZero(v, bits)) return neg ? -0.0 : 0.0;
        return exact(v, bits).doubleValue();
    }

    // ---- exact rounding ------------------------------------------------------------------------

    /** Rounds an exact nonzero-or-zero value to a pattern; a zero result gets the sign {@code negativeZero}. */
    static long round(BigDecimal value, int bits, Mode mode, boolean negativeZero) {
        int sign = value.signum();
        if (sign == 0) return negativeZero ? format(bits).signBit() : 0;
        BigDecimal a = value.abs();
        BigInteger num, den;
        if (a.scale() <= 0) {
            num = a.unscaledValue().multiply(BigInteger.TEN.pow(-a.scale()));
            den = BigInteger.ONE;
        } else {
            num = a.unscaledValue();
            den = BigInteger.TEN.pow(a.scale());
        }
        return roundRational(sign < 0, num, den, bits, mode);
    }

    static long roundNearest(BigDecimal value, int bits) {
        return round(value, bits, Mode.NEAREST_EVEN, false);
    }

    /**
     * Rounds the positive rational num/den (with the given sign) to a pattern of the format:
     * only integer arithmetic.
     */
    static long roundRational(boolean negative, BigInteger num, BigInteger den, int bits, Mode mode) {
        Format f = format(bits);
        int p = f.precision();
        long sign = negative ? f.signBit() : 0;
        if (num.signum() == 0) return sign;
        // e = floor(log2(num / den))
        int e = num.bitLength() - den.bitLength();
        if (cmpPow2(num, den, e) < 0) e--;
        if (e < f.emin()) e = f.emin();
        int q = e - (p - 1); // the quantum: the result is M * 2^q
        BigInteger n = q <= 0 ? num.shiftLeft(-q) : num;
        BigInteger d = q <= 0 ? den : den.shiftLeft(q);
        BigInteger[] qr = n.divideAndRemainder(d);
        BigInteger m = qr[0];
        if (mode == Mode.NEAREST_EVEN) {
            int c = qr[1].shiftLeft(1).compareTo(d);
            if (c > 0 || (c == 0 && m.testBit(0))) m = m.add(BigInteger.ONE);
        }
        long mm = m.longValueExact();
        if (mm == (1L << p)) {
            mm = 1L << (p - 1);
            e++;
        }
        if (e > f.emax()) {
            return sign | (mode == Mode.TOWARD_ZERO ? f.maxFinite() : f.inf());
        }
        if (mm < (1L << (p - 1))) return sign | mm; // subnormal (or zero)
        long biased = e + f.bias();
        return sign | (biased << (p - 1)) | (mm - (1L << (p - 1)));
    }

    /** Compares num/den with 2^e. */
    private static int cmpPow2(BigInteger num, BigInteger den, int e) {
        return e >= 0 ? num.compareTo(den.shiftLeft(e)) : num.shiftLeft(-e).compareTo(den);
    }

    // ---- correctly rounded IEEE operations (round to nearest even) ------------------------------

    private static long special(double r, int bits) {
        Format f = format(bits);
        if (Double.isNaN(r)) return f.canonicalNaN();
        if (Double.isInfinite(r)) return (r < 0 ? f.signBit() : 0) | f.inf();
        if (r == 0) return (Double.doubleToRawLongBits(r) < 0) ? f.signBit() : 0;
        throw new IllegalStateException("not a special result: " + r);
    }

    private static boolean allFinite(int bits, long... v) {
        for (long x : v) {
            if (!isFinite(x, bits)) return false;
        }
        return true;
    }

    static long add(long a, long b, int bits) {
        if (!allFinite(bits, a, b)) return special(approx(a, bits) + approx(b, bits), bits);
        BigDecimal s = exact(a, bits).add(exact(b, bits));
        // An exact zero sum is +0 unless both operands are -0.
        boolean negZero = isZero(a, bits) && isZero(b, bits) && isNegative(a, bits) && isNegative(b, bits);
        return round(s, bits, Mode.NEAREST_EVEN, negZero);
    }

    static long sub(long a, long b, int bits) {
        return add(a, b ^ format(bits).signBit(), bits);
    }

    static long mul(long a, long b, int bits) {
        if (!allFinite(bits, a, b)) return special(approx(a, bits) * approx(b, bits), bits);
        boolean neg = isNegative(a, bits) != isNegative(b, bits);
        return round(exact(a, bits).multiply(exact(b, bits)), bits, Mode.NEAREST_EVEN, neg);
    }

    static long div(long a, long b, int bits) {
        if (!allFinite(bits, a, b) || isZero(b, bits)) return special(approx(a, bits) / approx(b, bits), bits);
        boolean neg = isNegative(a, bits) != isNegative(b, bits);
        if (isZero(a, bits)) return neg ? format(bits).signBit() : 0;
        BigInteger[] x = dyadic(a, bits), y = dyadic(b, bits);
        // (xs * 2^xe) / (ys * 2^ye) = xs / ys * 2^(xe - ye)
        BigInteger num = x[0].abs(), den = y[0].abs();
        int k = x[1].intValueExact() - y[1].intValueExact();
        if (k >= 0) num = num.shiftLeft(k);
        else den = den.shiftLeft(-k);
        return roundRational(neg, num, den, bits, Mode.NEAREST_EVEN);
    }

    /** Fused a * b + c, one rounding. */
    static long fma(long a, long b, long c, int bits) {
        if (!allFinite(bits, a, b, c)) {
            double x = approx(a, bits), y = approx(b, bits), z = approx(c, bits);
            // A finite product may overflow double; with a non-finite addend only the addend counts.
            if (isFinite(a, bits) && isFinite(b, bits)) return special(z, bits);
            return special(x * y + z, bits); // an infinite factor: the product is inf or NaN
        }
        BigDecimal prod = exact(a, bits).multiply(exact(b, bits));
        BigDecimal s = prod.add(exact(c, bits));
        boolean prodNeg = isNegative(a, bits) != isNegative(b, bits);
        boolean prodZero = isZero(a, bits) || isZero(b, bits);
        boolean negZero = prodZero && isZero(c, bits) && prodNeg && isNegative(c, bits);
        return round(s, bits, Mode.NEAREST_EVEN, negZero);
    }

    /** Correctly rounded square root. */
    static long sqrt(long a, int bits) {
        Format f = format(bits);
        if (isNaN(a, bits)) return f.canonicalNaN();
        if (isZero(a, bits)) return a & Bits.mask(bits); // sqrt(-0) = -0
        if (isNegative(a, bits)) return f.canonicalNaN();
        if (isInf(a, bits)) return f.inf();
        BigInteger[] x = dyadic(a, bits);
        BigInteger sig = x[0];
        int exp = x[1].intValueExact();
        if ((exp & 1) != 0) {
            sig = sig.shiftLeft(1);
            exp--;
        }
        // sqrt(sig * 2^exp) = sqrt(sig * 4^k) * 2^(exp/2 - k); with k = 64 the root has far more
        // bits than any format keeps, so replacing an inexact root r by r + 1/2 keeps the rounding.
        int k = 64;
        BigInteger scaled = sig.shiftLeft(2 * k);
        BigInteger root = scaled.sqrt();
        boolean exactRoot = root.multiply(root).equals(scaled);
        // value = (2 * root + (exact ? 0 : 1)) * 2^(exp/2 - k - 1)
        BigInteger twice = root.shiftLeft(1).add(exactRoot ? BigInteger.ZERO : BigInteger.ONE);
        int e2 = exp / 2 - k - 1;
        BigInteger num = e2 >= 0 ? twice.shiftLeft(e2) : twice;
        BigInteger den = e2 >= 0 ? BigInteger.ONE : BigInteger.ONE.shiftLeft(-e2);
        return roundRational(false, num, den, bits, Mode.NEAREST_EVEN);
    }

    /** Converts a pattern of one size to another, rounding to nearest even (NaN canonical). */
    static long convert(long v, int fromBits, int toBits, Mode mode) {
        Format t = format(toBits);
        if (isNaN(v, fromBits)) return t.canonicalNaN();
        boolean neg = isNegative(v, fromBits);
        if (isInf(v, fromBits)) return (neg ? t.signBit() : 0) | t.inf();
        return round(exact(v, fromBits), toBits, mode, neg);
    }

    /** The pattern of an exact integer value, rounded to nearest even (0 gives +0). */
    static long fromInteger(BigInteger v, int bits) {
        return roundNearest(new BigDecimal(v), bits);
    }
}
