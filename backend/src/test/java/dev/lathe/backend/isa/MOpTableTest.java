package dev.lathe.backend.isa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.Variable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memory columns of the machine op table: every memory instruction says what it does and where, and nothing else does. */
class MOpTableTest {
    @Test
    void exactlyTheMemoryInstructionsHaveAnAccessAndASpace() {
        for (MOp op : MOp.values()) {
            boolean memory = op.category() == 6;
            assertEquals(memory, op.access() != MOp.MemoryAccess.NONE, op + ": access " + op.access());
            assertEquals(memory, op.space() != MOp.Space.NONE, op + ": space " + op.space());
            // the mnemonic says it too: ld…, st…, atomic.…
            String prefix = switch (op.access()) {
                case LOAD -> "ld";
                case STORE -> "st";
                case ATOMIC -> "atomic.";
                case NONE -> "";
            };
            assertTrue(op.base().startsWith(prefix), op + " (" + op.base() + ") is a " + op.access());
        }
    }

    @Test
    void everyAtomicHasOneInstructionPerMemoryAndComputesItsOp() {
        for (Variable.Kind memory : List.of(Variable.Kind.BUFFER, Variable.Kind.SHARED, Variable.Kind.IMAGE)) {
            for (AtomicOp op : AtomicOp.values()) {
                MOp m = MOp.atomic(op, memory);
                assertTrue(m.isAtomic(), m.toString());
                assertEquals(memory == Variable.Kind.IMAGE, m.isImageAtomic(), m.toString());
                assertEquals(memory == Variable.Kind.SHARED, m.isSharedAtomic(), m.toString());
                assertEquals(op, m.atomicOp(MOp.atomicType(op)), op + " on " + memory + " as " + m);
            }
        }
    }
}
