package dev.lathe.tests;

import dev.lathe.ir.interp.ShaderOutputs;

/**
 * The documented tolerance of inexact ({@code ~=>}) rules for comparing whole runs: 32-bit words
 * that differ must both read as floats that are NaN together or within a relative 1e-5 (an fma
 * fused by the late rules rounds once instead of twice). Integers are words too: a wrong integer
 * almost never reads as a float within 1e-5 of the right one.
 */
final class Tolerance {
    private Tolerance() {}

    /** Null when the runs agree within the tolerance, else where they do not. */
    static String compare(ShaderOutputs a, ShaderOutputs b) {
        if (a.discarded() != b.discarded()) return "one run discarded, the other did not";
        for (var e : a.outputs().entrySet()) {
            long[] x = e.getValue(), y = b.outputs().get(e.getKey());
            if (y == null || x.length != y.length) return "@" + e.getKey() + " has another shape";
            for (int i = 0; i < x.length; i++) {
                if (!close(x[i], y[i])) return "@" + e.getKey() + "[" + i + "]: " + Long.toHexString(x[i]) + " vs " + Long.toHexString(y[i]);
            }
        }
        for (var e : a.buffers().entrySet()) {
            byte[] x = e.getValue(), y = b.buffers().get(e.getKey());
            if (y == null || x.length != y.length) return "buffer @" + e.getKey() + " has another size";
            for (int i = 0; i + 3 < x.length; i += 4) {
                long wx = word(x, i), wy = word(y, i);
                if (!close(wx, wy)) return "buffer @" + e.getKey() + " byte " + i + ": " + Long.toHexString(wx) + " vs " + Long.toHexString(wy);
            }
        }
        return null;
    }

    private static long word(byte[] b, int i) {
        return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24;
    }

    static boolean close(long x, long y) {
        if (x == y) return true;
        float a = Float.intBitsToFloat((int) x), b = Float.intBitsToFloat((int) y);
        if (Float.isNaN(a) || Float.isNaN(b)) return Float.isNaN(a) && Float.isNaN(b);
        return Math.abs(a - b) <= 1e-5 * Math.max(Math.abs(a), Math.abs(b));
    }
}
