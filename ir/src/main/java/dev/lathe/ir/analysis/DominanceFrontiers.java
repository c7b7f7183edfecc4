package dev.lathe.ir.analysis;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Dominance frontiers (Cooper, Harvey and Kennedy): for each join block, walk up from every
 * predecessor to the join's immediate dominator; the join is in the frontier of every block
 * passed. The frontier of b is where b's dominance ends: where SSA construction puts phis for
 * variables stored in b.
 */
public final class DominanceFrontiers {
    private final List<List<Block>> frontiers;

    private DominanceFrontiers(List<List<Block>> frontiers) {
        this.frontiers = frontiers;
    }

    public static DominanceFrontiers compute(Function fn, DominatorTree dom) {
        List<Block> all = new ArrayList<>(fn.blocks());
        all.add(fn.endBlock());
        List<List<Block>> df = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) df.add(new ArrayList<>());
        for (Block b : all) {
            if (!dom.isReachable(b)) continue;
            List<Block> preds = b.predecessors();
            if (preds.size() < 2) continue;
            Block stop = dom.idom(b);
            for (Block p : preds) {
                if (!dom.isReachable(p)) continue;
                Block runner = p;
                while (runner != null && runner != stop) {
                    List<Block> f = df.get(runner.index());
                    if (f.isEmpty() || f.get(f.size() - 1) != b) {
                        if (!f.contains(b)) f.add(b);
                    }
                    runner = dom.idom(runner);
                }
            }
        }
        for (List<Block> f : df) f.sort((x, y) -> Integer.compare(x.index(), y.index()));
        return new DominanceFrontiers(df);
    }

    /** The dominance frontier of {@code b}, in program order. */
    public List<Block> frontier(Block b) {
        return Collections.unmodifiableList(frontiers.get(b.index()));
    }
}
