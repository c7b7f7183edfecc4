package dev.lathe.ir.analysis.range;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the branches say: in the then-list of {@code if %c} the condition is true, in the else
 * list false, and after an {@code if} whose then-list always leaves ({@code break},
 * {@code continue}, {@code return}) it is false for the rest of the enclosing list (true if
 * the else-list always leaves). So after {@code if (i >= n) break;} a loop body knows i < n.
 *
 * <p>The analysis asks {@link #refine} for the element of an operand as read in a block: the
 * value's element narrowed by every assumption of the block that compares it (ilt, ige, ult,
 * uge, ieq, ine, flt, fge, feq, fneu and their unordered forms) with something whose element
 * is known. A condition is looked through as GLSL's {@code !}, {@code &&} and {@code ||}
 * compile: inot flips what is assumed, a true 1-bit iand says both operands are true and a
 * false 1-bit ior says both are false ({@code if (i < n && j != 0)} narrows i and j in the
 * then-list); a false iand or a true ior says only that one operand is, which narrows nothing.
 * An assumption is about an SSA value, which cannot change between the branch and the code it
 * guards, so those of the code around a loop hold in its body too.
 * The condition is read from the branch when asked: a rule pass may rewrite it.
 */
final class BranchFacts {
    /**
     * One assumption: the condition of {@code node} is {@code truth}. The condition is read
     * from the {@code if} when asked, so a rewritten condition is seen at once (a rule pass
     * changes values, never the control flow). The assumptions of a block form a chain through
     * {@code next}; chains share their tails, so the assumptions form a tree and {@code id}
     * numbers them parents first.
     */
    record Assume(IfNode node, boolean truth, Assume next, int id) {
        Value cond() {
            return node.condition().value();
        }

        int comp() {
            return node.condition().component(0);
        }
    }

    private record Frame(CfNode node, Assume facts) {}

    private final Assume[] byBlock;
    private final List<Block> blocks;
    /**
     * The blocks (by index) each assumption holds in: an if's then-list, else-list or the rest
     * of the enclosing list, so one interval of the program-order numbering. Intervals of
     * different assumptions are nested or disjoint.
     */
    private final int[] first;

    private final int[] last;
    /** The assumptions each {@code if} makes (two to four). */
    private final Map<IfNode, List<Assume>> byIf = new IdentityHashMap<>();

    private BranchFacts(Assume[] byBlock, List<Block> blocks, List<Assume> made) {
        this.byBlock = byBlock;
        this.blocks = blocks;
        int n = made.size();
        first = new int[n];
        last = new int[n];
        Arrays.fill(first, Integer.MAX_VALUE);
        Arrays.fill(last, -1);
        // A block's own assumption covers it; a parent covers what its children cover.
        // Children have larger ids, so one sweep down the ids settles every interval.
        for (int b = 0; b < Math.min(byBlock.length, blocks.size()); b++) {
            if (byBlock[b] != null) cover(byBlock[b].id(), b, b);
        }
        for (int k = n - 1; k >= 0; k--) {
            Assume a = made.get(k);
            if (a.next() != null && last[k] >= 0) cover(a.next().id(), first[k], last[k]);
            byIf.computeIfAbsent(a.node(), x -> new ArrayList<>(4)).add(a);
        }
    }

    private void cover(int id, int from, int to) {
        first[id] = Math.min(first[id], from);
        last[id] = Math.max(last[id], to);
    }

