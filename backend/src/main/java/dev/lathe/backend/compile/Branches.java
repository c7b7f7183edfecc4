package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * branches: the straight-line code's jumps made few and short, as a block layout pass would.
 * Linearization emits one shape per construct; what comes out of nesting them is cleaned up
 * here, until nothing changes:
 *
 * <ul>
 *   <li>a jump or branch to a label where a {@code jump} stands goes straight to that jump's
 *       target (threading);
 *   <li>a {@code br} that only skips a {@code jump} becomes the opposite {@code br} to the
 *       jump's target ({@code br !p0.x, #+2; jump L} is {@code br p0.x, L});
 *   <li>a jump to the next instruction goes;
 *   <li>code after a {@code jump} or {@code end} that no label leads to goes.
 * </ul>
 */
final class Branches {
    private Branches() {}

    /** The {@code branches} pass. */
    static void clean(MachineFunction mf) {
        List<Linear.Item> items = mf.linear.items;
        boolean changed = true;
        while (changed) {
            changed = thread(items);
            changed |= invert(items);
            changed |= dropJumpsToNext(items);
            changed |= dropUnreachable(items);
        }
    }

    private static boolean isJump(Linear.Item it) {
        return !it.isLabel() && it.instr().op() == MOp.JUMP;
    }

    /** Where each label stands: the index of the first instruction at or after it (items.size() at the end). */
    private static Map<Integer, Integer> positions(List<Linear.Item> items) {
        Map<Integer, Integer> at = new HashMap<>();
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Linear.Item it = items.get(i);
            if (it.isLabel()) {
                pending.add(it.label());
            } else {
                for (int l : pending) at.put(l, i);
                pending.clear();
            }
        }
        for (int l : pending) at.put(l, items.size());
        return at;
    }

    private static boolean thread(List<Linear.Item> items) {
        Map<Integer, Integer> at = positions(items);
        boolean changed = false;
        for (int i = 0; i < items.size(); i++) {
            Linear.Item it = items.get(i);
            if (it.isLabel() || it.target() < 0) continue;
            int target = it.target();
            // follow jumps to jumps, at most as many as there are items (a loop of jumps stays)
            for (int steps = 0; steps < items.size(); steps++) {
                Integer p = at.get(target);
                if (p == null
                        || p >= items.size()
                        || !isJump(items.get(p))
                        || items.get(p).target() == target) break;
                target = items.get(p).target();
            }
            if (target != it.target()) {
                items.set(i, Linear.Item.jump(it.instr(), target));
                changed = true;
            }
        }
        return changed;
    }

    private static boolean invert(List<Linear.Item> items) {
        boolean changed = false;
        for (int i = 0; i + 2 < items.size(); i++) {
            Linear.Item br = items.get(i), jump = items.get(i + 1);
            if (br.isLabel() || br.instr().op() != MOp.BR || !isJump(jump)) continue;
            // the labels right after the jump: is the branch's target one of them?
            boolean skipsJump = false;
            for (int k = i + 2; k < items.size() && items.get(k).isLabel(); k++)
                skipsJump |= items.get(k).label() == br.target();
            if (!skipsJump) continue;
            // before legalization a branch is its condition's sense and its target, nothing more
            items.set(i, Linear.Item.jump(MInstr.flow(MOp.BR, !br.instr().invert(), 0), jump.target()));
            items.remove(i + 1);
            changed = true;
        }
        return changed;
    }

    private static boolean dropJumpsToNext(List<Linear.Item> items) {
        boolean changed = false;
        for (int i = 0; i < items.size(); i++) {
            Linear.Item it = items.get(i);
            if (!isJump(it) && (it.isLabel() || it.instr().op() != MOp.BR)) continue;
            boolean next = false;
            for (int k = i + 1; k < items.size() && items.get(k).isLabel(); k++)
                next |= items.get(k).label() == it.target();
            if (next) {
                items.remove(i--);
                changed = true;
            }
        }
        return changed;
    }

    private static boolean dropUnreachable(List<Linear.Item> items) {
        boolean changed = false;
        for (int i = 0; i + 1 < items.size(); i++) {
            Linear.Item it = items.get(i);
            if (!isJump(it) && (it.isLabel() || it.instr().op() != MOp.END)) continue;
            while (i + 1 < items.size() && !items.get(i + 1).isLabel()) {
                items.remove(i + 1);
                changed = true;
            }
        }
        return changed;
    }
}
