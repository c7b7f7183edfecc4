package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * lower_doubles: the 64-bit float ops a target lacks, rebuilt from 64-bit add, multiply and
 * fused multiply-add, 32-bit estimates, and integer work on the two 32-bit halves (NIR's
 * nir_lower_doubles, with the rounding made exact).
 *
 * <ul>
 *   <li>{@code fdiv}, {@code frcp}: both operands are split into a significand in [1, 2) and an
 *       exponent (subnormals scaled by 2^54 first). The divisor's reciprocal starts as the 32-bit
 *       {@code frcp} of its significand and two Newton–Raphson steps with {@code ffma} refine it
 *       ({@link LoweringBuilder#reciprocal});
 *       the quotient gets Markstein's correction {@code q + (a - b·q)·y}. A last check makes the
 *       rounding exact whatever the estimate: the remainder {@code a - b·q} is exact in an fma,
 *       and comparing it with the divisor times half the distance to q's neighbour says whether
 *       the quotient lies past the midpoint (ties go to even). The exponent is then put back by
 *       adding to the high word; a result below the normal range is rounded from the 53-bit
 *       significand with the remainder's sign as the sticky bit, so it is rounded once.
 *   <li>{@code fsqrt}: the exponent is made even, the 32-bit {@code frsq} of the significand
 *       starts Goldschmidt's iteration for sqrt and 1/(2·sqrt) together, Markstein's correction
 *       follows, and the same remainder check makes the rounding exact (a square root is never
 *       a midpoint). {@code frsq} is {@code 1 / sqrt(a)} with both steps rounded, as the op table
 *       defines it.
 *   <li>{@code ftrunc} clears the fraction bits below the binary point in whichever half holds
 *       them; {@code ffloor}, {@code fceil} adjust the truncation by one, {@code ffract} and
 *       {@code fmod} are the op table's formulas over the lowered ops. {@code fround_even} adds and
 *       subtracts 2^52 to the magnitude (exact, and ties go to even by the add's own rounding)
 *       and puts the sign back, which is shorter than comparing the cleared bits with one half.
 *   <li>{@code frem} (C fmod, exact) is a loop, the one lowering that is not straight-line code:
 *       the remainder's exponent may exceed the divisor's by 2,000, and each round takes off at
 *       most 39 of that (see {@link #rem}).
 *   <li>{@code ldexp}: the exponent field plus the shift, rounded like a quotient when the result
 *       falls below the normal range (an exact sticky bit: nothing was lost before).
 * </ul>
 *
 * Every special case (±0, subnormals, ±inf, NaN, overflow, underflow) is selected at the end
 * with {@code bcsel}, so the main path may compute garbage for them. Vector instructions are
 * lowered as vectors; scalarization may come before or after.
 */
public final class LowerDoubles implements Pass {
    /** Every op this pass can lower. */
    public static final Set<Op> LOWERABLE = Collections.unmodifiableSet(EnumSet.of(
            Op.FDIV,
            Op.FRCP,
            Op.FSQRT,
            Op.FRSQ,
            Op.FTRUNC,
            Op.FFLOOR,
            Op.FCEIL,
            Op.FFRACT,
            Op.FROUND_EVEN,
            Op.FMOD,
            Op.FREM,
            Op.LDEXP));

    private final Set<Op> ops;

    /** Lowers every op of {@link #LOWERABLE}. */
    public LowerDoubles() {
        this(LOWERABLE);
    }

    /** Lowers the 64-bit instructions of these ops (those a target has no instruction for); others of {@code ops} are ignored. */
    public LowerDoubles(Set<Op> ops) {
        this.ops = LoweringBuilder.within(ops, LOWERABLE);
    }

    @Override
    public boolean run(Function fn) {
        return LoweringBuilder.replace64(fn, ops, (b, a) -> lower(b, a));
    }

    private static Value lower(LoweringBuilder b, AluInstr a) {
        Value x = b.src(a, 0);
        return switch (a.op()) {
            case FDIV -> div(b, x, b.src(a, 1));
            case FRCP -> div(b, b.f64(1.0), x);
            case FSQRT -> sqrt(b, x);
            case FRSQ -> div(b, b.f64(1.0), sqrt(b, x));
            case FTRUNC -> trunc(b, x);
            case FFLOOR -> floor(b, x);
            case FCEIL -> {
                Value t = trunc(b, x);
                yield b.sel(b.op(Op.FLT, t, x), b.op(Op.FADD, t, b.f64(1.0)), t);
            }
            case FFRACT -> b.op(Op.FSUB, x, floor(b, x));
            case FMOD -> {
                Value y = b.src(a, 1);
                yield b.op(Op.FSUB, x, b.op(Op.FMUL, y, floor(b, div(b, x, y))));
            }
            case FROUND_EVEN -> roundEven(b, x);
            case FREM -> rem(b, x, b.src(a, 1));
            case LDEXP -> ldexp(b, x, b.src(a, 1));
            default -> throw new IllegalStateException("lower_doubles has no lowering for " + a.opName());
        };
    }

    private static final long SIGN = 0x80000000L, EXP_MASK = 0x7ff00000L, FRACTION_HI = 0x000fffffL;

    /** A finite nonzero double as sig · 2^(exp − 1023), sig in [1, 2) (positive); subnormals scaled by 2^54 first. */
    private record Split(Value sig, Value exp) {}

    private static Split split(LoweringBuilder b, Value x) {
        Value sub = b.op(Op.IEQ, b.and(b.hi(x), b.u32(EXP_MASK)), b.u32(0));
        Value xs = b.sel(sub, b.op(Op.FMUL, x, b.f64(0x1p54)), x);
        Value hs = b.hi(xs);
        Value exp = b.op(Op.ISUB, b.and(b.op(Op.USHR, hs, b.u32(20)), b.u32(0x7ff)), b.sel(sub, b.u32(54), b.u32(0)));
        Value sig = b.withHi(xs, b.or(b.and(hs, b.u32(FRACTION_HI)), b.u32(0x3ff00000L)));
        return new Split(sig, exp);
    }

    private static Value isNan(LoweringBuilder b, Value x) {
        return b.op(Op.FNEU, x, x);
    }

    private static Value isInf(LoweringBuilder b, Value x) {
        return b.op(Op.FEQ, b.op(Op.FABS, x), b.f64(Double.POSITIVE_INFINITY));
    }

    private static Value isZero(LoweringBuilder b, Value x) {
        return b.op(Op.FEQ, x, b.f64(0.0));
    }

    /** Infinity with the sign bit {@code sign} (a high-word mask). */
    private static Value infinity(LoweringBuilder b, Value sign) {
        return b.pack(b.u32(0), b.or(sign, b.u32(EXP_MASK)));
    }

    /** The neighbour of a positive double q on the side where the exact value lies (the remainder {@code r > 0}: above). */
    private static Value neighbour(LoweringBuilder b, Value q, Value r) {
        return b.op(Op.IADD, q, b.sel(b.op(Op.FLT, b.f64(0.0), r), b.u64(1), b.u64(-1)));
    }

    /** a / b, correctly rounded. */
    static Value div(LoweringBuilder b, Value a, Value d) {
        Value sign = b.and(b.op(Op.IXOR, b.hi(a), b.hi(d)), b.u32(SIGN));
        Split na = split(b, a), nd = split(b, d);
        Value ma = na.sig(), md = nd.sig(), negMd = b.op(Op.FNEG, md);
        Value y = b.reciprocal(md);
        Value q0 = b.op(Op.FMUL, ma, y);
        Value q = b.op(Op.FFMA, b.op(Op.FFMA, negMd, q0, ma), y, q0);
        // The exact rounding: q is within an ulp of ma/md, so r = ma - md·q is exact in the fma.
        Value r = b.op(Op.FFMA, negMd, q, ma);
        Value qn = neighbour(b, q, r);
        Value half = b.op(Op.FMUL, b.op(Op.FMUL, md, b.op(Op.FABS, b.op(Op.FSUB, qn, q))), b.f64(0.5));
        Value ar = b.op(Op.FABS, r);
        Value even = b.sel(b.op(Op.IEQ, b.and(b.lo(q), b.u32(1)), b.u32(0)), q, qn);
        q = b.sel(b.op(Op.FLT, half, ar), qn, b.sel(b.op(Op.FEQ, ar, half), even, q));
        Value sticky = b.op(Op.FFMA, negMd, q, ma);
        Value result = scale(b, q, b.op(Op.ISUB, na.exp(), nd.exp()), sign, sticky);

        Value zeroA = isZero(b, a), zeroD = isZero(b, d), infA = isInf(b, a), infD = isInf(b, d);
        Value nan = b.or(b.or(isNan(b, a), isNan(b, d)), b.or(b.and(zeroA, zeroD), b.and(infA, infD)));
        Value toInf = b.or(infA, zeroD), toZero = b.or(zeroA, infD);
        return b.sel(
                nan, b.f64(Double.NaN), b.sel(toInf, infinity(b, sign), b.sel(toZero, b.pack(b.u32(0), sign), result)));
    }

    /**
     * The double q · 2^diff with the sign bit {@code sign} (a high-word mask), q a positive double
     * in [0.5, 2]: the exponent added to q's high word when the result is normal, infinity past the
     * range, and below it q's 53-bit significand shifted right and rounded to nearest even, ties
     * broken by {@code sticky} (positive: the exact value is above q; negative: below; zero: q is exact).
     */
    private static Value scale(LoweringBuilder b, Value q, Value diff, Value sign, Value sticky) {
        Value hq = b.hi(q);
        Value ef = b.op(Op.IADD, b.op(Op.USHR, hq, b.u32(20)), diff);
        Value normal = b.withHi(q, b.or(b.or(b.and(hq, b.u32(FRACTION_HI)), b.op(Op.ISHL, ef, b.u32(20))), sign));
        Value m = b.or(b.and(q, b.u64(0x000fffffffffffffL)), b.u64(0x0010000000000000L));
        Value sh = b.op(Op.IMAX, b.op(Op.IMIN, b.op(Op.ISUB, b.u32(1), ef), b.u32(63)), b.u32(1));
        Value kept = b.op(Op.USHR, m, sh);
        Value dropped = b.and(m, b.op(Op.ISUB, b.op(Op.ISHL, b.u64(1), sh), b.u64(1)));
        Value half = b.op(Op.ISHL, b.u64(1), b.op(Op.ISUB, sh, b.u32(1)));
        Value odd = b.op(Op.INE, b.and(b.lo(kept), b.u32(1)), b.u32(0));
        Value above = b.op(Op.FLT, b.f64(0.0), sticky), exact = b.op(Op.FEQ, sticky, b.f64(0.0));
        Value up =
                b.or(b.op(Op.ULT, half, dropped), b.and(b.op(Op.IEQ, dropped, half), b.or(above, b.and(exact, odd))));
        Value rounded = b.op(Op.IADD, kept, b.op(Op.B2I64, up));
        Value subnormal = b.pack(b.lo(rounded), b.or(b.hi(rounded), sign));
        return b.sel(
                b.op(Op.IGE, ef, b.u32(2047)), infinity(b, sign), b.sel(b.op(Op.IGE, ef, b.u32(1)), normal, subnormal));
    }

    /** sqrt(x), correctly rounded. */
    static Value sqrt(LoweringBuilder b, Value x) {
        Split s = split(b, x);
        Value e = b.op(Op.ISUB, s.exp(), b.u32(1023));
        Value odd = b.op(Op.INE, b.and(e, b.u32(1)), b.u32(0));
        Value m = b.sel(odd, b.op(Op.FMUL, s.sig(), b.f64(2.0)), s.sig()); // [1, 4), the exponent now even
        Value halfExp = b.op(Op.ISHR, b.op(Op.ISUB, e, b.op(Op.B2I32, odd)), b.u32(1));
        Value y = b.op(Op.F2F64, b.op(Op.FRSQ, b.op(Op.F2F32, m)));
        Value g = b.op(Op.FMUL, m, y), h = b.op(Op.FMUL, y, b.f64(0.5));
        for (int k = 0; k < 2; k++) {
            Value t = b.op(Op.FFMA, b.op(Op.FNEG, g), h, b.f64(0.5));
            g = b.op(Op.FFMA, g, t, g);
            h = b.op(Op.FFMA, h, t, h);
        }
        g = b.op(Op.FFMA, b.op(Op.FFMA, b.op(Op.FNEG, g), g, m), h, g);
        // The exact rounding: x' − (g ± u/2)² = r ∓ g·u − u²/4 with r = m − g² exact and u the
        // distance to the neighbour, so the root lies past the midpoint when |r| > g·u (and on
        // equality when r < 0); no square root of a double is a midpoint.
        Value r = b.op(Op.FFMA, b.op(Op.FNEG, g), g, m);
        Value gn = neighbour(b, g, r);
        Value gu = b.op(Op.FMUL, g, b.op(Op.FABS, b.op(Op.FSUB, gn, g)));
        Value ar = b.op(Op.FABS, r);
        Value past = b.or(b.op(Op.FLT, gu, ar), b.and(b.op(Op.FEQ, ar, gu), b.op(Op.FLT, r, b.f64(0.0))));
        g = b.sel(past, gn, g);
        Value root = b.withHi(g, b.op(Op.IADD, b.hi(g), b.op(Op.ISHL, halfExp, b.u32(20))));
        Value nan = b.or(isNan(b, x), b.op(Op.FLT, x, b.f64(0.0)));
        Value same = b.or(isZero(b, x), b.op(Op.FEQ, x, b.f64(Double.POSITIVE_INFINITY)));
        return b.sel(nan, b.f64(Double.NaN), b.sel(same, x, root));
    }

    /** trunc(x): the fraction bits cleared in the half that holds the binary point. */
    static Value trunc(LoweringBuilder b, Value x) {
        Value h = b.hi(x);
        Value e = b.op(Op.ISUB, b.and(b.op(Op.USHR, h, b.u32(20)), b.u32(0x7ff)), b.u32(1023));
        Value hiCleared = b.and(h, b.op(Op.INOT, b.op(Op.USHR, b.u32(FRACTION_HI), e)));
        Value loCleared = b.and(b.lo(x), b.op(Op.INOT, b.op(Op.USHR, b.u32(0xffffffffL), b.op(Op.ISUB, e, b.u32(20)))));
        Value t = b.sel(b.op(Op.ILT, e, b.u32(20)), b.pack(b.u32(0), hiCleared), b.pack(loCleared, h));
        return b.sel(
                b.op(Op.ILT, e, b.u32(0)),
                b.pack(b.u32(0), b.and(h, b.u32(SIGN))),
                b.sel(b.op(Op.IGE, e, b.u32(52)), kept(b, x), t));
    }

    /**
     * x where an op returns its operand unchanged: {@code x · 1.0}, so that a NaN comes out as the
     * float operation's canonical NaN the op table gives (the rules may drop the multiply; a NaN
     * may be any NaN, by the NaN contract).
     */
    private static Value kept(LoweringBuilder b, Value x) {
        return b.op(Op.FMUL, x, b.f64(1.0));
    }

    static Value floor(LoweringBuilder b, Value x) {
        Value t = trunc(b, x);
        return b.sel(b.op(Op.FLT, x, t), b.op(Op.FSUB, t, b.f64(1.0)), t);
    }

    /** round to nearest even: |x| + 2^52 − 2^52 rounds the magnitude, then the sign goes back (|x| ≥ 2^52 and NaN stay). */
    static Value roundEven(LoweringBuilder b, Value x) {
        Value ax = b.op(Op.FABS, x);
        Value two52 = b.f64(0x1p52);
        Value t = b.op(Op.FSUB, b.op(Op.FADD, ax, two52), two52);
        Value signed = b.withHi(t, b.or(b.hi(t), b.and(b.hi(x), b.u32(SIGN))));
        return b.sel(b.op(Op.FLT, ax, two52), signed, kept(b, x));
    }

    /** x · 2^e (e a signed 32-bit integer), rounded once. */
    static Value ldexp(LoweringBuilder b, Value x, Value e) {
        Split s = split(b, x);
        Value clamped = b.op(Op.IMAX, b.op(Op.IMIN, e, b.u32(4000)), b.u32(-4000));
        Value diff = b.op(Op.ISUB, b.op(Op.IADD, s.exp(), clamped), b.u32(1023));
        Value result = scale(b, s.sig(), diff, b.and(b.hi(x), b.u32(SIGN)), b.f64(0.0));
        Value same = b.or(b.or(isZero(b, x), isNan(b, x)), isInf(b, x));
        return b.sel(same, kept(b, x), result);
    }

    /**
     * C fmod, exact: r = |x| is reduced by multiples of t = |y|·2^k, k the exponent difference
     * less 39, so that each quotient is below 2^40 and an estimate q = floor(r·(1/|y|)·2^-k)
     * is off by at most one. Because r and q·t are multiples of t's ulp, {@code r - q·t} is exact
     * in an fma whenever it lies in (−t, t); it lies in [t, 2t) only when q is one short, and
     * then {@code r - (q+1)·t} is, so each round ends exact in [0, t) and takes at least 38 off
     * the exponent. The sign goes back at the end (the result has x's sign, even when zero).
     * Loops are per component: the lowered instruction may be a vector.
     */
    static Value rem(LoweringBuilder b, Value x, Value y) {
        int n = x.numComponents();
        if (n == 1) return remScalar(b, x, y);
        Value[] comps = new Value[n];
        for (int c = 0; c < n; c++) comps[c] = remScalar(b, b.op(Op.MOV, b.b.comp(x, c)), b.op(Op.MOV, b.b.comp(y, c)));
        return b.b.vec(comps);
    }

    private static Value remScalar(LoweringBuilder b, Value x, Value y) {
        Value ax = b.op(Op.FABS, x), ay = b.op(Op.FABS, y);
        Value nan = b.or(b.or(isNan(b, x), isNan(b, y)), b.or(isInf(b, x), isZero(b, y)));
        Split sy = split(b, ay);
        Value yinv = b.reciprocal(sy.sig());
        Value r0 = b.sel(nan, b.f64(0.0), ax);
        Block preheader = b.b.block();

        LoopNode loop = b.b.pushLoop();
        PhiInstr phi = b.b.phi(1, 64);
        Value r = phi.def();
        IfNode done = b.b.pushIf(b.or(b.op(Op.FLT, r, ay), nan));
        b.b.breakLoop();
        b.b.popIf(done);
        Split sr = split(b, r);
        Value k = b.op(Op.IMAX, b.op(Op.ISUB, b.op(Op.ISUB, sr.exp(), sy.exp()), b.u32(39)), b.u32(0));
        Value d = b.op(Op.ISUB, b.op(Op.ISUB, sr.exp(), sy.exp()), k); // in [0, 39]
        Value et = b.op(Op.IADD, sy.exp(), k);
        // t = |y|·2^k: the exponent field replaced when t is normal; below that k ≤ 54 and the
        // multiply by 2^k is exact.
        Value tNormal =
                b.withHi(sy.sig(), b.or(b.and(b.hi(sy.sig()), b.u32(FRACTION_HI)), b.op(Op.ISHL, et, b.u32(20))));
        Value t = b.sel(b.op(Op.ILT, b.u32(0), et), tNormal, b.op(Op.FMUL, ay, powerOfTwo(b, k)));
        Value estimate = b.op(Op.FMUL, b.op(Op.FMUL, sr.sig(), yinv), powerOfTwo(b, d));
        Value two52 = b.f64(0x1p52);
        Value nearest = b.op(Op.FSUB, b.op(Op.FADD, estimate, two52), two52);
        Value q = b.sel(b.op(Op.FLT, estimate, nearest), b.op(Op.FSUB, nearest, b.f64(1.0)), nearest);
        Value negT = b.op(Op.FNEG, t);
        Value v = b.op(Op.FFMA, negT, q, r);
        v = b.sel(b.op(Op.FGE, v, t), b.op(Op.FFMA, negT, b.op(Op.FADD, q, b.f64(1.0)), r), v);
        v = b.sel(b.op(Op.FLT, v, b.f64(0.0)), b.op(Op.FADD, v, t), v);
        Block latch = b.b.block();
        phi.addSrc(preheader, r0);
        phi.addSrc(latch, v);
        b.b.popLoop(loop);

        Value signed = b.withHi(r, b.or(b.hi(r), b.and(b.hi(x), b.u32(SIGN))));
        return b.sel(nan, b.f64(Double.NaN), signed);
    }

    /** 2^e for an integer e in [-1022, 1023] (outside that, garbage that the caller does not select). */
    private static Value powerOfTwo(LoweringBuilder b, Value e) {
        return b.pack(b.u32(0), b.op(Op.ISHL, b.op(Op.IADD, e, b.u32(1023)), b.u32(20)));
    }
}
