package dev.lathe.ir.analysis.range;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.Analyses;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.ValueFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * The range analysis answering rule conditions while a rule pass rewrites the function, never
 * with a stale answer. Elements are computed when a condition first asks ({@link
 * RangeAnalysis#onDemand}), so a pass pays only for the values its conditions name.
 *
 * <ul>
 *   <li>an exact rewrite ({@code =>}) replaces a value by one with the same bits, so every fact
 *       stays true, but what was computed from it may now be loose (a fresh analysis could
 *       know more: a value folded to a constant); {@link #mayBeLoose} says so;
 *   <li>an inexact one ({@code ~=>}) may change the value, so everything computed from it —
 *       the users that now read the result, their users, and so on — is forgotten
 *       ({@link RangeAnalysis#forget}) and computed again from the current operands when next
 *       asked for;
 *   <li>a value the analysis never saw (made by a rewrite) is computed from its operands when
 *       first asked for.
 * </ul>
 */
public final class RangeFacts implements ValueFacts {
    private final RangeAnalysis analysis;
    /** Where the time of each query goes (--time-passes), or null. */
    private Analyses timer;

    public RangeFacts(RangeAnalysis analysis) {
        this.analysis = analysis;
    }

    /**
     * Facts about {@code fn}, each computed when first asked for; the transfer functions' memo
     * is the one every analysis of the shader shares ({@link dev.lathe.ir.Shader#memo}).
     */
    public static RangeFacts analyze(Function fn) {
        RangeTransfer transfer =
                fn.shader() == null ? new RangeTransfer() : fn.shader().memo(RangeTransfer.class, RangeTransfer::new);
        return new RangeFacts(RangeAnalysis.onDemand(fn, transfer));
    }

    /** Collect the time spent answering in {@code timer} (null: stop). */
    public void timeWith(Analyses timer) {
        this.timer = timer;
    }

    /** The current element of a component of {@code v}. */
    public Range range(Value v, int component) {
        if (timer == null) return analysis.range(v, component);
        long start = System.nanoTime();
        Range r = analysis.range(v, component);
        timer.addTime(Analyses.Kind.RANGES, System.nanoTime() - start);
        return r;
    }

    @Override
    public boolean holds(Predicate p, Value v, int component, TypeClass type, long bound) {
        return holds(p, range(v, component), type, bound);
    }

    @Override
    public boolean holds(Predicate p, Value v, int component, TypeClass type, long bound, Instr at) {
        return holds(p, rangeAt(v, component, at), type, bound);
    }

    /** The element of a component of {@code v} as read where {@code at} executes. */
    public Range rangeAt(Value v, int component, Instr at) {
        long start = timer == null ? 0 : System.nanoTime();
        Range r = analysis.range(v, component);
        if (at != null && at.isInserted()) r = analysis.refine(v, component, r, at.block());
        if (timer != null) timer.addTime(Analyses.Kind.RANGES, System.nanoTime() - start);
        return r;
    }

    @Override
    public void rewritten(AluInstr root, Value result, boolean exact, List<Instr> movedUsers) {
        replaced(root.def(), result, exact, movedUsers);
    }

    /**
     * {@code old} was replaced by {@code now}: {@code movedUsers} read {@code now} instead (an
     * exact replacement keeps the bits, an inexact one may not). Every pass that keeps these
     * facts ({@link Analyses#keep}) reports each replacement it makes here.
     */
    public void replaced(Value old, Value now, boolean exact, List<Instr> movedUsers) {
        long start = timer == null ? 0 : System.nanoTime();
        List<Value> changed = new ArrayList<>();
        for (Instr i : movedUsers) {
            if (i.def() != null) changed.add(i.def());
        }
        if (!exact) analysis.forget(changed);
        // the same element, but the branches may narrow reads of `now` that did not narrow `old`
        else if (!analysis.sameElements(old, now) || analysis.narrowedByBranches(now)) analysis.loosen(changed);
        analysis.rewritten(now, movedUsers, exact);
        if (timer != null) timer.addTime(Analyses.Kind.RANGES, System.nanoTime() - start);
    }

    /** Every use of {@code old} reads {@code now} (with the same bits) instead, reported here ({@link #replaced}). */
    public void replaceAllUses(Value old, Value now) {
        List<Instr> users = new ArrayList<>();
        for (Src u = old.firstUse(); u != null; u = u.nextUse()) if (u.instr() != null) users.add(u.instr());
        old.replaceAllUsesWith(now);
        replaced(old, now, true, users);
    }

    /** Makes the facts as good as fresh ones (see {@link RangeAnalysis#refresh}). */
    public void refresh() {
        analysis.refresh();
    }

    /**
     * Whether an answer about {@code v} read where {@code at} executes (or anywhere, for null)
     * may be looser than fresh facts would give: something it was computed from was rewritten
     * since.
     */
    public boolean mayBeLoose(Value v, Instr at) {
        return analysis.isLoose(v) || at != null && at.isInserted() && analysis.isLoose(at.block());
    }

    /**
     * Whether predicate {@code p} holds for every value of an element, read as {@code type}
     * (FLOAT; UINT unsigned; other integer types signed) — the meaning {@link Predicate#holds}
     * gives one value.
     */
    public static boolean holds(Predicate p, Range r, TypeClass type, long bound) {
        if (r.empty()) return false;
        if (r.isConstant()) return p.holds(r.uLo(), r.bits(), type, bound);
        if (type == TypeClass.FLOAT) {
            if (!r.isFloatSize()) return false;
            int nonNegative = FloatClass.between(FloatClass.POS_ZERO, FloatClass.POS_INF);
            int nonPositive = FloatClass.between(FloatClass.NEG_INF, FloatClass.NEG_ZERO);
            int nan = FloatClass.bit(FloatClass.NAN);
            return switch (p) {
                case IS_ZERO -> r.onlyIn(FloatClass.ZEROS);
                case IS_NOT_ZERO -> !r.mayBe(FloatClass.ZEROS);
                case IS_NOT_NEGATIVE -> r.onlyIn(nonNegative);
                case IS_NOT_POSITIVE -> r.onlyIn(nonPositive);
                case IS_GT_ZERO -> r.onlyIn(FloatClass.between(FloatClass.ZERO_1, FloatClass.POS_INF));
                case IS_LT_ZERO -> r.onlyIn(FloatClass.between(FloatClass.NEG_INF, FloatClass.NEG1_0));
                case IS_GE_ZERO -> r.onlyIn(FloatClass.between(FloatClass.NEG_ZERO, FloatClass.POS_INF));
                case IS_LE_ZERO -> r.onlyIn(FloatClass.between(FloatClass.NEG_INF, FloatClass.POS_ZERO));
                case IS_FINITE -> r.onlyIn(FloatClass.between(FloatClass.LT_NEG1, FloatClass.GT1));
                case IS_A_NUMBER -> !r.mayBe(FloatClass.bit(FloatClass.NAN));
                case IS_INTEGRAL ->
                    !r.mayBe(FloatClass.bit(FloatClass.NAN)) && (r.whole() || r.onlyIn(FloatClass.WHOLE_POINTS));
                case IS_INTEGRAL_OR_NAN ->
                    r.whole() || r.onlyIn(FloatClass.WHOLE_POINTS | FloatClass.bit(FloatClass.NAN));
                case IS_IN_UNIT_INTERVAL -> r.onlyIn(FloatClass.between(FloatClass.POS_ZERO, FloatClass.ONE));
                // NIR's range classes: the comparison holds, or the value is a NaN
                case IS_GE_ZERO_OR_NAN -> r.onlyIn(FloatClass.between(FloatClass.NEG_ZERO, FloatClass.POS_INF) | nan);
                case IS_GT_ZERO_OR_NAN -> r.onlyIn(FloatClass.between(FloatClass.ZERO_1, FloatClass.POS_INF) | nan);
                case IS_LE_ZERO_OR_NAN -> r.onlyIn(FloatClass.between(FloatClass.NEG_INF, FloatClass.POS_ZERO) | nan);
                case IS_LT_ZERO_OR_NAN -> r.onlyIn(FloatClass.between(FloatClass.NEG_INF, FloatClass.NEG1_0) | nan);
                default -> false;
            };
        }
        if (type == TypeClass.UINT) {
            return switch (p) {
                case IS_ZERO -> r.uHi() == 0;
                case IS_NOT_ZERO, IS_GT_ZERO, IS_GT_ZERO_OR_NAN -> r.uLo() != 0;
                case IS_NOT_NEGATIVE, IS_GE_ZERO, IS_GE_ZERO_OR_NAN -> true;
                case IS_NOT_POSITIVE, IS_LE_ZERO, IS_LE_ZERO_OR_NAN -> r.uHi() == 0;
                case ULT_CONST -> Long.compareUnsigned(r.uHi(), bound) < 0;
                case ILT_CONST -> r.sHi() < bound;
                // intervals say nothing of divisibility, except of a single value
                case IS_UNSIGNED_MULTIPLE_OF -> r.uLo() == r.uHi() && Long.remainderUnsigned(r.uLo(), bound) == 0;
                default -> false;
            };
        }
        return switch (p) {
            case IS_ZERO -> r.sLo() == 0 && r.sHi() == 0;
            case IS_NOT_ZERO -> r.sLo() > 0 || r.sHi() < 0 || r.uLo() != 0;
            case IS_NOT_NEGATIVE, IS_GE_ZERO, IS_GE_ZERO_OR_NAN -> r.sLo() >= 0;
            case IS_NOT_POSITIVE, IS_LE_ZERO, IS_LE_ZERO_OR_NAN -> r.sHi() <= 0;
            case IS_GT_ZERO, IS_GT_ZERO_OR_NAN -> r.sLo() > 0;
            case IS_LT_ZERO, IS_LT_ZERO_OR_NAN -> r.sHi() < 0;
            case IS_UNSIGNED_MULTIPLE_OF -> r.uLo() == r.uHi() && Long.remainderUnsigned(r.uLo(), bound) == 0;
            case ULT_CONST -> Long.compareUnsigned(r.uHi(), bound) < 0;
            case ILT_CONST -> r.sHi() < bound;
            default -> false;
        };
    }
}
