package dev.lathe.rules.soundness;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluFlags;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.math.BigInteger;

/**
 * What the flags of a pattern op ({@code fadd[nsz]}, {@code iadd[nsw]}) allow, on one component,
 * for the sampling checker (the prover says the same in {@link RuleProver}'s terms):
 *
 * <ul>
 *   <li>nsz: each zero float operand may be read with either sign, and a zero result may be
 *       given with either sign: the pattern has several values, and the replacement must give
 *       one of them;
 *   <li>nnan / ninf: where a float operand or the result is a NaN / an infinity, the op's
 *       value is poison: the pattern may be replaced by anything there;
 *   <li>nsw / nuw: where iadd, isub, imul or ishl wraps as a signed / unsigned integer (the
 *       shift count taken modulo the size, as the op table does), the value is poison.
 * </ul>
 */
final class FlagSemantics {
    private FlagSemantics() {}

    /** Whether operand {@code i} of {@code op} is a float at {@code bits} (zero signs matter). */
    static boolean floatOperand(Op op, int i, int bits) {
        return bits >= 16 && op.input(i).typeClass() == TypeClass.FLOAT;
    }

    static boolean floatResult(Op op, int bits) {
        return bits >= 16 && op.output().typeClass() == TypeClass.FLOAT;
    }

    static boolean isZero(long v, int bits) {
        return (v & ~FloatBits.signBit(bits) & Bits.mask(bits)) == 0;
    }

    /** The value with its sign bit flipped (a zero of the other sign). */
    static long flipSign(long v, int bits) {
        return (v ^ FloatBits.signBit(bits)) & Bits.mask(bits);
    }

    /** Whether the op's flags make this evaluation poison. */
    static boolean poison(Op op, AluFlags flags, int unsized, long[][] srcs, long result) {
        if (flags.has(AluFlag.NNAN) || flags.has(AluFlag.NINF)) {
            for (int i = 0; i < srcs.length; i++) {
                int b = op.inputBits(i, unsized);
                if (floatOperand(op, i, b) && special(srcs[i][0], b, flags)) return true;
            }
            int out = op.outputBits(unsized);
            if (floatResult(op, out) && special(result, out, flags)) return true;
        }
        if (flags.has(AluFlag.NSW) && wraps(op, unsized, srcs[0][0], srcs[1][0], true)) return true;
        return flags.has(AluFlag.NUW) && wraps(op, unsized, srcs[0][0], srcs[1][0], false);
    }

    private static boolean special(long v, int bits, AluFlags flags) {
        double d = FloatBits.toDouble(v, bits);
        return flags.has(AluFlag.NNAN) && Double.isNaN(d) || flags.has(AluFlag.NINF) && Double.isInfinite(d);
    }

    /** Whether {@code op(a, b)} at {@code n} bits leaves the signed or unsigned range of n bits. */
    static boolean wraps(Op op, int n, long a, long b, boolean signed) {
        BigInteger x = value(a, n, signed), y = value(b, n, signed);
        BigInteger exact = switch (op) {
            case IADD -> x.add(y);
            case ISUB -> x.subtract(y);
            case IMUL -> x.multiply(y);
            case ISHL -> x.shiftLeft((int) (b & (n - 1)));
            default -> throw new IllegalArgumentException(op.opName() + " has no wrap flags");
        };
        BigInteger lo = signed ? BigInteger.ONE.shiftLeft(n - 1).negate() : BigInteger.ZERO;
        BigInteger hi = signed
                ? BigInteger.ONE.shiftLeft(n - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(n).subtract(BigInteger.ONE);
        return exact.compareTo(lo) < 0 || exact.compareTo(hi) > 0;
    }

    private static BigInteger value(long v, int n, boolean signed) {
        long m = v & Bits.mask(n);
        if (signed && n < 64 && (m >>> (n - 1)) != 0) m |= ~Bits.mask(n);
        if (!signed && n == 64) return new BigInteger(Long.toUnsignedString(m));
        return BigInteger.valueOf(m);
    }
}
