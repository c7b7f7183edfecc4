package dev.lathe.ir.op;

/**
 * Packing and unpacking: 64-bit values from and into 32-bit halves, 32-bit values from bytes
 * and half-words, and the GLSL float packing functions.
 *
 * <p>Lower-numbered components go to lower bits. The float packings follow GLSL:
 * unorm = round(clamp(c, 0, 1) * max), snorm = round(clamp(c, -1, 1) * max) with round to
 * nearest even computed in f32 (clamp is NaN-avoiding, so NaN packs as 0); unpacking divides
 * in f32 (and snorm clamps to -1).
 */
final class PackFns {
    private PackFns() {}

    /** Concatenates {@code count} fields of {@code fieldBits} bits (source 0, component i). */
    static Eval.VectorFn pack(int fieldBits) {
        long m = Bits.mask(fieldBits);
        return (s, dst, n) -> {
            long r = 0;
            for (int i = 0; i < s[0].length; i++) r |= (s[0][i] & m) << (i * fieldBits);
            dst[0] = r;
        };
    }

    /** Splits source 0 into {@code dst.length} fields of {@code fieldBits} bits. */
    static Eval.VectorFn unpack(int fieldBits) {
        long m = Bits.mask(fieldBits);
        return (s, dst, n) -> {
            for (int i = 0; i < dst.length; i++) dst[i] = (s[0][0] >>> (i * fieldBits)) & m;
        };
    }

    /** Two scalars (low, high) of {@code fieldBits} each into one value. */
    static Eval.Binary packSplit(int fieldBits) {
        long m = Bits.mask(fieldBits);
        return (lo, hi, n) -> (lo & m) | ((hi & m) << fieldBits);
    }

    /** The low ({@code high == false}) or high half of a value of {@code 2 * fieldBits} bits. */
    static Eval.Unary unpackSplit(int fieldBits, boolean high) {
        long m = Bits.mask(fieldBits);
        return (a, n) -> high ? (a >>> fieldBits) & m : a & m;
    }

    /** a with its low 32 bits replaced by lo. */
    static long pack64SplitX(long a, long lo, int n) {
        return (a & 0xffffffff00000000L) | (lo & 0xffffffffL);
    }

    /** a with its high 32 bits replaced by hi. */
    static long pack64SplitY(long a, long hi, int n) {
        return (a & 0xffffffffL) | (hi << 32);
    }

    static long halfOf(long f32) {
        return Fp16.fromDouble(Float.intBitsToFloat((int) f32));
    }

    /** The f32 of a half (exact); a NaN half gives the canonical f32 NaN, whatever its sign. */
    static long floatOfHalf(long h) {
        return FloatBits.fromDouble(Fp16.toDouble((int) h & 0xffff), 32);
    }

    static void packHalf2x16(long[][] s, long[] dst, int n) {
        dst[0] = halfOf(s[0][0]) | (halfOf(s[0][1]) << 16);
    }

    static void unpackHalf2x16(long[][] s, long[] dst, int n) {
        dst[0] = floatOfHalf(s[0][0] & 0xffff);
        dst[1] = floatOfHalf((s[0][0] >>> 16) & 0xffff);
    }

    static long packHalf2x16Split(long a, long b, int n) {
        return halfOf(a) | (halfOf(b) << 16);
    }

    static Eval.Unary unpackHalf2x16Split(boolean high) {
        return (a, n) -> floatOfHalf(high ? (a >>> 16) & 0xffff : a & 0xffff);
    }

    private static float clamp(float x, float lo, float hi) {
        // fmax/fmin without NaN propagation: NaN packs as the lower bound... then 0 after scaling
        if (x != x) return lo < 0 ? 0f : lo;
        return Math.max(lo, Math.min(hi, x));
    }

    /** GLSL packUnorm: each component round(clamp(c, 0, 1) * (2^bits - 1)). */
    static Eval.VectorFn packUnorm(int fieldBits) {
        float max = (float) Bits.mask(fieldBits);
        return (s, dst, n) -> {
            long r = 0;
            for (int i = 0; i < s[0].length; i++) {
                float c = clamp(Float.intBitsToFloat((int) s[0][i]), 0f, 1f);
                long q = (long) Math.rint(c * max);
                r |= q << (i * fieldBits);
            }
            dst[0] = r;
        };
    }

    /** GLSL packSnorm: each component round(clamp(c, -1, 1) * (2^(bits-1) - 1)). */
    static Eval.VectorFn packSnorm(int fieldBits) {
        float max = (float) Bits.maxSigned(fieldBits);
        long m = Bits.mask(fieldBits);
        return (s, dst, n) -> {
            long r = 0;
            for (int i = 0; i < s[0].length; i++) {
                float c = clamp(Float.intBitsToFloat((int) s[0][i]), -1f, 1f);
                long q = (long) Math.rint(c * max);
                r |= (q & m) << (i * fieldBits);
            }
            dst[0] = r;
        };
    }

    /** GLSL unpackUnorm: each field f / (2^bits - 1) in f32. */
    static Eval.VectorFn unpackUnorm(int fieldBits) {
        float max = (float) Bits.mask(fieldBits);
        long m = Bits.mask(fieldBits);
        return (s, dst, n) -> {
            for (int i = 0; i < dst.length; i++) {
                float f = ((s[0][0] >>> (i * fieldBits)) & m) / max;
                dst[i] = Float.floatToRawIntBits(f) & 0xffffffffL;
            }
        };
    }

    /** GLSL unpackSnorm: each field clamp(f / (2^(bits-1) - 1), -1, 1) in f32. */
    static Eval.VectorFn unpackSnorm(int fieldBits) {
        float max = (float) Bits.maxSigned(fieldBits);
        long m = Bits.mask(fieldBits);
        return (s, dst, n) -> {
            for (int i = 0; i < dst.length; i++) {
                long v = Bits.sext((s[0][0] >>> (i * fieldBits)) & m, fieldBits);
                float f = Math.max(-1f, v / max);
                dst[i] = Float.floatToRawIntBits(f) & 0xffffffffL;
            }
        };
    }

    /** vecN: component i of the result is source i. */
    static void vec(long[][] s, long[] dst, int n) {
        for (int i = 0; i < dst.length; i++) dst[i] = s[i][0];
    }

    /** NIR's pack_uint_2x16: each component clamped to 16 bits, unsigned; x in the low half. */
    static void packUint2x16(long[][] s, long[] dst, int n) {
        dst[0] = Math.min(s[0][0], 0xffffL) | Math.min(s[0][1], 0xffffL) << 16;
    }

    /** NIR's pack_uvec2_to_uint: x's low half, y shifted up (its high bits fall off). */
    static void packUvec2ToUint(long[][] s, long[] dst, int n) {
        dst[0] = (s[0][0] & 0xffff) | s[0][1] << 16;
    }

    /** NIR's pack_uvec4_to_uint: the components shifted by 0, 8, 16, 24 and or-ed, unmasked. */
    static void packUvec4ToUint(long[][] s, long[] dst, int n) {
        dst[0] = s[0][0] | s[0][1] << 8 | s[0][2] << 16 | s[0][3] << 24;
    }
}
