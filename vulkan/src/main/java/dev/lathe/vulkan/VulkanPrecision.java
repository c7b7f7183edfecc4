package dev.lathe.vulkan;

import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;

/**
 * The results a conforming Vulkan implementation may give for one ALU op, as an interval of
 * reals, from the intervals its float sources may hold: the precision the Vulkan specification
 * requires ("Precision and Operation of SPIR-V Instructions"; the bounds, op by op, are in
 * {@code ir/README.md}, "Precision"). Where Vulkan leaves an op free within a bound, the interval
 * holds every result within it; where a source interval straddles a point the op jumps at (a
 * comparison, a conversion to an integer, a division by an interval holding zero), there is no
 * one answer and the result is null: the run's outcome is then undecided.
 *
 * <p>Besides each op's own error, three freedoms Vulkan gives every float op are modelled:
 * a product not decorated {@code NoContraction} may be fused into a following add (so it may be
 * unrounded: a product's interval holds the exact product); a denormal source or result may be
 * flushed to zero (its interval reaches zero); and an implementation may assume no infinity or
 * NaN is an operand or a result (an interval reaching one gives null).
 */
public final class VulkanPrecision {
    private VulkanPrecision() {}

    /** The op whose precision {@code op} has: a mediump conversion computes its 16-bit conversion (MediumPrecision). */
    private static Op plain(Op op) {
        Op narrow = dev.lathe.ir.op.MediumPrecision.narrow(op);
        return narrow != null ? narrow : op;
    }

    /** Whether {@code op} may give a result other than the correctly rounded one on exact sources (its own error, or contraction). */
    public static boolean inexact(Op op, boolean noContraction) {
        return switch (plain(op)) {
            case FMUL, FMULZ, FFMA -> !noContraction;
            case FDIV, FRCP, FRSQ, FSQRT, FEXP2, FLOG2, FPOW, FSIN, FCOS, FDOT2, FDOT3, FDOT4, FDPH, FLRP, FMOD, FREM ->
                true;
            // NIR's wider dot products and sums: no SPIR-V instruction makes them, judged as dot() is
            case FDOT8, FDOT16, FSUM2, FSUM3, FSUM4 -> true;
            case FDOT2_REPLICATED, FDOT3_REPLICATED, FDOT4_REPLICATED, FDPH_REPLICATED -> true;
            // exact, but undefined outside the integer type's range: checked by bound()
            case F2I8, F2I16, F2I32, F2I64, F2U8, F2U16, F2U32, F2U64 -> true;
            default -> false;
        };
    }

