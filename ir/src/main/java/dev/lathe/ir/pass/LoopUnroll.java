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
                // the terminator taken first limits the loop; the others stay exits of the copies
                Terminator limiting = null;
                int trips = -1;
                for (Terminator t : s.terminators()) {
                    int k = tripCount(s, t);
                    if (k >= 0 && (trips < 0 || k < trips)) {
                        trips = k;
                        limiting = t;
                    }
                }
                if (trips < 0 || !withinLimits(loop, trips)) continue;
                new Unroller(fn, s, limiting).unroll(trips);
                progress = true;
            }
        }
        return progress;
    }

    /** A terminator: an {@code if} at the top of the body one of whose sides is one block ending in a break. */
    private record Terminator(IfNode node, boolean breakOnTrue) {
        CfList breakSide() {
            return breakOnTrue ? node.thenList() : node.elseList();
        }

        CfList stayingSide() {
            return breakOnTrue ? node.elseList() : node.thenList();
        }

        Block breakBlock() {
            return breakSide().firstBlock();
        }
    }

    /** A loop the pass can take: its terminators in body order, and the block ending the body (the back edge). */
    private record Shape(LoopNode loop, List<Terminator> terminators, Block backEdge) {
        Terminator of(CfNode n) {
            for (Terminator t : terminators) if (t.node() == n) return t;
            return null;
        }

        /** The terminator whose merge block {@code b} is, or null. */
        Terminator mergedBy(Block b) {
            return b.prev() == null ? null : of(b.prev());
        }
    }

    private static Shape shape(LoopNode loop) {
        Block last = loop.body().lastBlock();
        JumpInstr end = last.jump();
        if (end != null && end.kind() != JumpInstr.Kind.CONTINUE) return null;
        List<Terminator> terminators = new ArrayList<>();
        for (CfNode n = loop.body().first(); n != null; n = n.next()) {
            if (n instanceof Block b && b != last && b.jump() != null) return null;
            if (n instanceof IfNode in) {
                boolean t = breaksAlone(in.thenList()), e = breaksAlone(in.elseList());
                if (t && e) return null;
                if (t || e) terminators.add(new Terminator(in, t));
            }
        }
        if (terminators.isEmpty()) return null;
        // every other jump to this loop, and any return, rules it out
        int breaks = 0;
        for (Block b : blocksOf(loop)) {
            if (!(b.lastInstr() instanceof JumpInstr j)) continue;
            if (j.kind() == JumpInstr.Kind.RETURN) return null;
            boolean own = b.enclosingLoop() == loop;
            if (own && j.kind() == JumpInstr.Kind.BREAK) breaks++;
            if (own && j.kind() == JumpInstr.Kind.CONTINUE && j != end) return null;
        }
        if (breaks != terminators.size()) return null;
        Block header = loop.header();
        Block before = (Block) loop.prev();
        for (PhiInstr phi : header.phis()) {
            if (phi.phiSrcs().size() != 2 || phi.srcFor(before) == null || phi.srcFor(last) == null) return null;
        }
        return new Shape(loop, terminators, last);
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
    private static int tripCount(Shape s, Terminator t) {
        Block before = (Block) s.loop().prev();
        List<PhiInstr> phis = s.loop().header().phis();
        Map<Value, long[]> env = new IdentityHashMap<>();
        for (PhiInstr phi : phis) {
            long[] c = constant(phi.srcFor(before).value());
            if (c != null) env.put(phi.def(), c);
        }
        Value cond = t.node().condition().value();
        for (int k = 0; k <= MAX_ITERATIONS; k++) {
            Evaluator ev = new Evaluator(env);
            long[] c = ev.value(cond);
            if (c == null) return -1;
            if (((c[0] & 1) != 0) == t.breakOnTrue()) return k;
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
        private final Map<Value, long[]> known;

        Evaluator(Map<Value, long[]> headerValues) {
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
            long[] r = ConstantFold.evaluate(alu, s -> value(s, depth + 1));
            if (r == null) return null;
            known.put(v, r);
            return r;
        }
    }

    private static boolean withinLimits(LoopNode loop, int trips) {
        if (trips > MAX_ITERATIONS) return false;
        int cost = 0;
        boolean indexesArray = false;
        for (Block b : blocksOf(loop)) {
            for (Instr i : b.instrs()) {
                if (i instanceof AluInstr) cost++;
                if (i instanceof IntrinsicInstr in) {
                    cost++;
                    indexesArray |= indexesLocalArray(in);
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

    /**
     * Writes the copies before the loop, then deletes it. A terminator other than the limiting
     * one stays an exit of each copy: an {@code if} whose break side leads out and whose other
     * side holds the rest of the copies, nested. What leaves the loop (the exit block's phis and
     * the loop's values read after it) is then merged back by phis at each such {@code if}'s merge,
     * innermost first.
     */
    private static final class Unroller {
        private final Function fn;
        private final Shape s;
        private final LoopNode loop;
        private final Terminator limiting;
        private final List<PhiInstr> exitPhis;
        /** Values of the loop read after it, not through the exit block's phis. */
        private final List<Value> escaping = new ArrayList<>();

        /** Where code goes: a list, and its last block. */
        private CfList list;

        private Block cur;
        /** The last block placed in the loop's own list (before the loop). */
        private Block topLast;

        /** An exit kept in the copies: the copy of its if, what leaves through it, and its merge. */
        private record Exit(IfNode node, boolean breakOnTrue, Value[] leaving, Block merge) {}

        private final List<Exit> exits = new ArrayList<>();

        Unroller(Function fn, Shape s, Terminator limiting) {
            this.fn = fn;
            this.s = s;
            this.loop = s.loop();
            this.limiting = limiting;
            Block exit = loop.exitBlock();
            this.exitPhis = exit.phis();
            for (Block b : blocksOf(loop)) {
                for (Instr i : b.instrs()) {
                    Value d = i.def();
                    if (d == null) continue;
                    for (Src u = d.firstUse(); u != null; u = u.nextUse()) {
                        boolean exitPhi = u.instr() instanceof PhiInstr p && p.block() == exit;
                        if (!exitPhi && !inside(u, loop)) {
                            escaping.add(d);
                            break;
                        }
                    }
                }
            }
        }

        /** The values leaving through terminator {@code t}'s break in the copy {@code c}. */
        private Value[] leaving(CodeCopier c, Terminator t) {
            Value[] v = new Value[exitPhis.size() + escaping.size()];
            for (int k = 0; k < exitPhis.size(); k++)
                v[k] = c.mapped(exitPhis.get(k).srcFor(t.breakBlock()).value());
            for (int k = 0; k < escaping.size(); k++) v[exitPhis.size() + k] = c.mapped(escaping.get(k));
            return v;
        }

        private void place(CfNode n) {
            if (list == loop.parent()) {
                list.insertBefore(loop, n);
                if (n instanceof Block b) topLast = b;
            } else {
                list.append(n);
            }
        }

        void unroll(int trips) {
            Block before = (Block) loop.prev();
            Block exit = loop.exitBlock();
            list = loop.parent();
            cur = before;
            topLast = before;
            CodeCopier prev = null;
            Value[] result = null;
            for (int k = 0; k <= trips; k++) {
                CodeCopier c = new CodeCopier(fn);
                for (PhiInstr phi : loop.header().phis()) {
                    Value v = prev == null
                            ? phi.srcFor(before).value()
                            : prev.mapped(phi.srcFor(s.backEdge()).value());
                    c.mapValue(phi.def(), v);
                }
                result = copyIteration(c, k == trips);
                c.finish();
                prev = c;
            }
            // innermost exit first: its merge joins what leaves through it with what the code inside it gives
            for (int e = exits.size() - 1; e >= 0; e--) {
                Exit x = exits.get(e);
                CfList out = x.breakOnTrue() ? x.node().thenList() : x.node().elseList();
                CfList stay = x.breakOnTrue() ? x.node().elseList() : x.node().thenList();
                for (int k = 0; k < result.length; k++) {
                    Value d = result[k];
                    PhiInstr phi = new PhiInstr(fn, d.numComponents(), d.bitSize());
                    phi.addSrc(out.lastBlock(), x.leaving()[k]);
                    phi.addSrc(stay.lastBlock(), result[k]);
                    x.merge().append(phi);
                    result[k] = phi.def();
                }
            }
            for (int k = 0; k < exitPhis.size(); k++) {
                exitPhis.get(k).def().replaceAllUsesWith(result[k]);
                exitPhis.get(k).remove();
            }
            for (int k = 0; k < escaping.size(); k++)
                replaceUsesOutside(escaping.get(k), result[exitPhis.size() + k], loop);
            ControlFlowEdits.deleteNodes(fn, List.of(loop));
            ControlFlowEdits.mergeBlocks(fn, topLast, exit);
        }

        /**
         * One copy of the body; the last one ends at the limiting terminator's break and returns the values leaving
         * through it (null for the others).
         */
        private Value[] copyIteration(CodeCopier c, boolean last) {
            for (CfNode n = loop.body().first(); n != null; n = n.next()) {
                if (n instanceof Block b) {
                    List<Instr> instrs = b.instrList();
                    if (b == loop.header()) instrs.removeIf(i -> i instanceof PhiInstr);
                    if (b.jump() != null) instrs.remove(instrs.size() - 1);
                    Terminator t = s.mergedBy(b);
                    if (t != null) {
                        // a terminator's merge: only the staying side reaches it
                        Block from = t.stayingSide().lastBlock();
                        for (PhiInstr phi : b.phis())
                            c.mapValue(phi.def(), c.mapped(phi.srcFor(from).value()));
                        instrs.removeIf(i -> i instanceof PhiInstr);
                    }
                    c.copyInstrs(instrs, cur);
                    c.mapBlock(b, cur);
                    continue;
                }
                Terminator t = s.of(n);
                if (t == limiting) {
                    if (last) {
                        copyBreakSide(c, t, cur);
                        return leaving(c, t);
                    }
                    inline(c, t.stayingSide());
                } else if (t != null) {
                    IfNode copy = c.newIf(c.mapped(t.node().condition().value()));
                    place(copy);
                    Block merge = new Block();
                    place(merge);
                    CfList out = t.breakOnTrue() ? copy.thenList() : copy.elseList();
                    copyBreakSide(c, t, out.firstBlock());
                    exits.add(new Exit(copy, t.breakOnTrue(), leaving(c, t), merge));
                    list = t.breakOnTrue() ? copy.elseList() : copy.thenList();
                    cur = list.firstBlock();
                    inline(c, t.stayingSide());
                } else {
                    place(c.copyNode(n));
                    Block after = new Block();
                    place(after);
                    cur = after;
                }
            }
            if (last) throw new IllegalStateException("loop_unroll: the limiting terminator is not in the body");
            return null;
        }

        /** Copies the break side of {@code t} but its break into {@code into}. */
        private static void copyBreakSide(CodeCopier c, Terminator t, Block into) {
            List<Instr> instrs = t.breakBlock().instrList();
            instrs.remove(instrs.size() - 1);
            c.copyInstrs(instrs, into);
        }

        /** Copies the nodes of {@code side} where code goes, continuing the current block. */
        private void inline(CodeCopier c, CfList side) {
            for (CfNode n = side.first(); n != null; n = n.next()) {
                if (n instanceof Block b) {
                    // a merge block's phis land at the start of the fresh block made after its if or loop
                    c.copyInstrs(b.instrList(), cur);
                    c.mapBlock(b, cur);
                } else {
                    place(c.copyNode(n));
                    Block after = new Block();
                    place(after);
                    cur = after;
                }
            }
        }
    }

    /** Every block inside {@code loop}, nested ones included. */
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
