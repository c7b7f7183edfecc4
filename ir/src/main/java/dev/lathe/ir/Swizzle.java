package dev.lathe.ir;

import java.util.Arrays;

/**
 * Swizzle spelling: {@code xyzw} while every index is below 4, otherwise the letters
 * {@code a}–{@code p} for indices 0–15 (as NIR prints vectors wider than four).
 */
public final class Swizzle {
    private Swizzle() {}

    private static final String XYZW = "xyzw";
    private static final String WIDE = "abcdefghijklmnop";

    public static String format(byte[] swizzle) {
        boolean small = true;
        for (byte b : swizzle) small &= b < 4;
        StringBuilder sb = new StringBuilder(swizzle.length);
        for (byte b : swizzle) sb.append(small ? XYZW.charAt(b) : WIDE.charAt(b));
        return sb.toString();
    }

    /** Parses a swizzle, or returns null when the letters are not a swizzle. */
    public static byte[] parse(String letters) {
        if (letters.isEmpty() || letters.length() > 16) return null;
        String set = XYZW.indexOf(letters.charAt(0)) >= 0 ? XYZW : WIDE;
        byte[] out = new byte[letters.length()];
        for (int i = 0; i < letters.length(); i++) {
            int k = set.indexOf(letters.charAt(i));
            if (k < 0) return null;
            out[i] = (byte) k;
        }
        return out;
    }

    /** The identity swizzle of n components. */
    public static byte[] identity(int n) {
        return Src.identity(n);
    }

    /**
     * Every swizzle of one to four components below 4, one array each, indexed by
     * {@link #sharedIndex}. Sources hold these instead of arrays of their own: almost every
     * swizzle is one of them, so reading a source's swizzle while matching stays in the cache
     * (on a freshly built function each private array was a cache miss of its own), and a
     * function carries no array per source. Never written after the class is initialized.
     */
    private static final byte[][] SHARED = makeShared();

    private static byte[][] makeShared() {
        byte[][] all = new byte[4 + 16 + 64 + 256][];
        for (int n = 1; n <= 4; n++) {
            for (int code = 0; code < 1 << (2 * n); code++) {
                byte[] s = new byte[n];
                for (int i = 0; i < n; i++) s[i] = (byte) ((code >> (2 * i)) & 3);
                all[sharedIndex(s)] = s;
            }
        }
        return all;
    }

    /** The index of a swizzle in {@link #SHARED}, or -1 when it is not one of them. */
    private static int sharedIndex(byte[] s) {
        int n = s.length;
        if (n == 0 || n > 4) return -1;
        int code = 0;
        for (int i = 0; i < n; i++) {
            if ((s[i] & ~3) != 0) return -1;
            code |= s[i] << (2 * i);
        }
        return ((1 << (2 * n)) - 4) / 3 + code;
    }

    /**
     * An array with the same components as {@code s} that nobody else may write: the shared
     * one when there is one, else a copy. (Sources never write their swizzle.)
     */
    static byte[] frozen(byte[] s) {
        for (byte c : s) {
            // the IR's widest value has 16 components; a wider index cannot be spelled or read
            if (c < 0 || c > 15) throw new IllegalArgumentException("swizzle component " + c + " is outside 0 to 15");
        }
        int k = sharedIndex(s);
        return k >= 0 ? SHARED[k] : s.clone();
    }

    /** A swizzle reading component c n times ({@code .xxxx}). */
    public static byte[] splat(int c, int n) {
        byte[] s = new byte[n];
        Arrays.fill(s, (byte) c);
        return s;
    }
}