    /**
     * The interval of results component {@code c}-wise: {@code src[k]} is source k's interval
     * (a point for an exact value; an integer source's value as a point), {@code bits} the
     * instruction's float size. A float result is widened for its own rounding; a non-float
     * result must be one value (a point) or the answer is null.
     *
     * @return {lo, hi}, or null when Vulkan allows results on both sides of a jump, or gives no bound
     */
    public static double[] bound(Op op, int bits, double[][] src) {
        op = plain(op);
        boolean comparison = op.output().typeClass() == TypeClass.BOOL;
        for (double[] s : src) {
            if (Double.isNaN(s[0]) || Double.isNaN(s[1])) return null; // Vulkan may assume no NaN
            // nor an infinite operand, except that a comparison with one (x == inf) is decided by a finite x
            if (!comparison && (Double.isInfinite(s[0]) || Double.isInfinite(s[1]))) return null;
        }
        double[] r = switch (op) {
            case FADD -> widen(new double[] {src[0][0] + src[1][0], src[0][1] + src[1][1]}, bits, 1);
            case FSUB -> widen(new double[] {src[0][0] - src[1][1], src[0][1] - src[1][0]}, bits, 1);
            case FMUL, FMULZ -> product(src[0], src[1], bits);
            case FFMA, FFMAZ -> {
                double[] p = product(src[0], src[1], bits);
                yield widen(new double[] {p[0] + src[2][0], p[1] + src[2][1]}, bits, 1);
            }
            case FNEG -> new double[] {-src[0][1], -src[0][0]};
            case FABS ->
                src[0][0] >= 0
                        ? src[0]
                        : src[0][1] <= 0
                                ? new double[] {-src[0][1], -src[0][0]}
                                : new double[] {0, Math.max(-src[0][0], src[0][1])};
            case FSAT -> new double[] {clamp(src[0][0], 0, 1), clamp(src[0][1], 0, 1)};
            case FSAT_SIGNED -> new double[] {clamp(src[0][0], -1, 1), clamp(src[0][1], -1, 1)};
            case FCLAMP_POS -> new double[] {Math.max(src[0][0], 0), Math.max(src[0][1], 0)};
            case FMIN -> new double[] {Math.min(src[0][0], src[1][0]), Math.min(src[0][1], src[1][1])};
            case FMAX -> new double[] {Math.max(src[0][0], src[1][0]), Math.max(src[0][1], src[1][1])};
            case FMIN3 ->
                new double[] {
                    Math.min(src[0][0], Math.min(src[1][0], src[2][0])),
                    Math.min(src[0][1], Math.min(src[1][1], src[2][1]))
                };
            case FMAX3 ->
                new double[] {
                    Math.max(src[0][0], Math.max(src[1][0], src[2][0])),
                    Math.max(src[0][1], Math.max(src[1][1], src[2][1]))
                };
            case FMED3 -> new double[] {med3(src[0][0], src[1][0], src[2][0]), med3(src[0][1], src[1][1], src[2][1])};
            case FSIGN -> new double[] {Math.signum(src[0][0]), Math.signum(src[0][1])};
            case FFLOOR -> new double[] {Math.floor(src[0][0]), Math.floor(src[0][1])};
            case FCEIL -> new double[] {Math.ceil(src[0][0]), Math.ceil(src[0][1])};
            case FTRUNC -> new double[] {trunc(src[0][0]), trunc(src[0][1])};
            case FROUND_EVEN -> new double[] {Math.rint(src[0][0]), Math.rint(src[0][1])};
            case FFRACT ->
                Math.floor(src[0][0]) != Math.floor(src[0][1])
                        ? new double[] {0, 1}
                        : widen(
                                new double[] {src[0][0] - Math.floor(src[0][0]), src[0][1] - Math.floor(src[0][1])},
                                bits,
                                1);
            case FDIV -> quotient(src[0], src[1], bits);
            case FRCP -> quotient(new double[] {1, 1}, src[0], bits);
            // inversesqrt: 2 ULP
            case FRSQ ->
                src[0][0] <= 0
                        ? null
                        : widen(new double[] {1 / Math.sqrt(src[0][1]), 1 / Math.sqrt(src[0][0])}, bits, 2);
            // sqrt: inherited from 1.0 / inversesqrt(x): 2 ULP, then 2.5 ULP
            case FSQRT ->
                src[0][0] < 0 ? null : widen(new double[] {Math.sqrt(src[0][0]), Math.sqrt(src[0][1])}, bits, 5);
            case FEXP2 -> exp2(src[0], bits);
            case FLOG2 -> log2(src[0], bits);
            // pow: inherited from exp2(y * log2(x))
            case FPOW -> {
                double[] l = log2(src[0], bits);
                yield l == null ? null : exp2(product(src[1], l, bits), bits);
            }
            case FSIN, FCOS -> sinCos(op == Op.FSIN, src[0]);
            case FDOT2, FDOT3, FDOT4, FDOT8, FDOT16 -> dot(src, bits, false);
            case FDOT2_REPLICATED, FDOT3_REPLICATED, FDOT4_REPLICATED -> dot(src, bits, false);
            case FDPH_REPLICATED -> dot(src, bits, true);
            // a sum of N: N - 1 additions, each rounded once
            case FSUM2, FSUM3, FSUM4 -> {
                double lo = 0, hi = 0;
                for (double[] t : src) {
                    lo += t[0];
                    hi += t[1];
                }
                yield widen(new double[] {lo, hi}, bits, src.length - 1);
            }
            case FDPH -> dot(src, bits, true);
            // mix: inherited from x * (1 - a) + y * a
            case FLRP -> {
                double[] oneMinus = widen(new double[] {1 - src[2][1], 1 - src[2][0]}, bits, 1);
                double[] x = product(src[0], oneMinus, bits), y = product(src[1], src[2], bits);
                yield widen(new double[] {x[0] + y[0], x[1] + y[1]}, bits, 1);
            }
            case FMOD -> remainder(src[0], src[1], bits, true);
            case FREM -> remainder(src[0], src[1], bits, false);
            case LDEXP -> new double[] {Math.scalb(src[0][0], (int) src[1][0]), Math.scalb(src[0][1], (int) src[1][0])};
            case F2F16, F2F16_RTNE, F2F16_RTZ, FQUANTIZE2F16 -> widen(src[0].clone(), 16, 1);
            case F2F32 -> widen(src[0].clone(), 32, 1);
            case F2F64 -> src[0].clone();
            // a float outside the integer type's range converts to an undefined value
            case F2I8, F2I16, F2I32, F2I64, F2U8, F2U16, F2U32, F2U64 ->
                inRange(op, trunc(src[0][0]), trunc(src[0][1])) ? point(trunc(src[0][0]), trunc(src[0][1])) : null;
            case F2B1 ->
                src[0][0] > 0 || src[0][1] < 0
                        ? new double[] {1, 1}
                        : src[0][0] == 0 && src[0][1] == 0 ? new double[] {0, 0} : null;
            case FISNAN -> new double[] {0, 0};
            case FISFINITE -> new double[] {1, 1};
            case FLT, FLTU, SLT -> compare(src[0][1] < src[1][0], src[0][0] >= src[1][1]);
            case FGE, FGEU, SGE -> compare(src[0][0] >= src[1][1], src[0][1] < src[1][0]);
            case FEQ, FEQU, SEQ -> equal(src[0], src[1], false);
            case FNEU, FNEO, SNE -> equal(src[0], src[1], true);
            // a normal number: every value between the bounds is, or none is
            case FISNORMAL -> {
                double min = bits == 16 ? 0x1p-14 : bits == 32 ? 0x1p-126 : 0x1p-1022;
                yield compare(src[0][0] >= min || src[0][1] <= -min, src[0][0] > -min && src[0][1] < min);
            }
            case FCSEL_GT -> src[0][0] > 0 ? src[1] : src[0][1] <= 0 ? src[2] : hull(src[1], src[2]);
            case FCSEL_GE -> src[0][0] >= 0 ? src[1] : src[0][1] < 0 ? src[2] : hull(src[1], src[2]);
            case BALL_FEQUAL2, BALL_FEQUAL3, BALL_FEQUAL4, BALL_FEQUAL8, BALL_FEQUAL16 -> allEqual(src, false);
            case BANY_FNEQUAL2, BANY_FNEQUAL3, BANY_FNEQUAL4, BANY_FNEQUAL8, BANY_FNEQUAL16 -> allEqual(src, true);
            // NIR's float-valued forms: 1.0 and 0.0 where the boolean forms give 1 and 0
            case FALL_EQUAL2, FALL_EQUAL3, FALL_EQUAL4, FALL_EQUAL8, FALL_EQUAL16 -> allEqual(src, false);
            case FANY_NEQUAL2, FANY_NEQUAL3, FANY_NEQUAL4, FANY_NEQUAL8, FANY_NEQUAL16 -> allEqual(src, true);
            case FORD -> new double[] {1, 1};
            case FUNORD -> new double[] {0, 0};
            case FCSEL ->
                src[0][0] > 0 || src[0][1] < 0
                        ? src[1]
                        : src[0][0] == 0 && src[0][1] == 0
                                ? src[2]
                                : new double[] {Math.min(src[1][0], src[2][0]), Math.max(src[1][1], src[2][1])};
            // an op with no float operand: reading the bits of an inexact value decides nothing
            // (every op with one has a bound here, or is a pack: VulkanPrecisionTest)
            default -> null;
        };
        if (r == null || !Double.isFinite(r[0]) || !Double.isFinite(r[1])) return null;
        double max = bits == 16 ? 65504.0 : bits == 32 ? Float.MAX_VALUE : Double.MAX_VALUE;
        if (op.output().typeClass() == TypeClass.FLOAT && (Math.abs(r[0]) > max || Math.abs(r[1]) > max))
            return null; // may overflow
        if (op.output().typeClass() == TypeClass.FLOAT)
            return flushable(r, op == Op.F2F16 || op == Op.F2F16_RTNE || op == Op.F2F16_RTZ ? 16 : bits);
        return r;
    }

