package dev.lathe.ir.op;

/**
 * The shape of one of NIR's integer dot products ({@code sdot_4x8_iadd} …
 * {@code udot_2x16_uadd_sat}), read from its name once for the op table's evaluation and the
 * rule prover's encoding: the lanes of a and b (four bytes or two halves), each extended as the
 * op says, multiplied pairwise and summed with c. The unsaturated ones wrap at 32 bits; the
 * signed saturating ones clamp the exact sum to the int32 range; the unsigned saturating ones add
 * c sign-extended (nir_opcodes.py types it int32) modulo 2^64 and clamp the unsigned result to
 * 0xffffffff, so a sum below zero saturates.
 *
 * @param lane        8 or 16 bits
 * @param aSigned     a's lanes are sign-extended
 * @param bSigned     b's lanes are sign-extended
 * @param saturating  the sum is clamped
 * @param unsignedSat the clamp is NIR's unsigned one (to [0, 0xffffffff] after a 64-bit wrap)
 */
public record IntegerDot(int lane, boolean aSigned, boolean bSigned, boolean saturating, boolean unsignedSat) {
    /** The dot product {@code op} is, or null when it is none (read once per op: the prover asks per term). */
    public static IntegerDot of(Op op) {
        return BY_OP.get(op);
    }

    private static final java.util.Map<Op, IntegerDot> BY_OP = byOp();

    private static java.util.Map<Op, IntegerDot> byOp() {
        java.util.EnumMap<Op, IntegerDot> out = new java.util.EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            IntegerDot d = parse(op.opName());
            if (d != null) out.put(op, d);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static IntegerDot parse(String name) {
        if (!name.matches("(s|u|su)dot_(4x8|2x16)_[iu]add(_sat)?")) return null;
        boolean sat = name.endsWith("_sat");
        return new IntegerDot(
                name.contains("4x8") ? 8 : 16,
                name.startsWith("s"),
                name.startsWith("sdot"),
                sat,
                sat && name.startsWith("udot"));
    }

    /** The op's value for lanes packed in {@code a} and {@code b} and the accumulator {@code c}. */
    public long evaluate(long a, long b, long c) {
        long sum = 0;
        for (int i = 0; i < 32; i += lane) {
            long x = (a >>> i) & ((1L << lane) - 1), y = (b >>> i) & ((1L << lane) - 1);
            if (aSigned) x = Bits.sext(x, lane);
            if (bSigned) y = Bits.sext(y, lane);
            sum += x * y;
        }
        if (!saturating) return sum + c;
        long t = sum + Bits.sext(c, 32); // read unsigned when unsignedSat: modulo 2^64
        if (unsignedSat) return Long.compareUnsigned(t, 0xffffffffL) >= 0 ? 0xffffffffL : t;
        return Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, t));
    }
}
