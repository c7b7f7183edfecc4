package dev.lathe.ir.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * NIR's horizontal ops that Lathe's own did not cover (nir_opcodes.py's definitions): the wider
 * all/any comparisons, the float-valued ones, fdot8/16, fsumN and the uvec packs.
 */
class NirHorizontalOpsTest {
    private static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xffffffffL;
    }

    private static long eval(Op op, int bits, long[]... srcs) {
        return op.evaluate(bits, 1, srcs)[0];
    }

    @Test
    void floatValuedComparisonsGiveOneOrZero() {
        long[] a = {f(1), f(2)}, b = {f(1), f(2)}, c = {f(1), f(3)};
        assertEquals(f(1), eval(Op.FALL_EQUAL2, 0, a, b));
        assertEquals(0, eval(Op.FALL_EQUAL2, 0, a, c));
        assertEquals(0, eval(Op.FANY_NEQUAL2, 0, a, b));
        assertEquals(f(1), eval(Op.FANY_NEQUAL2, 0, a, c));
        long nan = f(Float.NaN);
        // a NaN compares unequal: not all equal, some not equal
        assertEquals(0, eval(Op.FALL_EQUAL2, 0, new long[] {nan, f(2)}, new long[] {nan, f(2)}));
        assertEquals(f(1), eval(Op.FANY_NEQUAL2, 0, new long[] {nan, f(2)}, new long[] {nan, f(2)}));
        // the boolean forms, as NIR names them
        assertEquals(1, eval(Op.BALL_FEQUAL2, 32, a, b));
        assertEquals(1, eval(Op.BANY_FNEQUAL2, 32, a, c));
    }

    @Test
    void wideComparisonsReadEveryComponent() {
        long[] x = new long[16], y = new long[16];
        for (int i = 0; i < 16; i++) x[i] = y[i] = i * 7L;
        assertEquals(1, eval(Op.BALL_IEQUAL16, 32, x, y));
        y[15] = 1;
        assertEquals(0, eval(Op.BALL_IEQUAL16, 32, x, y));
        assertEquals(1, eval(Op.BANY_INEQUAL16, 32, x, y));
        long[] p = {1, 2, 3, 4, 5, 6, 7, 8}, q = {1, 2, 3, 4, 5, 6, 7, 9};
        assertEquals(0, eval(Op.BALL_IEQUAL8, 32, p, q));
        assertEquals(1, eval(Op.BANY_INEQUAL8, 32, p, q));
    }

    @Test
    void dotsAndSumsAddLeftToRight() {
        long[] ones = new long[8], twos = new long[8];
        for (int i = 0; i < 8; i++) {
            ones[i] = f(1);
            twos[i] = f(2);
        }
        assertEquals(f(16), eval(Op.FDOT8, 32, ones, twos));
        // left to right: (1e8 + 1) - 1e8 loses the 1 in float, where pairing (1 - 1e8) + 1e8 would not
        assertEquals(f(0), eval(Op.FSUM3, 32, new long[] {f(1e8f), f(1), f(-1e8f)}));
        assertEquals(f(3), eval(Op.FSUM2, 32, new long[] {f(1), f(2)}));
        assertEquals(f(10), eval(Op.FSUM4, 32, new long[] {f(1), f(2), f(3), f(4)}));
    }

    @Test
    void uvecPacksAsNirDefinesThem() {
        // pack_uint_2x16 clamps, pack_uvec2_to_uint masks x only, pack_uvec4_to_uint masks nothing
        assertEquals(0xffff_1234L, eval(Op.PACK_UINT_2X16, 0, new long[] {0x1234, 0x12345}));
        assertEquals(0x2345_1234L, eval(Op.PACK_UVEC2_TO_UINT, 0, new long[] {0x11234, 0x12345}));
        assertEquals(0x0403_0201L, eval(Op.PACK_UVEC4_TO_UINT, 0, new long[] {1, 2, 3, 4}));
        assertEquals(0x0403_02ffL | 0x100, eval(Op.PACK_UVEC4_TO_UINT, 0, new long[] {0x1ff, 2, 3, 4}));
        assertArrayEquals(new long[] {0x0000_0001L}, Op.PACK_UVEC2_TO_UINT.evaluate(0, 1, new long[][] {{1, 0}}));
    }

    @Test
    void replicatedDotProductsFillEveryComponent() {
        long[] a = {f(1), f(2), f(3)}, b = {f(4), f(5), f(6), f(7)};
        // 1*4 + 2*5 + 3*6 = 32; fdph adds b.w: 39
        assertArrayEquals(new long[] {f(32), f(32), f(32), f(32)}, Op.FDOT3_REPLICATED.evaluate(32, 4, new long[][] {
            a, new long[] {f(4), f(5), f(6)}
        }));
        assertArrayEquals(
                new long[] {f(39), f(39), f(39), f(39)}, Op.FDPH_REPLICATED.evaluate(32, 4, new long[][] {a, b}));
        assertEquals(4, Op.FDOT2_REPLICATED.output().components());
    }
}