    private static double[] hull(double[] a, double[] b) {
        return new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])};
    }

    /**
     * Why an integer op has no defined result on these operands in Vulkan's SPIR-V environment,
     * or null when it has one. {@code x[k]} is operand k's bits, {@code bits} the operands' size.
     * (SPIR-V: division and remainder by zero, and the signed overflow MIN / -1; shifts by the bit
     * width or more; a bit field past the top bit. Vulkan's environment appendix: OpSRem and
     * OpSMod with a negative operand.)
     */
    public static String undefined(Op op, long[] x, int bits) {
        long min = bits >= 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
        return switch (op) {
            case IDIV, UDIV, IREM, IMOD, UMOD -> {
                long a = signed(x[0], bits), b = signed(x[1], bits);
                if (b == 0) yield op.opName() + " by zero";
                if (op != Op.UDIV && op != Op.UMOD && a == min && b == -1)
                    yield op.opName() + " of the smallest integer by -1";
                if ((op == Op.IREM || op == Op.IMOD) && (a < 0 || b < 0))
                    yield op.opName() + " of a negative operand (OpSRem/OpSMod)";
                yield null;
            }
            case ISHL, ISHR, USHR ->
                Long.compareUnsigned(x[1] & 0xffffffffL, bits) >= 0 ? op.opName() + " by the bit width or more" : null;
            case UBITFIELD_EXTRACT, IBITFIELD_EXTRACT ->
                (x[1] & 0xffffffffL) + (x[2] & 0xffffffffL) > bits ? op.opName() + " past the top bit" : null;
            case BITFIELD_INSERT ->
                (x[2] & 0xffffffffL) + (x[3] & 0xffffffffL) > bits ? op.opName() + " past the top bit" : null;
            default -> null;
        };
    }

    private static long signed(long v, int bits) {
        return bits >= 64 ? v : (v << (64 - bits)) >> (64 - bits);
    }

    /** One value (a non-float result), or null when the interval holds several. */
    private static double[] point(double lo, double hi) {
        return lo == hi ? new double[] {lo, lo} : null;
    }

    private static boolean inRange(Op op, double lo, double hi) {
        int bits = op.outputBits(32);
        boolean signed = op.output().typeClass() == TypeClass.INT;
        double min = signed ? -Math.pow(2, bits - 1) : 0,
                max = signed ? Math.pow(2, bits - 1) - 1 : Math.pow(2, bits) - 1;
        return lo >= min && hi <= max;
    }

    private static double[] compare(boolean surelyTrue, boolean surelyFalse) {
        return surelyTrue ? new double[] {1, 1} : surelyFalse ? new double[] {0, 0} : null;
    }

    /** Whether the first half of {@code src} equals the second component by component (negated: whether any differs). */
    private static double[] allEqual(double[][] src, boolean negate) {
        int n = src.length / 2;
        boolean undecided = false;
        for (int k = 0; k < n; k++) {
            double[] e = equal(src[k], src[n + k], false);
            if (e == null) undecided = true;
            else if (e[0] == 0) return negate ? new double[] {1, 1} : new double[] {0, 0}; // one component differs
        }
        if (undecided) return null;
        return negate ? new double[] {0, 0} : new double[] {1, 1};
    }

    private static double[] equal(double[] a, double[] b, boolean negate) {
        boolean same = a[0] == a[1] && b[0] == b[1] && a[0] == b[0];
        boolean apart = a[1] < b[0] || b[1] < a[0];
        if (!same && !apart) return null;
        return (same ^ negate) ? new double[] {1, 1} : new double[] {0, 0};
    }

    /**
     * a · b: correctly rounded, or (contracted into an add) exact: the floats either side of the
     * exact product hold both, unless the product is a float itself.
     */
    private static double[] product(double[] a, double[] b, int bits) {
        double p1 = a[0] * b[0], p2 = a[0] * b[1], p3 = a[1] * b[0], p4 = a[1] * b[1];
        if (a[0] == a[1] && b[0] == b[1] && FloatBits.round(p1, bits) == p1)
            return new double[] {p1, p1}; // nothing to round
        double[] r = {Math.min(Math.min(p1, p2), Math.min(p3, p4)), Math.max(Math.max(p1, p2), Math.max(p3, p4))};
        // the exact product (float sources multiply exactly in double) rounds to a float on either side of it
        return widen(r, bits, 1);
    }

    /** x / y: 2.5 ULP where |y| is in [2^-126, 2^126] (32-bit); no bound elsewhere. */
    private static double[] quotient(double[] x, double[] y, int bits) {
        if (y[0] <= 0 && y[1] >= 0) return null;
        double min = Math.min(Math.abs(y[0]), Math.abs(y[1])), max = Math.max(Math.abs(y[0]), Math.abs(y[1]));
        if (bits == 32 && (min < 0x1p-126 || max > 0x1p126)) return null;
        double q1 = x[0] / y[0], q2 = x[0] / y[1], q3 = x[1] / y[0], q4 = x[1] / y[1];
        return widen(
                new double[] {Math.min(Math.min(q1, q2), Math.min(q3, q4)), Math.max(Math.max(q1, q2), Math.max(q3, q4))
                },
                bits,
                3);
    }

    /** exp2: 3 + 2·|x| ULP. */
    private static double[] exp2(double[] x, int bits) {
        if (x == null) return null;
        double big = Math.max(Math.abs(x[0]), Math.abs(x[1]));
        if (big > 1e6) return null;
        return widen(new double[] {Math.pow(2, x[0]), Math.pow(2, x[1])}, bits, 3 + 2 * (int) Math.ceil(big));
    }

    /** log2: 3 ULP outside [0.5, 2.0]; absolute error below 2^-21 inside. */
    private static double[] log2(double[] x, int bits) {
        if (x[0] <= 0) return null;
        double[] r = {Math.log(x[0]) / Math.log(2), Math.log(x[1]) / Math.log(2)};
        r = widen(r, bits, 3);
        if (x[0] <= 2.0 && x[1] >= 0.5) r = new double[] {r[0] - 0x1p-21, r[1] + 0x1p-21};
        return r;
    }

    /**
     * sin, cos: absolute error 2^-11 inside [-π, π]. Outside it the specification gives no
     * bound; the model keeps the same one there (so a disagreement at large arguments is shown, to
     * be judged), after finding the function's range over the interval.
     */
    private static double[] sinCos(boolean sin, double[] x) {
        double lo, hi;
        if (x[1] - x[0] >= 2 * Math.PI || Math.abs(x[0]) > 0x1p20 || Math.abs(x[1]) > 0x1p20) {
            lo = -1;
            hi = 1;
        } else {
            double a = sin ? Math.sin(x[0]) : Math.cos(x[0]), b = sin ? Math.sin(x[1]) : Math.cos(x[1]);
            lo = Math.min(a, b);
            hi = Math.max(a, b);
            // the extremes inside: sin peaks at π/2 + kπ, cos at kπ
            double phase = sin ? Math.PI / 2 : 0;
            for (double k = Math.ceil((x[0] - phase) / Math.PI); phase + k * Math.PI <= x[1]; k++) {
                if (Math.floorMod((long) k, 2L) == 0) hi = 1;
                else lo = -1;
            }
        }
        return new double[] {Math.max(-1, lo) - 0x1p-11, Math.min(1, hi) + 0x1p-11};
    }

    /** dot: inherited from the products and the sums, in any order: n products and n - 1 sums, each rounded. */
    private static double[] dot(double[][] src, int bits, boolean homogeneous) {
        // fdotN: two vecN, so src holds N + N; fdph: a vec3 and a vec4, 3 + 4
        int terms = homogeneous ? 3 : src.length / 2, second = terms;
        double lo = 0, hi = 0, magnitude = 0;
        for (int k = 0; k < terms; k++) {
            double[] p = product(src[k], src[second + k], bits);
            lo += p[0];
            hi += p[1];
            magnitude += Math.max(Math.abs(p[0]), Math.abs(p[1]));
        }
        if (homogeneous) {
            lo += src[second + 3][0];
            hi += src[second + 3][1];
            magnitude += Math.max(Math.abs(src[second + 3][0]), Math.abs(src[second + 3][1]));
        }
        double slack = 2 * (terms + 1) * ulp(magnitude, bits);
        return new double[] {lo - slack, hi + slack};
    }

    /** mod (x - y·floor(x/y)) or rem (with trunc): inherited from the division and the rest. */
    private static double[] remainder(double[] x, double[] y, int bits, boolean floor) {
        double[] q = quotient(x, y, bits);
        if (q == null) return null;
        double k0 = floor ? Math.floor(q[0]) : trunc(q[0]), k1 = floor ? Math.floor(q[1]) : trunc(q[1]);
        if (k1 - k0 > 1) return null; // the quotient spans integers: the result may be almost anything
        // x - y·k for each integer k the quotient may round to
        double[] yk = product(y, new double[] {k0, k1}, bits);
        return widen(new double[] {x[0] - yk[1], x[1] - yk[0]}, bits, 1);
    }

    /** {@code r} widened by {@code n} ULPs (of its larger end, in a float of {@code bits}) each way. */
    static double[] widen(double[] r, int bits, int n) {
        double u = n * ulp(Math.max(Math.abs(r[0]), Math.abs(r[1])), bits);
        return new double[] {r[0] - u, r[1] + u};
    }

    /** Where a float of {@code bits} may be a denormal, it may be flushed to zero: the interval then reaches zero. */
    static double[] flushable(double[] r, int bits) {
        double smallest = smallestNormal(bits);
        boolean lowTiny = Math.abs(r[0]) < smallest, highTiny = Math.abs(r[1]) < smallest;
        if (lowTiny || highTiny || r[0] < 0 && r[1] > 0) return new double[] {Math.min(r[0], 0), Math.max(r[1], 0)};
        return r;
    }

    /** The smallest normal float of {@code bits}: below it, a float is a denormal, which Vulkan may flush. */
    static double smallestNormal(int bits) {
        return bits == 16 ? 0x1p-14 : bits == 32 ? 0x1p-126 : 0x1p-1022;
    }

    /** The gap between floats of {@code bits} near {@code x} (at least the smallest normal's). */
    static double ulp(double x, int bits) {
        return switch (bits) {
            case 16 -> Math.max(Math.ulp((float) x) * 8192.0, 0x1p-24);
            case 32 -> Math.ulp((float) Math.min(Math.abs(x), Float.MAX_VALUE));
            default -> Math.ulp(x);
        };
    }

    private static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    private static double clamp(double x, double lo, double hi) {
        return Math.max(lo, Math.min(hi, x));
    }

    private static double med3(double a, double b, double c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }
}
