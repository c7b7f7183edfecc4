package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeKeeper;

/**
 * constant_fold: replaces ALU instructions whose sources are all constants by the constant
 * they compute.
 *
 * <p>One sweep in program order: a definition comes before its non-phi uses, so a folded result
 * is already a {@code load_const} when its users are visited and whole chains fold in one run.
 * The value is computed by the op table alone ({@code Op.evaluate}), so folding is exact by
 * construction and the exact flag does not matter.
 */
final class ConstantFold implements Pass {

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        RangeKeeper ranges = RangeKeeper.of(fn);
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (i instanceof AluInstr alu && allConstant(alu)) {
                    fold(fn, alu, ranges);
                    progress = true;
                }
            }
        }
        ranges.done();
        return progress;
    }

    /**
     * What {@code alu} computes when each source value has the components {@code valueOf} gives
     * (read through the source's swizzle), by the op table; null when {@code valueOf} gives null
     * for one (loop_unroll runs a loop's arithmetic with it).
     */
    static long[] evaluate(AluInstr alu, java.util.function.Function<Value, long[]> valueOf) {
        long[][] srcs = new long[alu.numSrcs()][];
        for (int k = 0; k < srcs.length; k++) {
            Src s = alu.src(k);
            long[] v = valueOf.apply(s.value());
            if (v == null) return null;
            long[] comps = new long[s.numComponentsRead()];
            for (int j = 0; j < comps.length; j++) comps[j] = v[s.component(j)];
            srcs[k] = comps;
        }
        return alu.op().evaluate(alu.unsizedBitSize(), alu.def().numComponents(), srcs);
    }

    private static boolean allConstant(AluInstr alu) {
        for (int k = 0; k < alu.numSrcs(); k++) {
            if (!(alu.src(k).value().parent() instanceof LoadConstInstr)) return false;
        }
        return true;
    }

    private static void fold(Function fn, AluInstr alu, RangeKeeper ranges) {
        long[] result = evaluate(alu, v -> ((LoadConstInstr) v.parent()).values());
        LoadConstInstr folded = new LoadConstInstr(fn, alu.def().bitSize(), result);
        folded.insertBefore(alu);
        ranges.replaceAllUses(alu.def(), folded.def());
        alu.remove();
    }
}
