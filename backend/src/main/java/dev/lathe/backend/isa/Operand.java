package dev.lathe.backend.isa;

/**
 * A source or destination of an instruction.
 *
 * <ul>
 *   <li>{@code REG}: general register {@code value} (0–191: r0.x is 0, r0.y 1, … r47.w 191);
 *   <li>{@code CONST}: constant-file scalar {@code value} (c0.x is 0, c0.y 1, …);
 *   <li>{@code IMM}: an immediate; in ALU instructions a small signed integer (a float-typed
 *       instruction reads it as the float of that integer), in {@code mov}/{@code cov} a raw
 *       32-bit pattern;
 *   <li>{@code SPECIAL}: a system value ({@link SysVal} ordinal), {@code mov} only;
 *   <li>{@code PRED}: the predicate register p0.x;
 *   <li>{@code ADDR}: the address register a0.x ({@code mova}'s destination);
 *   <li>{@code RELCONST}: constant-file scalar a0.x + {@code value}, {@code c<a0.x + n>}
 *       ({@code mov} only): a uniform array element at a run-time index;
 *   <li>{@code NONE}: no operand.
 * </ul>
 *
 * {@code neg}/{@code abs} are source modifiers (ALU sources only), {@code rep} is the
 * {@code (r)} flag: the register advances with each repetition of an {@code (rptN)}
 * instruction.
 */
public record Operand(Kind kind, long value, boolean neg, boolean abs, boolean rep) {
    public enum Kind {
        REG,
        CONST,
        IMM,
        SPECIAL,
        PRED,
        ADDR,
        RELCONST,
        NONE
    }

    public static final int NUM_REGS = 192;
    public static final Operand NONE = new Operand(Kind.NONE, 0, false, false, false);
    public static final Operand P0 = new Operand(Kind.PRED, 0, false, false, false);
    public static final Operand A0 = new Operand(Kind.ADDR, 0, false, false, false);

    public static Operand reg(int index) {
        return new Operand(Kind.REG, index, false, false, false);
    }

    public static Operand constant(int index) {
        return new Operand(Kind.CONST, index, false, false, false);
    }

    /** {@code c<a0.x + offset>}. */
    public static Operand relConst(int offset) {
        return new Operand(Kind.RELCONST, offset, false, false, false);
    }

    public static Operand imm(long value) {
        return new Operand(Kind.IMM, value, false, false, false);
    }

    public static Operand special(SysVal v) {
        return new Operand(Kind.SPECIAL, v.ordinal(), false, false, false);
    }

    public Operand withNeg(boolean n) {
        return new Operand(kind, value, n, abs, rep);
    }

    public Operand withAbs(boolean a) {
        return new Operand(kind, value, neg, a, rep);
    }

    public Operand withRep(boolean r) {
        return new Operand(kind, value, neg, abs, r);
    }

    public boolean isReg() {
        return kind == Kind.REG;
    }

    public int index() {
        return (int) value;
    }

    /** The name of register or constant {@code i} with its prefix: {@code r3.y}, {@code c0.w}. */
    public static String scalarName(char prefix, int i) {
        return prefix + Integer.toString(i / 4) + "." + "xyzw".charAt(i % 4);
    }
}
