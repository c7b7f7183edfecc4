package dev.lathe.ir;

import dev.lathe.ir.op.Fp16;
import java.util.Arrays;
import java.util.Locale;

/**
 * The format of a storage image: how many components a texel keeps and at what precision.
 * Memory always holds four 32-bit words per texel; a store keeps what the format keeps
 * ({@link #store}), so an image read after a write gives what a GPU gives: rgba8 rounds to
 * eighths of 255, rgba16f to half precision, r32ui drops green, blue and alpha (read back as
 * 0, 0, 1). The interpreter and the simulator both store through this one function.
 */
public enum ImageFormat {
    RGBA32F(4, Kind.FLOAT, 32, 1),
    RGBA16F(4, Kind.FLOAT, 16, 2),
    R32F(1, Kind.FLOAT, 32, 3),
    RGBA8(4, Kind.UNORM, 8, 4),
    RGBA8_SNORM(4, Kind.SNORM, 8, 5),
    RG32F(2, Kind.FLOAT, 32, 6),
    RG16F(2, Kind.FLOAT, 16, 7),
    R16F(1, Kind.FLOAT, 16, 9),
    RGBA16(4, Kind.UNORM, 16, 10),
    RG16(2, Kind.UNORM, 16, 12),
    RG8(2, Kind.UNORM, 8, 13),
    R16(1, Kind.UNORM, 16, 14),
    R8(1, Kind.UNORM, 8, 15),
    RGBA16_SNORM(4, Kind.SNORM, 16, 16),
    RG16_SNORM(2, Kind.SNORM, 16, 17),
    RG8_SNORM(2, Kind.SNORM, 8, 18),
    R16_SNORM(1, Kind.SNORM, 16, 19),
    R8_SNORM(1, Kind.SNORM, 8, 20),
    RGBA32I(4, Kind.SINT, 32, 21),
    RGBA16I(4, Kind.SINT, 16, 22),
    RGBA8I(4, Kind.SINT, 8, 23),
    R32I(1, Kind.SINT, 32, 24),
    RG32I(2, Kind.SINT, 32, 25),
    RG16I(2, Kind.SINT, 16, 26),
    RG8I(2, Kind.SINT, 8, 27),
    R16I(1, Kind.SINT, 16, 28),
    R8I(1, Kind.SINT, 8, 29),
    RGBA32UI(4, Kind.UINT, 32, 30),
    RGBA16UI(4, Kind.UINT, 16, 31),
    RGBA8UI(4, Kind.UINT, 8, 32),
    R32UI(1, Kind.UINT, 32, 33),
    RG32UI(2, Kind.UINT, 32, 35),
    RG16UI(2, Kind.UINT, 16, 36),
    RG8UI(2, Kind.UINT, 8, 37),
    R16UI(1, Kind.UINT, 16, 38),
    R8UI(1, Kind.UINT, 8, 39),
    // packed formats: bits per component differ
    R11F_G11F_B10F(Kind.UFLOAT, 8, 11, 11, 10),
    RGB10_A2(Kind.UNORM, 11, 10, 10, 10, 2),
    RGB10_A2UI(Kind.UINT, 34, 10, 10, 10, 2);

    /** How components are kept; UFLOAT: unsigned floats with a 5-bit exponent (bits − 5 of mantissa). */
    public enum Kind {
        FLOAT,
        UNORM,
        SNORM,
        UINT,
        SINT,
        UFLOAT
    }

    private final int components;
    private final Kind kind;
    private final int[] bits;
    private final int spirv;

    ImageFormat(int components, Kind kind, int bits, int spirv) {
        this.components = components;
        this.kind = kind;
        this.bits = new int[] {bits, bits, bits, bits};
        this.spirv = spirv;
    }

    ImageFormat(Kind kind, int spirv, int... bits) {
        this.components = bits.length;
        this.kind = kind;
        this.bits = Arrays.copyOf(bits, 4);
        this.spirv = spirv;
    }

