package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import java.util.ArrayList;
import java.util.List;

/**
 * Straight-line code with symbolic labels, between linearization and encoding: an item is an
 * instruction (a jump or branch names the label it goes to) or a label.
 */
final class Linear {
    record Item(MInstr instr, int target, int label) {
        static Item of(MInstr i) {
            return new Item(i, -1, -1);
        }

        static Item jump(MInstr i, int target) {
            return new Item(i, target, -1);
        }

        static Item label(int id) {
            return new Item(null, -1, id);
        }

        boolean isLabel() {
            return instr == null;
        }
    }

    final List<Item> items = new ArrayList<>();
    int labels;

    int newLabel() {
        return labels++;
    }

    /** The instructions with branch offsets resolved. */
    List<MInstr> resolve() {
        int[] at = new int[labels];
        int pos = 0;
        for (Item it : items) {
            if (it.isLabel()) at[it.label()] = pos;
            else pos++;
        }
        List<MInstr> out = new ArrayList<>();
        for (Item it : items) {
            if (it.isLabel()) continue;
            out.add(it.target() >= 0 ? it.instr().withOffset(at[it.target()] - out.size()) : it.instr());
        }
        return out;
    }
}
