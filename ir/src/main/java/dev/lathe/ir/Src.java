package dev.lathe.ir;

import java.util.Arrays;

/**
 * One use of an SSA value: the source of an instruction, or the condition of an {@code if}.
 *
 * <p>ALU sources carry a swizzle: component i of what the instruction reads is component
 * {@code swizzle[i]} of the value (a vec4 read as {@code .yyxw}). Other sources read the whole
 * value and have no swizzle. A source is in its value's use list exactly while its owner is part
 * of the IR (an inserted instruction, or an {@code if} in the control-flow tree).
 */
public final class Src {
    private final SrcOwner owner;
    private Value value;
    private byte[] swizzle;
    boolean linked;
    Src prevUse;
    Src nextUse;

    Src(SrcOwner owner, Value value, byte[] swizzle) {
        this.owner = owner;
        this.value = value;
        this.swizzle = swizzle == null ? null : Swizzle.frozen(swizzle);
    }

    public SrcOwner owner() {
        return owner;
    }

    /** The owning instruction, or null when this is an {@code if} condition. */
    public Instr instr() {
        return owner instanceof Instr i ? i : null;
    }

    public Value value() {
        return value;
    }

    /** The next use of the same value (use-list iteration), or null. */
    public Src nextUse() {
        return nextUse;
    }

    public boolean hasSwizzle() {
        return swizzle != null;
    }

    /** The value component read as component i (the identity without a swizzle). */
    public int component(int i) {
        return swizzle == null ? i : swizzle[i];
    }

    /** How many components this source reads. */
    public int numComponentsRead() {
        return swizzle == null ? value.numComponents() : swizzle.length;
    }

    /** A copy of the swizzle, or null for non-ALU sources. */
    public byte[] swizzle() {
        return swizzle == null ? null : swizzle.clone();
    }

    /** Whether the swizzle reads components 0, 1, … of a value with exactly that many components. */
    public boolean isIdentitySwizzle() {
        if (swizzle == null) return true;
        if (swizzle.length != value.numComponents()) return false;
        for (int i = 0; i < swizzle.length; i++) {
            if (swizzle[i] != i) return false;
        }
        return true;
    }

    /** Rewrites this source to read {@code v} (keeping the swizzle), updating both use lists. */
    public void set(Value v) {
        if (v == value) return;
        edited();
        if (linked) {
            value.removeUse(this);
            v.addUse(this);
        }
        value = v;
    }

    /** Rewrites this source to read {@code v} through {@code newSwizzle} (ALU sources only). */
    public void set(Value v, byte[] newSwizzle) {
        if (swizzle == null) throw new IllegalStateException("only ALU sources have swizzles");
        set(v);
        edited();
        this.swizzle = Swizzle.frozen(newSwizzle);
    }

    public void setSwizzle(byte[] newSwizzle) {
        if (swizzle == null) throw new IllegalStateException("only ALU sources have swizzles");
        edited();
        this.swizzle = Swizzle.frozen(newSwizzle);
    }

    /** Counts a change of this source in its function's edits (while its owner is in one). */
    private void edited() {
        if (owner instanceof Instr i) i.noteEdit();
        else if (owner instanceof IfNode n && n.function() != null) n.function().edited();
    }

    void link() {
        if (!linked) {
            value.addUse(this);
            linked = true;
        }
    }

    void unlink() {
        if (linked) {
            value.removeUse(this);
            linked = false;
        }
    }

    /** Whether this source is currently in its value's use list. */
    public boolean isLinked() {
        return linked;
    }

    @Override
    public String toString() {
        return value + (swizzle == null ? "" : "." + Swizzle.format(swizzle));
    }

    static byte[] identity(int n) {
        byte[] s = new byte[n];
        for (int i = 0; i < n; i++) s[i] = (byte) i;
        return s;
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    /** Same value and same swizzle (for CSE-like comparisons). */
    public boolean sameAs(Src other) {
        return value == other.value && Arrays.equals(swizzle, other.swizzle);
    }
}