    static BranchFacts compute(Function fn) {
        Assume[] byBlock = new Assume[fn.blocks().size() + 1];
        List<Assume> made = new ArrayList<>();
        List<Frame> stack = new ArrayList<>();
        stack.add(new Frame(fn.body().first(), null));
        while (!stack.isEmpty()) {
            Frame f = stack.remove(stack.size() - 1);
            Assume cur = f.facts();
            for (CfNode n = f.node(); n != null; n = n.next()) {
                if (n instanceof Block b) {
                    byBlock[b.index()] = cur;
                } else if (n instanceof IfNode in) {
                    Assume after = cur;
                    if (alwaysLeaves(in.thenList())) after = assume(made, in, false, after);
                    if (alwaysLeaves(in.elseList())) after = assume(made, in, true, after);
                    stack.add(new Frame(n.next(), after));
                    stack.add(new Frame(in.elseList().first(), assume(made, in, false, cur)));
                    stack.add(new Frame(in.thenList().first(), assume(made, in, true, cur)));
                    break;
                } else {
                    stack.add(new Frame(n.next(), cur));
                    stack.add(new Frame(((LoopNode) n).body().first(), cur));
                    break;
                }
            }
        }
        return new BranchFacts(byBlock, List.copyOf(fn.blocks()), made);
    }

    private static Assume assume(List<Assume> made, IfNode node, boolean truth, Assume next) {
        Assume a = new Assume(node, truth, next, made.size());
        made.add(a);
        return a;
    }

    /**
     * How many inots, iands and iors {@link #apply} looks through to the comparisons under a
     * condition (so at most 16 comparisons per assumption); {@link #conditionsOver} looks as far
     * up from a comparison, so the two always agree on which branches read which values.
     */
    private static final int MAX_INOTS = 4;

    /** The ops {@link #narrow} narrows by. */
    private static final Set<Op> NARROWING = EnumSet.of(
            Op.ILT, Op.IGE, Op.ULT, Op.UGE, Op.IEQ, Op.INE, Op.FLT, Op.FGE, Op.FLTU, Op.FGEU, Op.FEQ, Op.FNEU);

    /** Whether {@code i} is an op a condition is looked through at (see {@link #MAX_INOTS}). */
    private static boolean combines(AluInstr i) {
        return i.op() == Op.INOT
                || (i.op() == Op.IAND || i.op() == Op.IOR) && i.def().bitSize() == 1;
    }

    /** What {@link #forEachComparison} hands on: a comparison, the component it is read at and the truth assumed of it. */
    private interface ComparisonVisitor {
        void visit(AluInstr comparison, int component, boolean truth);
    }

    /**
     * Calls {@code out} for each narrowing comparison that assuming component {@code comp} of
     * {@code cond} to be {@code truth} makes true or false: {@code cond} itself, or what it is
     * made of through inot, a true iand and a false ior, at most {@link #MAX_INOTS} deep.
     */
    private static void forEachComparison(Value cond, int comp, boolean truth, int depth, ComparisonVisitor out) {
        AluInstr c = step(cond, depth);
        switch (c == null ? Step.STOP : step(c, truth)) {
            case FLIP -> forEachComparison(c.src(0).value(), c.src(0).component(comp), !truth, depth + 1, out);
            case BOTH -> {
                for (int j = 0; j < 2; j++)
                    forEachComparison(c.src(j).value(), c.src(j).component(comp), truth, depth + 1, out);
            }
            case COMPARE -> out.visit(c, comp, truth);
            case STOP -> {}
        }
    }

    /** How a condition is looked through at one instruction (the one place that says it). */
    private enum Step {
        FLIP,
        BOTH,
        COMPARE,
        STOP
    }

    /** The instruction defining {@code cond} if it may be looked at, {@code depth} levels down; else null. */
    private static AluInstr step(Value cond, int depth) {
        return depth <= MAX_INOTS && cond.parent() instanceof AluInstr c && c.isInserted() ? c : null;
    }

    private static Step step(AluInstr c, boolean truth) {
        if (c.op() == Op.INOT) return Step.FLIP;
        if (combines(c))
            return (c.op() == Op.IAND) == truth ? Step.BOTH : Step.STOP; // else one of two, not known which
        return NARROWING.contains(c.op()) ? Step.COMPARE : Step.STOP;
    }

