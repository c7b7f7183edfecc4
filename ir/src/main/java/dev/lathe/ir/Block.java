package dev.lathe.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A basic block: phis first, then ordinary instructions, and at most one jump, last. Blocks
 * know their predecessors and successors; these follow from the control-flow structure and are
 * recomputed on demand after the structure changes (see {@link Function#ensureCfg()}).
 */
public final class Block extends CfNode {
    Function function;
    Instr first;
    Instr last;
    int index = -1;
    List<Block> preds = List.of();
    List<Block> succs = List.of();
    private String label;

    public Block() {}

    /** The function the block belongs to (also for the detached end block). */
    @Override
    public Function function() {
        return function;
    }

    public Instr firstInstr() {
        return first;
    }

    public Instr lastInstr() {
        return last;
    }

    public boolean isEmpty() {
        return first == null;
    }

    /** The jump ending this block, or null. */
    public JumpInstr jump() {
        return last instanceof JumpInstr j ? j : null;
    }

    /** Appends an instruction (the caller keeps phis first and a jump last). */
    public void append(Instr i) {
        i.appendTo(this);
    }

    /** Prepends an instruction. */
    public void prepend(Instr i) {
        i.prependTo(this);
    }

    /** Inserts after the phis. */
    public void insertAfterPhis(Instr i) {
        Instr p = first;
        while (p instanceof PhiInstr) p = p.next;
        if (p == null) append(i);
        else i.insertBefore(p);
    }

    /** Inserts at the end, but before a jump if the block has one. */
    public void insertBeforeJump(Instr i) {
        if (last instanceof JumpInstr) i.insertBefore(last);
        else append(i);
    }

    /**
     * The instructions in order. Iteration tolerates removing or moving the instruction just
     * returned (the next one is read before it is handed out).
     */
    public Iterable<Instr> instrs() {
        return () -> new Iterator<>() {
            Instr cur = first;

            @Override
            public boolean hasNext() {
                return cur != null;
            }

            @Override
            public Instr next() {
                if (cur == null) throw new NoSuchElementException();
                Instr i = cur;
                cur = cur.next;
                return i;
            }
        };
    }

    /** A snapshot of the instructions. */
    public List<Instr> instrList() {
        List<Instr> out = new ArrayList<>();
        for (Instr i = first; i != null; i = i.next) out.add(i);
        return out;
    }

    /** The phis at the start of the block. */
    public List<PhiInstr> phis() {
        List<PhiInstr> out = new ArrayList<>();
        for (Instr i = first; i instanceof PhiInstr p; i = i.next) out.add(p);
        return out;
    }

    /** Position in program order (0 for the entry block); the end block comes last. */
    public int index() {
        function.ensureCfg();
        return index;
    }

    /** Predecessors, in program order. */
    public List<Block> predecessors() {
        function.ensureCfg();
        return Collections.unmodifiableList(preds);
    }

    /** Successors: two after a block followed by an {@code if} (then first), else at most one. */
    public List<Block> successors() {
        function.ensureCfg();
        return Collections.unmodifiableList(succs);
    }

    /** A name given to the block by the text it was parsed from, or null. */
    public String label() {
        return label;
    }

    public void setLabel(String label) {
        this.label = label;
    }

    /** Whether this is the function's end block (the target of return). */
    public boolean isEndBlock() {
        return function != null && function.endBlock() == this;
    }

    /** The innermost loop containing this block, or null. */
    public LoopNode enclosingLoop() {
        CfList l = parent;
        while (l != null && l.owner() != null) {
            if (l.owner() instanceof LoopNode loop) return loop;
            l = l.owner().parent;
        }
        return null;
    }

    @Override
    public String toString() {
        return "b" + index;
    }
}
