package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.analysis.DominatorTree;
import dev.lathe.ir.analysis.LoopNesting;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * sink_constants: moves {@code load_const} and {@code undef} into the block that is the nearest
 * common dominator of their uses, to shorten their live ranges (Mesa's
 * {@code nir_opt_sink} for constants, extended to the nearest common dominator).
 *
 * <p>A use counts where the value is needed: an ordinary instruction in its block; a phi
 * source at the end of the matching predecessor; an {@code if} condition at the end of the block
 * before the {@code if}. The target is the nearest common dominator of those blocks, raised up
 * the dominator tree while it sits in a loop that does not also contain the definition — a
 * deeper loop, or a sibling loop after the definition's own (sinking into a loop would
 * rematerialize the constant on every iteration). Inside the target block the constant
 * goes right before its first use there, or at the end (before a jump) when the block only
 * passes it on. Only moves between blocks count as progress, so the pass settles.
 */
final class SinkConstants implements Pass {

    @Override
    public boolean run(Function fn) {
        DominatorTree dom = fn.analyses().dominators();
        LoopNesting loops = fn.analyses().loops();
        // Program-order numbers, taken once: moving constants does not reorder anything else.
        List<Instr> all = fn.instructions();
        Map<Instr, Integer> order = new IdentityHashMap<>(all.size() * 2);
        for (int k = 0; k < all.size(); k++) order.put(all.get(k), k);
        boolean progress = false;
        for (Instr i : all) {
            if (!(i instanceof LoadConstInstr || i instanceof UndefInstr)) continue;
            if (!i.def().hasUses() || !dom.isReachable(i.block())) continue;
            Block target = null;
            boolean ok = true;
            for (Src u : i.def().uses()) {
                Block at = useBlock(u);
                if (!dom.isReachable(at)) {
                    ok = false;
                    break;
                }
                target = target == null ? at : dom.nearestCommonDominator(target, at);
            }
            if (!ok || target == null) continue;
            LoopNode defLoop = loops.innermostLoop(i.block());
            while (!enclosesOrIs(loops, loops.innermostLoop(target), defLoop)) target = dom.idom(target);
            if (target == i.block()) continue;
            Instr firstUse = firstUseIn(i, target, order);
            if (firstUse != null) {
                i.moveBefore(firstUse);
            } else if (target.jump() != null) {
                i.moveBefore(target.jump());
            } else {
                i.moveToEnd(target);
            }
            progress = true;
        }
        return progress;
    }

    /**
     * Whether {@code outer} is {@code inner} or a loop around it (null stands for the function
     * body, outside every loop). A loop's enclosing loop is the innermost loop of the block
     * before it, which sits in the same list.
     */
    private static boolean enclosesOrIs(LoopNesting loops, LoopNode outer, LoopNode inner) {
        for (LoopNode l = inner; l != null; l = loops.innermostLoop((Block) l.prev())) {
            if (l == outer) return true;
        }
        return outer == null;
    }

    private static Block useBlock(Src u) {
        Instr user = u.instr();
        if (user == null) return (Block) ((IfNode) u.owner()).prev();
        if (user instanceof PhiInstr phi) {
            for (PhiInstr.PhiSrc ps : phi.phiSrcs()) {
                if (ps.src() == u) return ps.pred();
            }
        }
        return user.block();
    }

    /** The first non-phi instruction of {@code b} that reads {@code def}'s value, or null. */
    private static Instr firstUseIn(Instr def, Block b, Map<Instr, Integer> order) {
        Instr first = null;
        for (Src u : def.def().uses()) {
            Instr user = u.instr();
            if (user == null || user instanceof PhiInstr || user.block() != b) continue;
            if (first == null || order.get(user) < order.get(first)) first = user;
        }
        return first;
    }
}
