package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Src;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

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
    public String name() {
        return "dce";
    }

    @Override
    public boolean run(Function fn) {
        Set<Instr> live = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Instr> work = new ArrayList<>();
        List<Instr> all = new ArrayList<>();
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                all.add(i);
                if (!i.isRemovableWhenUnused() && live.add(i)) work.add(i);
            }
        }
        List<CfList> lists = new ArrayList<>();
        lists.add(fn.body());
        while (!lists.isEmpty()) {
            for (CfNode n : lists.remove(lists.size() - 1)) {
                if (n instanceof IfNode in) {
                    Instr d = in.condition().value().parent();
                    if (live.add(d)) work.add(d);
                    lists.add(in.thenList());
                    lists.add(in.elseList());
                } else if (n instanceof LoopNode l) {
                    lists.add(l.body());
                }
            }
        }
        while (!work.isEmpty()) {
            Instr i = work.remove(work.size() - 1);
            for (Src s : i.srcs()) {
                Instr d = s.value().parent();
                if (live.add(d)) work.add(d);
            }
        }
        List<Instr> dead = new ArrayList<>();
        for (Instr i : all) {
            if (!live.contains(i)) dead.add(i);
        }
        if (dead.isEmpty()) return false;
        Instr.removeAll(dead);
        return true;
    }
}
