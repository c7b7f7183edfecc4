package dev.lathe.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Copies code of a function inside the same function, as loop unrolling needs: instructions into
 * a block, and whole {@code if}/{@code loop} nodes with everything inside them. A copy reads the
 * copies of the values it was given a mapping for (or copied before), and the originals of every
 * other value; the notes the precision model keeps per value (an approximation, a descriptor
 * index) go with each copy.
 *
 * <p>Phis are made without sources and completed by {@link #finish()}: a loop header's phi reads
 * a back edge whose value is copied after the phi. Copy in program order, so that every value is
 * copied before the code that reads it; then call {@link #finish()} once.
 */
public final class CodeCopier {
    private final Function fn;
    private final Map<Value, Value> values = new IdentityHashMap<>();
    private final Map<Block, Block> blocks = new IdentityHashMap<>();
    private final List<PhiInstr[]> phis = new ArrayList<>(); // {original, copy}

    public CodeCopier(Function fn) {
        this.fn = fn;
    }

    /** Copies made from now on read {@code to} where the original read {@code from}. */
    public void mapValue(Value from, Value to) {
        values.put(from, to);
    }

    /** Copied phis name {@code to} as the predecessor where the original named {@code from}. */
    public void mapBlock(Block from, Block to) {
        blocks.put(from, to);
    }

    /** The copy of {@code v}, or {@code v} itself when it has none (it is defined outside the copied code). */
    public Value mapped(Value v) {
        return values.getOrDefault(v, v);
    }

    /** Whether {@code v} has a copy (or a mapping). */
    public boolean hasCopy(Value v) {
        return values.containsKey(v);
    }

    /**
     * Appends a copy of each of {@code instrs} to {@code into}, in order. A jump must not be
     * among them: where a copied jump goes is the caller's to decide.
     */
    public void copyInstrs(List<Instr> instrs, Block into) {
        for (Instr i : instrs) into.append(copy(i));
    }

    /**
     * A copy of the {@code if} or {@code loop} {@code node} and everything in it, detached; its
     * conditions are uses already, so the caller inserts it into the function.
     */
    public CfNode copyNode(CfNode node) {
        CfNode top = shell(node);
        // A stack of lists being copied, each with the position reached: nodes are copied in
        // program order (a value is copied before what reads it) without recursion.
        ArrayDeque<Frame> work = new ArrayDeque<>();
        pushLists(node, top, work);
        while (!work.isEmpty()) {
            Frame f = work.peek();
            if (!f.from().hasNext()) {
                work.pop();
                continue;
            }
            CfNode n = f.from().next();
            if (n instanceof Block b) {
                Block nb = new Block();
                f.into().append(nb);
                blocks.put(b, nb);
                for (Instr i = b.first; i != null; i = i.next) nb.append(copy(i));
            } else {
                CfNode c = shell(n);
                f.into().append(c);
                pushLists(n, c, work);
            }
        }
        return top;
    }

    /** A list being copied: the original's nodes from the position reached, and the list of the copy. */
    private record Frame(Iterator<CfNode> from, CfList into) {}

    /** Pushes the lists of {@code from} to be copied into those of {@code to}: the then side first, then the else side. */
    private static void pushLists(CfNode from, CfNode to, ArrayDeque<Frame> work) {
        if (from instanceof IfNode in) {
            IfNode c = (IfNode) to;
            work.push(new Frame(in.elseList().iterator(), c.elseList()));
            work.push(new Frame(in.thenList().iterator(), c.thenList()));
        } else {
            work.push(new Frame(((LoopNode) from).body().iterator(), ((LoopNode) to).body()));
        }
    }

    /**
     * A new detached {@code if} on {@code cond} with an empty block on each side, its condition a
     * use already (the caller inserts it), for code that a copy splits.
     */
    public IfNode newIf(Value cond) {
        IfNode in = new IfNode(fn, cond);
        in.thenList().append(new Block());
        in.elseList().append(new Block());
        in.condition().link();
        return in;
    }

    /** A new empty node of {@code n}'s kind: an {@code if} on the copy of its condition, or a loop. */
    private CfNode shell(CfNode n) {
        if (n instanceof IfNode in) {
            IfNode c = new IfNode(fn, mapped(in.condition().value()));
            c.setLoc(in.loc());
            c.condition().link(); // the caller inserts the copy: its condition is a use from now on
            return c;
        }
        LoopNode c = new LoopNode(fn);
        c.setLoc(((LoopNode) n).loc());
        return c;
    }

    private Instr copy(Instr i) {
        Instr c;
        if (i instanceof AluInstr a) {
            Value[] srcs = new Value[a.numSrcs()];
            byte[][] swizzles = new byte[a.numSrcs()][];
            for (int k = 0; k < srcs.length; k++) {
                srcs[k] = mapped(a.src(k).value());
                swizzles[k] = a.src(k).swizzle();
            }
            AluInstr n =
                    new AluInstr(fn, a.op(), a.def().numComponents(), a.def().bitSize(), srcs, swizzles);
            n.copyFlagsFrom(a);
            c = n;
        } else if (i instanceof IntrinsicInstr in) {
            Value[] srcs = new Value[in.numSrcs()];
            for (int k = 0; k < srcs.length; k++) srcs[k] = mapped(in.src(k).value());
            Value d = in.def();
            c = new IntrinsicInstr(
                    fn, in.intrinsic(), in.var(), d == null ? 0 : d.numComponents(), d == null ? 0 : d.bitSize(), srcs);
        } else if (i instanceof LoadConstInstr lc) {
            c = new LoadConstInstr(fn, lc.def().bitSize(), lc.values());
        } else if (i instanceof UndefInstr u) {
            c = new UndefInstr(fn, u.def().numComponents(), u.def().bitSize());
        } else if (i instanceof PhiInstr p) {
            PhiInstr n = new PhiInstr(fn, p.def().numComponents(), p.def().bitSize());
            phis.add(new PhiInstr[] {p, n});
            c = n;
        } else {
            c = new JumpInstr(((JumpInstr) i).kind());
        }
        c.setLoc(i.loc());
        if (i.def() != null) {
            values.put(i.def(), c.def());
            double[] approx = fn.approximation(i.def());
            if (approx != null) fn.noteApproximation(c.def(), approx[0], (int) approx[1]);
            int length = fn.descriptorIndexLength(i.def());
            if (length >= 0) fn.noteDescriptorIndex(c.def(), length);
        }
        return c;
    }

    /**
     * Gives every copied phi its sources: the copy of each original source, along the copy of its
     * predecessor. A predecessor without a copy (outside the copied code) is kept, when the caller
     * has not mapped it.
     */
    public void finish() {
        for (PhiInstr[] pair : phis) {
            for (PhiInstr.PhiSrc s : pair[0].phiSrcs()) {
                pair[1].addSrc(
                        blocks.getOrDefault(s.pred(), s.pred()), mapped(s.src().value()));
            }
        }
        phis.clear();
    }
}
