package dev.lathe.ir.op;

/**
 * Evaluation of the floating-point ops at 16, 32 and 64 bits.
 *
 * <p>The basic operations (+, -, *, /, sqrt) are computed in double and rounded once to the
 * operand size, which is exactly IEEE-754 for half and single (double carries more than
 * 2p+2 significand bits). ffma is fused: a single rounding of the exact a*b+c. Compound ops
 * (fdot, flrp, fmod, ...) are defined as a fixed sequence of basic ops, each rounded to the
 * operand size, written next to each function. Transcendentals are {@link StrictMath} in
 * double, rounded once, so every JVM gives the same bits.
 */
final class FloatFns {
    private FloatFns() {}

    static double d(long a, int n) {
        return FloatBits.toDouble(a, n);
    }

    static long r(double v, int n) {
        return FloatBits.fromDouble(v, n);
    }

    /** Rounds to the size and returns the value as a double (for multi-step definitions). */
    static double rd(double v, int n) {
        return FloatBits.round(v, n);
    }

    static boolean isNaN(long a, int n) {
        return FloatBits.isNaN(a, n);
    }

    // ---- arithmetic -------------------------------------------------------------------------

    static long fadd(long a, long b, int n) {
        return r(d(a, n) + d(b, n), n);
    }

    static long fsub(long a, long b, int n) {
        return r(d(a, n) - d(b, n), n);
    }

    static long fmul(long a, long b, int n) {
        return r(d(a, n) * d(b, n), n);
    }

    /** 0 * anything (inf and NaN included) is +0; otherwise an IEEE multiply (NIR's fmulz). */
    static long fmulz(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        if (x == 0.0 || y == 0.0) return 0;
        return r(x * y, n);
    }

    static long fdiv(long a, long b, int n) {
        return r(d(a, n) / d(b, n), n);
    }

    /** Fused multiply-add: the exact a*b+c rounded once. */
    static long ffma(long a, long b, long c, int n) {
        switch (n) {
            case 64:
                return r(Math.fma(d(a, n), d(b, n), d(c, n)), n);
            case 32:
                return r(Math.fma((float) d(a, n), (float) d(b, n), (float) d(c, n)), n);
            default: {
                // Half: the product of two halves is exact in a double, so p + z is the double
                // fma, rounded once, and TwoSum gives its rounding error exactly (no double
                // overflows at half magnitudes). Rounding to odd by that error and then to half
                // is the correctly rounded half result.
                double x = d(a, n), y = d(b, n), z = d(c, n);
                double p = x * y;
                double f = p + z;
                if (Double.isFinite(f) && f != 0.0) {
                    double zPart = f - p;
                    double err = (p - (f - zPart)) + (z - zPart);
                    f = Fp16.roundToOdd(f, err > 0 ? 1 : err < 0 ? -1 : 0);
                }
                return r(f, n);
            }
        }
    }

    static long fneg(long a, int n) {
        return (a ^ FloatBits.signBit(n)) & Bits.mask(n);
    }

    static long fabs(long a, int n) {
        return a & ~FloatBits.signBit(n) & Bits.mask(n);
    }

    /** NaN-avoiding minimum (IEEE minNum): a NaN operand loses; -0 is below +0. */
    static long fmin(long a, long b, int n) {
        boolean an = isNaN(a, n), bn = isNaN(b, n);
        if (an || bn) return an && bn ? FloatBits.canonicalNaN(n) : (an ? b : a);
        double x = d(a, n), y = d(b, n);
        if (x == y) return FloatBits.isNegative(a, n) ? a : b;
        return x < y ? a : b;
    }

    /** NaN-avoiding maximum (IEEE maxNum): a NaN operand loses; +0 is above -0. */
    static long fmax(long a, long b, int n) {
        boolean an = isNaN(a, n), bn = isNaN(b, n);
        if (an || bn) return an && bn ? FloatBits.canonicalNaN(n) : (an ? b : a);
        double x = d(a, n), y = d(b, n);
        if (x == y) return FloatBits.isNegative(a, n) ? b : a;
        return x > y ? a : b;
    }

    static long one(int n) {
        return r(1.0, n);
    }

    /** fmin(fmax(a, 0.0), 1.0): NaN gives +0, -0 gives +0. */
    static long fsat(long a, int n) {
        return fmin(fmax(a, 0, n), one(n), n);
    }

    /** fmin(fmax(a, -1.0), 1.0): NaN gives -1 (fmax(NaN, -1) = -1), -0 stays -0. */
    static long fsatSigned(long a, int n) {
        return fmin(fmax(a, r(-1.0, n), n), one(n), n);
    }

    /** fmax(a, 0.0). */
    static long fclampPos(long a, int n) {
        return fmax(a, 0, n);
    }

