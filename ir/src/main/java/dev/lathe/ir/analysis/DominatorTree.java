package dev.lathe.ir.analysis;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * Dominators by the Cooper–Harvey–Kennedy iterative algorithm over reverse postorder: each
 * block's immediate dominator is the intersection (walking up the partial tree) of its
 * processed predecessors, repeated until nothing changes — two passes on structured code.
 * A depth-first numbering of the resulting tree answers "does a dominate b" in O(1).
 *
 * <p>The end block takes part. Unreachable blocks have no dominator and dominate nothing but
 * themselves.
 */
public final class DominatorTree {
    private final Function fn;
    private final Block[] blocks;
    private final int[] idom;
    private final int[] pre;
    private final int[] post;
    private final int[] depth;
    private final List<List<Block>> children;

    private DominatorTree(Function fn, Block[] blocks, int[] idom) {
        this.fn = fn;
        this.blocks = blocks;
        this.idom = idom;
        int n = blocks.length;
        this.children = new ArrayList<>(n);
        for (int i = 0; i < n; i++) children.add(new ArrayList<>());
        for (int i = 0; i < n; i++) {
            if (idom[i] >= 0 && idom[i] != i) children.get(idom[i]).add(blocks[i]);
        }
        this.pre = new int[n];
        this.post = new int[n];
        this.depth = new int[n];
        Arrays.fill(pre, -1);
        Arrays.fill(post, -1);
        int entry = fn.entryBlock().index();
        int counter = 0;
        int[] stack = new int[n];
        int[] next = new int[n];
        int sp = 0;
        stack[sp] = entry;
        next[sp] = 0;
        sp++;
        pre[entry] = counter++;
        while (sp > 0) {
            int b = stack[sp - 1];
            List<Block> kids = children.get(b);
            if (next[sp - 1] < kids.size()) {
                int c = kids.get(next[sp - 1]++).index();
                pre[c] = counter++;
                depth[c] = depth[b] + 1;
                stack[sp] = c;
                next[sp] = 0;
                sp++;
            } else {
                post[b] = counter++;
                sp--;
            }
        }
    }

    public static DominatorTree compute(Function fn) {
        BlockOrder order = BlockOrder.compute(fn);
        List<Block> program = order.programOrder();
        int n = program.size();
        Block[] blocks = program.toArray(new Block[0]);
        List<Block> rpo = order.reversePostorder();
        int[] rpoNum = new int[n];
        Arrays.fill(rpoNum, -1);
        for (int i = 0; i < rpo.size(); i++) rpoNum[rpo.get(i).index()] = i;
        int[] idom = new int[n];
        Arrays.fill(idom, -1);
        int entry = fn.entryBlock().index();
        idom[entry] = entry;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Block b : rpo) {
                int bi = b.index();
                if (bi == entry) continue;
                int newIdom = -1;
                for (Block p : b.predecessors()) {
                    int pi = p.index();
                    if (idom[pi] < 0) continue; // not processed yet, or unreachable
                    newIdom = newIdom < 0 ? pi : intersect(pi, newIdom, idom, rpoNum);
                }
                if (newIdom >= 0 && idom[bi] != newIdom) {
                    idom[bi] = newIdom;
                    changed = true;
                }
            }
        }
        return new DominatorTree(fn, blocks, idom);
    }

    private static int intersect(int a, int b, int[] idom, int[] rpoNum) {
        while (a != b) {
            while (rpoNum[a] > rpoNum[b]) a = idom[a];
            while (rpoNum[b] > rpoNum[a]) b = idom[b];
        }
        return a;
    }

    public Function function() {
        return fn;
    }

    public boolean isReachable(Block b) {
        return idom[b.index()] >= 0;
    }

    /** The immediate dominator, or null for the entry block and unreachable blocks. */
    public Block idom(Block b) {
        int i = idom[b.index()];
        return i < 0 || i == b.index() ? null : blocks[i];
    }

    /** Whether {@code a} dominates {@code b} (every block dominates itself). */
    public boolean dominates(Block a, Block b) {
        if (a == b) return true;
        int ai = a.index(), bi = b.index();
        if (pre[ai] < 0 || pre[bi] < 0) return false;
        return pre[ai] <= pre[bi] && post[bi] <= post[ai];
    }

    /** Whether {@code a} dominates {@code b} and differs from it. */
    public boolean strictlyDominates(Block a, Block b) {
        return a != b && dominates(a, b);
    }

    /** The nearest block dominating both (both must be reachable). */
    public Block nearestCommonDominator(Block a, Block b) {
        if (!isReachable(a) || !isReachable(b)) throw new IllegalArgumentException("unreachable block");
        int x = a.index(), y = b.index();
        while (depth[x] > depth[y]) x = idom[x];
        while (depth[y] > depth[x]) y = idom[y];
        while (x != y) {
            x = idom[x];
            y = idom[y];
        }
        return blocks[x];
    }

    /** The blocks whose immediate dominator is {@code b}, in program order. */
    public List<Block> children(Block b) {
        return Collections.unmodifiableList(children.get(b.index()));
    }

    /**
     * Walks the tree from the entry without recursion: {@code enter} runs on a block before its
     * children (in program order), {@code leave} after them. Passes that keep scoped state (value
     * numbering, SSA renaming) push in {@code enter} and pop in {@code leave}.
     */
    public void walk(Consumer<Block> enter, Consumer<Block> leave) {
        int n = blocks.length;
        int[] stack = new int[n];
        int[] next = new int[n];
        int sp = 0;
        int entry = fn.entryBlock().index();
        stack[sp++] = entry;
        enter.accept(blocks[entry]);
        while (sp > 0) {
            int b = stack[sp - 1];
            List<Block> kids = children.get(b);
            if (next[sp - 1] < kids.size()) {
                Block c = kids.get(next[sp - 1]++);
                stack[sp] = c.index();
                next[sp] = 0;
                sp++;
                enter.accept(c);
            } else {
                leave.accept(blocks[b]);
                sp--;
            }
        }
    }

    /** Depth in the dominator tree (0 for the entry block). */
    public int depth(Block b) {
        return depth[b.index()];
    }
}
