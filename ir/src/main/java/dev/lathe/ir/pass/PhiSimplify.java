package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeKeeper;
import java.util.ArrayList;
import java.util.List;

/**
 * phi_simplify: removes trivial phis — those whose sources are all one value, apart from the
 * phi itself (a loop header phi that is only passed around the loop).
 *
 * <p>Such a phi equals that value, which dominates every predecessor and so the phi's block:
 * its uses read the value instead. Removing a phi can make phis that used it trivial, so those
 * go on a worklist. A phi with no other source than itself is left alone (it is undefined;
 * dce removes it if unused).
 */
final class PhiSimplify implements Pass {

    @Override
    public boolean run(Function fn) {
        List<PhiInstr> work = new ArrayList<>();
        for (Block b : fn.blocks()) work.addAll(b.phis());
        RangeKeeper ranges = RangeKeeper.of(fn);
        boolean progress = false;
        while (!work.isEmpty()) {
            PhiInstr phi = work.remove(work.size() - 1);
            if (!phi.isInserted()) continue;
            Value same = trivialValue(phi);
            if (same == null) continue;
            for (Src u : phi.def().uses()) {
                Instr user = u.instr();
                if (user instanceof PhiInstr p && p != phi) work.add(p);
            }
            ranges.replaceAllUses(phi.def(), same);
            // Self-references are gone with the replacement; nothing reads the phi now.
            phi.remove();
            progress = true;
        }
        ranges.done();
        return progress;
    }

    private static Value trivialValue(PhiInstr phi) {
        Value same = null;
        for (PhiInstr.PhiSrc ps : phi.phiSrcs()) {
            Value v = ps.src().value();
            if (v == phi.def() || v == same) continue;
            if (same != null) return null;
            same = v;
        }
        return same;
    }
}
