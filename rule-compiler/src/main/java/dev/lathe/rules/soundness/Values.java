package dev.lathe.rules.soundness;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The input values the checker tries, as bit patterns of a type and size: edge values, one
 * value from each floating-point class, random patterns, and values drawn to satisfy a
 * condition. Also how "simple" a value is, for shrinking counterexamples.
 */
final class Values {
    private Values() {}

    private static final double[] FLOAT_EDGES = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        -0.5,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.NaN,
        // one from each class: below -1, (-1, 0), (0, 1), above 1, non-integral
        -3.75,
        -0.375,
        0.375,
        3.75,
        2.5,
        -2.5,
        1.5,
        3.0,
        4.0,
        0.25,
        10.0,
        100.0,
        -100.0,
        0.1,
        -0.1,
    };

    /** Edge values of a type at a size (floats get their size's extremes and neighbours of 1). */
    static List<Long> edges(TypeClass type, int bits) {
        LinkedHashSet<Long> out = new LinkedHashSet<>();
        if (isFloat(type, bits)) {
            for (double d : FLOAT_EDGES) out.add(FloatBits.fromDouble(d, bits));
            long signBit = FloatBits.signBit(bits);
            int mant = bits == 16 ? 10 : bits == 32 ? 23 : 52;
            long expMask = Bits.mask(bits - 1) & ~Bits.mask(mant);
            long one = FloatBits.fromDouble(1.0, bits);
            for (long v : new long[] {
                1,
                Bits.mask(mant), // smallest and largest subnormal
                1L << mant,
                expMask - 1, // smallest normal, largest finite
                one + 1,
                one - 1, // the neighbours of 1
                FloatBits.fromDouble(2.0, bits) + 1,
                FloatBits.fromDouble(2.0, bits) - 1,
                expMask | 1, // a signalling NaN
                FloatBits.canonicalNaN(bits) | signBit, // a negative NaN
            }) {
                out.add(v & Bits.mask(bits));
                out.add((v | signBit) & Bits.mask(bits));
            }
            // integers around the end of exact integer range
            double big = Math.pow(2, mant + 1);
            for (double d : new double[] {big, big + 2, big - 1, -big}) out.add(FloatBits.fromDouble(d, bits));
        }
        if (!isFloat(type, bits) || type == TypeClass.ANY) {
            long m = Bits.mask(bits);
            for (long v : new long[] {0, 1, -1, 2, -2, 3, 4, 5, 7, 8, 15, 16, bits - 1L, bits, bits + 1L})
                out.add(v & m);
            if (bits > 1) {
                out.add(Bits.minSigned(bits) & m);
                out.add(Bits.maxSigned(bits) & m);
                out.add((Bits.minSigned(bits) + 1) & m);
                out.add((Bits.maxSigned(bits) - 1) & m);
                out.add(0x5555555555555555L & m);
                out.add(0xaaaaaaaaaaaaaaaaL & m);
                for (int k = 1; k < bits; k += Math.max(1, bits / 8)) {
                    long p = 1L << k;
                    out.add(p & m);
                    out.add((p - 1) & m);
                    out.add((p + 1) & m);
                    out.add(-p & m);
                }
            }
        }
        return new ArrayList<>(out);
    }

    static boolean isFloat(TypeClass type, int bits) {
        return bits >= 16 && (type == TypeClass.FLOAT || type == TypeClass.ANY);
    }

    /** A random value of a type and size. */
    static long random(SplittableRandom rnd, TypeClass type, int bits) {
        long m = Bits.mask(bits);
        if (bits == 1) return rnd.nextInt(2);
        if (isFloat(type, bits) && (type == TypeClass.FLOAT || rnd.nextBoolean())) {
            return switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextLong() & m;
                case 1 -> FloatBits.fromDouble((rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(40) - 20), bits);
                case 2 -> FloatBits.fromDouble(rnd.nextInt(2001) - 1000, bits);
                default -> FloatBits.fromDouble(rnd.nextDouble(), bits);
            };
        }
        return switch (rnd.nextInt(4)) {
            case 0, 1 -> rnd.nextLong() & m;
            case 2 -> (rnd.nextInt(64) - 32) & m;
            default -> ((1L << rnd.nextInt(bits)) + rnd.nextInt(3) - 1) & m;
        };
    }

    /**
     * A random value drawn to satisfy {@code p} (it may still not, e.g. at the ends of a range;
     * the caller checks).
     */
    static long satisfying(SplittableRandom rnd, Predicate p, TypeClass type, int bits, long bound) {
        long m = Bits.mask(bits);
        if (type == TypeClass.FLOAT) {
            double mag = Math.abs(FloatBits.toDouble(random(rnd, TypeClass.FLOAT, bits), bits));
            if (!Double.isFinite(mag)) mag = rnd.nextDouble() * 8;
            double integral = Math.floor(rnd.nextDouble() * 1000) * (rnd.nextBoolean() ? 1 : -1);
            double d = switch (p) {
                case IS_ZERO -> rnd.nextBoolean() ? 0.0 : -0.0;
                case IS_NOT_ZERO -> (mag == 0 ? 1 : mag) * (rnd.nextBoolean() ? 1 : -1);
                case IS_NOT_NEGATIVE, IS_GE_ZERO -> rnd.nextInt(10) == 0 ? Double.POSITIVE_INFINITY : mag;
                case IS_NOT_POSITIVE, IS_LE_ZERO -> rnd.nextInt(10) == 0 ? Double.NEGATIVE_INFINITY : -mag;
                case IS_GT_ZERO -> mag == 0 ? 1.0 : mag;
                case IS_LT_ZERO -> mag == 0 ? -1.0 : -mag;
                case IS_FINITE, IS_A_NUMBER -> mag * (rnd.nextBoolean() ? 1 : -1);
                case IS_INTEGRAL -> rnd.nextInt(20) == 0 ? Double.POSITIVE_INFINITY : integral;
                case IS_INTEGRAL_OR_NAN -> rnd.nextInt(10) == 0 ? Double.NaN : integral;
                case IS_IN_UNIT_INTERVAL -> rnd.nextInt(10) == 0 ? rnd.nextInt(2) : rnd.nextDouble();
                case IS_ZERO_TO_ONE ->
                    rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? -0.0 : rnd.nextInt(2)) : rnd.nextDouble();
                case IS_GT_0_AND_LT_1 -> Math.max(rnd.nextDouble(), 0x1p-20);
                case IS_NAN -> Double.NaN;
                // a NaN in some component: each one is a NaN half the time
                case IS_ANY_COMP_NAN -> rnd.nextBoolean() ? Double.NaN : mag;
                case IS_NEGATIVE_ZERO -> -0.0;
                case IS_GE_ZERO_OR_NAN -> rnd.nextInt(10) == 0 ? Double.NaN : mag;
                case IS_GT_ZERO_OR_NAN -> rnd.nextInt(10) == 0 ? Double.NaN : mag == 0 ? 1.0 : mag;
                case IS_LE_ZERO_OR_NAN -> rnd.nextInt(10) == 0 ? Double.NaN : -mag;
                case IS_LT_ZERO_OR_NAN -> rnd.nextInt(10) == 0 ? Double.NaN : mag == 0 ? -1.0 : -mag;
                // magnitudes from 2^-12 to 2^12, whose reciprocals are normal at every size
                case HAS_NORMAL_RECIPROCAL ->
                    Math.scalb(1 + rnd.nextDouble(), rnd.nextInt(25) - 12) * (rnd.nextBoolean() ? 1 : -1);
                default -> mag;
            };
            return FloatBits.fromDouble(d, bits);
        }
        long v = random(rnd, type, bits);
        return switch (p) {
            case IS_POWER_OF_TWO -> (1L << rnd.nextInt(bits)) & m;
            case IS_NEG_POWER_OF_TWO -> (-(1L << rnd.nextInt(bits))) & m;
            case IS_ZERO -> 0;
            case IS_NOT_ZERO -> v == 0 ? 1 : v;
            case IS_NOT_NEGATIVE, IS_GE_ZERO, IS_GE_ZERO_OR_NAN -> type == TypeClass.UINT ? v : Bits.zext(v, bits - 1);
            case IS_GT_ZERO, IS_GT_ZERO_OR_NAN -> {
                long x = type == TypeClass.UINT ? v : Bits.zext(v, bits - 1);
                yield x == 0 ? 1 : x;
            }
            case IS_NOT_POSITIVE, IS_LE_ZERO, IS_LE_ZERO_OR_NAN ->
                type == TypeClass.UINT ? 0 : (v | Bits.minSigned(bits)) & m;
            case IS_LT_ZERO, IS_LT_ZERO_OR_NAN -> (v | Bits.minSigned(bits)) & m;
            case IS_ODD -> v | 1;
            case IS_NEG_POWER_OF_TWO_NOT_MIN -> bits < 2 ? v : (-(1L << rnd.nextInt(bits - 1))) & m;
            case IS_FIRST_5_BITS_UGE_2 -> ((v & ~0x1fL) | (2 + rnd.nextInt(30))) & m;
            case IS_5LSB_NOT_ZERO -> ((v & ~0x1fL) | (1 + rnd.nextInt(31))) & m;
            case IS_CONST_BITMASK -> Bits.mask(rnd.nextInt(bits));
            case IS_16_BITS -> (rnd.nextInt(0x18000) - 0x8000) & m;
            case IS_2X_16_BITS -> ((rnd.nextInt(0x18000) - 0x8000) >> 1) & m;
            case IS_NEG2X_16_BITS -> (-((rnd.nextInt(0x18000) - 0x8000) >> 1)) & m;
            case IS_LOWER_HALF_ZERO -> v & ~Bits.mask(bits / 2) & m;
            case IS_UPPER_HALF_ZERO -> v & Bits.mask(bits / 2);
            case IS_LOWER_HALF_NEGATIVE_ONE -> (v | Bits.mask(bits / 2)) & m;
            case IS_UPPER_HALF_NEGATIVE_ONE -> (v | ~Bits.mask(bits / 2)) & m;
            case IS_BITCOUNT2 -> {
                int i = rnd.nextInt(bits), j = rnd.nextInt(bits);
                yield bits < 2 ? v : ((1L << i) | (1L << (i == j ? (j + 1) % bits : j))) & m;
            }
            case ULT_CONST -> bound <= 0 ? 0 : Long.remainderUnsigned(v, Math.min(bound, Long.MAX_VALUE)) & m;
            case IS_UNSIGNED_MULTIPLE_OF -> bound <= 0 ? 0 : (v - Long.remainderUnsigned(v & m, bound)) & m;
            case ILT_CONST -> {
                long s = Bits.sext(v, bits);
                yield (s < bound ? s : bound - 1 - Math.floorMod(s, 1000)) & m;
            }
            default -> v;
        };
    }

    /** Candidate replacements for a value when shrinking, simplest first. */
    static List<Long> simpler(long v, TypeClass type, int bits) {
        List<Long> out = new ArrayList<>();
        long m = Bits.mask(bits);
        if (isFloat(type, bits) && type == TypeClass.FLOAT) {
            for (double d : new double[] {
                0.0,
                -0.0,
                1.0,
                -1.0,
                2.0,
                -2.0,
                0.5,
                -0.5,
                3.0,
                -3.0,
                4.0,
                10.0,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                Double.NaN
            }) {
                out.add(FloatBits.fromDouble(d, bits));
            }
            double x = FloatBits.toDouble(v, bits);
            if (Double.isFinite(x)) {
                out.add(FloatBits.fromDouble(Math.rint(x), bits));
                out.add(FloatBits.fromDouble(Math.floor(x), bits));
                out.add(FloatBits.fromDouble(x / 2, bits));
                for (int digits = 1; digits <= 6; digits++) {
                    out.add(FloatBits.fromDouble(
                            new BigDecimal(x).round(new MathContext(digits)).doubleValue(), bits));
                }
            }
        } else {
            for (long c : new long[] {0, 1, -1, 2, -2, 3, 4, -4, 8, 16}) out.add(c & m);
            long s = Bits.sext(v, bits);
            out.add((s / 2) & m);
            out.add((v & (v - 1)) & m); // one set bit fewer
            out.add(Long.highestOneBit(Bits.zext(v, bits)) & m);
            out.add(Bits.minSigned(bits) & m);
            out.add(Bits.maxSigned(bits) & m);
            out.add(m);
        }
        return out;
    }

    /** Lower is simpler: small integers and plain floats before odd bit patterns. */
    static double complexity(long v, TypeClass type, int bits) {
        if (isFloat(type, bits) && type == TypeClass.FLOAT) {
            double x = FloatBits.toDouble(v, bits);
            if (x != x) return v == FloatBits.canonicalNaN(bits) ? 40 : 60;
            if (Double.isInfinite(x)) return 30;
            if (x == 0) return FloatBits.isNegative(v, bits) ? 1 : 0;
            double a = Math.abs(x);
            int digits = new BigDecimal(x).stripTrailingZeros().precision();
            return (Math.floor(a) == a ? 2 : 10) + digits * 2 + Math.abs(Math.getExponent(a)) / 4.0 + (x < 0 ? 0.5 : 0);
        }
        long s = Bits.sext(v, bits);
        long a = s == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(s);
        return Math.min(64 - Long.numberOfLeadingZeros(a), 64) * 2
                + Long.bitCount(Bits.zext(v, bits)) * 0.5
                + (s < 0 ? 0.25 : 0);
    }

    /** A float's value with the sign of zero spelled out: +0.0, -0.0, 1.5, -inf, nan. */
    static String floatText(long v, int bits) {
        String t = FloatBits.format(v, bits);
        return t.equals("0.0") ? "+0.0" : t;
    }

    /** A value for a report: floats as value and hex, integers as signed, unsigned and hex. */
    static String format(long v, TypeClass type, int bits) {
        String hex = String.format("0x%0" + Math.max(1, bits / 4) + "x", v & Bits.mask(bits));
        if (bits == 1) return (v & 1) != 0 ? "true" : "false";
        if (type == TypeClass.FLOAT) return floatText(v, bits) + " (" + hex + ")";
        if (type == TypeClass.ANY && bits >= 16)
            return Bits.sext(v, bits) + " or " + floatText(v, bits) + " (" + hex + ")";
        long s = Bits.sext(v, bits);
        long u = Bits.zext(v, bits);
        return s == u ? s + " (" + hex + ")" : s + " (" + Long.toUnsignedString(u) + ", " + hex + ")";
    }
}
