package dev.lathe.ir.analysis.range;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
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
import java.util.Arrays;

/**
 * Range analysis: for every component of every SSA value of a function, a {@link Range} —
 * float classes and whether it is whole, signed and unsigned intervals.
 *
 * <p>A worklist fixpoint, optimistic: every value starts empty (nothing seen yet) and every
 * instruction is on the list, in program order. Taking one off, its result is computed from
 * its operands' current elements by the transfer functions ({@link RangeTransfer}) — a phi
 * joins its incoming values, so an edge not yet seen adds nothing — and joined with what the
 * value had; if that grew, the instructions using the value go back on the list. Elements only
 * grow, and each loop-header phi that has grown {@value #WIDEN_AFTER} times is widened (a moving
 * integer bound jumps to the end of its range), so loops settle: a counter from 0 below a
 * bound keeps its lower bound and loses only the upper one that the loop really moves. At the
 * fixpoint every element holds every value the program can compute there; an op without a
 * transfer function, an undef or an input gives "anything".
 *
 * <p>Widening overshoots, so {@value #NARROWING_SWEEPS} narrowing sweeps follow: every
 * instruction, in program order, is evaluated again and simply takes the result. That stays
 * sound — the values the program computes lie in the operands' elements, so they lie in what
 * the transfer functions make of them — and it gives back the bounds the loop's exit test
 * implies: after {@code if (i >= 10) break;} the increment is at most 10, so the counter's
 * phi is [0, 10] again. Conditions of enclosing branches narrow operands where they are read
 * ({@link BranchFacts}).
 *
 * <p>Results live in one array of elements, a value's components in consecutive slots found
 * by its dense index.
 */
public final class RangeAnalysis {
    /** Growths of a loop-header phi after which it is widened. */
    static final int WIDEN_AFTER = 3;
    /** Descending sweeps after the fixpoint. */
    static final int NARROWING_SWEEPS = 2;

    private final Function fn;
    private final RangeTransfer transfer = new RangeTransfer();
    private final int[] offset;
    private final Range[] slots;
    private final BranchFacts branches;
    private int rounds;

