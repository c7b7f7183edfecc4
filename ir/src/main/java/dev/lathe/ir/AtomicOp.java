package dev.lathe.ir;

import dev.lathe.ir.op.Op;

/**
 * The read-modify-write operations of the atomic intrinsics, on 32-bit words. An atomic
 * returns the word it found and stores {@link #apply}'s result, which is the op table's
 * {@link #op} of the word and the data (exchange stores the data; comp_swap stores it only
 * when the word equals the compare value). The interpreter and the simulator both compute
 * with this one function, so they cannot disagree.
 */
public enum AtomicOp {
    ADD(Op.IADD),
    IMIN(Op.IMIN),
    UMIN(Op.UMIN),
    IMAX(Op.IMAX),
    UMAX(Op.UMAX),
    AND(Op.IAND),
    OR(Op.IOR),
    XOR(Op.IXOR),
    EXCHANGE(null),
    /** Stores the data only when the word equals the compare value. */
    COMP_SWAP(null);

    private static final long MASK = 0xffffffffL;

    private final Op op;

    AtomicOp(Op op) {
        this.op = op;
    }

    /** The op combining the word found with the data, or null for exchange and comp_swap. */
    public Op op() {
        return op;
    }

    /** The word stored back, given the word found, the data and (comp_swap only) the compare value. */
    public long apply(long old, long data, long compare) {
        old &= MASK;
        data &= MASK;
        return switch (this) {
            case EXCHANGE -> data;
            case COMP_SWAP -> old == (compare & MASK) ? data : old;
            default -> op.evaluate(32, 1, new long[][] {{old}, {data}})[0];
        };
    }

    /** Whether the intrinsic takes a compare value before its data. */
    public boolean hasCompare() {
        return this == COMP_SWAP;
    }
}