    public String spelling() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ImageFormat byName(String s) {
        for (ImageFormat f : values()) if (f.spelling().equals(s)) return f;
        return null;
    }

    /** The format with SPIR-V's ImageFormat number, or null (Unknown, packed and 64-bit formats). */
    public static ImageFormat ofSpirv(int n) {
        for (ImageFormat f : values()) if (f.spirv == n) return f;
        return null;
    }

    /** The format a formatless image of texel type {@code base} gets: four 32-bit components. */
    public static ImageFormat full(BaseType base) {
        return base == BaseType.FLOAT ? RGBA32F : base == BaseType.INT ? RGBA32I : RGBA32UI;
    }

    /** The texel type (f32, i32 or u32) an image of this format is declared with. */
    public BaseType base() {
        return switch (kind) {
            case FLOAT, UNORM, SNORM, UFLOAT -> BaseType.FLOAT;
            case UINT -> BaseType.UINT;
            case SINT -> BaseType.INT;
        };
    }

    public int components() {
        return components;
    }

    /** How the components are kept. */
    public Kind kind() {
        return kind;
    }

    /** The bits of component {@code c}. */
    public int bits(int c) {
        return bits[c];
    }

    /** The four words a store of {@code texel} (raw 32-bit words) leaves in memory. */
    public long[] store(long[] texel) {
        long[] r = new long[4];
        boolean floats = base() == BaseType.FLOAT;
        for (int c = 0; c < 4; c++) {
            if (c >= components) {
                r[c] = c == 3 ? (floats ? Float.floatToRawIntBits(1.0f) & 0xffffffffL : 1) : 0;
                continue;
            }
            long w = texel[c] & 0xffffffffL;
            int bits = this.bits[c];
            r[c] = switch (kind) {
                case UFLOAT -> unsignedFloat(Float.intBitsToFloat((int) w), bits - 5);
                case FLOAT ->
                    bits == 32
                            ? w
                            : Float.floatToRawIntBits(
                                            (float) Fp16.toDouble(Fp16.fromDouble(Float.intBitsToFloat((int) w))))
                                    & 0xffffffffL;
                case UNORM -> normalized(Float.intBitsToFloat((int) w), 0, (1 << bits) - 1);
                case SNORM -> normalized(Float.intBitsToFloat((int) w), -1, (1 << (bits - 1)) - 1);
                case UINT -> bits == 32 ? w : w & ((1L << bits) - 1);
                case SINT -> bits == 32 ? w : ((w << (64 - bits)) >> (64 - bits)) & 0xffffffffL;
            };
        }
        return r;
    }

    /**
     * An unsigned float with a 5-bit exponent (bias 15) and {@code m} mantissa bits, as f32
     * bits: NaN stays NaN, negatives and -0 become +0, +inf stays, finite values round to the
     * nearest (ties to even, denormals below 2^-14) and clamp to the largest finite value.
     */
    private static long unsignedFloat(float x, int m) {
        if (x != x) return 0x7fc00000L;
        if (!(x > 0)) return 0;
        if (x == Float.POSITIVE_INFINITY) return Float.floatToRawIntBits(x) & 0xffffffffL;
        int e = Math.max(Math.getExponent(x), -14);
        double quantum = Math.scalb(1.0, e - m);
        double q = Math.rint(x / quantum) * quantum;
        double max = Math.scalb(2.0 - Math.scalb(1.0, -m), 15);
        return Float.floatToRawIntBits((float) Math.min(q, max)) & 0xffffffffL;
    }

    /** x clamped to [lo, 1], rounded to the nearest of {@code steps} steps per unit, as f32 bits; NaN keeps 0. */
    private static long normalized(float x, int lo, int steps) {
        double v = x != x ? 0 : Math.max(lo, Math.min(1, x));
        double q = Math.rint(v * steps) + 0.0; // an integer code has no -0
        return Float.floatToRawIntBits((float) Math.max(lo, q / steps)) & 0xffffffffL;
    }
}