    private RangeAnalysis(Function fn) {
        this.fn = fn;
        int values = fn.valueCount();
        offset = new int[values];
        Arrays.fill(offset, -1);
        int n = 0;
        for (Block b : fn.blocks()) {
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                Value d = i.def();
                if (d == null) continue;
                offset[d.index()] = n;
                n += d.numComponents();
            }
        }
        slots = new Range[n];
        branches = BranchFacts.compute(fn);
    }

    /** Analyzes a function. */
    public static RangeAnalysis run(Function fn) {
        RangeAnalysis a = new RangeAnalysis(fn);
        a.solve();
        a.narrow();
        return a;
    }

    /** The element of one component of {@code v}; "anything" for values the analysis has not seen. */
    public Range range(Value v, int component) {
        Range r = stored(v, component);
        return r == null || r.empty() ? Range.top(v.bitSize()) : r;
    }

    /** Whether the analysis has an element for {@code v} (values created after it ran have none). */
    public boolean knows(Value v) {
        return v.index() < offset.length && offset[v.index()] >= 0;
    }

    /** How many instructions were evaluated until the fixpoint (each at least once). */
    public int evaluations() {
        return rounds;
    }

    /** {@code r}, the element of a component of {@code v}, narrowed by what the branches say in {@code at}. */
    public Range refine(Value v, int component, Range r, Block at, Lookup in) {
        return branches.refine(v, component, r, at, in);
    }

    /** The transfer functions (with their memo), for recomputing single values later. */
    public RangeTransfer transfer() {
        return transfer;
    }

    private Range stored(Value v, int component) {
        if (!knows(v)) return null;
        return slots[offset[v.index()] + component];
    }

    private void solve() {
        LoopNesting nesting = LoopNesting.compute(fn);
        ArrayDeque<Instr> work = new ArrayDeque<>();
        boolean[] queued = new boolean[offset.length];
        int[] growths = new int[offset.length];
        for (Block b : fn.blocks()) {
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                Value d = i.def();
                if (d == null) continue;
                for (int c = 0; c < d.numComponents(); c++) slots[offset[d.index()] + c] = Range.bottom(d.bitSize());
                work.add(i);
                queued[d.index()] = true;
            }
        }
        while (!work.isEmpty()) {
            Instr i = work.poll();
            Value d = i.def();
            queued[d.index()] = false;
            rounds++;
            Range[] computed = evaluate(i, this::lookup);
            boolean header = i instanceof PhiInstr && isLoopHeader(i.block(), nesting);
            boolean widen = header && growths[d.index()] >= WIDEN_AFTER;
            boolean grew = false;
            int base = offset[d.index()];
            for (int c = 0; c < computed.length; c++) {
                Range old = slots[base + c];
                Range next = old.join(computed[c]);
                if (widen) next = next.widenFrom(old);
                if (!next.equals(old)) {
                    slots[base + c] = next;
                    grew = true;
                }
            }
            if (!grew) continue;
            if (header) growths[d.index()]++;
            for (Src u = d.firstUse(); u != null; u = u.nextUse()) {
                Instr user = u.instr();
                if (user == null || user.def() == null || !knows(user.def())) continue;
                if (!queued[user.def().index()]) {
                    queued[user.def().index()] = true;
                    work.add(user);
                }
            }
        }
    }

    private void narrow() {
        for (int sweep = 0; sweep < NARROWING_SWEEPS; sweep++) {
            for (Block b : fn.blocks()) {
                for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                    Value d = i.def();
                    if (d == null) continue;
                    rounds++;
                    Range[] computed = evaluate(i, this::lookup);
                    int base = offset[d.index()];
                    for (int c = 0; c < computed.length; c++) {
                        // an empty result means unreachable so far: keep what the fixpoint found
                        if (!computed[c].empty()) slots[base + c] = computed[c];
                    }
                }
            }
        }
    }

    private Range lookup(Value v, int component) {
        Range r = stored(v, component);
        return r == null ? Range.top(v.bitSize()) : r;
    }

    private static boolean isLoopHeader(Block b, LoopNesting nesting) {
        LoopNode l = nesting.innermostLoop(b);
        return l != null && l.body().first() == b;
    }

    /** Where the elements of operands come from: the fixpoint's slots, or facts kept up to date. */
    @FunctionalInterface
    public interface Lookup {
        Range range(Value v, int component);
    }

    /** The elements of every component of {@code i}'s result, from its operands' elements. */
    public Range[] evaluate(Instr i, Lookup in) {
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
                    r = r.join(branches.refine(v, k, in.range(v, k), s.pred(), in));
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
                    for (int c = 0; c < srcs[s].length; c++) srcs[s][c] = operand(src, c, a.block(), in);
                }
                return transfer.horizontal(op, unsized, n, srcs);
            }
            for (int c = 0; c < n; c++) {
                Range[] srcs = new Range[op.numInputs()];
                for (int s = 0; s < srcs.length; s++) srcs[s] = operand(a.src(s), c, a.block(), in);
                out[c] = transfer.alu(op, unsized, srcs);
            }
        } else if (i instanceof IntrinsicInstr x) {
            intrinsic(x, out);
        } else {
            Arrays.fill(out, Range.top(bits)); // undef: any value
        }
        return out;
    }

    private Range operand(Src s, int c, Block at, Lookup in) {
        Value v = s.value();
        int k = s.component(c);
        return branches.refine(v, k, in.range(v, k), at, in);
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
            case LOAD_LOCAL_INVOCATION_INDEX -> Arrays.fill(out, Range.unsigned(bits, 0, (long) size[0] * size[1] * size[2] - 1));
            case LOAD_WORKGROUP_SIZE -> {
                for (int c = 0; c < out.length; c++) out[c] = Range.constant(bits, size[c]);
            }
            // ids are below the number of workgroups, which is below 2^32
            case LOAD_WORKGROUP_ID -> Arrays.fill(out, Range.unsigned(bits, 0, 0xfffffffeL));
            case LOAD_NUM_WORKGROUPS -> Arrays.fill(out, Range.unsigned(bits, 1, 0xffffffffL));
            case TEX, TXL, TXF -> {
                Variable v = x.var();
                Range texel = v != null && v.isUnorm()
                        ? Range.floats(bits, FloatClass.bit(FloatClass.POS_ZERO) | FloatClass.bit(FloatClass.ZERO_1) | FloatClass.bit(FloatClass.ONE), false)
                        : Range.top(bits);
                Arrays.fill(out, texel);
            }
            default -> Arrays.fill(out, Range.top(bits));
        }
    }
}
