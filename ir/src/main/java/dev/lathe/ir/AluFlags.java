package dev.lathe.ir;

import dev.lathe.ir.op.Op;
import java.util.StringJoiner;

/** A set of {@link AluFlag}s, as bits in {@link AluFlag} order. */
public record AluFlags(int bits) {
    public static final AluFlags NONE = new AluFlags(0);

    /** nsz, nnan, ninf and reassoc. */
    public static final AluFlags FLOAT_CONTROLS = of(AluFlag.NSZ, AluFlag.NNAN, AluFlag.NINF, AluFlag.REASSOC);

    public AluFlags {
        if ((bits & ~((1 << AluFlag.values().length) - 1)) != 0)
            throw new IllegalArgumentException("no such flag bits: " + bits);
    }

    public static AluFlags of(AluFlag... flags) {
        int b = 0;
        for (AluFlag f : flags) b |= f.bit();
        return new AluFlags(b);
    }

    public boolean has(AluFlag f) {
        return (bits & f.bit()) != 0;
    }

    public boolean isEmpty() {
        return bits == 0;
    }

    /** Whether every flag of {@code other} is here too. */
    public boolean containsAll(AluFlags other) {
        return (bits & other.bits) == other.bits;
    }

    public AluFlags with(AluFlag f) {
        return new AluFlags(bits | f.bit());
    }

    public AluFlags without(AluFlag f) {
        return new AluFlags(bits & ~f.bit());
    }

    public AluFlags intersect(AluFlags other) {
        return new AluFlags(bits & other.bits);
    }

    /** Only the flags that an instruction of {@code op} may carry. */
    public AluFlags applicableTo(Op op) {
        int b = 0;
        for (AluFlag f : AluFlag.values()) if (has(f) && f.appliesTo(op)) b |= f.bit();
        return new AluFlags(b);
    }

    /** The first flag here that {@code op} may not carry, or null. */
    public AluFlag firstNotApplicableTo(Op op) {
        for (AluFlag f : AluFlag.values()) if (has(f) && !f.appliesTo(op)) return f;
        return null;
    }

    /** {@code nsz,nnan}: the spellings in flag order, without brackets; empty for none. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",");
        for (AluFlag f : AluFlag.values()) if (has(f)) j.add(f.spelling());
        return j.toString();
    }
}
