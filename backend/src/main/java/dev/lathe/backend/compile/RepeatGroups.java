package dev.lathe.backend.compile;

import dev.lathe.ir.Block;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * rpt_groups: before register allocation, the repeat groups that can no longer become one
 * {@code (rptN)} instruction are split (ir3's pre-RA cleanup, the ir3 rptN merge request of 2024, docs/BACKGROUND.md), so that allocation
 * spends its preferences only on groups that can still merge.
 *
 * <p>After scheduling, a group's members merge only where they stand next to each other in lane
 * order: each maximal run of adjacent members with increasing lanes keeps a group of its own
 * (a fresh number for every run after the first), and a member alone in its run leaves its
 * group. Selection made the groups ({@link Isel}), the scheduler kept them together where that
 * cost nothing ({@link Schedule}), allocation prefers consecutive registers for what is left
 * ({@link RegAlloc}), and {@code rpt} ({@link RepeatForm}) merges what the registers allow.
 */
final class RepeatGroups {
    private RepeatGroups() {}

    /** The {@code rpt_groups} pass. */
    static void split(MachineFunction mf) {
        int next = 1;
        for (List<MirInstr> code : mf.mir.values()) for (MirInstr m : code) next = Math.max(next, m.group + 1);
        Set<Integer> seen = new HashSet<>();
        for (Block b : MachineFunction.blocks(mf.fn, mf.mir)) {
            List<MirInstr> code = mf.mir.get(b);
            int n = 0;
            while (n < code.size()) {
                MirInstr m = code.get(n);
                if (m.group == 0) {
                    n++;
                    continue;
                }
                int end = n + 1;
                while (end < code.size()
                        && code.get(end).group == m.group
                        && code.get(end).lane > code.get(end - 1).lane
                        && end - n < RepeatForm.MAX) {
                    end++;
                }
                int g = end - n == 1 ? 0 : seen.add(m.group) ? m.group : next++;
                for (int k = n; k < end; k++) code.get(k).group = g;
                n = end;
            }
        }
    }
}