    /**
     * Whether {@code v} as a branch condition narrows something, whichever way the branch
     * goes: a comparison these facts narrow by, or one under inots, iands and iors.
     */
    static boolean narrowsBy(Value v) {
        boolean[] found = {false};
        ComparisonVisitor any = (c, comp, truth) -> found[0] = true;
        forEachComparison(v, 0, true, 0, any);
        if (!found[0]) forEachComparison(v, 0, false, 0, any);
        return found[0];
    }

    /**
     * Gives {@code out} every value that reads in {@code at} may be narrowed by: the operands
     * of the comparisons that the block's assumptions make true or false.
     */
    void operandsNarrowingIn(Block at, Consumer<Value> out) {
        if (at == null || at.index() < 0 || at.index() >= byBlock.length) return;
        for (Assume a = byBlock[at.index()]; a != null; a = a.next()) {
            forEachComparison(a.cond(), a.comp(), a.truth(), 0, (c, comp, truth) -> {
                out.accept(c.src(0).value());
                out.accept(c.src(1).value());
            });
        }
    }

    /** The assumptions of block {@code b}, innermost first (null: none). */
    Assume assumed(Block b) {
        return b.index() >= 0 && b.index() < byBlock.length ? byBlock[b.index()] : null;
    }

    /**
     * The blocks whose assumptions read {@code v}, each once, in program order: those of the
     * branches whose condition is {@code v} or, through inots, iands and iors, a comparison
     * reading it (reads there may be narrowed by {@code v}'s element) or {@code v} itself. Read
     * off the current uses, so never out of date.
     */
    List<Block> blocksComparing(Value v) {
        List<Assume> found = new ArrayList<>();
        conditionsOver(v, found);
        for (Src u = v.firstUse(); u != null; u = u.nextUse()) {
            if (u.instr() instanceof AluInstr c && c.isInserted() && NARROWING.contains(c.op()))
                conditionsOver(c.def(), found);
        }
        return blocksOf(found);
    }

    /** The blocks assuming a branch whose condition is {@code v} or reads it through inots, iands and iors. */
    List<Block> blocksAssuming(Value v) {
        List<Assume> found = new ArrayList<>();
        conditionsOver(v, found);
        return blocksOf(found);
    }

    /**
     * Adds the assumptions of the branches whose condition is {@code w} under at most
     * {@code MAX_INOTS - depth} inots, iands and iors (whatever their truth: a superset of what
     * {@link #forEachComparison} reaches is what keeping facts current needs).
     */
    private void conditionsOver(Value w, List<Assume> found) {
        // conditions and the inots over them are booleans: a wider value (a shared constant
        // with thousands of uses, say) is never one
        if (w.bitSize() == 1) conditionsOver(w, 0, found);
    }

    private void conditionsOver(Value w, int depth, List<Assume> found) {
        for (Src u = w.firstUse(); u != null; u = u.nextUse()) {
            if (u.owner() instanceof IfNode in) {
                List<Assume> as = byIf.get(in);
                if (as != null) found.addAll(as);
            } else if (depth < MAX_INOTS && u.instr() instanceof AluInstr i && i.isInserted() && combines(i)) {
                conditionsOver(i.def(), depth + 1, found); // at most MAX_INOTS deep
            }
        }
    }

    private List<Block> blocksOf(List<Assume> found) {
        if (found.isEmpty()) return List.of();
        int[][] spans = new int[found.size()][];
        int n = 0;
        for (Assume a : found) {
            if (last[a.id()] >= 0) spans[n++] = new int[] {first[a.id()], last[a.id()]};
        }
        // nested or disjoint: in order of their starts, a span inside the previous one adds nothing
        Arrays.sort(spans, 0, n, Comparator.comparingInt(x -> x[0]));
        List<Block> out = new ArrayList<>();
        int covered = -1;
        for (int k = 0; k < n; k++) {
            for (int b = Math.max(spans[k][0], covered + 1); b <= spans[k][1]; b++) out.add(blocks.get(b));
            covered = Math.max(covered, spans[k][1]);
        }
        return out;
    }

