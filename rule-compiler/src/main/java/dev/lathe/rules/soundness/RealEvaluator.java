package dev.lathe.rules.soundness;

import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Node;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Evaluates both sides of a reassociation rule ({@code ~~>}) over the real numbers: each float op
 * is the operation of real arithmetic it rounds ({@code fadd} is +, {@code ffma} is a * b + c,
 * {@code fmin} is min), computed exactly with {@link BigDecimal} (division to 100 digits), and the
 * transcendental ones ({@code fexp2}, {@code flog2}, {@code fsin} …) in double precision, marked
 * approximate. Inputs are the finite float values drawn for the rule's variables; an op outside
 * its domain (division by zero, the logarithm of a number that is not positive) makes its side
 * undefined. Booleans (comparisons, {@code bcsel}'s condition, {@code b2f32}) are booleans.
 */
final class RealEvaluator {
    private static final MathContext DIVISION = new MathContext(100, RoundingMode.HALF_EVEN);

    /** Thrown for an op or a value without a meaning over the reals: the rule is unchecked. */
    static final class NoRealMeaning extends RuntimeException {
        NoRealMeaning(String what) {
            super(what, null, false, false);
        }
    }

    /** A value: a real (approximate when a transcendental op made it), a boolean, or undefined. */
    sealed interface Val permits Real, Bool, Undefined {}

    record Real(BigDecimal v, boolean approx) implements Val {}

    record Bool(boolean v) implements Val {}

    record Undefined(String why) implements Val {}

    private final CheckedRule rule;

    RealEvaluator(CheckedRule rule) {
        this.rule = rule;
    }

    /** Whether every input is finite (a NaN or an infinity has no real value). */
    static boolean finiteInputs(Map<String, Long> in, Map<String, Integer> bits, Map<String, TypeClass> types) {
        for (Map.Entry<String, Long> e : in.entrySet()) {
            if (types.get(e.getKey()) == TypeClass.FLOAT
                    && !Double.isFinite(FloatBits.toDouble(e.getValue(), bits.get(e.getKey())))) return false;
        }
        return true;
    }

    Val pattern(Map<String, Long> in, RuleEvaluator.Sizes sizes, RuleEvaluator ev) {
        return eval(rule.pattern(), in, sizes, ev);
    }

    Val replacement(Map<String, Long> in, RuleEvaluator.Sizes sizes, RuleEvaluator ev) {
        return eval(rule.replacement(), in, sizes, ev);
    }

    /** Whether the two sides are the same real (booleans: the same truth), approximate ones within 1e-9. */
    static boolean same(Val p, Val r) {
        if (p instanceof Bool a && r instanceof Bool b) return a.v() == b.v();
        if (!(p instanceof Real a) || !(r instanceof Real b)) return false;
        BigDecimal diff = a.v().subtract(b.v()).abs();
        if (!a.approx() && !b.approx()) {
            // exact but for divisions rounded at 100 digits (1 / (1 / a) is a to 99 digits, not a)
            BigDecimal scale = a.v().abs().max(b.v().abs());
            return diff.compareTo(scale.multiply(new BigDecimal("1e-90"))) <= 0;
        }
        // a transcendental op computed in double precision: good to about 1e-9 of the larger
        // value, and to about 1e-15 absolute where a logarithm or a sine comes out near 0 (log2 of
        // the double nearest 1 + 2^-53 is 0): no value below 1e-6 is trusted to its own scale
        BigDecimal scale = a.v().abs().max(b.v().abs()).max(new BigDecimal("1e-6"));
        return diff.compareTo(scale.multiply(new BigDecimal("1e-9"))) <= 0;
    }

    /** Whether a side is undefined only because a transcendental op left double's range (not the reals'). */
    static boolean beyondDouble(Val v) {
        return v instanceof Undefined u && u.why().equals(OUT_OF_RANGE);
    }

    private static final String OUT_OF_RANGE = "out of double's range";

    static String show(Val v) {
        if (v instanceof Real r)
            return (r.approx() ? "about " : "")
                    + r.v().round(new MathContext(17)).stripTrailingZeros().toPlainString();
        if (v instanceof Bool b) return Boolean.toString(b.v());
        return "nothing (" + ((Undefined) v).why() + ")";
    }

    private Val eval(Node n, Map<String, Long> in, RuleEvaluator.Sizes sizes, RuleEvaluator ev) {
        if (n instanceof Node.VarNode v) {
            int bits = sizes.of(v.sizeClass());
            long x = in.get(v.name());
            TypeClass t = rule.varTypes().get(v.name());
            if (bits == 1) return new Bool((x & 1) != 0);
            if (t != TypeClass.FLOAT || bits < 16) throw new NoRealMeaning("the integer variable " + v.name());
            return real(FloatBits.toDouble(x, bits), false);
        }
        if (n instanceof Node.ConstNode c) {
            int bits = sizes.of(c.sizeClass());
            long x = RuleLiteral.of(c.text()).bits(bits, c.asFloat());
            if (bits == 1) return new Bool((x & 1) != 0);
            if (!c.asFloat()) throw new NoRealMeaning("the integer literal " + c.text());
            return real(FloatBits.toDouble(x, bits), false);
        }
        Node.OpNode op = (Node.OpNode) n;
        Val[] s = new Val[op.srcs().size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = eval(op.srcs().get(i), in, sizes, ev);
            // bcsel takes one arm: the other may be undefined
            if (s[i] instanceof Undefined u && op.op() != Op.BCSEL) return u;
        }
        return apply(op.op(), s);
    }

    private static Val apply(Op op, Val[] s) {
        return switch (op) {
            case FADD -> real(r(s[0]).add(r(s[1])), approx(s));
            case FSUB -> real(r(s[0]).subtract(r(s[1])), approx(s));
            // fmulz and ffmaz differ from fmul and ffma only on infinities and NaN, which no real is
            case FMUL, FMULZ -> real(r(s[0]).multiply(r(s[1])), approx(s));
            case FFMA, FFMAZ -> real(r(s[0]).multiply(r(s[1])).add(r(s[2])), approx(s));
            // a conversion between float sizes only rounds (mediump's too): over the reals, nothing
            case F2F16, F2F16_RTNE, F2F16_RTZ, F2F32, F2F64, F2FMP -> s[0];
            case FLRP ->
                real(r(s[0]).multiply(BigDecimal.ONE.subtract(r(s[2]))).add(r(s[1]).multiply(r(s[2]))), approx(s));
            case FNEG -> real(r(s[0]).negate(), approx(s));
            case FABS -> real(r(s[0]).abs(), approx(s));
            case FMIN -> real(r(s[0]).min(r(s[1])), approx(s));
            case FMAX -> real(r(s[0]).max(r(s[1])), approx(s));
            case FSAT -> real(r(s[0]).max(BigDecimal.ZERO).min(BigDecimal.ONE), approx(s));
            case FSIGN -> real(BigDecimal.valueOf(r(s[0]).signum()), approx(s));
            case FFLOOR -> real(r(s[0]).setScale(0, RoundingMode.FLOOR), approx(s));
            case FCEIL -> real(r(s[0]).setScale(0, RoundingMode.CEILING), approx(s));
            case FTRUNC -> real(r(s[0]).setScale(0, RoundingMode.DOWN), approx(s));
            case FROUND_EVEN -> real(r(s[0]).setScale(0, RoundingMode.HALF_EVEN), approx(s));
            case FFRACT -> real(r(s[0]).subtract(r(s[0]).setScale(0, RoundingMode.FLOOR)), approx(s));
            case FDIV ->
                r(s[1]).signum() == 0
                        ? new Undefined("division by zero")
                        : real(r(s[0]).divide(r(s[1]), DIVISION), approx(s));
            case FRCP ->
                r(s[0]).signum() == 0
                        ? new Undefined("the reciprocal of zero")
                        : real(BigDecimal.ONE.divide(r(s[0]), DIVISION), approx(s));
            case FSQRT ->
                r(s[0]).signum() < 0
                        ? new Undefined("the square root of a negative number")
                        : real(r(s[0]).sqrt(DIVISION), true);
            case FRSQ ->
                r(s[0]).signum() <= 0
                        ? new Undefined("the reciprocal square root of a number that is not positive")
                        : real(BigDecimal.ONE.divide(r(s[0]).sqrt(DIVISION), DIVISION), true);
            case FEXP2 -> power(Math.pow(2, d(s[0])));
            case FLOG2 ->
                r(s[0]).signum() <= 0
                        ? new Undefined("the logarithm of a number that is not positive")
                        : transcendental(Math.log(d(s[0])) / Math.log(2));
            case FPOW ->
                r(s[0]).signum() <= 0
                        ? new Undefined("a power of a number that is not positive")
                        : power(Math.pow(d(s[0]), d(s[1])));
            case FSIN -> transcendental(Math.sin(d(s[0])));
            case FCOS -> transcendental(Math.cos(d(s[0])));
            case FLT -> new Bool(r(s[0]).compareTo(r(s[1])) < 0);
            case FGE -> new Bool(r(s[0]).compareTo(r(s[1])) >= 0);
            case FEQ -> new Bool(r(s[0]).compareTo(r(s[1])) == 0);
            case FNEU -> new Bool(r(s[0]).compareTo(r(s[1])) != 0);
            case BCSEL -> {
                if (!(s[0] instanceof Bool c)) throw new NoRealMeaning("bcsel's condition");
                yield c.v() ? s[1] : s[2];
            }
            case B2F16, B2F32, B2F64 -> real(b(s[0]) ? BigDecimal.ONE : BigDecimal.ZERO, false);
            case INOT -> new Bool(!b(s[0]));
            case IAND -> new Bool(b(s[0]) && b(s[1]));
            case IOR -> new Bool(b(s[0]) || b(s[1]));
            case IXOR -> new Bool(b(s[0]) ^ b(s[1]));
            case MOV -> s[0];
            default -> throw new NoRealMeaning(op.opName());
        };
    }

    /**
     * A power, which is never 0 over the reals: one that double's range flushes to zero or to a
     * subnormal (2^-1057 keeps 9 digits) is as far from the real value as an overflow.
     */
    private static Val power(double d) {
        if (Math.abs(d) < Double.MIN_NORMAL) return new Undefined(OUT_OF_RANGE);
        return transcendental(d);
    }

    private static Val transcendental(double d) {
        if (!Double.isFinite(d)) return new Undefined(OUT_OF_RANGE);
        return real(d, true);
    }

    private static Real real(double d, boolean approx) {
        return new Real(new BigDecimal(d), approx);
    }

    private static Real real(BigDecimal v, boolean approx) {
        return new Real(v, approx);
    }

    private static boolean approx(Val[] s) {
        for (Val v : s) if (v instanceof Real r && r.approx()) return true;
        return false;
    }

    private static BigDecimal r(Val v) {
        if (v instanceof Real r) return r.v();
        throw new NoRealMeaning("a boolean where a number is read");
    }

    private static double d(Val v) {
        return r(v).doubleValue();
    }

    private static boolean b(Val v) {
        if (v instanceof Bool b) return b.v();
        throw new NoRealMeaning("a number where a boolean is read");
    }
}
