package dev.lathe.ir;

import dev.lathe.ir.text.IrPrinter;
import java.util.Collection;
import java.util.List;

/**
 * An instruction: it lives in a block's doubly linked instruction list, defines at most one
 * SSA value and reads zero or more sources. Sources join their values' use lists when the
 * instruction is inserted and leave them when it is removed, so def→use lists always describe
 * exactly the IR that is reachable from the function.
 */
public abstract sealed class Instr implements SrcOwner
        permits AluInstr, LoadConstInstr, IntrinsicInstr, PhiInstr, JumpInstr, UndefInstr {

    Block block;
    Instr prev;
    Instr next;
    private SourceLoc loc;

    /** The block this instruction is in, or null when it is not inserted. */
    public Block block() {
        return block;
    }

    public Instr prev() {
        return prev;
    }

    public Instr next() {
        return next;
    }

    /** Where the instruction came from in a text file, or null. */
    public SourceLoc loc() {
        return loc;
    }

    public void setLoc(SourceLoc loc) {
        this.loc = loc;
    }

    /** The value this instruction defines, or null. */
    public abstract Value def();

    /** All sources, in order. */
    public abstract List<Src> srcs();

    /** A short name of the operation for messages: the op, the intrinsic, "phi" … */
    public abstract String opName();

    /** Whether the instruction may be removed when its value is unused. */
    public abstract boolean isRemovableWhenUnused();

    public boolean isInserted() {
        return block != null;
    }

    /** Inserts this (not yet inserted) instruction right before {@code other}. */
    public void insertBefore(Instr other) {
        requireFree();
        Block b = other.block;
        if (b == null) throw new IllegalStateException("cannot insert before an instruction that is not in a block");
        prev = other.prev;
        next = other;
        if (other.prev == null) b.first = this;
        else other.prev.next = this;
        other.prev = this;
        attach(b);
    }

    /** Inserts this (not yet inserted) instruction right after {@code other}. */
    public void insertAfter(Instr other) {
        requireFree();
        Block b = other.block;
        if (b == null) throw new IllegalStateException("cannot insert after an instruction that is not in a block");
        next = other.next;
        prev = other;
        if (other.next == null) b.last = this;
        else other.next.prev = this;
        other.next = this;
        attach(b);
    }

    void appendTo(Block b) {
        requireFree();
        prev = b.last;
        next = null;
        if (b.last == null) b.first = this;
        else b.last.next = this;
        b.last = this;
        attach(b);
    }

    void prependTo(Block b) {
        requireFree();
        next = b.first;
        prev = null;
        if (b.first == null) b.last = this;
        else b.first.prev = this;
        b.first = this;
        attach(b);
    }

    private void attach(Block b) {
        block = b;
        noteEdit(b);
        for (Src s : srcs()) s.link();
        if (this instanceof JumpInstr && b.function() != null) b.function().invalidateCfg();
    }

    private void requireFree() {
        if (block != null) throw new IllegalStateException("instruction is already in a block; remove it first");
    }

    /**
     * Removes this instruction from its block and drops its sources from their use lists.
     * Its value must have no uses left (rewrite them first).
     */
    public void remove() {
        Value d = def();
        if (d != null && d.hasUses()) {
            throw new IllegalStateException(
                    "cannot remove the definition of " + d + ": it still has " + d.useCount() + " use(s)");
        }
        detach();
        for (Src s : srcs()) s.unlink();
    }

    /**
     * Removes a set of instructions whose values are used only inside the set (dead code,
     * including cycles of phis): all their sources leave the use lists first, then each one
     * leaves its block.
     */
    public static void removeAll(Collection<? extends Instr> instrs) {
        for (Instr i : instrs) {
            for (Src s : i.srcs()) s.unlink();
        }
        for (Instr i : instrs) {
            Value d = i.def();
            if (d != null && d.hasUses()) {
                throw new IllegalStateException(
                        "cannot remove the definition of " + d + ": it is used outside the set");
            }
        }
        for (Instr i : instrs) i.detach();
    }

    /**
     * Moves this instruction to just before {@code other} (possibly in another block), keeping
     * its sources and uses.
     */
    public void moveBefore(Instr other) {
        detach();
        Block b = other.block;
        prev = other.prev;
        next = other;
        if (other.prev == null) b.first = this;
        else other.prev.next = this;
        other.prev = this;
        block = b;
        noteEdit(b);
        if (this instanceof JumpInstr) b.function().invalidateCfg();
    }

    /** Moves this instruction to the end of {@code b} (after its jump, if any: the caller checks). */
    public void moveToEnd(Block b) {
        detach();
        prev = b.last;
        next = null;
        if (b.last == null) b.first = this;
        else b.last.next = this;
        b.last = this;
        block = b;
        noteEdit(b);
        if (this instanceof JumpInstr) b.function().invalidateCfg();
    }

    private void detach() {
        Block b = block;
        if (b == null) throw new IllegalStateException("instruction is not in a block");
        if (prev == null) b.first = next;
        else prev.next = next;
        if (next == null) b.last = prev;
        else next.prev = prev;
        prev = null;
        next = null;
        block = null;
        noteEdit(b);
        if (this instanceof JumpInstr && b.function() != null) b.function().invalidateCfg();
    }

    /** Counts a change to this instruction (an inserted one) in its function's edits. */
    final void noteEdit() {
        if (block != null) noteEdit(block);
    }

    private static void noteEdit(Block b) {
        if (b.function() != null) b.function().edited();
    }

    @Override
    public String toString() {
        return IrPrinter.instrToString(this);
    }
}
