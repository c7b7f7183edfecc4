package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.CodeCopier;
import dev.lathe.ir.ControlFlowEdits;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * loop_unroll: replaces a loop whose trip count is known by that many copies of its body, as
 * NIR's {@code nir_opt_loop_unroll} does for a loop with one terminator.
 *
 * <p>The loops it takes: one {@code break}, alone in one side of an {@code if} (the terminator)
 * at the top level of the body; no other jump to the loop but a {@code continue} ending the body;
 * no {@code return} inside. The trip count is found by running the loop's arithmetic: the
 * terminator's condition and the header phis' back-edge values are evaluated with the op table
 * ({@code Op.evaluate}, what constant_fold computes), from the phis' constant entry values, one
 * iteration after the other, until the terminator is taken. A condition that depends on anything
 * but the header phis and constants (a uniform, a load, a phi of an inner loop) has no known
 * count, and the loop stays. Being the loop's own arithmetic, the count is exact whatever the
 * comparison, the step or the wrap-around.
 *
 * <p>With N full iterations before the terminator is taken, the loop becomes N copies of the
 * body, the terminator replaced by its other side, then one copy of the body up to the
 * terminator and the terminator's break side; the copies read the values of the copy before
 * (iteration 0 the entry values), and code after the loop reads the last copy's. constant_fold,
 * dead_cf and the rules then fold the copies' induction values and their conditions, and
 * vars_to_ssa promotes the local arrays whose indices became constants.
 *
 * <p>The limits are ir3's ({@code max_unroll_iterations = 32}) and NIR's ({@code
 * LOOP_UNROLL_LIMIT = 26}): at most {@value #MAX_ITERATIONS} iterations, and at most
 * {@value #MAX_ITERATIONS} × {@value #COST_PER_ITERATION} instructions of body (ALU and intrinsic
 * instructions; constants, phis and jumps are free) over all iterations, unless the body indexes
 * a local array with a computed index, which unrolling turns into registers (NIR's
 * {@code force_unroll}). docs/RESULTS.md measures the limits in instructions and simulated
 * cycles.
 */
final class LoopUnroll implements Pass {
    static final int MAX_ITERATIONS = 32;
    static final int COST_PER_ITERATION = 26;

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        List<CfNode> nodes = DeadCf.nodesInOrder(fn);
        Collections.reverse(nodes); // inner loops first
        for (CfNode n : nodes) {
            if (n instanceof LoopNode loop && loop.parent() != null) {
                Shape s = shape(loop);
                if (s == null) continue;
                int trips = tripCount(s);
                if (trips < 0 || !withinLimits(loop, trips)) continue;
                unroll(fn, s, trips);
                progress = true;
            }
        }
        return progress;
    }

    /** A loop the pass can take: its terminator, the side that breaks, and its header phis' sources. */
    private record Shape(LoopNode loop, IfNode terminator, boolean breakOnTrue, Block backEdge) {
        CfList breakSide() {
            return breakOnTrue ? terminator.thenList() : terminator.elseList();
        }

        CfList stayingSide() {
            return breakOnTrue ? terminator.elseList() : terminator.thenList();
        }
    }

    private static Shape shape(LoopNode loop) {
        Block last = loop.body().lastBlock();
        JumpInstr end = last.jump();
        if (end != null && end.kind() != JumpInstr.Kind.CONTINUE) return null;
        IfNode terminator = null;
        boolean breakOnTrue = false;
        for (CfNode n = loop.body().first(); n != null; n = n.next()) {
            if (n instanceof Block b && b != last && b.jump() != null) return null;
            if (n instanceof IfNode in) {
                boolean t = breaksAlone(in.thenList()), e = breaksAlone(in.elseList());
                if (t || e) {
                    if (terminator != null || (t && e)) return null;
                    terminator = in;
                    breakOnTrue = t;
                }
            }
        }
        if (terminator == null) return null;
        // every other jump to this loop, and any return, rules it out
        int breaks = 0;
        List<CfList> work = new ArrayList<>();
        work.add(loop.body());
        while (!work.isEmpty()) {
            for (CfNode n : work.remove(work.size() - 1)) {
                if (n instanceof Block b) {
                    if (!(b.lastInstr() instanceof JumpInstr j)) continue;
                    if (j.kind() == JumpInstr.Kind.RETURN) return null;
                    boolean own = b.enclosingLoop() == loop;
                    if (own && j.kind() == JumpInstr.Kind.BREAK) breaks++;
                    if (own && j.kind() == JumpInstr.Kind.CONTINUE && j != end) return null;
                } else if (n instanceof IfNode in) {
                    work.add(in.thenList());
                    work.add(in.elseList());
                } else {
                    work.add(((LoopNode) n).body());
                }
            }
        }
        if (breaks != 1) return null;
        Block header = loop.header();
        Block before = (Block) loop.prev();
        for (PhiInstr phi : header.phis()) {
            if (phi.phiSrcs().size() != 2 || phi.srcFor(before) == null || phi.srcFor(last) == null) return null;
        }
        return new Shape(loop, terminator, breakOnTrue, last);
    }

    /** Whether {@code side} is one block ending in a break. */
    private static boolean breaksAlone(CfList side) {
        Block b = side.firstBlock();
        return b.next() == null && b.jump() != null && b.jump().kind() == JumpInstr.Kind.BREAK;
    }

    /**
     * How many times the body runs to its end before the terminator is taken, by running the
     * loop's arithmetic; -1 when it depends on something unknown or exceeds the limit.
     */
    private static int tripCount(Shape s) {
        Block before = (Block) s.loop().prev();
        List<PhiInstr> phis = s.loop().header().phis();
        Map<Value, long[]> env = new IdentityHashMap<>();
        for (PhiInstr phi : phis) {
            long[] c = constant(phi.srcFor(before).value());
            if (c != null) env.put(phi.def(), c);
        }
        Value cond = s.terminator().condition().value();
        for (int k = 0; k <= MAX_ITERATIONS; k++) {
            Evaluator ev = new Evaluator(s.loop(), env);
            long[] c = ev.value(cond);
            if (c == null) return -1;
            if (((c[0] & 1) != 0) == s.breakOnTrue()) return k;
            Map<Value, long[]> next = new IdentityHashMap<>();
            for (PhiInstr phi : phis) {
                long[] v = ev.value(phi.srcFor(s.backEdge()).value());
                if (v != null) next.put(phi.def(), v);
            }
            env = next;
        }
        return -1;
    }

    private static long[] constant(Value v) {
        return v.parent() instanceof LoadConstInstr lc ? lc.values() : null;
    }

    /**
     * The values of one iteration that follow from the header phis' values by ALU arithmetic;
     * null for anything else. Depth-limited, so a long chain is "unknown", not a deep recursion.
     */
    private static final class Evaluator {
        private static final int MAX_DEPTH = 32;
        private final LoopNode loop;
        private final Map<Value, long[]> known;

        Evaluator(LoopNode loop, Map<Value, long[]> headerValues) {
            this.loop = loop;
            this.known = new IdentityHashMap<>(headerValues);
        }

        long[] value(Value v) {
            return value(v, 0);
        }

        private long[] value(Value v, int depth) {
            long[] k = known.get(v);
            if (k != null) return k;
            Instr def = v.parent();
            if (def instanceof LoadConstInstr lc) return lc.values();
            if (!(def instanceof AluInstr alu) || depth >= MAX_DEPTH) return null;
            long[][] srcs = new long[alu.numSrcs()][];
            for (int i = 0; i < srcs.length; i++) {
                Src s = alu.src(i);
                long[] sv = value(s.value(), depth + 1);
                if (sv == null) return null;
                long[] comps = new long[s.numComponentsRead()];
                for (int j = 0; j < comps.length; j++) comps[j] = sv[s.component(j)];
                srcs[i] = comps;
            }
            long[] r = alu.op().evaluate(alu.unsizedBitSize(), alu.def().numComponents(), srcs);
            known.put(v, r);
            return r;
        }
    }

    private static boolean withinLimits(LoopNode loop, int trips) {
        if (trips > MAX_ITERATIONS) return false;
        int cost = 0;
        boolean indexesArray = false;
        List<CfList> work = new ArrayList<>();
        work.add(loop.body());
        while (!work.isEmpty()) {
            for (CfNode n : work.remove(work.size() - 1)) {
                if (n instanceof Block b) {
                    for (Instr i : b.instrs()) {
                        if (i instanceof AluInstr) cost++;
                        if (i instanceof IntrinsicInstr in) {
                            cost++;
                            indexesArray |= indexesLocalArray(in);
                        }
                    }
                } else if (n instanceof IfNode in) {
                    work.add(in.thenList());
                    work.add(in.elseList());
                } else {
                    work.add(((LoopNode) n).body());
                }
            }
        }
        return indexesArray || (long) cost * (trips + 1) <= (long) MAX_ITERATIONS * COST_PER_ITERATION;
    }

    private static boolean indexesLocalArray(IntrinsicInstr in) {
        return (in.intrinsic() == Intrinsic.LOAD_VAR || in.intrinsic() == Intrinsic.STORE_VAR)
                && in.var().isArray()
                && !(in.src(0).value().parent() instanceof LoadConstInstr);
    }

    private static void unroll(Function fn, Shape s, int trips) {
        LoopNode loop = s.loop();
        Block before = (Block) loop.prev();
        Block exit = loop.exitBlock();
        CfList list = loop.parent();
        Block cur = before;
        CodeCopier prev = null;
        for (int k = 0; k <= trips; k++) {
            boolean last = k == trips;
            CodeCopier c = new CodeCopier(fn);
            for (PhiInstr phi : loop.header().phis()) {
                Value v = prev == null
                        ? phi.srcFor(before).value()
                        : prev.mapped(phi.srcFor(s.backEdge()).value());
                c.mapValue(phi.def(), v);
            }
            for (CfNode n = loop.body().first(); n != null; n = n.next()) {
                if (n instanceof Block b) {
                    List<Instr> instrs = b.instrList();
                    if (b == loop.header()) instrs.removeIf(i -> i instanceof PhiInstr);
                    if (b.jump() != null) instrs.remove(instrs.size() - 1);
                    if (n.prev() == s.terminator()) {
                        // the terminator's merge: only the staying side reaches it
                        Block from = s.stayingSide().lastBlock();
                        for (PhiInstr phi : b.phis())
                            c.mapValue(phi.def(), c.mapped(phi.srcFor(from).value()));
                        instrs.removeIf(i -> i instanceof PhiInstr);
                    }
                    c.copyInstrs(instrs, cur);
                    c.mapBlock(b, cur);
                } else if (n == s.terminator()) {
                    if (last) {
                        List<Instr> instrs = s.breakSide().firstBlock().instrList();
                        instrs.remove(instrs.size() - 1);
                        c.copyInstrs(instrs, cur);
                        break;
                    }
                    cur = inline(c, s.stayingSide(), cur, list, loop);
                } else {
                    CfNode copy = c.copyNode(n);
                    list.insertBefore(loop, copy);
                    Block after = new Block();
                    list.insertBefore(loop, after);
                    cur = after;
                }
            }
            c.finish();
            if (last) {
                // the exit block's phis read the break side (its one predecessor); code after the loop reads the last
                // copy
                Block breakBlock = s.breakSide().firstBlock();
                for (PhiInstr phi : exit.phis()) {
                    phi.def().replaceAllUsesWith(c.mapped(phi.srcFor(breakBlock).value()));
                    phi.remove();
                }
                for (Block b : blocksOf(loop)) {
                    for (Instr i : b.instrs()) {
                        if (i.def() != null && c.hasCopy(i.def())) replaceUsesOutside(i.def(), c.mapped(i.def()), loop);
                    }
                }
            }
            prev = c;
        }
        ControlFlowEdits.deleteNodes(fn, List.of(loop));
        ControlFlowEdits.mergeBlocks(fn, cur, exit);
    }

    /** Copies the nodes of {@code side} into {@code list} before {@code loop}, continuing block {@code cur}; returns the last block. */
    private static Block inline(CodeCopier c, CfList side, Block cur, CfList list, LoopNode loop) {
        for (CfNode n = side.first(); n != null; n = n.next()) {
            if (n instanceof Block b) {
                // a merge block's phis land at the start of the fresh block made after its if or loop
                c.copyInstrs(b.instrList(), cur);
                c.mapBlock(b, cur);
            } else {
                CfNode copy = c.copyNode(n);
                list.insertBefore(loop, copy);
                Block after = new Block();
                list.insertBefore(loop, after);
                cur = after;
            }
        }
        return cur;
    }

    private static List<Block> blocksOf(LoopNode loop) {
        List<Block> out = new ArrayList<>();
        List<CfList> work = new ArrayList<>();
        work.add(loop.body());
        while (!work.isEmpty()) {
            for (CfNode n : work.remove(work.size() - 1)) {
                if (n instanceof Block b) out.add(b);
                else if (n instanceof IfNode in) {
                    work.add(in.thenList());
                    work.add(in.elseList());
                } else work.add(((LoopNode) n).body());
            }
        }
        return out;
    }

    /** Points the uses of {@code v} that are not inside {@code loop} at {@code to}. */
    private static void replaceUsesOutside(Value v, Value to, LoopNode loop) {
        List<Src> outside = new ArrayList<>();
        for (Src s = v.firstUse(); s != null; s = s.nextUse()) {
            if (!inside(s, loop)) outside.add(s);
        }
        for (Src s : outside) s.set(to);
    }

    private static boolean inside(Src s, LoopNode loop) {
        CfNode n = s.instr() != null ? s.instr().block() : (CfNode) s.owner();
        for (; n != null; n = n.parent() == null ? null : n.parent().owner()) {
            if (n == loop) return true;
        }
        return false;
    }
}
