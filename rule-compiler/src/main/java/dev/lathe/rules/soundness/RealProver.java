package dev.lathe.rules.soundness;

import com.microsoft.z3.ArithExpr;
import com.microsoft.z3.BoolExpr;
import com.microsoft.z3.Context;
import com.microsoft.z3.Expr;
import com.microsoft.z3.Model;
import com.microsoft.z3.Params;
import com.microsoft.z3.RatNum;
import com.microsoft.z3.RealExpr;
import com.microsoft.z3.Solver;
import com.microsoft.z3.Status;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Proves a reassociation rule ({@code ~~>}) over the real numbers with Z3's real arithmetic: each
 * float op is the real operation it rounds, as {@link RealEvaluator} evaluates it, and the solver
 * is asked for reals where the pattern is defined and the replacement is not, or gives another
 * value. Literals are the float values they have at the rule's sizes. Ops without a polynomial or
 * rational meaning (the transcendental ones, floor and its kin) and conditions other than signs
 * and zero leave the rule tested only. A model the solver finds is replayed with
 * {@link RealEvaluator} on the nearest floats; a model that does not replay is reported unknown,
 * never refuted.
 */
final class RealProver {
    /** What one question gave: unsat (proved), sat with a description, unknown with why, or untranslatable. */
    record Answer(Status status, String detail, Map<String, Double> model) {}

    private final Context ctx;

    RealProver(Context ctx) {
        this.ctx = ctx;
    }

    /** Thrown where the rule says something this encoding cannot: the rule stays tested only. */
    static final class NotEncoded extends RuntimeException {
        NotEncoded(String what) {
            super(what, null, false, false);
        }
    }

    /** A side's value and the condition under which it is defined. */
    private record Term(Expr<?> value, BoolExpr defined) {}

    Answer prove(CheckedRule rule, RuleEvaluator.Sizes sizes, int timeoutMs) {
        Map<String, RealExpr> vars = new LinkedHashMap<>();
        for (String v : rule.variables()) {
            if (rule.varTypes().get(v) != TypeClass.FLOAT && rule.varTypes().get(v) != TypeClass.ANY)
                throw new NotEncoded("the " + rule.varTypes().get(v).spelling() + " variable " + v);
            vars.put(v, ctx.mkRealConst(v));
        }
        List<BoolExpr> facts = new ArrayList<>();
        for (Condition c : rule.conditions())
            facts.add(condition(c, vars.get(c.var().name())));
        Term p = term(rule.pattern(), vars, sizes);
        Term r = term(rule.replacement(), vars, sizes);
        facts.add(p.defined());
        facts.add(ctx.mkOr(ctx.mkNot(r.defined()), ctx.mkNot(ctx.mkEq(p.value(), r.value()))));
        Solver s = ctx.mkSolver();
        Params params = ctx.mkParams();
        params.add("timeout", timeoutMs);
        s.setParameters(params);
        for (BoolExpr f : facts) s.add(f);
        Status st = s.check();
        if (st != Status.SATISFIABLE)
            return new Answer(st, st == Status.UNKNOWN ? s.getReasonUnknown() : null, Map.of());
        Model m = s.getModel();
        List<String> parts = new ArrayList<>();
        Map<String, Double> values = new LinkedHashMap<>();
        for (Map.Entry<String, RealExpr> e : vars.entrySet()) {
            Expr<?> v = m.eval(e.getValue(), true);
            if (!(v instanceof RatNum q)) return new Answer(Status.UNKNOWN, "an irrational model: " + v, Map.of());
            double d = new java.math.BigDecimal(q.getBigIntNumerator())
                    .divide(new java.math.BigDecimal(q.getBigIntDenominator()), java.math.MathContext.DECIMAL64)
                    .doubleValue();
            values.put(e.getKey(), d);
            parts.add(e.getKey() + " = " + q.toDecimalString(12));
        }
        return new Answer(Status.SATISFIABLE, String.join(", ", parts), values);
    }