    /** 1.0 for positive, -1.0 for negative, zeros keep their sign, NaN gives NaN. */
    static long fsign(long a, int n) {
        double x = d(a, n);
        if (x != x) return FloatBits.canonicalNaN(n);
        if (x == 0.0) return a;
        return r(x > 0 ? 1.0 : -1.0, n);
    }

    static long frcp(long a, int n) {
        return r(1.0 / d(a, n), n);
    }

    /** 1/sqrt(a), both steps in double, rounded once to the size; rsq(-0) = -inf. */
    static long frsq(long a, int n) {
        return r(1.0 / Math.sqrt(d(a, n)), n);
    }

    static long fsqrt(long a, int n) {
        return r(Math.sqrt(d(a, n)), n);
    }

    static long fexp2(long a, int n) {
        return r(StrictMath.pow(2.0, d(a, n)), n);
    }

    private static final double LN2 = StrictMath.log(2.0);

    /**
     * log2(a) = e + log(m)/ln 2 for a = m * 2^e with m in [sqrt(1/2), sqrt(2)): exact for powers
     * of two, and without cancellation just below 1 (where e would be -1 and m nearly 2).
     * log2(0) = -inf, log2(negative) = NaN.
     */
    static long flog2(long a, int n) {
        double x = d(a, n);
        if (x != x || x < 0) return FloatBits.canonicalNaN(n);
        if (x == 0) return r(Double.NEGATIVE_INFINITY, n);
        if (Double.isInfinite(x)) return r(x, n);
        int e;
        if (Math.getExponent(x) == Double.MIN_EXPONENT - 1) { // double subnormal (not reachable from f16/f32)
            double y = x * 0x1p64;
            e = Math.getExponent(y) - 64;
            x = Math.scalb(y, -Math.getExponent(y));
        } else {
            e = Math.getExponent(x);
            x = Math.scalb(x, -e);
        }
        if (x > SQRT2) {
            x *= 0.5;
            e++;
        }
        return r(e + StrictMath.log(x) / LN2, n);
    }

    private static final double SQRT2 = StrictMath.sqrt(2.0);

    static long fpow(long a, long b, int n) {
        return r(StrictMath.pow(d(a, n), d(b, n)), n);
    }

    static long fsin(long a, int n) {
        return r(StrictMath.sin(d(a, n)), n);
    }

    static long fcos(long a, int n) {
        return r(StrictMath.cos(d(a, n)), n);
    }

    static long ffloor(long a, int n) {
        return r(Math.floor(d(a, n)), n);
    }

    static long fceil(long a, int n) {
        return r(Math.ceil(d(a, n)), n);
    }

    static long ftrunc(long a, int n) {
        double x = d(a, n);
        return r(x < 0 ? Math.ceil(x) : Math.floor(x), n);
    }

    static long froundEven(long a, int n) {
        return r(Math.rint(d(a, n)), n);
    }

    /** a - floor(a), rounded: ffract(-0) = +0, ffract(inf) = NaN. */
    static long ffract(long a, int n) {
        double x = d(a, n);
        return r(x - Math.floor(x), n);
    }

    /** GLSL mod: a - b * floor(a / b), each of the four steps rounded to the size. */
    static long fmod(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        double q = Math.floor(rd(x / y, n));
        double p = rd(y * q, n);
        return r(x - p, n);
    }

    /** C fmod: the remainder truncated toward zero, sign of a (exact). */
    static long frem(long a, long b, int n) {
        return r(d(a, n) % d(b, n), n);
    }

    /**
     * a * 2^exp, correctly rounded; exp is a 32-bit signed integer. ldexp(±0, e) = ±0 and
     * ldexp(±inf, e) = ±inf for every e (a multiply by a power of two computed separately would
     * give 0 * inf = NaN once 2^e overflows or underflows double).
     */
    static long ldexp(long a, long e, int n) {
        int exp = (int) Math.max(-4000, Math.min(4000, Bits.sext(e, 32)));
        // Math.scalb is one rounding. For half and single the double result is exact unless it is
        // below double's normal range, and then it rounds to a signed zero at the size anyway.
        return r(Math.scalb(d(a, n), exp), n);
    }

    /** Round to half (ties to even), flush half subnormals to zero (keeping the sign), widen. */
    static long fquantize2f16(long a, int n) {
        int h = Fp16.fromDouble(d(a, n));
        if ((h & 0x7c00) == 0) h &= 0x8000;
        return r(Fp16.toDouble(h), n);
    }

    static long fisnan(long a, int n) {
        return isNaN(a, n) ? 1 : 0;
    }

    static long fisfinite(long a, int n) {
        return Double.isFinite(d(a, n)) ? 1 : 0;
    }

    // ---- three-source -----------------------------------------------------------------------

    /** a != 0.0 ? b : c (a NaN condition selects b). */
    static long fcsel(long a, long b, long c, int n) {
        return d(a, n) != 0.0 ? b : c;
    }

