package dev.lathe.backend.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.ir.interp.Texture;
import org.junit.jupiter.api.Test;

/** The simulator's own memory, atomic, texture and image rules, worked by hand from backend/ISA.md. */
class MemoryAndTextureUnitTest {
    @Test
    void memoryIsLittleEndianAndBytesOutsideReadZeroAndDropWrites() {
        byte[] m = {1, 2, 3, 4, 5, 6};
        assertArrayEquals(
                new long[] {0x04030201L, 0x0605}, Memory.load(m, 0, 2, 32)); // the second word runs off the end
        assertArrayEquals(new long[] {0x0100}, Memory.load(m, -1, 1, 16)); // below the start too
        Memory.store(m, 4, new long[] {0xaabbccddL}, 32);
        assertArrayEquals(new byte[] {1, 2, 3, 4, (byte) 0xdd, (byte) 0xcc}, m);
        Memory.store(m, 0, new long[] {0x1122, 0x3344}, 16);
        assertArrayEquals(new long[] {0x33441122L}, Memory.load(m, 0, 1, 32));
    }

    @Test
    void atomicsCombineByTheIsasList() {
        byte[] m = new byte[8];
        Memory.store(m, 0, new long[] {0xfffffffeL}, 32); // -2 as s32
        assertEquals(0xfffffffeL, Memory.atomic(m, 0, MOp.ATOMIC_MIN_B, MType.S32, 3, 0));
        assertEquals(0xfffffffeL, Memory.load(m, 0, 1, 32)[0]); // signed: -2 < 3
        Memory.atomic(m, 0, MOp.ATOMIC_MIN_B, MType.U32, 3, 0);
        assertEquals(3, Memory.load(m, 0, 1, 32)[0]); // unsigned: 3 < 0xfffffffe
        assertEquals(3, Memory.atomic(m, 0, MOp.ATOMIC_CMPXCHG_B, MType.U32, 9, 4));
        assertEquals(3, Memory.load(m, 0, 1, 32)[0]); // compare 4 ≠ 3: unchanged
        Memory.atomic(m, 0, MOp.ATOMIC_CMPXCHG_B, MType.U32, 9, 3);
        assertEquals(9, Memory.load(m, 0, 1, 32)[0]);
        Memory.atomic(m, 0, MOp.ATOMIC_ADD_B, MType.U32, 0xffffffffL, 0);
        assertEquals(8, Memory.load(m, 0, 1, 32)[0]); // wraps at 32 bits
        assertEquals(0, Memory.atomic(m, 6, MOp.ATOMIC_XCHG_B, MType.U32, 0x01020304L, 0)); // half outside
        assertArrayEquals(new long[] {0x0304}, Memory.load(m, 6, 1, 16));
        assertEquals(0x77, Memory.combine(MOp.ATOMIC_XOR_W, MType.U32, 0x7f, 0x08, 0));
        assertEquals(5, Memory.combine(MOp.ATOMIC_MAX_I, MType.S32, 0xffffffffL, 5, 0));
    }

    /** A 4x2 texture whose texel (x, y) holds x + 10 y in every component. */
    static Texture grid() {
        long[] texels = new long[4 * 2 * 4];
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) for (int c = 0; c < 4; c++) texels[(y * 4 + x) * 4 + c] = x + 10 * y;
        return new Texture(4, 2, 1, texels);
    }

    static long f(float v) {
        return Float.floatToRawIntBits(v) & 0xffffffffL;
    }

    @Test
    void samplingTakesTheNearestTexelClampedToTheEdge() {
        Texture t = grid();
        assertEquals(
                11, TextureUnit.sample(t, new long[] {f(0.3f), f(0.75f)}, false)[0]); // x = floor(1.2), y = floor(1.5)
        assertEquals(3, TextureUnit.sample(t, new long[] {f(7f), f(-2f)}, false)[0]); // clamped both ways
        assertEquals(0, TextureUnit.sample(t, new long[] {f(Float.NaN), f(0f)}, false)[0]);
        // an array of 1D textures: the second coordinate is the layer, rounded to even and clamped
        assertEquals(1, TextureUnit.sample(t, new long[] {f(0.3f), f(0.5f)}, true)[0]); // 0.5 rounds to even: layer 0
        assertEquals(11, TextureUnit.sample(t, new long[] {f(0.3f), f(0.6f)}, true)[0]);
        assertEquals(11, TextureUnit.sample(t, new long[] {f(0.3f), f(1.5f)}, true)[0]); // 2, clamped to 1
        assertEquals(1, TextureUnit.sample(t, new long[] {f(0.3f), f(-3f)}, true)[0]);
        assertEquals(1, TextureUnit.sample(t, new long[] {f(0.3f), f(Float.NaN)}, true)[0]);

        assertEquals(13, TextureUnit.fetch(t, new long[] {3, 1})[2]);
        assertArrayEquals(new long[4], TextureUnit.fetch(t, new long[] {4, 0})); // outside: zero
        assertArrayEquals(new long[4], TextureUnit.fetch(t, new long[] {0xffffffffL, 0})); // -1
        assertArrayEquals(new long[] {4, 2}, TextureUnit.size(t, 2));
    }

    @Test
    void imageTexelsAreSixteenBytesXFastest() {
        Texture t = grid();
        assertEquals(((1 * 4) + 2) * 16, TextureUnit.imageOffset(t, new long[] {2, 1}));
        assertEquals(-1, TextureUnit.imageOffset(t, new long[] {2, 2}));
        assertEquals(-1, TextureUnit.imageOffset(t, new long[] {0xfffffffeL, 0}));
    }
}
