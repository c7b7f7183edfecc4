package dev.lathe.ir.analysis;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Loop nesting from the structure: the depth of a block is the number of {@code loop} nodes
 * around it, and its innermost loop is the nearest one. One walk over the tree, no recursion.
 */
public final class LoopNesting {
    private final int[] depth;
    private final LoopNode[] innermost;

    private LoopNesting(int[] depth, LoopNode[] innermost) {
        this.depth = depth;
        this.innermost = innermost;
    }

    private record Frame(CfNode node, int depth, LoopNode loop) {}

    public static LoopNesting compute(Function fn) {
        int n = fn.blocks().size() + 1;
        int[] depth = new int[n];
        LoopNode[] inner = new LoopNode[n];
        List<Frame> stack = new ArrayList<>();
        stack.add(new Frame(fn.body().first(), 0, null));
        while (!stack.isEmpty()) {
            Frame f = stack.remove(stack.size() - 1);
            for (CfNode c = f.node(); c != null; c = c.next()) {
                if (c instanceof Block b) {
                    depth[b.index()] = f.depth();
                    inner[b.index()] = f.loop();
                } else if (c instanceof IfNode in) {
                    stack.add(new Frame(in.thenList().first(), f.depth(), f.loop()));
                    stack.add(new Frame(in.elseList().first(), f.depth(), f.loop()));
                } else {
                    LoopNode l = (LoopNode) c;
                    stack.add(new Frame(l.body().first(), f.depth() + 1, l));
                }
            }
        }
        return new LoopNesting(depth, inner);
    }

    /** How many loops enclose {@code b} (0 outside any loop; the end block is 0). */
    public int depth(Block b) {
        return depth[b.index()];
    }

    /** The innermost loop around {@code b}, or null. */
    public LoopNode innermostLoop(Block b) {
        return innermost[b.index()];
    }
}
