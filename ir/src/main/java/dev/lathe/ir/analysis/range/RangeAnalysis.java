package dev.lathe.ir.analysis.range;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.analysis.LoopNesting;
import dev.lathe.ir.op.Op;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Range analysis: for every component of every SSA value of a function, a {@link Range} —
 * float classes and whether it is whole, signed and unsigned intervals.
 *
 * <p><b>On demand.</b> Nothing is computed until a value is asked for; then what it depends on
 * is computed first, each value once, and kept (as Mesa's {@code nir_analyze_range} does). A
 * rule pass asks about the few values its conditions name and pays for their cones only;
 * {@link #run} asks about every value. The walk keeps its own stack (deep chains of values do
 * not grow the Java stack). Outside loops a value depends only on values computed before it, so
 * one evaluation from its operands' elements is final. Operands that an enclosing branch's
 * condition compares with ({@link BranchFacts}) are found while evaluating: when an evaluation
 * reads one not computed yet, that one is computed and the evaluation repeated.
 *
 * <p><b>Loops.</b> A value inside a loop is computed together with the values of its
 * outermost loop that it depends on (a {@link Slice}; the whole loop once slices have covered
 * more than it), by a worklist fixpoint over those instructions (values from outside the loop
 * are computed first and stay fixed). Optimistic: every value starts empty (nothing seen yet)
 * and every instruction is on the list, in program order. Taking one off, its result is
 * computed from its operands' current elements by the transfer functions ({@link
 * RangeTransfer}) — a phi joins its incoming values, so an edge not yet seen adds nothing — and
 * joined with what the value had; if that grew, the instructions using the value go back on the
 * list. Elements only grow, and each loop-header phi that has grown {@value #WIDEN_AFTER} times
 * is widened (a moving integer bound jumps to the end of its range), so loops settle: a counter
 * from 0 below a bound keeps its lower bound and loses only the upper one that the loop really
 * moves. At the fixpoint every element holds every value the program can compute there; an op
 * without a transfer function, an undef or an input gives "anything".
 *
 * <p>Widening overshoots, so {@value #NARROWING_SWEEPS} narrowing sweeps over the loop follow:
 * every instruction, in program order, is evaluated again and simply takes the result. That
 * stays sound — the values the program computes lie in the operands' elements, so they lie in
 * what the transfer functions make of them — and it gives back the bounds the loop's exit test
 * implies: after {@code if (i >= 10) break;} the increment is at most 10, so the counter's
 * phi is [0, 10] again.
 *
 * <p><b>Rewrites.</b> Values made after a loop was solved (by a rewrite) are evaluated from
 * their operands like straight-line code. A rewrite that keeps the bits ({@link #loosen})
 * leaves every element true but maybe loose — a fresh analysis could know more (a value folded
 * to a constant) — and marks what was computed from it so; one that may change the bits
 * ({@link #forget}) drops those elements, to be computed again from the current operands (a
 * dropped loop-header phi, whose back edge leads to itself, reads "anything" for that edge).
 * {@link #refresh} recomputes what is loose, a loop holding a loose value as a whole.
 */
public final class RangeAnalysis {
    /** Growths of a loop-header phi after which it is widened. */
    static final int WIDEN_AFTER = 3;
    /** Descending sweeps after a loop's fixpoint. */
    static final int NARROWING_SWEEPS = 2;

    private final Function fn;
    private final RangeTransfer transfer;
    private final BranchFacts branches;
    private final LoopNesting nesting;
    /** The outermost loops, in program order. */
    private final List<Loop> loops = new ArrayList<>();
    /** The outermost loop around each block (by index), or null. */
    private final Loop[] loopOfBlock;
    /** Elements by value index: null while not computed. */
    private Range[][] memo;
    /** Values whose elements may be looser than a fresh analysis would give, by index. */
    private boolean[] loose;
    /** Blocks whose branch facts may be looser than a fresh analysis would give, by index. */
    private final boolean[] looseBlocks;
    /**
     * Values whose evaluation has begun (their operands are being computed), by index: one
     * that needs itself again is on a cycle (through a loop-header phi) and reads "anything".
     * A value merely waiting on the stack is pushed again when needed sooner.
     */
    private boolean[] started;

    private final ArrayList<Object> stack = new ArrayList<>();
    /** Set when an evaluation read a value not computed yet (and put it on the stack). */
    private boolean missed;

    private long evaluations;

    /** An outermost loop: its blocks in program order, and whether its fixpoint was computed. */
    private static final class Loop {
        final List<Block> blocks = new ArrayList<>();
        boolean solved;
        boolean started;
        boolean inputsPushed;
        /** Values defined in the loop (when it was found), and how many slices have solved so far. */
        int size;

        int sliced;
        /** Set when a value defined in the loop was marked loose since the last refresh. */
        boolean touched;
    }

    /**
     * The part of a loop one value depends on: its instructions in program order, closed under
     * operands, phi inputs and the operands of the branch conditions they are narrowed by.
     */
    private static final class Slice {
        final Loop loop;
        final List<Instr> instrs;
        final Set<Instr> members;
        final List<Value> inputs;
        boolean inputsPushed;

        Slice(Loop loop, List<Instr> instrs, Set<Instr> members, List<Value> inputs) {
            this.loop = loop;
            this.instrs = instrs;
            this.members = members;
            this.inputs = inputs;
        }
    }

    private RangeAnalysis(Function fn, RangeTransfer transfer) {
        this.fn = fn;
        this.transfer = transfer;
        int values = fn.valueCount();
        memo = new Range[values][];
        started = new boolean[values];
        loose = new boolean[values];
        branches = BranchFacts.compute(fn);
        nesting = fn.analyses().loops();
        List<Block> blocks = fn.blocks();
        loopOfBlock = new Loop[blocks.size() + 1];
        looseBlocks = new boolean[blocks.size() + 1];
        Map<LoopNode, Loop> byNode = new IdentityHashMap<>();
        for (Block b : blocks) {
            LoopNode outer = outermostLoop(nesting.innermostLoop(b));
            if (outer == null) continue;
            Loop l = byNode.computeIfAbsent(outer, k -> {
                Loop fresh = new Loop();
                loops.add(fresh);
                return fresh;
            });
            l.blocks.add(b);
            loopOfBlock[b.index()] = l;
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i.def() != null) l.size++;
            }
        }
    }

    private static LoopNode outermostLoop(LoopNode inner) {
        LoopNode outer = inner;
        for (CfNode n = inner; n != null; ) {
            CfList list = n.parent();
            n = list == null ? null : list.owner();
            if (n instanceof LoopNode l) outer = l;
        }
        return outer;
    }

    /** An analysis of {@code fn} that computes elements when they are first asked for. */
    public static RangeAnalysis onDemand(Function fn) {
        return new RangeAnalysis(fn, new RangeTransfer());
    }

    /**
     * The same, with transfer functions (and their memo) shared with other analyses on this
     * thread (those of one shader: {@link RangeFacts#analyze}).
     */
    public static RangeAnalysis onDemand(Function fn, RangeTransfer transfer) {
        return new RangeAnalysis(fn, transfer);
    }

    /** Analyzes every value of a function. */
    public static RangeAnalysis run(Function fn) {
        RangeAnalysis a = new RangeAnalysis(fn, new RangeTransfer());
        for (Block b : fn.blocks()) {
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i.def() != null) a.ranges(i.def());
            }
        }
        return a;
    }

    /** The element of one component of {@code v} ("anything" where nothing reaches it). */
    public Range range(Value v, int component) {
        Range r = ranges(v)[component];
        return r.empty() ? Range.top(v.bitSize()) : r;
    }

    /** How many instruction evaluations the analysis has made so far. */
    public long evaluations() {
        return evaluations;
    }

    /** {@code r}, the element of a component of {@code v}, narrowed by what the branches say in {@code at}. */
    public Range refine(Value v, int component, Range r, Block at) {
        return branches.refine(v, component, r, at, this::range);
    }

    /**
     * A rewrite replaced values by ones with the same bits ({@code changed} read them): every
     * element stays true, but what was computed from them may be looser than a fresh analysis
     * would give (a value folded to a constant has a tighter element). Marks {@code changed}
     * and everything computed from them loose ({@link #isLoose}).
     */
    public void loosen(List<Value> changed) {
        walk(changed, false);
    }

    /**
     * A rewrite may have changed the bits of the values {@code changed} read: drops their
     * elements and those of everything computed from them (computed again when next asked
     * for, from the current operands), and marks them loose.
     */
    public void forget(List<Value> changed) {
        walk(changed, true);
    }

    /**
     * Whether replacing {@code old} by {@code now} leaves every element computed from it as a
     * fresh analysis would give it: nothing was computed from {@code old}, or {@code now}'s
     * element is the same.
     */
    public boolean sameElements(Value old, Value now) {
        Range[] before = get(old);
        if (before == null) return true;
        if (isLoose(now) && !isLoose(old)) return false;
        Range[] after = ranges(now);
        return Arrays.equals(before, after);
    }

    /**
     * Whether a branch condition compares {@code v}, so that reads of it in the blocks assuming
     * that branch are narrowed: a user moved onto {@code v} from a value with the same element
     * may read it narrower there than it read the old one.
     */
    public boolean narrowedByBranches(Value v) {
        return !branches.blocksComparing(v).isEmpty();
    }

    /**
     * A value was rewritten into {@code now}, which {@code movedUsers} read instead; the
     * elements computed from the old value were loosened or dropped already ({@link #loosen},
     * {@link #forget}). Branch facts read conditions from the branches, so where {@code now}
     * became a condition, or a comparison under one now reads it, the facts say something new
     * from now on: what was computed in the blocks that assume those branches is dropped for
     * an inexact rewrite (it was narrowed by a condition that may have had other bits), and
     * marked loose for an exact one where the new facts may narrow more.
     */
    public void rewritten(Value now, List<Instr> movedUsers, boolean exact) {
        List<Block> blocks = new ArrayList<>();
        if (!exact || BranchFacts.narrowsBy(now)) blocks.addAll(branches.blocksAssuming(now));
        if (exact) {
            // an inexact rewrite dropped these users' elements, which drops their blocks too
            for (Instr u : movedUsers) {
                if (u.def() != null && BranchFacts.narrowsBy(u.def())) blocks.addAll(branches.blocksAssuming(u.def()));
            }
        }
        if (!blocks.isEmpty()) walk(List.of(), blocks, !exact);
    }

    /**
     * Makes the analysis as good as a fresh one: loose elements are dropped (a loop holding one
     * is solved again, whole) and computed again when next asked for, and the marks are
     * cleared. (Branch facts read the current conditions: they are never out of date.)
     */
    public void refresh() {
        for (int k = 0; k < memo.length && k < loose.length; k++) {
            if (!loose[k] || memo[k] == null) continue;
            memo[k] = null;
        }
        for (Loop l : loops) {
            if (!l.touched) continue; // no value of it was marked loose: none is
            List<Instr> defs = definitions(l);
            if (defs.stream().noneMatch(i -> isLoose(i.def()))) continue;
            l.solved = false;
            l.inputsPushed = false;
            l.sliced = 0;
            // the whole loop is solved again: drop it and what was computed from it (so that
            // every element left still has its operands')
            walk(defs.stream().map(Instr::def).toList(), true);
        }
        Arrays.fill(loose, false);
        Arrays.fill(looseBlocks, false);
        for (Loop l : loops) l.touched = false;
    }

    /** Whether {@code v}'s element may be looser than a fresh analysis of the function would give. */
    public boolean isLoose(Value v) {
        return v.index() < loose.length && loose[v.index()];
    }

    /** Whether what the branches say in {@code b} may be looser than a fresh analysis would give. */
    public boolean isLoose(Block b) {
        return b.index() < looseBlocks.length && looseBlocks[b.index()];
    }

    /**
     * From {@code starts} to everything computed from them: users with elements, theirs, and
     * the values in blocks whose branch conditions compare one of them (their operands were
     * narrowed there). A value enters the walk only while it has an element (an element is
     * computed only after its operands', so nothing computed depends on a value without one).
     */
    private void walk(List<Value> starts, boolean drop) {
        walk(starts, List.of(), drop);
    }

    /** The same, also from the values read in {@code blocks} (their branch facts changed). */
    private void walk(List<Value> starts, List<Block> blocks, boolean drop) {
        ArrayDeque<Value> work = new ArrayDeque<>(starts);
        // each value and block once per walk: a value (or block) reached from many others would
        // otherwise be queued once for each before it is dropped
        BitSet seen = new BitSet(), seenBlocks = new BitSet();
        loosenBlocks(blocks, work, drop, seenBlocks);
        while (!work.isEmpty()) {
            Value v = work.poll();
            if (!drop && isLoose(v)) continue; // walked already
            if (seen.get(v.index())) continue;
            seen.set(v.index());
            setLoose(v);
            if (drop) forgetOne(v);
            for (Src u = v.firstUse(); u != null; u = u.nextUse()) {
                Instr user = u.instr();
                if (user != null && user.def() != null && !seen.get(user.def().index()) && enters(user.def(), drop))
                    work.add(user.def());
            }
            loosenBlocks(branches.blocksComparing(v), work, drop, seenBlocks);
        }
    }

    private void loosenBlocks(List<Block> blocks, ArrayDeque<Value> work, boolean drop, BitSet seenBlocks) {
        for (Block b : blocks) {
            if (!drop && isLoose(b)) continue;
            if (seenBlocks.get(b.index())) continue;
            seenBlocks.set(b.index());
            looseBlocks[b.index()] = true;
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i.def() != null && enters(i.def(), drop)) work.add(i.def());
            }
            // a phi reads its input as the predecessor's branch facts narrow it
            for (Block succ : b.successors()) {
                for (PhiInstr phi : succ.phis()) {
                    if (!enters(phi.def(), drop)) continue;
                    for (PhiInstr.PhiSrc ps : phi.phiSrcs()) {
                        if (ps.pred() == b) {
                            work.add(phi.def());
                            break;
                        }
                    }
                }
            }
        }
    }

    private boolean enters(Value v, boolean drop) {
        return get(v) != null && (drop || !isLoose(v));
    }

    private void setLoose(Value v) {
        int k = v.index();
        if (k >= loose.length) loose = Arrays.copyOf(loose, Math.max(k + 1, loose.length * 2));
        loose[k] = true;
        Instr d = v.parent();
        if (d != null && d.isInserted() && d.block() != null) {
            Loop l = loopOfBlock[d.block().index()];
            if (l != null) l.touched = true;
        }
    }

    /** Whether an element computed now for {@code i} would be loose: it reads a loose operand or is narrowed in a loose block. */
    private boolean readsLoose(Instr i) {
        if (i instanceof AluInstr a) {
            if (isLoose(a.block())) return true;
            for (int s = 0; s < a.numSrcs(); s++) {
                if (isLoose(a.src(s).value())) return true;
            }
        } else if (i instanceof PhiInstr p) {
            for (PhiInstr.PhiSrc s : p.phiSrcs()) {
                if (isLoose(s.src().value()) || isLoose(s.pred())) return true;
            }
        }
        return false;
    }

    private Range[] get(Value v) {
        int k = v.index();
        return k < memo.length ? memo[k] : null;
    }

    private void put(Value v, Range[] r) {
        int k = v.index();
        if (k >= memo.length) memo = Arrays.copyOf(memo, Math.max(k + 1, memo.length * 2));
        memo[k] = r;
    }

    private Range[] ranges(Value v) {
        Range[] r = get(v);
        if (r == null) {
            demand(v);
            r = get(v);
        }
        return r;
    }

    // ---- the demand walk

    private void demand(Value root) {
        push(root);
        while (!stack.isEmpty()) {
            Object top = stack.get(stack.size() - 1);
            if (top instanceof Value v) step(v);
            else if (top instanceof Slice sl) step(sl);
            else step((Loop) top);
        }
    }

    private boolean isStarted(Value v) {
        return v.index() < started.length && started[v.index()];
    }

    private void push(Value v) {
        stack.add(v);
    }

    private void pop() {
        Object o = stack.remove(stack.size() - 1);
        if (o instanceof Value v) {
            if (v.index() < started.length) started[v.index()] = false;
        } else if (o instanceof Loop l) {
            l.started = false;
        }
    }

    private void step(Value v) {
        if (get(v) != null) {
            pop();
            return;
        }
        Instr def = v.parent();
        if (def == null || !def.isInserted()) {
            put(v, tops(v));
            pop();
            return;
        }
        Loop l = loopOfBlock[def.block().index()];
        if (l != null && !l.solved && !l.started) {
            Slice slice = l.sliced <= l.size ? slice(def, l) : null;
            if (slice != null && slice.instrs.size() * 2 <= l.size) {
                l.sliced += slice.instrs.size();
                stack.add(slice);
            } else {
                stack.add(l);
            }
            return;
        }
        // (a loop whose solving has begun cannot need this value: a loop reads only values
        // that dominate it, so v is evaluated from its operands like straight-line code)
        int k = v.index();
        if (k >= started.length) started = Arrays.copyOf(started, Math.max(k + 1, started.length * 2));
        started[k] = true;
        if (pushOperands(def, null)) return;
        missed = false;
        Range[] r = evaluate(def);
        if (missed) return;
        put(v, r);
        if (readsLoose(def)) setLoose(v);
        pop();
    }

    /** Puts the operands of {@code i} not computed yet (and not inside {@code loop}) on the stack. */
    private boolean pushOperands(Instr i, Loop loop) {
        boolean pushed = false;
        if (i instanceof AluInstr a) {
            for (int s = 0; s < a.numSrcs(); s++)
                pushed |= pushIfUnknown(a.src(s).value(), loop);
        } else if (i instanceof PhiInstr p) {
            for (PhiInstr.PhiSrc s : p.phiSrcs())
                pushed |= pushIfUnknown(s.src().value(), loop);
        }
        return pushed;
    }

    private boolean pushIfUnknown(Value w, Loop loop) {
        if (get(w) != null || isStarted(w)) return false;
        if (loop != null
                && w.parent() != null
                && w.parent().isInserted()
                && loopOfBlock[w.parent().block().index()] == loop) {
            return false;
        }
        push(w);
        return true;
    }

    /** Reads a computed element; a value not computed yet is put on the stack and reads "anything" for now. */
    private Range lookup(Value w, int component) {
        Range[] m = get(w);
        if (m != null) return m[component];
        if (!isStarted(w)) {
            push(w);
            missed = true;
        }
        return Range.top(w.bitSize());
    }

    private void step(Loop l) {
        if (l.solved) {
            pop();
            return;
        }
        l.started = true;
        List<Instr> defs = definitions(l);
        if (!l.inputsPushed) {
            // every operand from outside first; each is computed (and popped) before the loop
            // is on top again, so one scan is enough
            l.inputsPushed = true;
            boolean pushed = false;
            for (Instr i : defs) pushed |= pushOperands(i, l);
            if (pushed) return;
        }
        missed = false;
        solve(defs, user -> user.isInserted() && loopOfBlock[user.block().index()] == l);
        if (missed) {
            // a branch condition read a value from outside not computed yet: compute it, then start again
            for (Instr i : defs) forgetOne(i.def());
            return;
        }
        l.solved = true;
        loosenAllIfOneReadsLoose(defs);
        pop();
    }

    /** The instructions of loop {@code l} that define values, in program order. */
    private static List<Instr> definitions(Loop l) {
        List<Instr> out = new ArrayList<>();
        for (Block b : l.blocks) {
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i.def() != null) out.add(i);
            }
        }
        return out;
    }

    private void forgetOne(Value v) {
        if (v.index() < memo.length) memo[v.index()] = null;
    }

    /** Values solved together read each other: if one of them reads something loose, all are loose. */
    private void loosenAllIfOneReadsLoose(List<Instr> solvedTogether) {
        for (Instr i : solvedTogether) {
            if (readsLoose(i)) {
                for (Instr j : solvedTogether) setLoose(j.def());
                return;
            }
        }
    }

    /**
     * The fixpoint and narrowing sweeps over {@code instrs} (program order), re-queueing the
     * users that {@code member} accepts.
     */
    private void solve(List<Instr> instrs, Predicate<Instr> member) {
        for (Instr i : instrs) {
            Value d = i.def();
            Range[] bottom = new Range[d.numComponents()];
            Arrays.fill(bottom, Range.bottom(d.bitSize()));
            put(d, bottom);
        }
        ArrayDeque<Instr> work = new ArrayDeque<>(instrs);
        Map<Instr, int[]> growths = new IdentityHashMap<>();
        Set<Instr> queued = Collections.newSetFromMap(new IdentityHashMap<>());
        queued.addAll(instrs);
        while (!work.isEmpty()) {
            Instr i = work.poll();
            queued.remove(i);
            Value d = i.def();
            Range[] computed = evaluate(i);
            if (missed) return;
            boolean header = i instanceof PhiInstr && isLoopHeader(i.block());
            int[] grown = header ? growths.computeIfAbsent(i, k -> new int[1]) : null;
            boolean widen = header && grown[0] >= WIDEN_AFTER;
            Range[] slots = get(d);
            boolean grew = false;
            for (int c = 0; c < computed.length; c++) {
                Range old = slots[c];
                Range next = old.join(computed[c]);
                if (widen) next = next.widenFrom(old);
                if (!next.equals(old)) {
                    slots[c] = next;
                    grew = true;
                }
            }
            if (!grew) continue;
            if (header) grown[0]++;
            for (Src u = d.firstUse(); u != null; u = u.nextUse()) {
                Instr user = u.instr();
                if (user == null || user.def() == null || !member.test(user)) continue;
                if (queued.add(user)) work.add(user);
            }
        }
        for (int sweep = 0; sweep < NARROWING_SWEEPS; sweep++) {
            for (Instr i : instrs) {
                Range[] computed = evaluate(i);
                if (missed) return;
                Range[] slots = get(i.def());
                for (int c = 0; c < computed.length; c++) {
                    // an empty result means unreachable so far: keep what the fixpoint found
                    if (!computed[c].empty()) slots[c] = computed[c];
                }
            }
        }
    }

    /**
     * The slice of loop {@code l} that {@code root} depends on (see {@link Slice}), or null
     * when it grows past half the loop (the whole loop is then solved instead). Solving a
     * slice from scratch gives its values exactly the elements the whole loop's fixpoint
     * gives them: nothing outside the slice is read by it, so the worklist takes the slice's
     * instructions in the same relative order, with the same growths and widenings.
     */
    private Slice slice(Instr root, Loop l) {
        Set<Instr> members = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Value> inputs = new ArrayList<>();
        ArrayDeque<Instr> work = new ArrayDeque<>();
        members.add(root);
        work.add(root);
        Consumer<Value> need = w -> {
            Instr d = w.parent();
            if (d != null
                    && d.isInserted()
                    && d.def() != null
                    && loopOfBlock[d.block().index()] == l) {
                if (members.add(d)) work.add(d);
            } else {
                inputs.add(w);
            }
        };
        while (!work.isEmpty()) {
            if (members.size() * 2 > l.size) return null;
            Instr i = work.poll();
            if (i instanceof AluInstr a) {
                for (int s = 0; s < a.numSrcs(); s++) need.accept(a.src(s).value());
                branches.operandsNarrowingIn(a.block(), need);
            } else if (i instanceof PhiInstr p) {
                for (PhiInstr.PhiSrc s : p.phiSrcs()) {
                    need.accept(s.src().value());
                    branches.operandsNarrowingIn(s.pred(), need);
                }
            }
        }
        // program order: the loop's blocks in order, but only those holding a member (a walk of
        // the whole loop per slice would make many small slices cost the loop's size each)
        Set<Block> holding = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Instr i : members) holding.add(i.block());
        List<Instr> ordered = new ArrayList<>(members.size());
        for (Block b : l.blocks) {
            if (!holding.contains(b)) continue;
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (members.contains(i)) ordered.add(i);
            }
        }
        return new Slice(l, ordered, members, inputs);
    }

    private void step(Slice sl) {
        if (sl.loop.solved) {
            pop();
            return;
        }
        if (!sl.inputsPushed) {
            sl.inputsPushed = true;
            boolean pushed = false;
            for (Value w : sl.inputs) pushed |= pushIfUnknown(w, null);
            if (pushed) return;
        }
        // what slices solved before is solved again with this one (the same elements, see
        // slice()); keep it to restore if this attempt has to start again
        Range[][] before = new Range[sl.instrs.size()][];
        for (int k = 0; k < before.length; k++) before[k] = get(sl.instrs.get(k).def());
        missed = false;
        solve(sl.instrs, user -> sl.members.contains(user));
        if (missed) {
            for (int k = 0; k < before.length; k++) put(sl.instrs.get(k).def(), before[k]);
            return;
        }
        loosenAllIfOneReadsLoose(sl.instrs);
        pop();
    }

    private boolean isLoopHeader(Block b) {
        LoopNode l = nesting.innermostLoop(b);
        return l != null && l.body().first() == b;
    }

    private static Range[] tops(Value v) {
        Range[] r = new Range[v.numComponents()];
        Arrays.fill(r, Range.top(v.bitSize()));
        return r;
    }

    /** Where the elements of operands come from. */
    @FunctionalInterface
    interface Lookup {
        Range range(Value v, int component);
    }

    /** The elements of every component of {@code i}'s result, from its operands' current elements. */
    private Range[] evaluate(Instr i) {
        evaluations++;
        Value d = i.def();
        int n = d.numComponents(), bits = d.bitSize();
        Range[] out = new Range[n];
        if (i instanceof LoadConstInstr k) {
            for (int c = 0; c < n; c++) out[c] = Range.constant(bits, k.value(c));
        } else if (i instanceof PhiInstr p) {
            for (int c = 0; c < n; c++) {
                Range r = Range.bottom(bits);
                for (PhiInstr.PhiSrc s : p.phiSrcs()) {
                    Value v = s.src().value();
                    int k = s.src().component(c);
                    r = r.join(branches.refine(v, k, lookup(v, k), s.pred(), this::lookup));
                }
                out[c] = r;
            }
        } else if (i instanceof AluInstr a) {
            Op op = a.op();
            int unsized = a.unsizedBitSize();
            if (op.isHorizontal()) {
                Range[][] srcs = new Range[op.numInputs()][];
                for (int s = 0; s < srcs.length; s++) {
                    Src src = a.src(s);
                    srcs[s] = new Range[op.inputComponents(s, n)];
                    for (int c = 0; c < srcs[s].length; c++) srcs[s][c] = operand(src, c, a.block());
                }
                Range[] r = transfer.horizontal(op, unsized, n, srcs);
                if (isDot(op) && sameOperand(a.src(0), a.src(1), -1)) r[0] = square(r[0]);
                return r;
            }
            for (int c = 0; c < n; c++) {
                Range[] srcs = new Range[op.numInputs()];
                for (int s = 0; s < srcs.length; s++) srcs[s] = operand(a.src(s), c, a.block());
                out[c] = transfer.alu(op, unsized, srcs);
                if (op == Op.FMUL && sameOperand(a.src(0), a.src(1), c)) out[c] = square(out[c]);
            }
        } else if (i instanceof IntrinsicInstr x) {
            intrinsic(x, out);
        } else {
            Arrays.fill(out, Range.top(bits)); // undef: any value
        }
        return out;
    }

    /**
     * What the transfer functions cannot see, each operand being a range of its own: a value
     * times itself ({@code fmul(a, a)}, {@code fdot(v, v)}) is never below +0. It is +0, positive,
     * +inf, or NaN when a is.
     */
    private static final int SQUARES = FloatClass.bit(FloatClass.POS_ZERO)
            | FloatClass.bit(FloatClass.ZERO_1)
            | FloatClass.bit(FloatClass.ONE)
            | FloatClass.bit(FloatClass.GT1)
            | FloatClass.bit(FloatClass.POS_INF)
            | FloatClass.bit(FloatClass.NAN);

    private static Range square(Range r) {
        if (r.empty()) return r;
        return new Range(r.bits(), false, r.classes() & SQUARES, r.whole(), r.sLo(), r.sHi(), r.uLo(), r.uHi());
    }

    private static boolean isDot(Op op) {
        return op == Op.FDOT2 || op == Op.FDOT3 || op == Op.FDOT4;
    }

    /** Whether two sources read the same components of one value (component {@code c} only; -1: all). */
    private static boolean sameOperand(Src x, Src y, int c) {
        if (x.value() != y.value()) return false;
        if (c >= 0) return x.component(c) == y.component(c);
        if (x.numComponentsRead() != y.numComponentsRead()) return false;
        for (int k = 0; k < x.numComponentsRead(); k++) if (x.component(k) != y.component(k)) return false;
        return true;
    }

    private Range operand(Src s, int c, Block at) {
        Value v = s.value();
        int k = s.component(c);
        return branches.refine(v, k, lookup(v, k), at, this::lookup);
    }

    /** Intrinsics with known results; everything read from outside is "anything". */
    private void intrinsic(IntrinsicInstr x, Range[] out) {
        Value d = x.def();
        int bits = d.bitSize();
        int[] size = fn.shader().workgroupSize();
        switch (x.intrinsic()) {
            case LOAD_LOCAL_INVOCATION_ID -> {
                for (int c = 0; c < out.length; c++) out[c] = Range.unsigned(bits, 0, size[c] - 1);
            }
            case LOAD_LOCAL_INVOCATION_INDEX ->
                Arrays.fill(out, Range.unsigned(bits, 0, (long) size[0] * size[1] * size[2] - 1));
            case LOAD_WORKGROUP_SIZE -> {
                for (int c = 0; c < out.length; c++) out[c] = Range.constant(bits, size[c]);
            }
            // ids are below the number of workgroups, which is below 2^32
            case LOAD_WORKGROUP_ID -> Arrays.fill(out, Range.unsigned(bits, 0, 0xfffffffeL));
            case LOAD_NUM_WORKGROUPS -> Arrays.fill(out, Range.unsigned(bits, 1, 0xffffffffL));
            case TEX, TXL, TXF -> {
                Variable v = x.var();
                Range texel = v != null && v.isUnorm()
                        ? Range.floats(
                                bits,
                                FloatClass.bit(FloatClass.POS_ZERO)
                                        | FloatClass.bit(FloatClass.ZERO_1)
                                        | FloatClass.bit(FloatClass.ONE),
                                false)
                        : Range.top(bits);
                Arrays.fill(out, texel);
            }
            default -> Arrays.fill(out, Range.top(bits));
        }
    }
}
