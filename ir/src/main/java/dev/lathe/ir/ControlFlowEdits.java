package dev.lathe.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Structural edits of the control-flow tree that keep the IR valid: deleting nodes (with the
 * phi sources that named their blocks), merging two blocks that became adjacent, and moving
 * the nodes of one list into another. Passes such as dead_cf and opt_if are written with these.
 */
public final class ControlFlowEdits {
    private ControlFlowEdits() {}

    /**
     * Deletes {@code nodes} (siblings or not) and everything inside them. Phis outside that had
     * a source for a deleted block lose it; uses of deleted values that remain outside (possible
     * only in unreachable code) are rewritten to {@code undef} placed at the start of the entry
     * block. Every deleted node, nested ones included, is left without a parent, so a walk that
     * took a snapshot of the tree can tell them apart. Returns the number of nodes deleted.
     */
    public static int deleteNodes(Function fn, List<? extends CfNode> nodes) {
        List<Block> blocks = new ArrayList<>();
        List<IfNode> ifs = new ArrayList<>();
        List<CfNode> nested = new ArrayList<>();
        Set<CfNode> top = Collections.newSetFromMap(new IdentityHashMap<>());
        top.addAll(nodes);
        List<CfNode> work = new ArrayList<>(nodes);
        int count = 0;
        while (!work.isEmpty()) {
            CfNode n = work.remove(work.size() - 1);
            count++;
            if (!top.contains(n)) nested.add(n);
            if (n instanceof Block b) {
                blocks.add(b);
            } else if (n instanceof IfNode in) {
                ifs.add(in);
                for (CfNode c : in.thenList()) work.add(c);
                for (CfNode c : in.elseList()) work.add(c);
            } else {
                for (CfNode c : ((LoopNode) n).body()) work.add(c);
            }
        }
        Set<Block> doomed = Collections.newSetFromMap(new IdentityHashMap<>());
        doomed.addAll(blocks);
        // Phi sources along edges out of the deleted region go away.
        for (Block b : blocks) {
            for (Block s : fn.structuralSuccessors(b)) {
                if (doomed.contains(s)) continue;
                for (PhiInstr phi : s.phis()) phi.removeSrc(b);
            }
        }
        for (IfNode in : ifs) in.condition().unlink();
        List<Instr> instrs = new ArrayList<>();
        for (Block b : blocks) {
            for (Instr i = b.first; i != null; i = i.next) instrs.add(i);
        }
        unlinkAndUndefOutsideUses(fn, instrs);
        for (CfNode n : nodes) {
            if (n.parent != null) n.parent.unlink(n);
        }
        // nodes inside deleted ones go with them; their lists are gone, so they are only marked
        for (CfNode n : nested) n.parent = null;
        return count;
    }

    /** A new undef shaped like {@code like}, at the start of the entry block (it dominates everything). */
    private static Value newUndef(Function fn, Value like) {
        UndefInstr u = new UndefInstr(fn, like.numComponents(), like.bitSize());
        fn.entryBlock().prepend(u);
        return u.def();
    }

    /**
     * Takes the sources of {@code instrs} out of the use lists, and points every use of their
     * values that lies outside the set (only possible in unreachable code) at an undef.
     */
    private static void unlinkAndUndefOutsideUses(Function fn, List<Instr> instrs) {
        for (Instr i : instrs) {
            for (Src s : i.srcs()) s.unlink();
        }
        for (Instr i : instrs) {
            Value d = i.def();
            if (d != null && d.hasUses()) d.replaceAllUsesWith(newUndef(fn, d));
        }
    }

