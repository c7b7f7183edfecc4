package dev.lathe.ir.rewrite;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.TypeClass;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The conditions a rule may ask for, with their exact meaning per component. Each one is
 * decided exactly when its variable is bound to a constant; on other values the answer comes
 * from the value-range analysis, and "unknown" means the rule does not fire.
 *
 * <p>This enum is the one definition of what each predicate means: generated matchers, the rule
 * interpreter and the soundness checker all call {@link #holds}. Predicates with a literal
 * argument ({@code ult_const(a, 32)}) take it as their second argument.
 */
public enum Predicate {
    IS_POWER_OF_TWO("isPowerOfTwo", Kind.INT, "every component is a power of two, read as unsigned"),
    IS_NEG_POWER_OF_TWO("isNegPowerOfTwo", Kind.INT, "every component's negation is a power of two"),
    IS_ZERO("isZero", Kind.NUMBER, "every component is zero (floats: +0 or -0)"),
    IS_NOT_ZERO("isNotZero", Kind.NUMBER, "no component is zero (floats: NaN counts as not zero)"),
    IS_NOT_NEGATIVE(
            "isNotNegative",
            Kind.NUMBER,
            "ints: >= 0; floats: +0, positive or +inf (sign bit clear, not NaN; -0 excluded)"),
    IS_NOT_POSITIVE(
            "isNotPositive",
            Kind.NUMBER,
            "ints: <= 0; floats: -0, negative or -inf (sign bit set, not NaN; +0 excluded)"),
    IS_GT_ZERO("isGtZero", Kind.NUMBER, "every component is > 0"),
    IS_LT_ZERO("isLtZero", Kind.NUMBER, "every component is < 0"),
    IS_GE_ZERO("isGeZero", Kind.NUMBER, "every component is >= 0 (floats: IEEE, so -0 counts, NaN not)"),
    IS_LE_ZERO("isLeZero", Kind.NUMBER, "every component is <= 0 (floats: IEEE, so +0 counts, NaN not)"),
    IS_FINITE("isFinite", Kind.FLOAT, "no component is infinite or NaN"),
    IS_A_NUMBER("isANumber", Kind.FLOAT, "no component is NaN"),
    IS_INTEGRAL("isIntegral", Kind.FLOAT, "every component is a whole number or infinite (not NaN)"),
    IS_IN_UNIT_INTERVAL("isInUnitInterval", Kind.FLOAT, "every component is in [+0, 1] (-0 and NaN excluded)"),
    HAS_NORMAL_RECIPROCAL(
            "hasNormalReciprocal",
            Kind.FLOAT,
            "every component's reciprocal, rounded to its size, is a normal float (not zero, infinite, NaN or subnormal)"),
    ULT_CONST("ultConst", Kind.INT_BOUND, "every component, read as unsigned, is below the literal"),
    ILT_CONST("iltConst", Kind.INT_BOUND, "every component, read as signed, is below the literal"),
    // NIR's conditions (nir_search_helpers.h), with NIR's meaning; a NIR range class holds for a
    // NaN too (the analysis keeps NaN apart, in is_a_number), hence the _or_nan spellings.
    IS_NAN("isNan", Kind.FLOAT, "every component is a NaN"),
    IS_NEGATIVE_ZERO("isNegativeZero", Kind.FLOAT, "every component is -0.0"),
    // the one condition on a whole vector: it asks "some component", where the others ask "every"
    IS_ANY_COMP_NAN("isAnyCompNan", Kind.FLOAT, "some component is a NaN (NIR's is_any_comp_nan)"),
    IS_GT_0_AND_LT_1("isGt0AndLt1", Kind.FLOAT, "every component is in (0, 1) (NaN excluded)"),
    IS_ZERO_TO_ONE("isZeroToOne", Kind.FLOAT, "every component is in [0, 1], -0 included (NaN excluded)"),
    IS_GE_ZERO_OR_NAN(
            "isGeZeroOrNan", Kind.NUMBER, "every component is >= 0, or a NaN (NIR's is_not_negative; ints: >= 0)"),
    IS_GT_ZERO_OR_NAN("isGtZeroOrNan", Kind.NUMBER, "every component is > 0, or a NaN (NIR's is_gt_zero; ints: > 0)"),
    IS_LE_ZERO_OR_NAN(
            "isLeZeroOrNan", Kind.NUMBER, "every component is <= 0, or a NaN (NIR's is_not_positive; ints: <= 0)"),
    IS_LT_ZERO_OR_NAN("isLtZeroOrNan", Kind.NUMBER, "every component is < 0, or a NaN (NIR's is_lt_zero; ints: < 0)"),
    IS_INTEGRAL_OR_NAN(
            "isIntegralOrNan", Kind.FLOAT, "every component is a whole number, infinite, or a NaN (NIR's is_integral)"),
    IS_UNSIGNED_MULTIPLE_OF(
            "isUnsignedMultipleOf",
            Kind.INT_BOUND,
            "every component, read as unsigned, is a multiple of the literal (NIR's is_unsigned_multiple_of_N)"),
    IS_NEG_POWER_OF_TWO_NOT_MIN(
            "isNegPowerOfTwoNotMin",
            Kind.INT,
            "every component is negative, not the smallest, and its negation a power of two (NIR's"
                    + " is_neg_power_of_two)"),
    IS_FIRST_5_BITS_UGE_2("isFirst5BitsUge2", Kind.INT, "every component's low 5 bits, unsigned, are at least 2"),
    IS_5LSB_NOT_ZERO("is5lsbNotZero", Kind.INT, "every component's low 5 bits are not all zero"),
    IS_CONST_BITMASK(
            "isConstBitmask",
            Kind.INT,
            "every component is a run of low one bits (0 included), not every bit (NIR's is_const_bitmask)"),
    IS_ODD("isOdd", Kind.INT, "every component has its lowest bit set"),
    IS_LOWER_HALF_ZERO("isLowerHalfZero", Kind.INT, "the low half of every component's bits is zero"),
    IS_UPPER_HALF_ZERO("isUpperHalfZero", Kind.INT, "the high half of every component's bits is zero"),
    IS_LOWER_HALF_NEGATIVE_ONE(
            "isLowerHalfNegativeOne", Kind.INT, "the low half of every component's bits is all ones"),
    IS_UPPER_HALF_NEGATIVE_ONE(
            "isUpperHalfNegativeOne", Kind.INT, "the high half of every component's bits is all ones"),
    IS_BITCOUNT2("isBitcount2", Kind.INT, "every component has exactly two bits set"),
    IS_16_BITS("is16Bits", Kind.INT, "every component, read as signed, is in [-0x8000, 0xffff] (fits int16 or uint16)"),
    IS_2X_16_BITS("is2x16Bits", Kind.INT, "twice every component, read as signed, is in [-0x8000, 0xffff]"),
    IS_NEG2X_16_BITS("isNeg2x16Bits", Kind.INT, "minus twice every component, read as signed, is in [-0x8000, 0xffff]"),
    IS_NOT_CONST("isNotConst", Kind.STRUCTURAL, "the value is not a constant (load_const)"),
    IS_NOT_CONST_ZERO(
            "isNotConstZero", Kind.STRUCTURAL, "the value is not a constant, or a constant with no zero component"),
    IS_NOT_CONST_AND_NOT_FSIGN(
            "isNotConstAndNotFsign", Kind.STRUCTURAL, "the value is not a constant, nor fsign(x) or fneg(fsign(x))"),
    IS_FMUL("isFmul", Kind.STRUCTURAL, "the value is made by fmul or fmulz, or their fneg"),
    IS_NOT_FMUL("isNotFmul", Kind.STRUCTURAL, "the value is not made by fmul or fmulz, nor their fneg");

    /** What a predicate applies to. */
    public enum Kind {
        /** Floats or integers: the variable's type says how to read it (signed unless uint). */
        NUMBER,
        /** Floats only. */
        FLOAT,
        /** Integers only. */
        INT,
        /** Integers, with a literal bound as the second argument. */
        INT_BOUND,
        /**
         * What makes the value (a constant, an fmul), not what it is: decided on the IR by
         * {@link Predicates#test}; the checker and the prover assume nothing of the value, so the
         * rule must hold for every value.
         */
        STRUCTURAL
    }

    private final Kind kind;
    private final String description;

    Predicate(String unused, Kind kind, String description) {
        this.kind = kind;
        this.description = description;
    }

    public Kind kind() {
        return kind;
    }

    public String spelling() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The Java constant name used by generated code, e.g. {@code IS_NOT_NEGATIVE}. */
    public String constantName() {
        return name();
    }

    /**
     * Whether the condition holds when some component satisfies {@link #holds}, rather than
     * every one ({@code is_any_comp_nan}).
     */
    public boolean anyComponent() {
        return this == IS_ANY_COMP_NAN;
    }

    /** Whether the second argument is a literal bound ({@code ult_const(a, 32)}). */
    public boolean takesLiteral() {
        return kind == Kind.INT_BOUND;
    }

    public int arity() {
        return takesLiteral() ? 2 : 1;
    }

    public String description() {
        return description;
    }

    /**
     * Whether the predicate holds for one component: {@code bits} at {@code bitSize}, read as
     * {@code type} (FLOAT, or an integer: UINT reads unsigned, anything else signed);
     * {@code bound} is the literal of the bounded predicates.
     */
    public boolean holds(long bits, int bitSize, TypeClass type, long bound) {
        if (type == TypeClass.FLOAT) {
            double x = FloatBits.toDouble(bits, bitSize);
            boolean nan = x != x;
            boolean neg = FloatBits.isNegative(bits, bitSize);
            return switch (this) {
                case IS_ZERO -> x == 0.0;
                case IS_NOT_ZERO -> x != 0.0;
                case IS_NOT_NEGATIVE -> !nan && !neg;
                case IS_NOT_POSITIVE -> !nan && neg;
                case IS_GT_ZERO -> x > 0.0;
                case IS_LT_ZERO -> x < 0.0;
                case IS_GE_ZERO -> x >= 0.0;
                case IS_LE_ZERO -> x <= 0.0;
                case IS_FINITE -> Double.isFinite(x);
                case IS_A_NUMBER -> !nan;
                case IS_INTEGRAL -> !nan && (Double.isInfinite(x) || Math.floor(x) == x);
                case IS_INTEGRAL_OR_NAN -> nan || Double.isInfinite(x) || Math.floor(x) == x;
                case IS_IN_UNIT_INTERVAL -> !nan && !neg && x <= 1.0;
                case IS_NAN, IS_ANY_COMP_NAN -> nan;
                case IS_NEGATIVE_ZERO -> x == 0.0 && neg;
                case IS_GT_0_AND_LT_1 -> x > 0.0 && x < 1.0;
                case IS_ZERO_TO_ONE -> x >= 0.0 && x <= 1.0;
                case IS_GE_ZERO_OR_NAN -> nan || x >= 0.0;
                case IS_GT_ZERO_OR_NAN -> nan || x > 0.0;
                case IS_LE_ZERO_OR_NAN -> nan || x <= 0.0;
                case IS_LT_ZERO_OR_NAN -> nan || x < 0.0;
                case IS_NOT_CONST, IS_NOT_CONST_ZERO, IS_NOT_CONST_AND_NOT_FSIGN, IS_FMUL, IS_NOT_FMUL -> true;
                case HAS_NORMAL_RECIPROCAL -> {
                    double r = FloatBits.toDouble(FloatBits.fromDouble(1.0 / x, bitSize), bitSize);
                    // the smallest normal number: exponent field 1, fraction 0 (10, 23 or 52 fraction bits)
                    double minNormal =
                            FloatBits.toDouble(1L << (bitSize == 16 ? 10 : bitSize == 32 ? 23 : 52), bitSize);
                    yield Double.isFinite(x) && x != 0.0 && Double.isFinite(r) && Math.abs(r) >= minNormal;
                }
                default -> throw new IllegalStateException(spelling() + " does not apply to floats");
            };
        }
        boolean unsigned = type == TypeClass.UINT;
        long v = unsigned ? Bits.zext(bits, bitSize) : Bits.sext(bits, bitSize);
        int sign = unsigned ? Long.compareUnsigned(v, 0) : Long.compare(v, 0);
        return switch (this) {
            case IS_POWER_OF_TWO -> {
                long u = Bits.zext(bits, bitSize);
                yield u != 0 && (u & (u - 1)) == 0;
            }
            case IS_NEG_POWER_OF_TWO -> {
                long u = Bits.zext(-bits, bitSize);
                yield u != 0 && (u & (u - 1)) == 0;
            }
            case IS_ZERO -> v == 0;
            case IS_NOT_ZERO -> v != 0;
            // an integer is never a NaN: NIR's range classes are plain signs there
            case IS_NOT_NEGATIVE, IS_GE_ZERO, IS_GE_ZERO_OR_NAN -> sign >= 0;
            case IS_NOT_POSITIVE, IS_LE_ZERO, IS_LE_ZERO_OR_NAN -> sign <= 0;
            case IS_GT_ZERO, IS_GT_ZERO_OR_NAN -> sign > 0;
            case IS_LT_ZERO, IS_LT_ZERO_OR_NAN -> sign < 0;
            case ULT_CONST -> Long.compareUnsigned(Bits.zext(bits, bitSize), bound) < 0;
            case ILT_CONST -> Bits.sext(bits, bitSize) < bound;
            case IS_UNSIGNED_MULTIPLE_OF -> Long.remainderUnsigned(Bits.zext(bits, bitSize), bound) == 0;
            case IS_NEG_POWER_OF_TWO_NOT_MIN -> {
                long s = Bits.sext(bits, bitSize);
                yield s < 0 && s != Bits.minSigned(bitSize) && (-s & (-s - 1)) == 0;
            }
            case IS_FIRST_5_BITS_UGE_2 -> (bits & 0x1f) >= 2;
            case IS_5LSB_NOT_ZERO -> (bits & 0x1f) != 0;
            case IS_CONST_BITMASK -> {
                long u = Bits.zext(bits, bitSize);
                yield (u & (u + 1)) == 0 && u != Bits.mask(bitSize);
            }
            case IS_ODD -> (bits & 1) != 0;
            case IS_LOWER_HALF_ZERO -> (bits & Bits.mask(bitSize / 2)) == 0;
            case IS_UPPER_HALF_ZERO -> (Bits.zext(bits, bitSize) >>> (bitSize / 2)) == 0;
            case IS_LOWER_HALF_NEGATIVE_ONE -> (bits & Bits.mask(bitSize / 2)) == Bits.mask(bitSize / 2);
            case IS_UPPER_HALF_NEGATIVE_ONE ->
                (Bits.zext(bits, bitSize) >>> (bitSize / 2)) == Bits.mask(bitSize - bitSize / 2);
            case IS_BITCOUNT2 -> Long.bitCount(Bits.zext(bits, bitSize)) == 2;
            // NIR reads the constant sign-extended, as nir_src_comp_as_int does
            case IS_16_BITS -> fits16(java.math.BigInteger.valueOf(Bits.sext(bits, bitSize)));
            case IS_2X_16_BITS ->
                fits16(java.math.BigInteger.valueOf(Bits.sext(bits, bitSize)).shiftLeft(1));
            case IS_NEG2X_16_BITS ->
                fits16(java.math.BigInteger.valueOf(Bits.sext(bits, bitSize))
                        .shiftLeft(1)
                        .negate());
            // what makes the value is the matcher's business: the value itself may be anything
            case IS_NOT_CONST, IS_NOT_CONST_ZERO, IS_NOT_CONST_AND_NOT_FSIGN, IS_FMUL, IS_NOT_FMUL -> true;
            default -> throw new IllegalStateException(spelling() + " does not apply to integers");
        };
    }

    private static boolean fits16(java.math.BigInteger x) {
        return x.compareTo(java.math.BigInteger.valueOf(-0x8000)) >= 0
                && x.compareTo(java.math.BigInteger.valueOf(0xffff)) <= 0;
    }

    /**
     * How the predicate reads a value whatever the rule's type for it, or null when the type
     * decides: the float-only ones read floats, and the integer ones that {@link #holds}
     * computes without looking at signedness read as their meaning says (powers of two and
     * {@code ult_const} unsigned, negated powers of two and {@code ilt_const} signed).
     */
    public TypeClass ownReading() {
        return switch (this) {
            case IS_POWER_OF_TWO, ULT_CONST -> TypeClass.UINT;
            case IS_NEG_POWER_OF_TWO, ILT_CONST -> TypeClass.INT;
            default -> kind == Kind.FLOAT ? TypeClass.FLOAT : null;
        };
    }

    /** Whether the predicate can be asked of a variable read as {@code type}. */
    public boolean appliesTo(TypeClass type) {
        // A boolean is true or false: whether it is zero is all there is to ask (it has no sign
        // that both readings of its one bit agree on, and no magnitude).
        if (kind == Kind.STRUCTURAL) return true;
        if (type == TypeClass.BOOL) return this == IS_ZERO || this == IS_NOT_ZERO;
        return switch (kind) {
            case NUMBER -> type == TypeClass.FLOAT || type == TypeClass.INT || type == TypeClass.UINT;
            case FLOAT -> type == TypeClass.FLOAT;
            case INT, INT_BOUND -> type == TypeClass.INT || type == TypeClass.UINT;
            case STRUCTURAL -> true;
        };
    }

    public static Predicate bySpelling(String s) {
        for (Predicate p : values()) {
            if (p.spelling().equals(s)) return p;
        }
        return null;
    }

    public static List<String> spellings() {
        return Arrays.stream(values()).map(Predicate::spelling).toList();
    }
}
