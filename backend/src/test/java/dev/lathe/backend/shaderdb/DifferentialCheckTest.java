package dev.lathe.backend.shaderdb;

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
        DifferentialCheck.Outcome o = DifferentialCheck.run(IrParser.parse("sometimes.ir", SOMETIMES_DIVERGENT), null, 32);
        assertNull(o.difference(), o::summary);
        assertTrue(o.skipped() > 0 && o.compared() > 0, o::summary);
        assertEquals(32, o.skipped() + o.compared());
        assertTrue(o.summary().startsWith(o.compared() + " of 32 input sets compared (" + o.skipped() + " skipped"), o.summary());
        assertTrue(o.summary().contains("barrier"), o.summary());
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
