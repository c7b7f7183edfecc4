package dev.lathe.ir.analysis;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Block orders of a function. Program order is the order of the structured text (a block's
 * {@link Block#index()}); every dominator comes before the blocks it dominates in it. Reverse
 * postorder visits each reachable block after all its forward-edge predecessors, the order
 * data-flow analyses converge fastest in. The end block is included in both when reachable.
 */
public final class BlockOrder {
    private final List<Block> program;
    private final List<Block> rpo;

    private BlockOrder(List<Block> program, List<Block> rpo) {
        this.program = program;
        this.rpo = rpo;
    }

    public static BlockOrder compute(Function fn) {
        List<Block> program = new ArrayList<>(fn.blocks());
        program.add(fn.endBlock());
        int n = program.size();
        boolean[] seen = new boolean[n];
        List<Block> post = new ArrayList<>(n);
        // Iterative depth-first search: each frame is a block and the next successor to try.
        List<Block> stack = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        Block entry = fn.entryBlock();
        stack.add(entry);
        next.add(0);
        seen[entry.index()] = true;
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            Block b = stack.get(top);
            List<Block> succs = b.successors();
            int k = next.get(top);
            if (k < succs.size()) {
                next.set(top, k + 1);
                Block s = succs.get(k);
                if (!seen[s.index()]) {
                    seen[s.index()] = true;
                    stack.add(s);
                    next.add(0);
                }
            } else {
                post.add(b);
                stack.remove(top);
                next.remove(top);
            }
        }
        Collections.reverse(post);
        return new BlockOrder(Collections.unmodifiableList(program), Collections.unmodifiableList(post));
    }

    /** All blocks in program order, the end block last. */
    public List<Block> programOrder() {
        return program;
    }

    /** The reachable blocks in reverse postorder (the entry first). */
    public List<Block> reversePostorder() {
        return rpo;
    }
}
