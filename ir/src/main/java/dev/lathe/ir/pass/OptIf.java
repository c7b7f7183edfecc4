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
import dev.lathe.ir.Src;
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
 *
 * <p>Whatever the arms, a merge phi of the constants {@code true} from the then side and
 * {@code false} from the else side is the condition itself, and the other way round its
 * {@code inot} (NIR's {@code opt_if_phi_is_condition}). The SPIR-V frontend's loops leave such a
 * flag, set where the body breaks; as the condition, loop_unroll can follow it to the induction
 * variable.
 */
final class OptIf implements Pass {
    static final int MAX_ARM = 4;

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        for (CfNode n : DeadCf.nodesInOrder(fn)) {
            if (!(n instanceof IfNode in) || n.parent() == null) continue;
            progress |= phisAreCondition(fn, in);
            if (qualifies(in)) {
                flatten(fn, in);
                progress = true;
            }
        }
        return progress;
    }

    private static boolean phisAreCondition(Function fn, IfNode in) {
        Block t = in.thenList().lastBlock(), e = in.elseList().lastBlock();
        Block merge = in.mergeBlock();
        boolean progress = false;
        for (PhiInstr phi : merge.phis()) {
            Value d = phi.def();
            if (d.bitSize() != 1 || d.numComponents() != 1 || phi.phiSrcs().size() != 2) continue;
            Src a = phi.srcFor(t), b = phi.srcFor(e);
            if (a == null || b == null) continue;
            if (!(a.value().parent() instanceof LoadConstInstr ca)
                    || !(b.value().parent() instanceof LoadConstInstr cb)) continue;
            boolean then = (ca.value(0) & 1) != 0, other = (cb.value(0) & 1) != 0;
            if (then == other) continue;
            Value cond = in.condition().value();
            if (cond.numComponents() != 1) continue;
            Value r = cond;
            if (!then) {
                AluInstr not = new AluInstr(fn, Op.INOT, 1, 1, new Value[] {cond}, null);
                merge.insertAfterPhis(not);
                r = not.def();
            }
            d.replaceAllUsesWith(r);
            phi.remove();
            progress = true;
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
