package dev.lathe.ir;

/**
 * The read-modify-write operations of the atomic intrinsics, on 32-bit words. An atomic
 * returns the word it found and stores {@link #apply}'s result; the interpreter and the
 * simulator both compute with this one function, so they cannot disagree.
 */
public enum AtomicOp {
    ADD, IMIN, UMIN, IMAX, UMAX, AND, OR, XOR, EXCHANGE,
    /** Stores the data only when the word equals the compare value. */
    COMP_SWAP;

    private static final long MASK = 0xffffffffL;

    /** The word stored back, given the word found, the data and (comp_swap only) the compare value. */
    public long apply(long old, long data, long compare) {
        old &= MASK;
        data &= MASK;
        return switch (this) {
            case ADD -> (old + data) & MASK;
            case IMIN -> Math.min((int) old, (int) data) & MASK;
            case UMIN -> Math.min(old, data);
            case IMAX -> Math.max((int) old, (int) data) & MASK;
            case UMAX -> Math.max(old, data);
            case AND -> old & data;
            case OR -> old | data;
            case XOR -> old ^ data;
            case EXCHANGE -> data;
            case COMP_SWAP -> old == (compare & MASK) ? data : old;
        };
    }

    /** Whether the intrinsic takes a compare value before its data. */
    public boolean hasCompare() {
        return this == COMP_SWAP;
    }
}
