package dev.lathe.ir;

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

    /** A swizzle reading component c n times ({@code .xxxx}). */
    public static byte[] splat(int c, int n) {
        byte[] s = new byte[n];
        java.util.Arrays.fill(s, (byte) c);
        return s;
    }
}
