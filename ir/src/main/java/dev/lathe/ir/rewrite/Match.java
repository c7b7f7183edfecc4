package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import java.util.Arrays;

/**
 * The checks generated matchers (and the rule interpreter) are made of.
 *
 * <p>Matching works on <em>views</em>: the matched root reads N components, and each pattern
 * node is seen through a swizzle saying which of its value's components those N are. A
 * per-component child reached through source {@code s} of a node seen as {@code v} is seen as
 * {@code s.component(v[c])} for each c, so swizzles compose on the way down and a variable
 * binds a (value, view) pair. Views are shared arrays: never modify one.
 */
public final class Match {
    private Match() {}

    private static final byte[][] IDENTITY = new byte[17][];

    static {
        for (int n = 1; n <= 16; n++) {
            IDENTITY[n] = new byte[n];
            for (int i = 0; i < n; i++) IDENTITY[n][i] = (byte) i;
        }
    }

    /** The view 0, 1, …, n-1 (shared; do not modify). */
    public static byte[] identity(int n) {
        return IDENTITY[n];
    }

    /** The instruction defining {@code v} when it is an ALU instruction with {@code op}, else null. */
    public static AluInstr alu(Value v, Op op) {
        return v.parent() instanceof AluInstr a && a.op() == op ? a : null;
    }

    /** The op of the ALU instruction defining {@code s}'s value, or null (a cheap first check). */
    public static Op definingOp(Src s) {
        return s.value().aluOp();
    }

    /** The view of source {@code s} of a node seen through {@code outer}. */
    public static byte[] view(Src s, byte[] outer) {
        boolean same = true;
        for (int c = 0; c < outer.length && same; c++) same = s.component(outer[c]) == outer[c];
        if (same) return outer;
        byte[] v = new byte[outer.length];
        for (int c = 0; c < v.length; c++) v[c] = (byte) s.component(outer[c]);
        return v;
    }

    /**
     * Whether a horizontal op's result is seen through the identity: NIR's matcher, and Lathe's,
     * match a {@code vec4} or {@code unpack_64_2x32} read in order only, since a replacement
     * built from it could not say which of its components a swizzle picked.
     */
    public static boolean isIdentity(byte[] view) {
        for (int c = 0; c < view.length; c++) {
            if (view[c] != c) return false;
        }
        return true;
    }

    /** Whether {@code view} is exactly these components ({@code unpack_64_2x32(a).y}). */
    public static boolean viewIs(byte[] view, int... comps) {
        if (view.length != comps.length) return false;
        for (int c = 0; c < view.length; c++) {
            if (view[c] != comps[c]) return false;
        }
        return true;
    }

    /** Components {@code comps} of a value seen through {@code view} ({@code a.yx} of a bound {@code a}). */
    public static byte[] compose(byte[] view, int... comps) {
        byte[] out = new byte[comps.length];
        for (int c = 0; c < comps.length; c++) out[c] = view[comps[c]];
        return out;
    }

    /** Whether the viewed components of {@code v} are all the literal (at v's size). */
    public static boolean isLiteral(Value v, byte[] view, RuleLiteral lit, boolean asFloat) {
        if (!(v.parent() instanceof LoadConstInstr c)) return false;
        int bits = v.bitSize();
        if (!lit.fits(bits, asFloat)) return false;
        long want = lit.bits(bits, asFloat);
        for (byte k : view) {
            if (c.value(k) != want) return false;
        }
        return true;
    }

    /**
     * Whether source {@code s} of a node seen through {@code outer} reads the literal in every
     * component; the same as {@link #isLiteral(Value, byte[], RuleLiteral, boolean)} on its view,
     * without building the view.
     */
    public static boolean isLiteral(Src s, byte[] outer, RuleLiteral lit, boolean asFloat) {
        Value v = s.value();
        if (!(v.parent() instanceof LoadConstInstr c)) return false;
        int bits = v.bitSize();
        if (!lit.fits(bits, asFloat)) return false;
        long want = lit.bits(bits, asFloat);
        for (byte k : outer) {
            if (c.value(s.component(k)) != want) return false;
        }
        return true;
    }

