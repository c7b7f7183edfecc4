package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.ControlFlowEdits;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import java.util.List;

/**
 * opt_if: turns tiny if/else diamonds with pure arms into {@code bcsel}.
 *
 * <p>The limit: each side of the {@code if} is a single block of at most {@value #MAX_ARM}
 * instructions, all ALU, {@code load_const} or {@code undef} (no intrinsics, no jumps, no
 * nested control flow), and the merge block has phis. Both arms are then run unconditionally
 * before the {@code if} — safe because every ALU op has a defined result for every input — each
 * merge phi becomes {@code bcsel(cond, then_value, else_value)}, and the now empty {@code if}
 * disappears. Bigger arms stay branches: executing both would cost more than the branch.
 */
final class OptIf implements Pass {
    static final int MAX_ARM = 4;

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        for (CfNode n : DeadCf.nodesInOrder(fn)) {
            if (n instanceof IfNode in && n.parent() != null && qualifies(in)) {
                flatten(fn, in);
                progress = true;
            }
        }
        return progress;
    }

    private static boolean qualifies(IfNode in) {
        Block t = in.thenList().firstBlock();
        Block e = in.elseList().firstBlock();
        if (t.next() != null || e.next() != null) return false;
        if (in.mergeBlock().phis().isEmpty()) return false;
        return pureAndSmall(t) && pureAndSmall(e);
    }

    private static boolean pureAndSmall(Block b) {
        int n = 0;
        for (Instr i : b.instrs()) {
            if (!(i instanceof AluInstr || i instanceof LoadConstInstr || i instanceof UndefInstr)) return false;
            if (++n > MAX_ARM) return false;
        }
        return true;
    }

    private static void flatten(Function fn, IfNode in) {
        Block before = (Block) in.prev();
        Block t = in.thenList().firstBlock();
        Block e = in.elseList().firstBlock();
        Block merge = in.mergeBlock();
        for (Instr i : t.instrList()) i.moveToEnd(before);
        for (Instr i : e.instrList()) i.moveToEnd(before);
        Value cond = in.condition().value();
        List<PhiInstr> phis = merge.phis();
        for (PhiInstr phi : phis) {
            Value d = phi.def();
            Value a = phi.srcFor(t).value();
            Value b = phi.srcFor(e).value();
            byte[] splat = new byte[d.numComponents()];
            AluInstr sel =
                    new AluInstr(fn, Op.BCSEL, d.numComponents(), d.bitSize(), new Value[] {cond, a, b}, new byte[][] {
                        splat, null, null
                    });
            before.append(sel);
            d.replaceAllUsesWith(sel.def());
            phi.remove();
        }
        ControlFlowEdits.deleteNodes(fn, List.of(in));
        ControlFlowEdits.mergeBlocks(fn, before, merge);
    }
}