    private static boolean alwaysLeaves(CfList list) {
        return list.last() instanceof Block b && b.jump() != null;
    }

    /** The element of component {@code comp} of {@code v} as read in {@code at}. */
    Range refine(Value v, int comp, Range r, Block at, RangeAnalysis.Lookup in) {
        if (at == null || at.index() < 0 || at.index() >= byBlock.length || r.empty()) return r;
        for (Assume a = byBlock[at.index()]; a != null; a = a.next()) {
            r = apply(v, comp, r, a.cond(), a.comp(), a.truth(), in, 0);
        }
        return r;
    }

    /**
     * {@code r} narrowed by the comparisons under one assumption: {@link #forEachComparison}'s
     * walk, written out because the analysis calls it for every read in a block with assumptions
     * (no visitor to allocate).
     */
    private static Range apply(
            Value v, int comp, Range r, Value cond, int condComp, boolean truth, RangeAnalysis.Lookup in, int depth) {
        AluInstr c = step(cond, depth);
        switch (c == null ? Step.STOP : step(c, truth)) {
            case FLIP -> {
                return apply(v, comp, r, c.src(0).value(), c.src(0).component(condComp), !truth, in, depth + 1);
            }
            case BOTH -> {
                for (int j = 0; j < 2; j++)
                    r = apply(v, comp, r, c.src(j).value(), c.src(j).component(condComp), truth, in, depth + 1);
                return r;
            }
            case COMPARE -> {
                for (int j = 0; j < 2; j++) {
                    Src mine = c.src(j);
                    if (mine.value() != v || mine.component(condComp) != comp) continue;
                    Src theirs = c.src(1 - j);
                    Range other = in.range(theirs.value(), theirs.component(condComp));
                    if (other.empty()) continue;
                    Range narrowed = narrow(c.op(), j == 0, truth, r, other);
                    if (narrowed != null && !narrowed.empty()) r = narrowed;
                }
                return r;
            }
            default -> {
                return r;
            }
        }
    }

