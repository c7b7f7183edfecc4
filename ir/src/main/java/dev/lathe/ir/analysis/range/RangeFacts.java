package dev.lathe.ir.analysis.range;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.ValueFacts;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The range analysis answering rule conditions while a rule pass rewrites the function, never
 * with a stale answer:
 *
 * <ul>
 *   <li>an exact rewrite ({@code =>}) replaces a value by one with the same bits, so every fact
 *       stays true;
 *   <li>an inexact one ({@code ~=>}) may change the value, so everything computed from it —
 *       the users that now read the result, their users, and so on — is marked stale;
 *   <li>a value the analysis never saw (made by a rewrite) or a stale one is recomputed from its
 *       operands when first asked (a stale phi, whose inputs may run round a loop, is
 *       "anything"), and cached until something below it changes again.
 * </ul>
 */
public final class RangeFacts implements ValueFacts {
    /** Recomputing a value recomputes its unknown operands first, down to this depth. */
    private static final int MAX_DEPTH = 64;

    private final RangeAnalysis analysis;
    private final Map<Value, Range[]> recomputed = new HashMap<>();
    private final Set<Value> stale = new HashSet<>();

    public RangeFacts(RangeAnalysis analysis) {
        this.analysis = analysis;
    }

    /** Analyzes {@code fn} and answers from the result. */
    public static RangeFacts analyze(Function fn) {
        return new RangeFacts(RangeAnalysis.run(fn));
    }

    /** The current element of a component of {@code v}. */
    public Range range(Value v, int component) {
        return ranges(v, 0)[component];
    }

    private Range[] ranges(Value v, int depth) {
        if (analysis.knows(v) && !stale.contains(v)) {
            Range[] r = new Range[v.numComponents()];
            for (int c = 0; c < r.length; c++) r[c] = analysis.range(v, c);
            return r;
        }
        Range[] cached = recomputed.get(v);
        if (cached != null) return cached;
        Instr def = v.parent();
        Range[] r;
        if (depth >= MAX_DEPTH || def instanceof PhiInstr || def == null || !def.isInserted()) {
            r = new Range[v.numComponents()];
            Arrays.fill(r, Range.top(v.bitSize()));
        } else {
            r = analysis.evaluate(def, (w, k) -> ranges(w, depth + 1)[k]);
            for (int c = 0; c < r.length; c++) {
                if (r[c].empty()) r[c] = Range.top(v.bitSize());
            }
        }
        recomputed.put(v, r);
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
        Range r = range(v, component);
        if (at == null || !at.isInserted()) return r;
        return analysis.refine(v, component, r, at.block(), (w, k) -> range(w, k));
    }

    @Override
    public void rewritten(AluInstr root, Value result, boolean exact, List<Instr> movedUsers) {
        if (exact) return;
        ArrayDeque<Value> work = new ArrayDeque<>();
        for (Instr i : movedUsers) {
            if (i.def() != null) work.add(i.def());
        }
        while (!work.isEmpty()) {
            Value v = work.poll();
            // A stale value not recomputed since has stale users already (they were marked with it).
            if (stale.contains(v) && !recomputed.containsKey(v)) continue;
            stale.add(v);
            recomputed.remove(v);
            for (Src u = v.firstUse(); u != null; u = u.nextUse()) {
                Instr user = u.instr();
                if (user != null && user.def() != null) work.add(user.def());
            }
        }
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
                case IS_INTEGRAL -> !r.mayBe(FloatClass.bit(FloatClass.NAN)) && (r.whole() || r.onlyIn(FloatClass.WHOLE_POINTS));
                case IS_IN_UNIT_INTERVAL -> r.onlyIn(FloatClass.between(FloatClass.POS_ZERO, FloatClass.ONE));
                default -> false;
            };
        }
        if (type == TypeClass.UINT) {
            return switch (p) {
                case IS_ZERO -> r.uHi() == 0;
                case IS_NOT_ZERO, IS_GT_ZERO -> r.uLo() != 0;
                case IS_NOT_NEGATIVE, IS_GE_ZERO -> true;
                case IS_NOT_POSITIVE, IS_LE_ZERO -> r.uHi() == 0;
                case ULT_CONST -> Long.compareUnsigned(r.uHi(), bound) < 0;
                case ILT_CONST -> r.sHi() < bound;
                default -> false;
            };
        }
        return switch (p) {
            case IS_ZERO -> r.sLo() == 0 && r.sHi() == 0;
            case IS_NOT_ZERO -> r.sLo() > 0 || r.sHi() < 0 || r.uLo() != 0;
            case IS_NOT_NEGATIVE, IS_GE_ZERO -> r.sLo() >= 0;
            case IS_NOT_POSITIVE, IS_LE_ZERO -> r.sHi() <= 0;
            case IS_GT_ZERO -> r.sLo() > 0;
            case IS_LT_ZERO -> r.sHi() < 0;
            case ULT_CONST -> Long.compareUnsigned(r.uHi(), bound) < 0;
            case ILT_CONST -> r.sHi() < bound;
            default -> false;
        };
    }
}
