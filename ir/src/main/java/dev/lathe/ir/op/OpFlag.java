package dev.lathe.ir.op;

/** Algebraic properties of ops, as bits of {@link Op#flags()}. */
public final class OpFlag {
    private OpFlag() {}

    /** The first two sources may be swapped (for ffma: a*b+c = b*a+c). */
    public static final int COMMUTATIVE = 1;
    /** (a op b) op c = a op (b op c) exactly, for every bit pattern. */
    public static final int ASSOCIATIVE = 2;
}
