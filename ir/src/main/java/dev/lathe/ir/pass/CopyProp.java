package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeKeeper;
import dev.lathe.ir.op.Op;

/**
 * copy_prop: removes {@code mov}s and reads through {@code vecN}s.
 *
 * <p>For each {@code mov x = a.s} every ALU use {@code x.t} becomes {@code a.(s∘t)} (the
 * swizzles compose), and a non-ALU use (phi, intrinsic, if condition) reads {@code a} directly
 * when the mov copies all of it in order. For each {@code vecN x = a.i, b.j, …} an ALU use reads
 * the original value when all the components it picks come from one source value. A mov left
 * without uses is removed; a vecN is left to dce. One sweep; chains resolve because uses are
 * visited after their definitions are rewired.
 */
final class CopyProp implements Pass {

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        RangeKeeper ranges = RangeKeeper.of(fn);
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (!(i instanceof AluInstr alu)) continue;
                if (alu.op() == Op.MOV) {
                    progress |= propagateMov(alu, ranges);
                    if (!alu.def().hasUses()) {
                        alu.remove();
                        progress = true;
                    }
                } else if (isVec(alu.op())) {
                    progress |= propagateVec(alu, ranges);
                }
            }
        }
        ranges.done();
        return progress;
    }

    static boolean isVec(Op op) {
        return op == Op.VEC2 || op == Op.VEC3 || op == Op.VEC4 || op == Op.VEC8 || op == Op.VEC16;
    }

    private static boolean propagateMov(AluInstr mov, RangeKeeper ranges) {
        Src from = mov.src(0);
        Value a = from.value();
        boolean whole =
                from.isIdentitySwizzle() && a.numComponents() == mov.def().numComponents();
        boolean progress = false;
        for (Src use : mov.def().uses()) {
            if (use.hasSwizzle()) {
                byte[] composed = new byte[use.numComponentsRead()];
                for (int c = 0; c < composed.length; c++) composed[c] = (byte) from.component(use.component(c));
                use.set(a, composed);
                ranges.replacedUse(use, mov.def(), a);
                progress = true;
            } else if (whole) {
                use.set(a);
                ranges.replacedUse(use, mov.def(), a);
                progress = true;
            }
        }
        return progress;
    }

    private static boolean propagateVec(AluInstr vec, RangeKeeper ranges) {
        boolean progress = false;
        for (Src use : vec.def().uses()) {
            if (!use.hasSwizzle()) continue;
            Value common = null;
            byte[] composed = new byte[use.numComponentsRead()];
            for (int c = 0; c < composed.length; c++) {
                Src part = vec.src(use.component(c));
                if (common == null) common = part.value();
                if (part.value() != common) {
                    common = null;
                    break;
                }
                composed[c] = (byte) part.component(0);
            }
            if (common != null) {
                use.set(common, composed);
                ranges.replacedUse(use, vec.def(), common);
                progress = true;
            }
        }
        return progress;
    }
}