    /** a*(1-c) + b*c with each of the four steps rounded: (a*(1-c)) + (b*c). */
    static long flrp(long a, long b, long c, int n) {
        double x = d(a, n), y = d(b, n), t = d(c, n);
        double oneMinus = rd(1.0 - t, n);
        double p = rd(x * oneMinus, n);
        double q = rd(y * t, n);
        return r(p + q, n);
    }

    static long fmin3(long a, long b, long c, int n) {
        return fmin(fmin(a, b, n), c, n);
    }

    static long fmax3(long a, long b, long c, int n) {
        return fmax(fmax(a, b, n), c, n);
    }

    /** The median: fmax(fmin(a, b), fmin(fmax(a, b), c)). */
    static long fmed3(long a, long b, long c, int n) {
        return fmax(fmin(a, b, n), fmin(fmax(a, b, n), c, n), n);
    }

    // ---- comparisons (1-bit results) --------------------------------------------------------

    static long flt(long a, long b, int n) {
        return d(a, n) < d(b, n) ? 1 : 0;
    }

    static long fge(long a, long b, int n) {
        return d(a, n) >= d(b, n) ? 1 : 0;
    }

    static long feq(long a, long b, int n) {
        return d(a, n) == d(b, n) ? 1 : 0;
    }

    static long fneu(long a, long b, int n) {
        return d(a, n) != d(b, n) ? 1 : 0;
    }

    static long fltu(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        return x < y || x != x || y != y ? 1 : 0;
    }

    static long fgeu(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        return x >= y || x != x || y != y ? 1 : 0;
    }

    static long fequ(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        return x == y || x != x || y != y ? 1 : 0;
    }

    static long fneo(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        return x < y || x > y ? 1 : 0;
    }

    static long funord(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        return x != x || y != y ? 1 : 0;
    }

    static long ford(long a, long b, int n) {
        double x = d(a, n), y = d(b, n);
        return x == x && y == y ? 1 : 0;
    }

    // ---- horizontal -------------------------------------------------------------------------

    /** Dot product evaluated left to right: ((a0*b0 + a1*b1) + a2*b2) ..., every step rounded. */
    static Eval.VectorFn fdot(int size) {
        return (s, dst, n) -> {
            double acc = rd(d(s[0][0], n) * d(s[1][0], n), n);
            for (int i = 1; i < size; i++) {
                acc = rd(acc + rd(d(s[0][i], n) * d(s[1][i], n), n), n);
            }
            dst[0] = r(acc, n);
        };
    }

    /** {@code fn}'s one result in every component of {@code dst} (NIR's replicated dot products). */
    static Eval.VectorFn replicated(Eval.VectorFn fn) {
        return (s, dst, n) -> {
            fn.apply(s, dst, n);
            java.util.Arrays.fill(dst, dst[0]);
        };
    }

    /** dot(a.xyz, b.xyz) + b.w, left to right, every step rounded. */
    static void fdph(long[][] s, long[] dst, int n) {
        double acc = rd(d(s[0][0], n) * d(s[1][0], n), n);
        for (int i = 1; i < 3; i++) {
            acc = rd(acc + rd(d(s[0][i], n) * d(s[1][i], n), n), n);
        }
        dst[0] = r(acc + d(s[1][3], n), n);
    }

    /** The sum of every component, left to right, every step rounded. */
    static void fsum(long[][] s, long[] dst, int n) {
        double acc = d(s[0][0], n);
        for (int i = 1; i < s[0].length; i++) acc = rd(acc + d(s[0][i], n), n);
        dst[0] = r(acc, n);
    }

    /** NIR's fall_equalN: 1.0 when every component pair compares ordered-equal, else 0.0 (32-bit). */
    static void fallEqualFloat(long[][] s, long[] dst, int n) {
        fallEqual(s, dst, 32); // sized: the instruction's unsized size is 0
        dst[0] = dst[0] != 0 ? 0x3f800000L : 0;
    }

    /** NIR's fany_nequalN: 1.0 when some component pair compares unordered-not-equal, else 0.0 (32-bit). */
    static void fanyNequalFloat(long[][] s, long[] dst, int n) {
        fanyNequal(s, dst, 32); // sized: the instruction's unsized size is 0
        dst[0] = dst[0] != 0 ? 0x3f800000L : 0;
    }

    /** True when every component pair compares ordered-equal (feq). */
    static void fallEqual(long[][] s, long[] dst, int n) {
        long r = 1;
        for (int i = 0; i < s[0].length; i++) r &= feq(s[0][i], s[1][i], n);
        dst[0] = r;
    }

    /** True when some component pair compares unordered-not-equal (fneu). */
    static void fanyNequal(long[][] s, long[] dst, int n) {
        long r = 0;
        for (int i = 0; i < s[0].length; i++) r |= fneu(s[0][i], s[1][i], n);
        dst[0] = r;
    }
}
