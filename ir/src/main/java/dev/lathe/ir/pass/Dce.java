package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeKeeper;
import java.util.ArrayList;
import java.util.List;

/**
 * dce: removes instructions whose results cannot matter.
 *
 * <p>Mark and sweep over def→use, with a worklist: the roots are instructions with effects
 * (stores, discards, barriers, jumps) and {@code if} conditions; a live instruction makes the
 * definitions of its sources live. Everything left unmarked is dead — including cycles such as
 * a loop phi feeding only its own increment — and is removed in one go. Linear in the size of
 * the function.
 */
final class Dce implements Pass {

    @Override
    public boolean run(Function fn) {
        // Liveness per value index: every removable instruction defines a value (stores,
        // jumps and other effects have none and are roots).
        boolean[] live = new boolean[fn.valueCount()];
        List<Instr> work = new ArrayList<>();
        List<Instr> all = new ArrayList<>();
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                all.add(i);
                if (!i.isRemovableWhenUnused()) work.add(i);
            }
        }
        List<CfList> lists = new ArrayList<>();
        lists.add(fn.body());
        while (!lists.isEmpty()) {
            for (CfNode n : lists.remove(lists.size() - 1)) {
                if (n instanceof IfNode in) {
                    mark(in.condition().value(), live, work);
                    lists.add(in.thenList());
                    lists.add(in.elseList());
                } else if (n instanceof LoopNode l) {
                    lists.add(l.body());
                }
            }
        }
        while (!work.isEmpty()) {
            Instr i = work.remove(work.size() - 1);
            for (Src s : i.srcs()) mark(s.value(), live, work);
        }
        List<Instr> dead = new ArrayList<>();
        for (Instr i : all) {
            if (i.def() != null && !live[i.def().index()] && i.isRemovableWhenUnused()) dead.add(i);
        }
        if (dead.isEmpty()) return false;
        RangeKeeper ranges = RangeKeeper.of(fn);
        Instr.removeAll(dead);
        ranges.done(); // removing what nothing live reads changes no live value's facts
        return true;
    }

    private static void mark(Value v, boolean[] live, List<Instr> work) {
        if (!live[v.index()]) {
            live[v.index()] = true;
            work.add(v.parent());
        }
    }
}