    private BoolExpr condition(Condition c, RealExpr x) {
        if (c.type() != TypeClass.FLOAT) throw new NotEncoded("the condition " + c.text());
        ArithExpr<?> zero = ctx.mkReal(0);
        return switch (c.predicate()) {
            case IS_ZERO -> ctx.mkEq(x, zero);
            case IS_NOT_ZERO -> ctx.mkNot(ctx.mkEq(x, zero));
            case IS_GT_ZERO, IS_GT_ZERO_OR_NAN -> ctx.mkGt(x, zero);
            case IS_LT_ZERO, IS_LT_ZERO_OR_NAN -> ctx.mkLt(x, zero);
            case IS_GE_ZERO, IS_NOT_NEGATIVE, IS_GE_ZERO_OR_NAN -> ctx.mkGe(x, zero);
            case IS_LE_ZERO, IS_NOT_POSITIVE, IS_LE_ZERO_OR_NAN -> ctx.mkLe(x, zero);
            // every real is finite and a number
            case IS_FINITE,
                    IS_A_NUMBER,
                    IS_NOT_CONST,
                    IS_NOT_CONST_ZERO,
                    IS_FMUL,
                    IS_NOT_FMUL,
                    IS_NOT_CONST_AND_NOT_FSIGN -> ctx.mkTrue();
            case IS_IN_UNIT_INTERVAL, IS_ZERO_TO_ONE -> ctx.mkAnd(ctx.mkGe(x, zero), ctx.mkLe(x, ctx.mkReal(1)));
            case IS_GT_0_AND_LT_1 -> ctx.mkAnd(ctx.mkGt(x, zero), ctx.mkLt(x, ctx.mkReal(1)));
            default -> throw new NotEncoded("the condition " + c.text());
        };
    }

