package dev.lathe.ir.op;

import java.util.regex.Pattern;

/**
 * NIR's medium-precision conversions ({@code f2fmp}, {@code i2imp}, {@code f2imp}, {@code f2ump},
 * {@code i2fmp}, {@code u2fmp}): each is its 16-bit conversion ({@link #narrow}: f2fmp is f2f16),
 * except that a conversion reading its result may take the value from the 32-bit source as if the
 * conversion had been done at 32 bits ({@link #wide}). NIR's nir_opcodes.py says "it is safe to
 * remove it if the result is immediately converted back to 32 bits again", and its rules use the
 * permission for any conversion that reads one ({@code f2u16(f2fmp(a)) => f2u16(a)}): so
 * {@code C(M(x))} may be {@code C(M.narrow(x))} or {@code C(M.wide(x))}, with C read at 32 bits.
 * Everything else reads the 16-bit value. The interpreter and the target compute the narrow
 * value; the rule checker and prover allow both where a pattern converts an mp result.
 */
public final class MediumPrecision {
    private MediumPrecision() {}

    /** The 16-bit conversion an mp op is on its own, or null when {@code op} is not an mp op. */
    public static Op narrow(Op op) {
        return switch (op) {
            case F2FMP -> Op.F2F16;
            case I2IMP -> Op.I2I16;
            case F2IMP -> Op.F2I16;
            case F2UMP -> Op.F2U16;
            case I2FMP -> Op.I2F16;
            case U2FMP -> Op.U2F16;
            default -> null;
        };
    }

    /** The 32-bit conversion an mp op stands for where a conversion reads it, or null. */
    public static Op wide(Op op) {
        return switch (op) {
            case F2FMP -> Op.F2F32;
            case I2IMP -> Op.I2I32;
            case F2IMP -> Op.F2I32;
            case F2UMP -> Op.F2U32;
            case I2FMP -> Op.I2F32;
            case U2FMP -> Op.U2F32;
            default -> null;
        };
    }

    private static final Pattern SIZED_CONVERSION = Pattern.compile("[fiu]2[fiu](8|16|32|64)");

    /** {@link #widens}'s answer for every op, decided once (the checker asks per node and sample). */
    private static final java.util.Set<Op> WIDENING = widening();

    private static java.util.Set<Op> widening() {
        java.util.EnumSet<Op> out = java.util.EnumSet.noneOf(Op.class);
        for (Op op : Op.values())
            if (SIZED_CONVERSION.matcher(op.opName()).matches() && !op.input(0).isSized()) out.add(op);
        return java.util.Collections.unmodifiableSet(out);
    }

    /**
     * Whether {@code consumer}, reading an mp op's result, may read it wide: a conversion of the
     * op table's plain kind ({@code f2f32}, {@code i2i32}, {@code f2u16} …, not the rounding
     * variants), whose source size is free.
     */
    public static boolean widens(Op consumer) {
        return WIDENING.contains(consumer);
    }

    /**
     * The value a conversion reading {@code mp(source)} may read instead: {@link #wide} of the
     * 32-bit source. {@code consumer} then reads it as a 32-bit source.
     */
    public static long wideValue(Op mp, long source) {
        return wide(mp).evaluate(32, 1, new long[][] {{source}})[0];
    }
}
