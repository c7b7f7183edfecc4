package dev.lathe.ir.op;

import java.util.ArrayList;
import java.util.List;

/**
 * Integer helpers for values stored as raw bit patterns in a {@code long}.
 *
 * <p>Every SSA component is kept zero-extended to 64 bits and masked to its bit size; these
 * helpers reinterpret such a pattern as signed or unsigned at a given bit size.
 */
public final class Bits {
    private Bits() {}

    /** The mask of the low {@code bits} bits ({@code bits} in 1..64). */
    public static long mask(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** {@code v} truncated to {@code bits} bits (zero-extended). */
    public static long trunc(long v, int bits) {
        return v & mask(bits);
    }

    /** {@code v} read as a signed integer of {@code bits} bits. */
    public static long sext(long v, int bits) {
        if (bits >= 64) return v;
        int shift = 64 - bits;
        return (v << shift) >> shift;
    }

    /** {@code v} read as an unsigned integer of {@code bits} bits (the same as {@link #trunc}). */
    public static long zext(long v, int bits) {
        return trunc(v, bits);
    }

    /** The smallest signed value of {@code bits} bits. */
    public static long minSigned(int bits) {
        return bits >= 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
    }

    /** The largest signed value of {@code bits} bits. */
    public static long maxSigned(int bits) {
        return bits >= 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
    }

    /** Compares two patterns as unsigned {@code bits}-bit integers. */
    public static int compareUnsigned(long a, long b, int bits) {
        return Long.compareUnsigned(zext(a, bits), zext(b, bits));
    }

    /** Compares two patterns as signed {@code bits}-bit integers. */
    public static int compareSigned(long a, long b, int bits) {
        return Long.compare(sext(a, bits), sext(b, bits));
    }

    /** Whether {@code bits} is one of the bit sizes the IR knows: 1, 8, 16, 32, 64. */
    public static boolean isValidBitSize(int bits) {
        return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
    }

    /** The bit-size set holding every size. */
    public static final int ALL_SIZES = 31;

    /** The sizes of a bit-size set (see {@link #sizeFlag}), in increasing order. */
    public static List<Integer> sizesIn(int set) {
        List<Integer> out = new ArrayList<>(5);
        for (int bits : new int[] {1, 8, 16, 32, 64}) {
            if ((set & sizeFlag(bits)) != 0) out.add(bits);
        }
        return out;
    }

    /** A one-bit flag for {@code bits} in a bit-size set (see {@link Op#legalBitSizes()}). */
    public static int sizeFlag(int bits) {
        return switch (bits) {
            case 1 -> 1;
            case 8 -> 2;
            case 16 -> 4;
            case 32 -> 8;
            case 64 -> 16;
            default -> throw new IllegalArgumentException("not a bit size: " + bits);
        };
    }
}