    /**
     * Empties the unreachable block {@code b} and deletes every node after it in its list, so b
     * ends the list. Phis of the block b now falls through to get an undef source for it (b stays
     * a predecessor in the structure, though it never runs). Returns whether anything changed.
     */
    public static boolean clearUnreachable(Function fn, Block b) {
        if (b.first == null && b.next == null) return false;
        List<Instr> instrs = b.instrList();
        unlinkAndUndefOutsideUses(fn, instrs);
        List<Block> oldSuccs = fn.structuralSuccessors(b);
        if (!instrs.isEmpty()) Instr.removeAll(instrs);
        List<CfNode> rest = new ArrayList<>();
        for (CfNode n = b.next; n != null; n = n.next) rest.add(n);
        if (!rest.isEmpty()) deleteNodes(fn, rest);
        for (Block s : fn.structuralSuccessors(b)) {
            for (PhiInstr phi : s.phis()) {
                if (phi.srcFor(b) == null) phi.addSrc(b, newUndef(fn, phi.def()));
            }
        }
        for (Block s : oldSuccs) {
            if (!fn.structuralSuccessors(b).contains(s)) {
                for (PhiInstr phi : s.phis()) phi.removeSrc(b);
            }
        }
        return true;
    }

    /**
     * Merges {@code b} into {@code a}, which must directly precede it in the same list: b's
     * instructions move to the end of a, phis that named b as a predecessor now name a, and b
     * disappears. Phis of b must already be gone (a is b's only predecessor, so a phi of b
     * would be trivial: resolve it first). If a ends with a jump, b and everything after it in
     * the list are unreachable and are deleted instead.
     */
    public static void mergeBlocks(Function fn, Block a, Block b) {
        if (a.next != b) throw new IllegalArgumentException("blocks to merge must be adjacent");
        if (b.first instanceof PhiInstr)
            throw new IllegalStateException("resolve the phis of a block before merging it");
        if (a.jump() != null) {
            List<CfNode> rest = new ArrayList<>();
            for (CfNode n = b; n != null; n = n.next) rest.add(n);
            deleteNodes(fn, rest);
            return;
        }
        List<Block> succs = fn.structuralSuccessors(b);
        for (Instr i = b.first; i != null; ) {
            Instr next = i.next;
            i.moveToEnd(a);
            i = next;
        }
        for (Block s : succs) {
            for (PhiInstr phi : s.phis()) phi.retargetSrc(b, a);
        }
        b.parent.unlink(b);
    }

    /**
     * Replaces every phi of {@code b} by its source along the edge from {@code pred} (the only
     * edge that will remain); phis without such a source become undef.
     */
    public static void resolvePhis(Function fn, Block b, Block pred) {
        for (PhiInstr phi : b.phis()) {
            Src s = phi.srcFor(pred);
            phi.def().replaceAllUsesWith(s != null ? s.value() : newUndef(fn, phi.def()));
            phi.remove();
        }
    }

    /**
     * Moves every node of {@code from} into the list of {@code before}, right before it, in
     * order. The caller merges the blocks that end up adjacent.
     */
    public static List<CfNode> moveNodesBefore(CfList from, CfNode before) {
        List<CfNode> moved = new ArrayList<>();
        for (CfNode n : from) moved.add(n);
        for (CfNode n : moved) {
            from.unlink(n);
            before.parent.insertBefore(before, n);
        }
        return moved;
    }

    /**
     * Replaces {@code node} (an if or a loop) by the nodes of {@code list} (one of its own
     * lists), merging the blocks that become adjacent. The caller has deleted anything else
     * inside the node, resolved the phis of the block after it, and made sure control no longer
     * needs the node (a constant condition; a loop body that runs once). Phis of the list's first
     * block can then only read the edge from the block before the node, and are resolved here.
     */
    public static void inlineList(Function fn, CfNode node, CfList list) {
        Block before = (Block) node.prev;
        Block after = (Block) node.next;
        Block first = list.firstBlock();
        resolvePhis(fn, first, before);
        List<CfNode> moved = moveNodesBefore(list, node);
        if (node instanceof IfNode in) in.condition().unlink();
        node.parent.unlink(node);
        Block last = (Block) moved.get(moved.size() - 1);
        // The tail first: if the inlined code ends with a jump, what follows it goes away.
        if (after != null) mergeBlocks(fn, last, after);
        mergeBlocks(fn, before, first);
    }
}
