package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.ControlFlowEdits;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Value;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * dead_cf: removes control flow that cannot matter.
 *
 * <ul>
 *   <li>an {@code if} on a constant becomes the side it takes (merge phis read that side);
 *   <li>an {@code if} with two empty sides and no merge phis disappears;
 *   <li>code after a {@code break}, {@code continue} or {@code return} in the same list is
 *       unreachable and is deleted, and so is the code after an {@code if} whose sides both end
 *       in a jump and after a loop that never breaks (the block there is emptied and ends its
 *       list);
 *   <li>a {@code return} that ends the function's body does nothing and is deleted;
 *   <li>a loop that never iterates — its body ends in a jump, it has no {@code continue} and no
 *       other {@code break} — becomes its body run once;
 *   <li>so does a loop whose every path ends in a {@code break} at the tail of its body, at the
 *       end of both sides of the {@code if}s that end it, and which has no other jump to it (the
 *       SPIR-V frontend wraps a loop's body in one, so that a {@code continue} can leave it): the
 *       breaks go, each {@code if} merges again, and the exit block's phis become phis of those
 *       merges;
 *   <li>in such a loop that runs once (no {@code continue}, every path ends in a {@code break})
 *       the code after an {@code if} one of whose sides ends in a jump moves into the other side,
 *       which is the only way to it: an inlined function's early {@code return} leaves this
 *       shape, and the rewrite above then removes the loop.
 * </ul>
 *
 * <p>Each rewrite removes a node, so repeating until nothing applies terminates. Blocks that
 * become adjacent are merged, phis along deleted edges lose their sources, and values of
 * deleted code still used elsewhere (only possible in unreachable code) become undef.
 *
 * <p>The work is linear in the size of the tree per round: a deleted subtree is walked once (its
 * nodes lose their parents, so the round's snapshot skips them), and {@link #work()} counts node
 * visits and deletions so that a test can check the growth in operations.
 */
final class DeadCf implements Pass {

    private long work;

    /** Nodes visited and deleted by this pass object so far. */
    long work() {
        return work;
    }

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (CfNode n : nodesInOrder(fn)) {
                work++;
                if (n.parent() == null) continue; // removed by an earlier rewrite of this round
                if (n instanceof Block b) {
                    changed |= deleteAfterJump(fn, b) || trailingReturn(fn, b);
                } else if (n instanceof IfNode in) {
                    changed |= constantIf(fn, in) || emptyIf(fn, in) || neverMerges(fn, in);
                } else {
                    LoopNode loop = (LoopNode) n;
                    changed |= singleIterationLoop(fn, loop)
                            || breaksAtTails(fn, loop)
                            || sinkAfterJump(fn, loop)
                            || neverExits(fn, loop);
                }
            }
            progress |= changed;
        }
        return progress;
    }

    /** Every node, in program order (a snapshot; rewrites may detach some). */
    static List<CfNode> nodesInOrder(Function fn) {
        List<CfNode> out = new ArrayList<>();
        List<CfNode> stack = new ArrayList<>();
        stack.add(fn.body().first());
        while (!stack.isEmpty()) {
            CfNode n = stack.remove(stack.size() - 1);
            while (n != null) {
                out.add(n);
                if (n instanceof IfNode in) {
                    stack.add(n.next());
                    stack.add(in.elseList().first());
                    n = in.thenList().first();
                } else if (n instanceof LoopNode l) {
                    stack.add(n.next());
                    n = l.body().first();
                } else {
                    n = n.next();
                }
            }
        }
        return out;
    }

    /** A {@code return} at the very end of the function's body goes where falling off the end goes. */
    private static boolean trailingReturn(Function fn, Block b) {
        JumpInstr j = b.jump();
        if (j == null || j.kind() != JumpInstr.Kind.RETURN || b.next() != null || b.parent() != fn.body()) return false;
        j.remove();
        return true;
    }

    private boolean deleteAfterJump(Function fn, Block b) {
        if (b.jump() == null || b.next() == null) return false;
        List<CfNode> rest = new ArrayList<>();
        for (CfNode n = b.next(); n != null; n = n.next()) rest.add(n);
        work += ControlFlowEdits.deleteNodes(fn, rest);
        return true;
    }

    private boolean constantIf(Function fn, IfNode in) {
        if (!(in.condition().value().parent() instanceof LoadConstInstr lc)) return false;
        boolean takeThen = (lc.value(0) & 1) != 0;
        CfList taken = takeThen ? in.thenList() : in.elseList();
        CfList dropped = takeThen ? in.elseList() : in.thenList();
        Block merge = in.mergeBlock();
        Block takenLast = taken.lastBlock();
        boolean fallsThrough = takenLast.jump() == null;
        ControlFlowEdits.resolvePhis(fn, merge, fallsThrough ? takenLast : null);
        List<CfNode> gone = new ArrayList<>();
        for (CfNode c : dropped) gone.add(c);
        work += ControlFlowEdits.deleteNodes(fn, gone);
        ControlFlowEdits.inlineList(fn, in, taken);
        return true;
    }

    private static boolean emptyIf(Function fn, IfNode in) {
        Block t = in.thenList().firstBlock();
        Block e = in.elseList().firstBlock();
        boolean empty = t.next() == null && e.next() == null && t.isEmpty() && e.isEmpty();
        if (!empty || !in.mergeBlock().phis().isEmpty()) return false;
        Block before = (Block) in.prev();
        Block merge = in.mergeBlock();
        ControlFlowEdits.deleteNodes(fn, List.of(in));
        ControlFlowEdits.mergeBlocks(fn, before, merge);
        return true;
    }

    /** Both sides end in a jump: nothing reaches the merge block or what follows it. */
    private static boolean neverMerges(Function fn, IfNode in) {
        if (in.thenList().lastBlock().jump() == null
                || in.elseList().lastBlock().jump() == null) return false;
        return ControlFlowEdits.clearUnreachable(fn, in.mergeBlock());
    }

    /** No break leaves the loop: nothing reaches its exit block or what follows it. */
    private static boolean neverExits(Function fn, LoopNode loop) {
        for (JumpInstr j : jumpsOf(loop)) {
            if (j.kind() == JumpInstr.Kind.BREAK) return false;
        }
        return ControlFlowEdits.clearUnreachable(fn, loop.exitBlock());
    }

    private static boolean singleIterationLoop(Function fn, LoopNode loop) {
        Block last = loop.body().lastBlock();
        JumpInstr end = last.jump();
        if (end == null || end.kind() == JumpInstr.Kind.CONTINUE) return false;
        // Every other break or continue that leaves this loop would need the loop to exist.
        for (JumpInstr j : jumpsOf(loop)) {
            if (j != end && j.kind() != JumpInstr.Kind.RETURN) return false;
        }
        Block exit = loop.exitBlock();
        ControlFlowEdits.resolvePhis(fn, exit, end.kind() == JumpInstr.Kind.BREAK ? last : null);
        if (end.kind() == JumpInstr.Kind.BREAK) end.remove();
        ControlFlowEdits.inlineList(fn, loop, loop.body());
        return true;
    }

    /**
     * A loop whose body ends in {@code if}s (nested at their ends) whose every side ends in a
     * {@code break}, with no other jump to it, runs once: it becomes its body.
     */
    private static boolean breaksAtTails(Function fn, LoopNode loop) {
        // the ifs ending the body, outer first, and the blocks ending in the tail breaks
        List<IfNode> ends = new ArrayList<>();
        List<Block> tails = new ArrayList<>();
        if (!tailBreaks(loop.body(), ends, tails)) return false;
        if (ends.isEmpty()) return false; // a single break at the end is singleIterationLoop's
        List<JumpInstr> jumps = jumpsOf(loop);
        if (jumps.size() != tails.size()) return false; // every jump to the loop is one of the tails' breaks
        Block exit = loop.exitBlock();
        List<PhiInstr> exitPhis = exit.phis();
        // innermost ifs first: a side ending in an if reads the phis made at that if's merge
        Map<Block, Value[]> atEnd = new IdentityHashMap<>();
        for (Block t : tails) {
            Value[] v = new Value[exitPhis.size()];
            for (int k = 0; k < v.length; k++) v[k] = exitPhis.get(k).srcFor(t).value();
            atEnd.put(t, v);
        }
        for (int e = ends.size() - 1; e >= 0; e--) {
            IfNode in = ends.get(e);
            Block merge = in.mergeBlock();
            Block t = in.thenList().lastBlock(), f = in.elseList().lastBlock();
            Value[] v = new Value[exitPhis.size()];
            for (int k = 0; k < v.length; k++) {
                Value d = exitPhis.get(k).def();
                PhiInstr phi = new PhiInstr(fn, d.numComponents(), d.bitSize());
                phi.addSrc(t, atEnd.get(t)[k]);
                phi.addSrc(f, atEnd.get(f)[k]);
                merge.append(phi);
                v[k] = phi.def();
            }
            atEnd.put(merge, v);
        }
        Value[] result = atEnd.get(loop.body().lastBlock());
        for (int k = 0; k < exitPhis.size(); k++) {
            exitPhis.get(k).def().replaceAllUsesWith(result[k]);
            exitPhis.get(k).remove();
        }
        for (Block t : tails) t.jump().remove();
        ControlFlowEdits.inlineList(fn, loop, loop.body());
        return true;
    }

    /**
     * In a loop that runs once (no continue; the body ends in breaks at its tails), moves the code
     * after an {@code if} with one side ending in a jump into its other side. Returns whether it
     * moved anything (one if a call: the round repeats).
     */
    private static boolean sinkAfterJump(Function fn, LoopNode loop) {
        for (JumpInstr j : jumpsOf(loop)) {
            if (j.kind() == JumpInstr.Kind.CONTINUE) return false;
        }
        if (!tailBreaks(loop.body(), new ArrayList<>(), new ArrayList<>())) return false;
        List<CfList> work = new ArrayList<>();
        work.add(loop.body());
        while (!work.isEmpty()) {
            CfList list = work.remove(work.size() - 1);
            for (CfNode n : list) {
                if (!(n instanceof IfNode in)) continue;
                boolean thenJumps = in.thenList().lastBlock().jump() != null;
                boolean elseJumps = in.elseList().lastBlock().jump() != null;
                Block merge = in.mergeBlock();
                boolean codeAfter = merge.next() != null || !merge.isEmpty();
                if (thenJumps != elseJumps && codeAfter) {
                    sinkInto(fn, thenJumps ? in.elseList() : in.thenList(), merge);
                    return true;
                }
                work.add(in.thenList());
                work.add(in.elseList());
            }
        }
        return false;
    }

    /**
     * Whether every path through {@code body} ends in a break at its tail (the tail ifs' sides,
     * recursively); the ifs passed on the way go to {@code ends}, outer first, and the blocks
     * ending in those breaks to {@code tails}.
     */
    private static boolean tailBreaks(CfList body, List<IfNode> ends, List<Block> tails) {
        List<CfList> work = new ArrayList<>();
        work.add(body);
        while (!work.isEmpty()) {
            Block last = work.remove(work.size() - 1).lastBlock();
            JumpInstr j = last.jump();
            if (j != null) {
                if (j.kind() != JumpInstr.Kind.BREAK) return false;
                tails.add(last);
            } else if (last.isEmpty() && last.prev() instanceof IfNode in) {
                ends.add(in);
                work.add(in.thenList());
                work.add(in.elseList());
            } else {
                return false;
            }
        }
        return true;
    }

    /**
     * Moves what follows {@code merge} in its list, its instructions and the nodes after it, to
     * the end of {@code side} (the only side that reaches it); {@code merge} stays, empty, last.
     */
    private static void sinkInto(Function fn, CfList side, Block merge) {
        Block sideLast = side.lastBlock();
        ControlFlowEdits.resolvePhis(fn, merge, sideLast);
        CfList list = merge.parent();
        Block oldLast = list.lastBlock();
        List<Block> oldSuccs =
                oldLast != merge && oldLast.jump() == null ? fn.structuralSuccessors(oldLast) : List.of();
        // merge's edges (its jump, or into the node after it) leave from the side's last block now
        List<Block> jumpTargets =
                merge.next() != null || merge.jump() != null ? fn.structuralSuccessors(merge) : List.of();
        for (Instr i : merge.instrList()) i.moveToEnd(sideLast);
        for (Block s : jumpTargets) {
            for (PhiInstr phi : s.phis()) phi.retargetSrc(merge, sideLast);
        }
        List<CfNode> rest = new ArrayList<>();
        for (CfNode n = merge.next(); n != null; n = n.next()) rest.add(n);
        for (CfNode n : rest) {
            list.unlink(n);
            side.append(n);
        }
        // the old last block now falls into merge, and merge where the old last block went
        for (Block s : oldSuccs) {
            for (PhiInstr phi : s.phis()) phi.retargetSrc(oldLast, merge);
        }
    }

    /** The jumps that target {@code loop}: in its body, not inside nested loops. */
    private static List<JumpInstr> jumpsOf(LoopNode loop) {
        List<JumpInstr> out = new ArrayList<>();
        List<CfList> work = new ArrayList<>();
        work.add(loop.body());
        while (!work.isEmpty()) {
            for (CfNode n : work.remove(work.size() - 1)) {
                if (n instanceof Block b) {
                    Instr last = b.lastInstr();
                    if (last instanceof JumpInstr j) out.add(j);
                } else if (n instanceof IfNode in) {
                    work.add(in.thenList());
                    work.add(in.elseList());
                }
            }
        }
        return out;
    }
}
