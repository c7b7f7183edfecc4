package dev.lathe.ir.analysis;

import dev.lathe.ir.Function;
import dev.lathe.ir.analysis.range.RangeFacts;

/**
 * The analyses of one function, computed when a pass first asks and kept until the function
 * changes under them — NIR's metadata and Go's cached dominator tree, with the invalidation
 * done by the IR instead of by each pass: every mutator of the IR counts its change in the
 * function ({@link Function#edits}, {@link Function#structureEdits}), and an analysis is
 * stamped with the count it was computed at. An equal count means nothing changed since, so
 * a stale answer is impossible whatever edits a pass (or a test, or the backend) makes.
 *
 * <ul>
 *   <li>the dominator tree and the loop nesting depend on the structure only, so they survive
 *       every pass that moves, adds or removes instructions without touching blocks;
 *   <li>the range facts depend on every instruction. Passes whose edits keep them true report
 *       each edit to them ({@link RangeFacts#replaced}: rewrite rules, opt_minmax, copy
 *       propagation, cse, constant folding…) and hand them back with {@link #keep}, so one
 *       analysis serves the whole optimization loop until a pass that does not (a lowering, a
 *       change of structure) makes progress. Before a reused analysis is handed out, what its
 *       edits made loose is recomputed, so it answers exactly as a fresh one would.
 * </ul>
 *
 * <p>With {@link #timing} on, the time spent computing each analysis is collected, and the pass
 * manager reports it apart from the passes' own time ({@code --time-passes}).
 */
public final class Analyses {
    /** The analyses kept here, in the order {@code --time-passes} prints them. */
    public enum Kind {
        DOMINATORS("dominators"),
        LOOPS("loop nesting"),
        RANGES("range analysis");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The row {@code --time-passes} prints this analysis's time under. */
        public String label() {
            return "(" + label + ")";
        }
    }

    /** One cached analysis of the structure: what was computed, and the structure count it was computed at. */
    private static final class StructureSlot<T> {
        T value;
        long stamp = -1;
    }

    private final Function fn;
    private final StructureSlot<DominatorTree> dominators = new StructureSlot<>();
    private final StructureSlot<LoopNesting> loops = new StructureSlot<>();
    private RangeFacts ranges;
    private long rangesStamp = -1;
    /** The structure the range facts were computed for: their loops, branch facts and block arrays are of it. */
    private long rangesStructure = -1;

    private boolean timing;
    private final long[] nanos = new long[Kind.values().length];
    private final int[] computed = new int[Kind.values().length];

    public Analyses(Function fn) {
        this.fn = fn;
    }

    /** The dominator tree of the current structure. */
    public DominatorTree dominators() {
        return ofStructure(dominators, Kind.DOMINATORS, DominatorTree::compute);
    }

    /** The loop nesting of the current structure. */
    public LoopNesting loops() {
        return ofStructure(loops, Kind.LOOPS, LoopNesting::compute);
    }

    /** The cached dominator tree if the structure has not changed since it was computed, else null (the validator compares it with a fresh one). */
    public DominatorTree currentDominators() {
        return current(dominators);
    }

    /** The cached loop nesting if the structure has not changed since, else null. */
    public LoopNesting currentLoops() {
        return current(loops);
    }

    private <T> T current(StructureSlot<T> slot) {
        return slot.stamp == fn.structureEdits() ? slot.value : null;
    }

    private <T> T ofStructure(StructureSlot<T> slot, Kind kind, java.util.function.Function<Function, T> compute) {
        T value = current(slot);
        if (value == null) {
            long start = timing ? System.nanoTime() : 0;
            value = compute.apply(fn);
            slot.value = value;
            slot.stamp = fn.structureEdits();
            counted(kind, start);
        }
        return value;
    }

    /**
     * Range facts of the current function, as good as fresh ones: the kept ones if nothing
     * changed since they were kept (what edits reported to them made loose is recomputed), a
     * new on-demand analysis otherwise. A pass that edits the function and reports every edit
     * to them hands them back with {@link #keep}.
     */
    public RangeFacts ranges() {
        RangeFacts r = current();
        if (r != null) {
            long start = timing ? System.nanoTime() : 0;
            r.refresh();
            if (timing) addTime(Kind.RANGES, System.nanoTime() - start);
            return r;
        }
        loops(); // the analysis reads the loop nesting, which is timed as its own row
        long start = timing ? System.nanoTime() : 0;
        ranges = RangeFacts.analyze(fn);
        rangesStamp = fn.edits();
        rangesStructure = fn.structureEdits();
        ranges.timeWith(timing ? this : null);
        counted(Kind.RANGES, start);
        return ranges;
    }

    /**
     * The kept range facts if nothing changed since they were kept, else null — without
     * computing anything: a pass that will report its edits takes them here, so that they stay
     * current through its edits even when it never asks them anything.
     */
    public RangeFacts current() {
        return ranges != null && rangesStamp == fn.edits() && rangesStructure == fn.structureEdits() ? ranges : null;
    }

    /**
     * {@code facts} (from {@link #ranges} or {@link #current}) were told of every edit made to
     * the function since: they are current again — unless the structure changed, which edits
     * reported one by one do not describe (the facts hold the old loops and blocks).
     */
    public void keep(RangeFacts facts) {
        if (facts != null && facts == ranges && rangesStructure == fn.structureEdits()) rangesStamp = fn.edits();
    }

    /** Collect the time each analysis takes (off by default: it costs two clock reads a query). */
    public void timing(boolean on) {
        timing = on;
        if (ranges != null) ranges.timeWith(on ? this : null);
    }

    /** Adds time spent in analysis {@code kind} (the range facts report their own, query by query). */
    public void addTime(Kind kind, long elapsed) {
        nanos[kind.ordinal()] += elapsed;
    }

    private void counted(Kind kind, long start) {
        computed[kind.ordinal()]++;
        if (timing) nanos[kind.ordinal()] += System.nanoTime() - start;
    }

    /** Nanoseconds spent in {@code kind} so far (with timing on). */
    public long nanos(Kind kind) {
        return nanos[kind.ordinal()];
    }

    /**
     * How many times {@code kind} was computed from scratch (the range facts: new analyses, not
     * the values computed on demand). Tests check the cache with it.
     */
    public int computations(Kind kind) {
        return computed[kind.ordinal()];
    }
}