    /** Whether {@code v} is a constant (what {@code #c} matches). */
    public static boolean isConstant(Value v) {
        return v.parent() instanceof LoadConstInstr;
    }

    /** The viewed components of a constant. */
    public static long[] constants(Value v, byte[] view) {
        LoadConstInstr c = (LoadConstInstr) v.parent();
        long[] out = new long[view.length];
        for (int i = 0; i < view.length; i++) out[i] = c.value(view[i]);
        return out;
    }

    /** Whether two bindings are the same value seen the same way (a repeated variable). */
    public static boolean same(Value a, byte[] va, Value b, byte[] vb) {
        if (a == b && Arrays.equals(va, vb)) return true;
        // Two constants with equal viewed components are the same value too.
        if (a.parent() instanceof LoadConstInstr ca
                && b.parent() instanceof LoadConstInstr cb
                && a.bitSize() == b.bitSize()) {
            for (int i = 0; i < va.length; i++) {
                if (ca.value(va[i]) != cb.value(vb[i])) return false;
            }
            return true;
        }
        return false;
    }

    /**
     * {@link #same(Value, byte[], Value, byte[])} with the second binding given as source
     * {@code s} seen through {@code outer}, without building its view.
     */
    public static boolean same(Value a, byte[] va, Src s, byte[] outer) {
        Value b = s.value();
        if (a == b) {
            boolean equal = true;
            for (int i = 0; i < va.length && equal; i++) equal = va[i] == s.component(outer[i]);
            if (equal) return true;
        }
        if (a.parent() instanceof LoadConstInstr ca
                && b.parent() instanceof LoadConstInstr cb
                && a.bitSize() == b.bitSize()) {
            for (int i = 0; i < va.length; i++) {
                if (ca.value(va[i]) != cb.value(s.component(outer[i]))) return false;
            }
            return true;
        }
        return false;
    }

    /** Exactly one use (an {@code if} condition counts): what {@code @once} asks. */
    public static boolean hasOneUse(Value v) {
        return v.useCount() == 1;
    }

    /**
     * Whether every use of {@code v} reads only its low {@code bits} bits ({@code @low8},
     * NIR's {@code only_lower_8_bits_used}): a conversion down to at most that size, an
     * {@code iand} with a constant mask within them, an 8- or 16-bit extract of a field within
     * them. Conservative: any other use (an if condition, an intrinsic) reads every bit.
     */
    public static boolean onlyLowBitsUsed(Value v, int bits) {
        for (Src use : v.uses()) {
            if (!(use.owner() instanceof AluInstr u)) return false;
            boolean low = switch (u.op()) {
                case U2U8, I2I8 -> true;
                case U2U16, I2I16 -> bits >= 16;
                case IAND -> {
                    Src other = u.src(u.src(0) == use ? 1 : 0);
                    if (!(other.value().parent() instanceof LoadConstInstr k)) yield false;
                    long mask = bits >= 64 ? -1L : (1L << bits) - 1;
                    boolean within = true;
                    for (int c = 0; c < other.numComponentsRead(); c++)
                        within &= (k.value(other.component(c)) & ~mask) == 0;
                    yield within;
                }
                case EXTRACT_U8, EXTRACT_I8, EXTRACT_U16, EXTRACT_I16 -> {
                    int field = u.op() == Op.EXTRACT_U8 || u.op() == Op.EXTRACT_I8 ? 8 : 16;
                    Src index = u.src(1);
                    if (use == index || !(index.value().parent() instanceof LoadConstInstr k)) yield false;
                    boolean within = true;
                    for (int c = 0; c < index.numComponentsRead(); c++)
                        within &= (k.value(index.component(c)) + 1) * field <= bits;
                    yield within;
                }
                default -> false;
            };
            if (!low) return false;
        }
        return true;
    }

    /** Whether {@code bits} is in a {@link dev.lathe.ir.op.Bits#sizeFlag} set. */
    public static boolean sizeIn(int bits, int mask) {
        return (Bits.sizeFlag(bits) & mask) != 0;
    }
}
