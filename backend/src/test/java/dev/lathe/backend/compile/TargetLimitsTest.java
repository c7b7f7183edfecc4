package dev.lathe.backend.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.lathe.ir.text.IrParser;
import org.junit.jupiter.api.Test;

/** A declaration past the target's limits is named at its place in the IR text. */
class TargetLimitsTest {
    @Test
    void aBindingPastTheTargetsIsLocated() {
        String text = """
                shader compute workgroup_size(1, 1, 1)
                buffer f32 @x binding=0
                buffer f32 @y binding=32
                function main {
                    vec1 32 %z = load_const (0)
                    vec1 32 %v = load_buffer @y, %z
                    store_buffer @x, %z, %v
                }
                """;
        CompileException e = assertThrows(
                CompileException.class, () -> MachineCompiler.compile(IrParser.parse("binding32.ir", text)));
        assertEquals("binding32.ir:3:12: @y: binding 32 is past the target's 32 buffers", e.getMessage());
    }
}
