package dev.lathe.rules.model;

import dev.lathe.ir.op.Op;
import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A rule file that passed every check. */
public record CheckedFile(String file, String passName, List<CheckedRule> rules) {

    /** Whether some condition asks about a variable that need not be a constant (see {@code RuleSet.usesFacts}). */
    public boolean usesFacts() {
        for (CheckedRule r : rules) {
            for (Condition c : r.conditions()) {
                if (!c.var().constOnly()) return true;
            }
        }
        return false;
    }

    /**
     * For each op that appears inside a pattern (not as its root), the deepest level it appears
     * at (see {@code RuleSet.nodeHeight}); ops not in the map have height 0.
     */
    public Map<Op, Integer> nodeHeights() {
        Map<Op, Integer> heights = new EnumMap<>(Op.class);
        record At(Node node, int depth) {}
        ArrayDeque<At> work = new ArrayDeque<>();
        for (CheckedRule r : rules) work.add(new At(r.pattern(), 0));
        while (!work.isEmpty()) {
            At at = work.poll();
            if (!(at.node() instanceof Node.OpNode op)) continue;
            if (at.depth() > 0) heights.merge(op.op(), at.depth(), Math::max);
            for (Node s : op.srcs()) work.add(new At(s, at.depth() + 1));
        }
        return heights;
    }
}
