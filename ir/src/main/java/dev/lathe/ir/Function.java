package dev.lathe.ir;

import dev.lathe.ir.analysis.Analyses;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A function: a structured body, an end block (the target of {@code return}, never in the
 * body), local variables (read and written through intrinsics until {@code vars_to_ssa}), and
 * the allocator of dense value indices.
 *
 * <p>Block order, predecessors and successors follow from the structure and are recomputed
 * lazily: anything that changes the structure or adds/removes a jump calls
 * {@link #invalidateCfg()}, and the next query recomputes them in one linear walk.
 */
public final class Function {
    private final Shader shader;
    private final String name;
    private final CfList body;
    private final Block endBlock = new Block();
    private final Map<String, Variable> locals = new LinkedHashMap<>();
    private int nextValueIndex;
    private boolean cfgValid;
    private List<Block> blocks = List.of();
    /** Changes to instructions, sources or structure so far: what a cached analysis is stamped with. */
    private long edits;
    /** Changes to the structure (blocks, ifs, loops, jumps) so far. */
    private long structureEdits;

    private Analyses analyses;
    /**
     * Values a frontend computed by an approximation of a function (a polynomial for atan), with
     * the approximation's bound on its absolute error: what the Vulkan precision model
     * (the Vulkan oracle's precision model, a {@code Shadow} of the interpreter) needs to know of them beyond their ops' rounding. A
     * note for the oracle on the frontend's IR, not part of the program: passes do not keep it,
     * the text format does not print it.
     */
    private final Map<Value, double[]> approximations = new java.util.IdentityHashMap<>();

    private final Map<Value, Integer> descriptorIndices = new java.util.IdentityHashMap<>();

    Function(Shader shader, String name) {
        this.shader = shader;
        this.name = name;
        this.body = new CfList(this, null);
        endBlock.function = this;
        body.append(new Block());
    }

    /**
     * Notes that {@code v} approximates a function within {@code absoluteError}, a function Vulkan
     * lets an implementation compute within {@code ulps} ULP of its result (atan: 4096).
     */
    public void noteApproximation(Value v, double absoluteError, int ulps) {
        approximations.put(v, new double[] {absoluteError, ulps});
    }

    /**
     * Notes that {@code v} indexes an array of {@code length} descriptors (buffers, textures,
     * uniform blocks) or an array in a uniform block, which the frontend lowered to a selection
     * or a load that reads zero past the end: Vulkan leaves an index past the array undefined.
     * For the Vulkan precision model, like {@link #noteApproximation}; a value noted twice keeps
     * the shorter length.
     */
    public void noteDescriptorIndex(Value v, int length) {
        descriptorIndices.merge(v, length, Math::min);
    }

    /** The length of the descriptor array {@code v} was noted to index, or -1. */
    public int descriptorIndexLength(Value v) {
        return descriptorIndices.getOrDefault(v, -1);
    }

    /** Whether anything was noted as a descriptor index. */
    public boolean hasDescriptorIndices() {
        return !descriptorIndices.isEmpty();
    }

    /** What was noted for {@code v} as an approximation: {absolute error, ULP Vulkan allows}; null when nothing was. */
    public double[] approximation(Value v) {
        double[] a = approximations.get(v);
        return a == null ? null : a.clone();
    }

    /** The shader this function belongs to. */
    public Shader shader() {
        return shader;
    }

    /** The function's name; the one named {@code main} is the shader's entry point. */
    public String name() {
        return name;
    }

    /** The structured body: blocks, ifs and loops in program order, starting and ending with a block. */
    public CfList body() {
        return body;
    }

    /** The first block of the body. */
    public Block entryBlock() {
        return body.firstBlock();
    }

    /** The block every {@code return} and the end of the body lead to; it has no instructions. */
    public Block endBlock() {
        return endBlock;
    }

    /** One more than the largest value index handed out: size arrays indexed by value with it. */
    public int valueCount() {
        return nextValueIndex;
    }

    int allocateValueIndex() {
        return nextValueIndex++;
    }

    /**
     * Declares local variable {@code v} and returns it. A variable that is no local, or a name another local or an
     * interface variable already has, is refused with an IllegalArgumentException.
     */
    public Variable addLocal(Variable v) {
        if (v.kind() != Variable.Kind.LOCAL) throw new IllegalArgumentException("not a local variable: " + v.name());
        if (locals.containsKey(v.name()) || shader.variable(v.name()) != null) {
            throw new IllegalArgumentException("@" + v.name() + " is already declared");
        }
        locals.put(v.name(), v);
        return v;
    }

    /** The local variable called {@code name}, or null. */
    public Variable local(String name) {
        return locals.get(name);
    }

    /** The local variables, in declaration order (a copy). */
    public List<Variable> locals() {
        return List.copyOf(locals.values());
    }

    /** Drops the declaration of local {@code v}, which no instruction may name any more ({@code vars_to_ssa} drops those it promoted). */
    public void removeLocal(Variable v) {
        locals.remove(v.name());
    }

    /** Marks block order and predecessor/successor lists stale. */
    public void invalidateCfg() {
        cfgValid = false;
        structureEdits++;
        edits++;
    }

    /** Counts a change to an instruction or a source (the IR's own mutators call this). */
    void edited() {
        edits++;
    }

    /**
     * How many changes were made to this function's instructions, sources and structure: equal
     * counts mean nothing changed in between, so an analysis stamped with one is still valid.
     */
    public long edits() {
        return edits;
    }

    /** How many changes were made to the structure: analyses of blocks alone are stamped with it. */
    public long structureEdits() {
        return structureEdits;
    }

    /** The analyses of this function, cached until an edit makes them stale. */
    public Analyses analyses() {
        if (analyses == null) analyses = new Analyses(this);
        return analyses;
    }

    /** The blocks of the body in program order (without the end block). */
    public List<Block> blocks() {
        ensureCfg();
        return Collections.unmodifiableList(blocks);
    }

    /** Recomputes block order and edges if the structure changed since the last time. */
    public void ensureCfg() {
        if (cfgValid) return;
        cfgValid = true;
        computeCfg();
    }

    /** A pending walk position: a node, the loop around it, and where its list falls through to. */
    private record Frame(CfNode node, LoopNode loop, Block fallthrough) {}

    private void computeCfg() {
        List<Block> order = new ArrayList<>();
        List<Frame> stack = new ArrayList<>();
        List<Block> fall = new ArrayList<>();
        List<LoopNode> loops = new ArrayList<>();
        stack.add(new Frame(body.first(), null, endBlock));
        // Program order, without recursion: after an if, visit then, else, and then what follows.
        while (!stack.isEmpty()) {
            Frame f = stack.remove(stack.size() - 1);
            CfNode n = f.node();
            while (n != null) {
                if (n instanceof Block b) {
                    b.index = order.size();
                    order.add(b);
                    fall.add(f.fallthrough());
                    loops.add(f.loop());
                    n = n.next;
                } else if (n instanceof IfNode in) {
                    Block merge = in.next instanceof Block m ? m : null;
                    stack.add(new Frame(n.next, f.loop(), f.fallthrough()));
                    stack.add(new Frame(in.elseList().first(), f.loop(), merge));
                    f = new Frame(in.thenList().first(), f.loop(), merge);
                    n = f.node();
                } else {
                    LoopNode loop = (LoopNode) n;
                    stack.add(new Frame(n.next, f.loop(), f.fallthrough()));
                    f = new Frame(loop.body().first(), loop, loop.body().first() instanceof Block h ? h : null);
                    n = f.node();
                }
            }
        }
        endBlock.index = order.size();
        List<List<Block>> preds = new ArrayList<>(order.size() + 1);
        for (int i = 0; i <= order.size(); i++) preds.add(new ArrayList<>(2));
        for (int i = 0; i < order.size(); i++) {
            Block b = order.get(i);
            List<Block> succs = new ArrayList<>(2);
            JumpInstr j = b.jump();
            if (j != null) {
                LoopNode loop = loops.get(i);
                Block target = switch (j.kind()) {
                    case RETURN -> endBlock;
                    case BREAK -> loop == null ? null : loop.next instanceof Block e ? e : null;
                    case CONTINUE -> loop == null ? null : loop.body().first() instanceof Block h ? h : null;
                };
                if (target != null) succs.add(target);
            } else if (b.next instanceof IfNode in) {
                if (in.thenList().first() instanceof Block t) succs.add(t);
                if (in.elseList().first() instanceof Block e) succs.add(e);
            } else if (b.next instanceof LoopNode loop) {
                if (loop.body().first() instanceof Block h) succs.add(h);
            } else if (b.next == null && fall.get(i) != null) {
                succs.add(fall.get(i));
            }
            b.succs = succs;
            for (Block s : succs) {
                List<Block> p = preds.get(s.index);
                if (!p.contains(b)) p.add(b);
            }
        }
        for (int i = 0; i < order.size(); i++) {
            List<Block> p = preds.get(i);
            p.sort((x, y) -> Integer.compare(x.index, y.index));
            order.get(i).preds = p;
        }
        List<Block> endPreds = preds.get(order.size());
        endPreds.sort((x, y) -> Integer.compare(x.index, y.index));
        endBlock.preds = endPreds;
        endBlock.succs = List.of();
        blocks = order;
    }

    /** All instructions in program order (a snapshot). */
    public List<Instr> instructions() {
        List<Instr> out = new ArrayList<>();
        for (Block b : blocks()) {
            for (Instr i = b.first; i != null; i = i.next) out.add(i);
        }
        return out;
    }

    /** The number of instructions in the body. */
    public int instructionCount() {
        int n = 0;
        for (Block b : blocks()) {
            for (Instr i = b.first; i != null; i = i.next) n++;
        }
        return n;
    }

    /**
     * Creates an {@code if} on {@code cond} after {@code before}, with an empty block on each
     * side. The instructions of {@code before} from {@code splitAt} on (none when null) move to a
     * new block after the {@code if}, which takes over {@code before}'s successors (their phis
     * are updated). Returns the node.
     */
    public IfNode insertIf(Block before, Instr splitAt, Value cond) {
        IfNode in = new IfNode(this, cond);
        in.thenList().append(new Block());
        in.elseList().append(new Block());
        placeAfter(before, splitAt, in);
        in.condition().link();
        return in;
    }

    /**
     * Creates a {@code loop} with an empty body block after {@code before}, splitting it at
     * {@code splitAt} as {@link #insertIf} does. Returns the node.
     */
    public LoopNode insertLoop(Block before, Instr splitAt) {
        LoopNode loop = new LoopNode(this);
        loop.body().append(new Block());
        placeAfter(before, splitAt, loop);
        return loop;
    }

    private void placeAfter(Block before, Instr splitAt, CfNode node) {
        if (splitAt != null && splitAt.block() != before) {
            throw new IllegalArgumentException("split point is not in the block");
        }
        if (splitAt instanceof PhiInstr) throw new IllegalArgumentException("cannot split a block at a phi");
        // With no split point, a jump ending the block stays there: the new node is then
        // unreachable code after the jump, which the structure allows (dead_cf removes it).
        List<Block> oldSuccs = structuralSuccessors(before);
        Block after = new Block();
        CfList list = before.parent();
        list.insertAfter(before, node);
        list.insertAfter(node, after);
        for (Instr i = splitAt; i != null; ) {
            Instr next = i.next;
            i.moveToEnd(after);
            i = next;
        }
        for (Block s : oldSuccs) {
            for (PhiInstr phi : s.phis()) phi.retargetSrc(before, after);
        }
    }

    /**
     * The successors of one block, read off the structure without recomputing the whole CFG:
     * passes that edit control flow many times ask this between edits (recomputing everything
     * each time would be quadratic). Walks up only as far as needed. The structure must be well
     * formed around {@code b}.
     */
    public List<Block> structuralSuccessors(Block b) {
        if (cfgValid) return new ArrayList<>(b.succs);
        List<Block> out = new ArrayList<>(2);
        JumpInstr j = b.jump();
        if (j != null) {
            if (j.kind() == JumpInstr.Kind.RETURN) {
                out.add(endBlock);
            } else {
                LoopNode loop = b.enclosingLoop();
                if (loop != null) {
                    Block t = j.kind() == JumpInstr.Kind.BREAK
                            ? (loop.next instanceof Block e ? e : null)
                            : (loop.body().first() instanceof Block h ? h : null);
                    if (t != null) out.add(t);
                }
            }
            return out;
        }
        CfNode n = b;
        while (true) {
            if (n.next instanceof IfNode in) {
                if (n != b) throw new IllegalStateException("malformed control flow");
                if (in.thenList().first() instanceof Block t) out.add(t);
                if (in.elseList().first() instanceof Block e) out.add(e);
                return out;
            }
            if (n.next instanceof LoopNode loop) {
                if (loop.body().first() instanceof Block h) out.add(h);
                return out;
            }
            if (n.next != null) return out; // two blocks in a row: malformed, no edges
            CfNode owner = n.parent.owner();
            if (owner == null) {
                out.add(endBlock);
                return out;
            }
            if (owner instanceof LoopNode loop) {
                if (loop.body().first() instanceof Block h) out.add(h);
                return out;
            }
            // the end of a then/else side falls through to the block after the if
            if (owner.next instanceof Block m) out.add(m);
            return out;
        }
    }

    /**
     * Removes a control-flow node and everything inside it, dropping its instructions' sources
     * (and an {@code if} condition) from their use lists. Values defined inside must have no
     * uses outside. The caller restores the list's block structure (for example by merging the
     * blocks around the gap).
     */
    public void deleteNode(CfNode node) {
        List<CfNode> work = new ArrayList<>();
        work.add(node);
        List<Instr> doomed = new ArrayList<>();
        while (!work.isEmpty()) {
            CfNode n = work.remove(work.size() - 1);
            if (n instanceof Block b) {
                for (Instr i = b.first; i != null; i = i.next) doomed.add(i);
            } else if (n instanceof IfNode in) {
                in.condition().unlink();
                for (CfNode c : in.thenList()) work.add(c);
                for (CfNode c : in.elseList()) work.add(c);
            } else if (n instanceof LoopNode l) {
                for (CfNode c : l.body()) work.add(c);
            }
        }
        for (Instr i : doomed) {
            for (Src s : i.srcs()) s.unlink();
        }
        for (Instr i : doomed) {
            Value d = i.def();
            if (d != null && d.hasUses()) {
                throw new IllegalStateException("cannot delete control flow: " + d + " is still used outside it");
            }
        }
        node.parent().unlink(node);
    }

    @Override
    public String toString() {
        return "function " + name;
    }
}
