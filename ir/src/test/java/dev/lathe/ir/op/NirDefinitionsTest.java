package dev.lathe.ir.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The ops nir_opcodes.py defines otherwise than Lathe's op table ({@link Op#nirDifference},
 * {@link Op#evaluateAsNir}): each differs where its words say, and only there.
 */
class NirDefinitionsTest {
    private static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xffffffffL;
    }

    @Test
    void nirAddsADotProductsTermsInPairs() {
        // 1e8 + 1 - 1e8 + 1: left to right the first 1 is lost to rounding, in pairs it is not
        long[] a = {f(1e8f), f(1f), f(-1e8f), f(1f)}, ones = {f(1), f(1), f(1), f(1)};
        long lathe = Op.FDOT4.evaluate(32, 1, new long[][] {a, ones})[0];
        long nir = Op.FDOT4.evaluateAsNir(32, 1, new long[][] {a, ones})[0];
        assertEquals(f(1f), lathe); // ((1e8 + 1) - 1e8) + 1: 1e8 + 1 rounds to 1e8
        assertEquals(f(0f), nir); // (1 + -1e8) + (1 + 1e8): each pair rounds to -1e8 and 1e8
        // fdot3 as (z + y) + x
        long[] b = {f(1f), f(1e8f), f(-1e8f)};
        assertEquals(f(1f), Op.FDOT3.evaluateAsNir(32, 1, new long[][] {b, new long[] {f(1), f(1), f(1)}})[0]);
        assertNotEquals(null, Op.FDOT4.nirDifference());
        // the replicated form agrees with its scalar one in every component
        long[] rep = Op.FDOT4_REPLICATED.evaluateAsNir(32, 4, new long[][] {a, ones});
        for (long c : rep) assertEquals(nir, c);
    }

    @Test
    void aFieldPastTheTopBitIsZeroInNir() {
        long base = 0xffffffffL;
        // offset 31, 2 bits: Lathe clips to bit 31, NIR gives 0 (GLSL leaves it undefined)
        assertEquals(1, Op.UBITFIELD_EXTRACT.evaluate(32, 1, new long[][] {{base}, {31}, {2}})[0]);
        assertEquals(0, Op.UBITFIELD_EXTRACT.evaluateAsNir(32, 1, new long[][] {{base}, {31}, {2}})[0]);
        assertEquals(0, Op.IBITFIELD_EXTRACT.evaluateAsNir(32, 1, new long[][] {{base}, {31}, {2}})[0]);
        // a negative count, too
        assertEquals(0, Op.UBITFIELD_EXTRACT.evaluateAsNir(32, 1, new long[][] {{base}, {1}, {0xffffffffL}})[0]);
        assertEquals(0, Op.BITFIELD_INSERT.evaluateAsNir(32, 1, new long[][] {{5}, {1}, {31}, {2}})[0]);
        // inside the word both agree
        for (long[] in : new long[][] {{0xabcd1234L, 4, 8}, {0x80000000L, 31, 1}, {0x1234L, 0, 32}}) {
            long[][] s = {{in[0]}, {in[1]}, {in[2]}};
            assertEquals(
                    Op.UBITFIELD_EXTRACT.evaluate(32, 1, s)[0],
                    Op.UBITFIELD_EXTRACT.evaluateAsNir(32, 1, s)[0]);
            assertEquals(
                    Op.IBITFIELD_EXTRACT.evaluate(32, 1, s)[0],
                    Op.IBITFIELD_EXTRACT.evaluateAsNir(32, 1, s)[0]);
        }
        // NIR has them at 32 bits only
        assertTrue(Op.UBITFIELD_EXTRACT.inNirAt(32));
        assertFalse(Op.UBITFIELD_EXTRACT.inNirAt(64));
        assertTrue(Op.IADD.inNirAt(64));
    }

    @Test
    void nirLeavesSomeOperandsUndefined() {
        assertTrue(Op.F2I32.nirUndefined(32, new long[][] {{f(3e9f)}}).contains("outside its range"));
        assertTrue(Op.F2U32.nirUndefined(32, new long[][] {{f(Float.NaN)}}).contains("of a NaN"));
        assertNull(Op.F2I32.nirUndefined(32, new long[][] {{f(-2147483648f)}}));
        assertTrue(Op.F2U8.nirUndefined(32, new long[][] {{f(-1f)}}) != null);
        assertNull(Op.F2U8.nirUndefined(32, new long[][] {{f(-0.5f)}})); // truncates to 0
        assertTrue(Op.UDIV_ALIGNED_4.nirUndefined(32, new long[][] {{6}}) != null);
        assertNull(Op.UDIV_ALIGNED_4.nirUndefined(32, new long[][] {{8}}));
        assertTrue(Op.IMUL24_RELAXED.nirUndefined(32, new long[][] {{1L << 23}, {1}}) != null);
        assertNull(Op.IMUL24_RELAXED.nirUndefined(32, new long[][] {{0xff800000L}, {1}})); // -2^23 fits
        assertTrue(Op.PACK_SNORM_2X16
                .nirUndefined(0, new long[][] {{f(Float.NaN), f(0)}})
                .contains("of a NaN"));
        assertNull(Op.PACK_SNORM_2X16.nirUndefined(0, new long[][] {{f(1), f(0)}}));
        assertNull(Op.FADD.nirUndefined(32, new long[][] {{f(1)}, {f(2)}}));
        // NIR's ifind_msb and uclz read 32 bits only
        assertFalse(Op.IFIND_MSB.inNirAt(8));
        assertFalse(Op.UCLZ.inNirAt(16));
    }

    @Test
    void nirsImadshMix16FoldsToItsThirdOperand() {
        long[][] s = {{0x0003}, {0x00050000L}, {7}};
        assertEquals((15L << 16) + 7, Op.IMADSH_MIX16.evaluate(32, 1, s)[0]);
        assertEquals(7, Op.IMADSH_MIX16.evaluateAsNir(32, 1, s)[0]);
    }

    @Test
    void otherOpsAreNirsAlready() {
        assertNull(Op.FADD.nirDifference());
        assertNull(Op.FDOT2.nirDifference()); // y*y + x*x is x*x + y*y: an add is commutative
        long[][] s = {{f(1.5f)}, {f(2.25f)}};
        assertEquals(Op.FADD.evaluate(32, 1, s)[0], Op.FADD.evaluateAsNir(32, 1, s)[0]);
    }
}
