package dev.lathe.ir.op;

/**
 * The type of one operand (a source or the result) of an op.
 *
 * @param typeClass  how the op interprets the bits
 * @param bitSize    a fixed bit size, or 0 when the operand is unsized: all unsized operands of
 *                   one instruction share a single bit size, chosen by the instruction
 * @param components a fixed component count (horizontal ops such as fdot3 or pack_64_2x32),
 *                   or 0 when the op works per component and the count follows the result
 */
public record OperandType(TypeClass typeClass, int bitSize, int components) {

    public boolean isSized() {
        return bitSize != 0;
    }

    public boolean isPerComponent() {
        return components == 0;
    }

    /** Parses the op table's spelling: {@code float}, {@code uint32}, {@code float32x2}, {@code anyx1}. */
    static OperandType parse(String s) {
        // No class name contains an 'x', so the first 'x' starts the component count.
        int x = s.indexOf('x');
        int comps = x < 0 ? 0 : Integer.parseInt(s.substring(x + 1));
        String base = x < 0 ? s : s.substring(0, x);
        int digits = base.length();
        while (digits > 0 && Character.isDigit(base.charAt(digits - 1))) digits--;
        int bits = digits == base.length() ? 0 : Integer.parseInt(base.substring(digits));
        return new OperandType(TypeClass.parse(base.substring(0, digits)), bits, comps);
    }

    @Override
    public String toString() {
        return typeClass.spelling()
                + (bitSize == 0 ? "" : Integer.toString(bitSize))
                + (components == 0 ? "" : "x" + components);
    }
}
