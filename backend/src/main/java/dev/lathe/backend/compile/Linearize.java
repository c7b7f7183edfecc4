package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoopNode;
import java.util.List;
import java.util.Map;

/**
 * Structured control flow to branches: blocks in program order; an {@code if} becomes
 * {@code br !p0.x, else} (its block ended with the cmps writing p0.x), the then-list, a jump
 * over the else-list when the then-list falls through; a loop a label, its body and a jump back;
 * {@code break}, {@code continue} jumps to the loop's exit and head; {@code return} and the end
 * of the function {@code end}. Nesting deeper than {@link #MAX_DEPTH} is an error rather than a
 * stack overflow.
 */
final class Linearize {
    static final int MAX_DEPTH = 2000;

    private final Map<Block, List<MInstr>> code;
    final Linear out = new Linear();

    Linearize(Map<Block, List<MInstr>> code) {
        this.code = code;
    }

    /** The {@code linearize} pass. */
    static void linearize(MachineFunction mf) {
        mf.linear = new Linearize(mf.allocated).run(mf.fn);
        mf.allocated = null;
        mf.form = dev.lathe.ir.pass.ProgramForm.LINEAR;
    }

    /** The label of the end block, when it has code (the end reading the output registers), else -1. */
    private int endLabel = -1;

    Linear run(Function fn) {
        List<MInstr> end = code.get(fn.endBlock());
        if (end != null) endLabel = out.newLabel();
        list(fn.body(), -1, -1, 0);
        if (end == null) {
            out.items.add(Linear.Item.of(MInstr.flow(MOp.END, false, 0)));
        } else {
            // every return jumps here; the body's last block falls through
            out.items.add(Linear.Item.label(endLabel));
            for (MInstr i : end) out.items.add(Linear.Item.of(i));
        }
        return out;
    }

    private void list(CfList l, int breakTo, int continueTo, int depth) {
        if (depth > MAX_DEPTH) throw new CompileException("control flow nested deeper than " + MAX_DEPTH + " levels");
        for (CfNode n : l) {
            if (n instanceof Block b) {
                for (MInstr i : code.get(b)) out.items.add(Linear.Item.of(i));
                JumpInstr j = b.jump();
                if (j != null) {
                    switch (j.kind()) {
                        case BREAK -> out.items.add(Linear.Item.jump(MInstr.flow(MOp.JUMP, false, 0), breakTo));
                        case CONTINUE -> out.items.add(Linear.Item.jump(MInstr.flow(MOp.JUMP, false, 0), continueTo));
                        case RETURN ->
                            out.items.add(
                                    endLabel < 0
                                            ? Linear.Item.of(MInstr.flow(MOp.END, false, 0))
                                            : Linear.Item.jump(MInstr.flow(MOp.JUMP, false, 0), endLabel));
                    }
                }
            } else if (n instanceof IfNode f) {
                int elseL = out.newLabel(), endL = out.newLabel();
                out.items.add(Linear.Item.jump(MInstr.flow(MOp.BR, true, 0), elseL));
                list(f.thenList(), breakTo, continueTo, depth + 1);
                if (isEmpty(f.elseList())) {
                    out.items.add(Linear.Item.label(elseL));
                } else {
                    if (Isel.fallsThrough(f.thenList()))
                        out.items.add(Linear.Item.jump(MInstr.flow(MOp.JUMP, false, 0), endL));
                    out.items.add(Linear.Item.label(elseL));
                    list(f.elseList(), breakTo, continueTo, depth + 1);
                }
                out.items.add(Linear.Item.label(endL));
            } else if (n instanceof LoopNode loop) {
                int head = out.newLabel(), exit = out.newLabel();
                out.items.add(Linear.Item.label(head));
                list(loop.body(), exit, head, depth + 1);
                if (Isel.fallsThrough(loop.body()))
                    out.items.add(Linear.Item.jump(MInstr.flow(MOp.JUMP, false, 0), head));
                out.items.add(Linear.Item.label(exit));
            }
        }
    }

    /** A list that is one block with no code and no jump. */
    private boolean isEmpty(CfList l) {
        return l.first() == l.last()
                && l.first() instanceof Block b
                && code.get(b).isEmpty()
                && b.jump() == null;
    }
}
