package dev.lathe.ir;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * An SSA value: defined exactly once by its parent instruction, typeless, with a component
 * count (1–4, or 8/16) and a bit size (1, 8, 16, 32, 64). The value keeps the exact list of its
 * uses (def→use), each a {@link Src} pointing back at it (use→def); the list includes uses as an
 * {@code if} condition. The dense {@link #index()} lets analyses keep results in arrays sized
 * {@link Function#valueCount()}.
 */
public final class Value implements AluOperand {
    private final Instr parent;
    /**
     * The parent's op when it is an ALU instruction (ops never change), else null: kept here so
     * that a matcher reading an operand's op does not also touch the defining instruction, a
     * cache miss of its own on a large function when the op does not match.
     */
    private final Op aluOp;

    private final int numComponents;
    private final int bitSize;
    private final int index;
    Src firstUse;
    Src lastUse;
    int useCount;

    Value(Instr parent, int numComponents, int bitSize, int index) {
        if (!isValidComponentCount(numComponents)) {
            throw new IllegalArgumentException("invalid component count " + numComponents);
        }
        if (!Bits.isValidBitSize(bitSize)) {
            throw new IllegalArgumentException("invalid bit size " + bitSize);
        }
        this.parent = parent;
        this.aluOp = parent instanceof AluInstr a ? a.op() : null;
        this.numComponents = numComponents;
        this.bitSize = bitSize;
        this.index = index;
    }

    /** Component counts a value may have: 1–4, 8 and 16. */
    public static boolean isValidComponentCount(int n) {
        return (n >= 1 && n <= 4) || n == 8 || n == 16;
    }

    /** This value itself (as an {@link AluOperand}). */
    @Override
    public Value value() {
        return this;
    }

    /** No swizzle: a whole value reads its components in order. */
    @Override
    public byte[] swizzle() {
        return null;
    }

    /** The instruction that defines this value. */
    public Instr parent() {
        return parent;
    }

    /** The op of the defining instruction when it is an ALU instruction, else null. */
    public Op aluOp() {
        return aluOp;
    }

    public int numComponents() {
        return numComponents;
    }

    public int bitSize() {
        return bitSize;
    }

    /** A dense index, unique within the function, below {@link Function#valueCount()}. */
    public int index() {
        return index;
    }

    public int useCount() {
        return useCount;
    }

    public boolean hasUses() {
        return useCount != 0;
    }

    /** The first use in the use list (iterate with {@link Src#nextUse()}), or null. */
    public Src firstUse() {
        return firstUse;
    }

    /** A snapshot of the uses, in the order they were added: safe to rewrite while iterating. */
    public List<Src> uses() {
        List<Src> out = new ArrayList<>(useCount);
        for (Src s = firstUse; s != null; s = s.nextUse) out.add(s);
        return out;
    }

    /** Whether some use is an {@code if} condition. */
    public boolean isUsedByIf() {
        for (Src s = firstUse; s != null; s = s.nextUse) {
            if (s.owner() instanceof IfNode) return true;
        }
        return false;
    }

    /**
     * Points every use of this value at {@code other} instead (swizzles are kept). The caller
     * makes sure {@code other} has the components the swizzles read.
     */
    public void replaceAllUsesWith(Value other) {
        if (other == this) return;
        Src s = firstUse;
        while (s != null) {
            Src next = s.nextUse;
            s.set(other);
            s = next;
        }
    }

    void addUse(Src s) {
        s.prevUse = lastUse;
        s.nextUse = null;
        if (lastUse == null) firstUse = s;
        else lastUse.nextUse = s;
        lastUse = s;
        useCount++;
    }

    void removeUse(Src s) {
        if (s.prevUse == null) firstUse = s.nextUse;
        else s.prevUse.nextUse = s.nextUse;
        if (s.nextUse == null) lastUse = s.prevUse;
        else s.nextUse.prevUse = s.prevUse;
        s.prevUse = null;
        s.nextUse = null;
        useCount--;
    }

    /** Whether {@code s} is in this value's use list (for the validator). */
    boolean useListContains(Src s) {
        for (Src u = firstUse; u != null; u = u.nextUse) {
            if (u == s) return true;
        }
        return false;
    }

    @Override
    public String toString() {
        return "%" + index;
    }
}
