package dev.lathe.ir.text;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Fp16;
import java.math.BigInteger;

/**
 * Literal spellings shared by the IR text and the command line: decimal and hex integers,
 * decimal floats (with {@code inf}, {@code -inf}, {@code nan}), and {@code true}/{@code false}.
 *
 * <p>Hex always gives raw bits. Without a type (an IR constant), a float spelling gives a float
 * and an integer spelling gives an integer; with a float type, integer spellings are read as
 * float values too ({@code 1} is 1.0).
 */
public final class Literals {
    private Literals() {}

    /**
     * The bit pattern of {@code text} as a value of {@code bits} bits.
     *
     * @param type how to read decimal numbers, or null to decide by the spelling
     * @throws IllegalArgumentException with a user-facing message when it is not a literal or does not fit
     */
    public static long parse(String text, int bits, BaseType type) {
        String s = text.trim();
        if (s.equals("true") || s.equals("false")) {
            if (bits != 1)
                throw new IllegalArgumentException("true and false are 1-bit values; this one has " + bits + " bits");
            return s.equals("true") ? 1 : 0;
        }
        boolean negative = s.startsWith("-");
        String body = negative || s.startsWith("+") ? s.substring(1) : s;
        if (body.startsWith("0x") || body.startsWith("0X")) {
            if (negative) throw new IllegalArgumentException("hex values give raw bits and cannot be negative: " + s);
            if (body.length() > 2 && body.length() <= 18 && hexDigits(body, 2)) {
                // The common case, without the BigInteger: every IR constant is printed this way.
                long bitsValue = Long.parseUnsignedLong(body, 2, body.length(), 16);
                if (64 - Long.numberOfLeadingZeros(bitsValue) > bits)
                    throw new IllegalArgumentException(s + " does not fit in " + bits + " bits");
                return bitsValue;
            }
            BigInteger v;
            try {
                v = new BigInteger(body.substring(2), 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("malformed hex number '" + s + "'");
            }
            if (v.bitLength() > bits) throw new IllegalArgumentException(s + " does not fit in " + bits + " bits");
            return v.longValue();
        }
        boolean floatSpelling = body.equals("inf")
                || body.equals("nan")
                || body.contains(".")
                || body.contains("e")
                || body.contains("E");
        if (type == BaseType.FLOAT || (type == null && floatSpelling)) {
            return parseFloat(s, body, negative, bits);
        }
        if (floatSpelling) throw new IllegalArgumentException("'" + s + "' is not an integer");
        BigInteger v;
        try {
            v = new BigInteger(s.startsWith("+") ? s.substring(1) : s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a number");
        }
        // Signed or unsigned range: at 1 bit, -1 (all ones) is 1, as two's complement says.
        BigInteger min = BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger max = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new IllegalArgumentException(
                    s + " does not fit in " + bits + " bits (range " + min + " to " + max + ")");
        }
        return v.longValue() & Bits.mask(bits);
    }

    private static long parseFloat(String s, String body, boolean negative, int bits) {
        if (bits != 16 && bits != 32 && bits != 64) {
            throw new IllegalArgumentException("a float needs 16, 32 or 64 bits, not " + bits);
        }
        if (body.equals("nan")) return FloatBits.canonicalNaN(bits);
        if (body.equals("inf")) {
            return FloatBits.fromDouble(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY, bits);
        }
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (!(Character.isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) {
                throw new IllegalArgumentException("'" + s + "' is not a number");
            }
        }
        try {
            return switch (bits) {
                case 16 -> Fp16.parse(s);
                case 32 -> Float.floatToRawIntBits(Float.parseFloat(s)) & 0xffffffffL;
                default -> Double.doubleToRawLongBits(Double.parseDouble(s));
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a number");
        }
    }

    /** A readable spelling of a value of the given type (parsed back by {@link #parse}). */
    public static String format(long bits, int bitSize, BaseType type) {
        return switch (type) {
            case FLOAT -> FloatBits.format(bits, bitSize);
            case INT -> Long.toString(Bits.sext(bits, bitSize));
            case UINT -> Long.toUnsignedString(Bits.zext(bits, bitSize));
            case BOOL -> (bits & 1) != 0 ? "true" : "false";
        };
    }

    private static boolean hexDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) return false;
        }
        return true;
    }
}