    private Term term(Node n, Map<String, RealExpr> vars, RuleEvaluator.Sizes sizes) {
        BoolExpr yes = ctx.mkTrue();
        if (n instanceof Node.VarNode v) {
            if (sizes.of(v.sizeClass()) == 1) throw new NotEncoded("the boolean variable " + v.name());
            return new Term(vars.get(v.name()), yes);
        }
        if (n instanceof Node.ConstNode c) {
            int bits = sizes.of(c.sizeClass());
            long x = RuleLiteral.of(c.text()).bits(bits, c.asFloat());
            if (bits == 1) return new Term(ctx.mkBool((x & 1) != 0), yes);
            if (!c.asFloat()) throw new NotEncoded("the integer literal " + c.text());
            return new Term(real(FloatBits.toDouble(x, bits)), yes);
        }
        Node.OpNode op = (Node.OpNode) n;
        Term[] s = new Term[op.srcs().size()];
        List<BoolExpr> defined = new ArrayList<>();
        for (int i = 0; i < s.length; i++) {
            s[i] = term(op.srcs().get(i), vars, sizes);
            if (op.op() != dev.lathe.ir.op.Op.BCSEL || i == 0) defined.add(s[i].defined());
        }
        Expr<?> value = switch (op.op()) {
            case FADD -> ctx.mkAdd(a(s[0]), a(s[1]));
            case FSUB -> ctx.mkSub(a(s[0]), a(s[1]));
            case FMUL, FMULZ -> ctx.mkMul(a(s[0]), a(s[1]));
            case FFMA, FFMAZ -> ctx.mkAdd(ctx.mkMul(a(s[0]), a(s[1])), a(s[2]));
            case F2F16, F2F16_RTNE, F2F16_RTZ, F2F32, F2F64, F2FMP -> s[0].value();
            case FLRP -> ctx.mkAdd(ctx.mkMul(a(s[0]), ctx.mkSub(ctx.mkReal(1), a(s[2]))), ctx.mkMul(a(s[1]), a(s[2])));
            case FNEG -> ctx.mkUnaryMinus(a(s[0]));
            case FABS -> ctx.mkITE(ctx.mkLt(a(s[0]), ctx.mkReal(0)), ctx.mkUnaryMinus(a(s[0])), a(s[0]));
            case FMIN -> ctx.mkITE(ctx.mkLe(a(s[0]), a(s[1])), a(s[0]), a(s[1]));
            case FMAX -> ctx.mkITE(ctx.mkGe(a(s[0]), a(s[1])), a(s[0]), a(s[1]));
            case FSAT ->
                ctx.mkITE(
                        ctx.mkLt(a(s[0]), ctx.mkReal(0)),
                        ctx.mkReal(0),
                        ctx.mkITE(ctx.mkGt(a(s[0]), ctx.mkReal(1)), ctx.mkReal(1), a(s[0])));
            case FSIGN ->
                ctx.mkITE(
                        ctx.mkGt(a(s[0]), ctx.mkReal(0)),
                        ctx.mkReal(1),
                        ctx.mkITE(ctx.mkLt(a(s[0]), ctx.mkReal(0)), ctx.mkReal(-1), ctx.mkReal(0)));
            case FDIV -> {
                defined.add(ctx.mkNot(ctx.mkEq(a(s[1]), ctx.mkReal(0))));
                yield ctx.mkDiv(a(s[0]), a(s[1]));
            }
            case FRCP -> {
                defined.add(ctx.mkNot(ctx.mkEq(a(s[0]), ctx.mkReal(0))));
                yield ctx.mkDiv(ctx.mkReal(1), a(s[0]));
            }
            case FLT -> ctx.mkLt(a(s[0]), a(s[1]));
            case FGE -> ctx.mkGe(a(s[0]), a(s[1]));
            case FEQ -> ctx.mkEq(a(s[0]), a(s[1]));
            case FNEU -> ctx.mkNot(ctx.mkEq(a(s[0]), a(s[1])));
            case BCSEL -> {
                BoolExpr c = b(s[0]);
                defined.add((BoolExpr) ctx.mkITE(c, s[1].defined(), s[2].defined()));
                yield ctx.mkITE(c, s[1].value(), s[2].value());
            }
            case B2F16, B2F32, B2F64 -> ctx.mkITE(b(s[0]), ctx.mkReal(1), ctx.mkReal(0));
            case INOT -> ctx.mkNot(b(s[0]));
            case IAND -> ctx.mkAnd(b(s[0]), b(s[1]));
            case IOR -> ctx.mkOr(b(s[0]), b(s[1]));
            case IXOR -> ctx.mkXor(b(s[0]), b(s[1]));
            case MOV -> s[0].value();
            default -> throw new NotEncoded(op.op().opName() + " over the reals");
        };
        return new Term(value, ctx.mkAnd(defined.toArray(new BoolExpr[0])));
    }

    @SuppressWarnings("unchecked")
    private ArithExpr<?> a(Term t) {
        if (t.value() instanceof ArithExpr<?> x) return x;
        throw new NotEncoded("a boolean where a number is read");
    }

    private BoolExpr b(Term t) {
        if (t.value() instanceof BoolExpr x) return x;
        throw new NotEncoded("a number where a boolean is read");
    }

    /** The exact rational value of a finite double. */
    private ArithExpr<?> real(double d) {
        if (!Double.isFinite(d)) throw new NotEncoded("the literal " + d + ", which is not a real");
        java.math.BigDecimal v = new java.math.BigDecimal(d);
        java.math.BigInteger unscaled = v.unscaledValue();
        int scale = v.scale();
        if (scale <= 0)
            return ctx.mkReal(
                    unscaled.multiply(java.math.BigInteger.TEN.pow(-scale)).toString());
        return ctx.mkReal(unscaled.toString() + "/" + java.math.BigInteger.TEN.pow(scale));
    }
}
