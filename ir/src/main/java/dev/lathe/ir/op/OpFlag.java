package dev.lathe.ir.op;

/** Algebraic properties of ops, as bits of {@link Op#flags()}. */
public final class OpFlag {
    private OpFlag() {}

    /** The first two sources may be swapped (for ffma: a*b+c = b*a+c). */
    public static final int COMMUTATIVE = 1;
    /** (a op b) op c = a op (b op c) exactly, for every bit pattern. */
    public static final int ASSOCIATIVE = 2;
    /**
     * Integer operands give the same result bits whether they are read signed or unsigned
     * (iadd, ieq, iand, and the ops that only look at bits: bit_count, urol, bitfield_insert …;
     * not ilt, idiv, ishr, u2u32). The rule compiler uses it to carry an operand's signedness
     * through the op, to know where a literal's signed range matters, and to know which ops a
     * signedness annotation can contradict.
     */
    public static final int SIGN_BLIND = 4;
}
