package dev.lathe.ir.rewrite;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.text.Literals;
import java.math.BigDecimal;

/**
 * A literal of a rule ({@code 1.0}, {@code -1}, {@code 0x7fffffff}, {@code inf}, {@code true}),
 * with its bit pattern precomputed for every size, read as a float or as an integer:
 *
 * <ul>
 *   <li>as an integer: decimal and hex integers that fit the size (signed or unsigned range),
 *       {@code true}/{@code false} at 1 bit; float spellings never;
 *   <li>as a float (16, 32 or 64 bits): decimal floats rounded to nearest even, {@code inf},
 *       {@code nan}; decimal integers only when exactly representable (16777217 is not an f32);
 *       hex gives raw bits.
 * </ul>
 *
 * A literal that has no value at a size makes its rule not apply at that size.
 */
public final class RuleLiteral {
    private static final int[] SIZES = {1, 8, 16, 32, 64};

    private final String text;
    private final long[] intBits = new long[5];
    private final boolean[] intFits = new boolean[5];
    private final long[] floatBits = new long[5];
    private final boolean[] floatFits = new boolean[5];

    private RuleLiteral(String text) {
        this.text = text;
        boolean floatSpelling = isFloatSpelling(text);
        boolean bool = text.equals("true") || text.equals("false");
        boolean hex = isHex(text);
        for (int k = 0; k < SIZES.length; k++) {
            int n = SIZES[k];
            if (!floatSpelling) {
                try {
                    intBits[k] = Literals.parse(text, n, null);
                    intFits[k] = true;
                } catch (IllegalArgumentException e) {
                    intFits[k] = false;
                }
            }
            if (n >= 16 && !bool) {
                try {
                    floatBits[k] = Literals.parse(text, n, BaseType.FLOAT);
                    floatFits[k] = floatSpelling
                            ? roundsAway(text, floatBits[k], n) == null
                            : hex || exactInteger(text, floatBits[k], n);
                } catch (IllegalArgumentException e) {
                    floatFits[k] = false;
                }
            }
        }
    }

    /** A literal as written in a rule. */
    public static RuleLiteral of(String text) {
        return new RuleLiteral(text);
    }

    private static boolean isHex(String t) {
        return t.startsWith("0x") || t.startsWith("0X");
    }

    /** Float spellings: a decimal point, an exponent, {@code inf} or {@code nan}. */
    public static boolean isFloatSpelling(String t) {
        String b = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
        if (b.equals("inf") || b.equals("nan")) return true;
        if (b.isEmpty() || !Character.isDigit(b.charAt(0)) || isHex(b)) return false; // true, false, hex
        return b.contains(".") || b.contains("e") || b.contains("E");
    }

    /**
     * Why a decimal float spelling has no value at this size: "rounds to inf" when it is finite
     * but too large, "rounds to 0" when it is not zero but too small; else null. (A rule that
     * meant inf or 0 says so; {@code 1e39} silently becoming inf in an f32 rule is a mistake.)
     */
    private static String roundsAway(String t, long pattern, int bits) {
        String b = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
        if (b.equals("inf") || b.equals("nan")) return null;
        double d = FloatBits.toDouble(pattern, bits);
        if (Double.isInfinite(d)) return "rounds to inf";
        if (d == 0 && !zeroSpelling(b)) return "rounds to 0";
        return null;
    }

    /**
     * Whether a decimal float spelling is zero: its digits before the exponent all are (read
     * without BigDecimal, which refuses exponents past nine digits, as in 0.0e-99999999999).
     */
    private static boolean zeroSpelling(String b) {
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            if (c == 'e' || c == 'E') break;
            if (c >= '1' && c <= '9') return false;
        }
        return true;
    }

    /** For a float spelling that does not fit {@code bits} as a float: why ("rounds to inf"), else null. */
    public String floatProblem(int bits) {
        if (floatFits[slot(bits)] || bits < 16) return null;
        if (!isFloatSpelling(text)) {
            // An integer spelling in a float operand stands for that exact value.
            if (isHex(text) || text.equals("true") || text.equals("false")) return null;
            double d;
            try {
                d = FloatBits.toDouble(Literals.parse(text, bits, BaseType.FLOAT), bits);
            } catch (IllegalArgumentException e) {
                return null;
            }
            return Double.isInfinite(d)
                    ? "rounds to inf"
                    : "is not exactly a " + bits + "-bit float; the nearest is "
                            + new BigDecimal(d).stripTrailingZeros().toPlainString();
        }
        return roundsAway(text, floatBits[slot(bits)], bits);
    }

    private static boolean exactInteger(String t, long pattern, int bits) {
        try {
            return new BigDecimal(t).compareTo(new BigDecimal(FloatBits.toDouble(pattern, bits))) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static int slot(int bits) {
        return switch (bits) {
            case 1 -> 0;
            case 8 -> 1;
            case 16 -> 2;
            case 32 -> 3;
            case 64 -> 4;
            default -> throw new IllegalArgumentException("bit size " + bits);
        };
    }

    /** Whether the literal has a value at this size (as a float when {@code asFloat}). */
    public boolean fits(int bits, boolean asFloat) {
        int k = slot(bits);
        return asFloat ? floatFits[k] : intFits[k];
    }

    /** The bit pattern at this size; only meaningful when {@link #fits}. */
    public long bits(int bits, boolean asFloat) {
        int k = slot(bits);
        return asFloat ? floatBits[k] : intBits[k];
    }

    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
