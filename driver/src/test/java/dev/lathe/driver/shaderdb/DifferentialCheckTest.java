package dev.lathe.driver.shaderdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.text.IrParser;
import org.junit.jupiter.api.Test;

/**
 * The differential check skips (and counts) input sets on which the reference itself fails —
 * here a barrier that random inputs make divergent, the shader's own undefined behaviour — and
 * fails only when nothing could be compared.
 */
class DifferentialCheckTest {
    /** The barrier is reached by the invocations whose index is below {@code u & 7}: divergent for 1 to 3 of 4. */
    static final String SOMETIMES_DIVERGENT = """
            shader compute workgroup_size(4, 1, 1)
            uniform u32 @u
            buffer u32 @out binding=0
            function main {
                vec1 32 %i = load_local_invocation_index
                vec1 32 %u = load_uniform @u
                vec1 32 %seven = load_const (7)
                vec1 32 %k = iand %u, %seven
                vec1 1 %in = ult %i, %k
              if %in {
                  barrier
              } else {
              }
                vec1 32 %four = load_const (4)
                vec1 32 %at = imul %i, %four
                store_buffer @out, %at, %k
            }
            """;

    static final String ALWAYS_DIVERGENT = """
            shader compute workgroup_size(4, 1, 1)
            function main {
                vec1 32 %i = load_local_invocation_index
                vec1 32 %zero = load_const (0)
                vec1 1 %first = ieq %i, %zero
              if %first {
                  barrier
              } else {
              }
            }
            """;

    @Test
    void inputSetsTheReferenceFailsOnAreSkippedAndCounted() {
        DifferentialCheck.Outcome o =
                DifferentialCheck.run(IrParser.parse("sometimes.ir", SOMETIMES_DIVERGENT), null, 32);
        assertNull(o.difference(), o::summary);
        assertTrue(o.skipped() > 0 && o.compared() > 0, o::summary);
        assertEquals(32, o.skipped() + o.compared());
        assertTrue(
                o.summary().startsWith(o.compared() + " of 32 input sets compared (" + o.skipped() + " skipped"),
                o.summary());
        assertTrue(o.summary().contains("barrier"), o.summary());
    }

    /**
     * fmul(fneg(a), NaN) becomes fneg(fmul(a, NaN)) (rule fmul_fneg): 0x7fc00000 before, 0xffc00000
     * after. Both are NaNs a float operation made, which the NaN contract lets be any NaN.
     */
    static final String NAN_SIGN = """
            shader fragment
            input f32 @a location=0
            output f32 @o location=0
            function main {
                vec1 32 %a = load_input @a
                vec1 32 %n = fneg %a
                vec1 32 %k = load_const (nan)
                vec1 32 %r = fmul %n, %k
                store_output @o, %r
            }
            """;

    @Test
    void aNanOfAnotherSignKeepsTheContract() {
        DifferentialCheck.Outcome o = DifferentialCheck.run(IrParser.parse("nan.ir", NAN_SIGN), null, 16);
        assertNull(o.difference(), o::summary);
        assertEquals(16, o.compared(), o::summary);
    }

    @Test
    void nothingComparedIsAFailure() {
        DifferentialCheck.Outcome o = DifferentialCheck.run(IrParser.parse("always.ir", ALWAYS_DIVERGENT), null, 8);
        assertNotNull(o.difference());
        assertTrue(o.difference().startsWith("no input set was compared"), o.difference());
        assertTrue(o.weak());
        assertEquals(0, o.compared());
    }
}