    /**
     * {@code r} narrowed by "r OP other is {@code truth}" ({@code first}: r is the left operand),
     * or null when the comparison says nothing usable.
     */
    private static Range narrow(Op op, boolean first, boolean truth, Range r, Range other) {
        int n = r.bits();
        switch (op) {
            case ILT, IGE -> {
                boolean less = (op == Op.ILT) == truth; // left < right, else left >= right
                if (first == less) {
                    // r < other, or other >= r: r <= other.sHi (- 1 when strict)
                    long hi = less ? other.sHi() - 1 : other.sHi();
                    if (less && other.sHi() == Bits.minSigned(n)) return null;
                    return r.meetIntegers(Range.signed(n, Bits.minSigned(n), hi));
                }
                long lo = less ? other.sLo() + 1 : other.sLo();
                if (less && other.sLo() == Bits.maxSigned(n)) return null;
                return r.meetIntegers(Range.signed(n, lo, Bits.maxSigned(n)));
            }
            case ULT, UGE -> {
                boolean less = (op == Op.ULT) == truth;
                if (first == less) {
                    if (less && other.uHi() == 0) return null;
                    return r.meetIntegers(Range.unsigned(n, 0, less ? other.uHi() - 1 : other.uHi()));
                }
                if (less && other.uLo() == Bits.mask(n)) return null;
                return r.meetIntegers(Range.unsigned(n, less ? other.uLo() + 1 : other.uLo(), Bits.mask(n)));
            }
            case IEQ, INE -> {
                if ((op == Op.IEQ) == truth) {
                    return r.meetIntegers(Range.signed(n, other.sLo(), other.sHi()))
                            .meetIntegers(Range.unsigned(n, other.uLo(), other.uHi()));
                }
                // r != a constant: an interval that ends at it loses that end (n != 0 is n >= 1 unsigned)
                if (!other.isConstant()) return null;
                long u = other.uLo(), sv = Bits.sext(u, n);
                Range out = r;
                if (u == r.uLo() && u != Bits.mask(n)) out = out.meetIntegers(Range.unsigned(n, u + 1, Bits.mask(n)));
                else if (u == r.uHi() && u != 0) out = out.meetIntegers(Range.unsigned(n, 0, u - 1));
                if (out.empty()) return null;
                if (sv == out.sLo() && sv != Bits.maxSigned(n))
                    out = out.meetIntegers(Range.signed(n, sv + 1, Bits.maxSigned(n)));
                else if (sv == out.sHi() && sv != Bits.minSigned(n))
                    out = out.meetIntegers(Range.signed(n, Bits.minSigned(n), sv - 1));
                return out;
            }
            case FLT, FGE, FLTU, FGEU -> {
                // The ordered relation that holds: flt true and fgeu false say left < right,
                // fge true and fltu false say left >= right; the other outcomes allow NaN.
                boolean lessHolds = op == Op.FLT && truth || op == Op.FGEU && !truth;
                boolean geqHolds = op == Op.FGE && truth || op == Op.FLTU && !truth;
                if (!lessHolds && !geqHolds || !r.isFloatSize() || numeric(other.classes()) == 0) return null;
                int lo = 0, hi = 8;
                if (lessHolds && first) { // r < other
                    int m = maxRank(other.classes());
                    hi = isPointRank(m) ? m - 1 : m;
                } else if (lessHolds) { // other < r
                    int m = minRank(other.classes());
                    lo = isPointRank(m) ? m + 1 : m;
                } else if (first) { // r >= other
                    lo = minRank(other.classes());
                } else { // other >= r
                    hi = maxRank(other.classes());
                }
                if (lo > hi) return null;
                return Range.floats(n, r.classes() & ranks(lo, hi), r.whole()).meetIntegers(r);
            }
            case FEQ, FNEU -> {
                if ((op == Op.FEQ) != truth) return null;
                if (!r.isFloatSize()) return null;
                int keep = widenZeros(numeric(other.classes()));
                return Range.floats(n, r.classes() & keep, r.whole()).meetIntegers(r);
            }
            default -> {
                return null;
            }
        }
    }

    /** The classes without NaN. */
    private static int numeric(int classes) {
        return classes & ~FloatClass.bit(FloatClass.NAN);
    }

    /** -0 and +0 compare equal: whatever admits one admits the other. */
    private static int widenZeros(int keep) {
        return (keep & FloatClass.ZEROS) != 0 ? keep | FloatClass.ZEROS : keep;
    }

    /**
     * Comparisons see the classes in this order, both zeros being one point: -inf 0, below -1 1,
     * -1 2, (-1,0) 3, zeros 4, (0,1) 5, 1 6, above 1 7, +inf 8. Even ranks are single points.
     */
    private static int rank(int cls) {
        return cls <= FloatClass.NEG_ZERO ? Math.min(cls, 4) : cls - 1;
    }

    private static boolean isPointRank(int rank) {
        return rank % 2 == 0;
    }

    private static int maxRank(int classes) {
        int m = -1;
        for (int c = 0; c < FloatClass.NAN; c++) {
            if ((classes & FloatClass.bit(c)) != 0) m = Math.max(m, rank(c));
        }
        return m;
    }

    private static int minRank(int classes) {
        for (int c = 0; c < FloatClass.NAN; c++) {
            if ((classes & FloatClass.bit(c)) != 0) return rank(c);
        }
        return 9;
    }

    /** The classes whose rank is in [lo, hi] (never NaN). */
    private static int ranks(int lo, int hi) {
        int m = 0;
        for (int c = 0; c < FloatClass.NAN; c++) {
            if (rank(c) >= lo && rank(c) <= hi) m |= FloatClass.bit(c);
        }
        return m;
    }
}
