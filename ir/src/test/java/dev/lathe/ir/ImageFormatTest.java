package dev.lathe.ir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What a store keeps of a texel, format by format, against hand-computed values. */
class ImageFormatTest {
    private static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xffffffffL;
    }

    private static long[] floats(float... xs) {
        long[] r = new long[xs.length];
        for (int i = 0; i < xs.length; i++) r[i] = f(xs[i]);
        return r;
    }

    @Test
    void unormRoundsToTheNearestStepAndClamps() {
        // 0.5 * 255 = 127.5 rounds to even (128); -1 clamps to 0, 2 to 1, NaN to 0
        assertArrayEquals(floats(128f / 255f, 0f, 1f, 0f), ImageFormat.RGBA8.store(floats(0.5f, -1f, 2f, Float.NaN)));
        // 0.25 * 65535 = 16383.75 rounds to 16384; an r16 image keeps red only
        assertArrayEquals(
                floats((float) (16384 / 65535.0), 0f, 0f, 1f), ImageFormat.R16.store(floats(0.25f, 0.7f, 0.7f, 0.7f)));
    }

    @Test
    void snormClampsToMinusOne() {
        assertArrayEquals(floats(-1f, 1f, 64f / 127f, 0f), ImageFormat.RGBA8_SNORM.store(floats(-3f, 3f, 0.5f, -0f)));
    }

    @Test
    void halfFormatsRoundToHalfPrecision() {
        // 1/3 in half precision is 0x3555 = 0.333251953125
        assertEquals(f(0.333251953125f), ImageFormat.RGBA16F.store(floats(1f / 3f, 0f, 0f, 0f))[0]);
        assertEquals(f(Float.POSITIVE_INFINITY), ImageFormat.R16F.store(floats(70000f, 0f, 0f, 0f))[0]);
    }

    @Test
    void missingComponentsReadAsZeroAndAlphaOne() {
        assertArrayEquals(new long[] {7, 0, 0, 1}, ImageFormat.R32UI.store(new long[] {7, 8, 9, 10}));
        assertArrayEquals(floats(2.5f, -1f, 0f, 1f), ImageFormat.RG32F.store(floats(2.5f, -1f, 9f, 9f)));
    }

    @Test
    void narrowIntegersWrapAndSignExtend() {
        assertArrayEquals(
                new long[] {0x34, 0xff, 0, 0}, ImageFormat.RGBA8UI.store(new long[] {0x1234, 0xffffffffL, 0x100, 0}));
        assertArrayEquals(
                new long[] {0xffffff80L, 0x7f, 0xffffffffL, 0},
                ImageFormat.RGBA8I.store(new long[] {0x80, 0x7f, 0xff, 0x100}));
    }

    @Test
    void packedFormatsKeepTheirOwnBits() {
        // 1/3 with 6 mantissa bits (r, g) is 85/256, with 5 (b) rounds up to 43/128; no sign;
        // blue's largest finite value is (2 - 1/32) * 2^15
        assertArrayEquals(
                floats(85f / 256f, 0f, 64512f, 1f),
                ImageFormat.R11F_G11F_B10F.store(floats(1f / 3f, -2f, 70000f, 0.25f)));
        assertEquals(0x7fc00000L, ImageFormat.R11F_G11F_B10F.store(floats(Float.NaN, 0, 0, 0))[0]);
        assertEquals(f(43f / 128f), ImageFormat.R11F_G11F_B10F.store(floats(0, 0, 1f / 3f, 0))[2]);
        // alpha has two bits: 0.5 * 3 = 1.5 rounds to even (2)
        assertArrayEquals(
                floats(1f, 0f, 512f / 1023f, 2f / 3f), ImageFormat.RGB10_A2.store(floats(1f, 0f, 0.5f, 0.5f)));
        assertArrayEquals(new long[] {0x3ff, 0, 1, 3}, ImageFormat.RGB10_A2UI.store(new long[] {0xffff, 0x400, 1, 7}));
    }

    @Test
    void spirvNumbersAndNames() {
        assertEquals(ImageFormat.RGBA8, ImageFormat.ofSpirv(4));
        assertEquals(ImageFormat.R32UI, ImageFormat.ofSpirv(33));
        assertEquals(ImageFormat.R11F_G11F_B10F, ImageFormat.ofSpirv(8));
        assertNull(ImageFormat.ofSpirv(40)); // R64ui is not kept
        assertEquals(ImageFormat.RGBA16_SNORM, ImageFormat.byName("rgba16_snorm"));
        assertEquals(ImageFormat.RGBA32I, ImageFormat.full(BaseType.INT));
    }
}
