package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.driver.Compiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A run-time sized array of uniform blocks (descriptor indexing) compiles: the frontend gives it
 * eight blocks, an index past them is undecided for the Vulkan model, and the binary agrees with
 * the interpreter. Needs glslangValidator; skipped where it is missing.
 */
class RunTimeUniformBlocksTest {
    @Test
    void aRunTimeSizedArrayOfUniformBlocksCompilesAndRuns() throws IOException {
        Shader s = DeviceDeviationsTest.shader("blocks.frag", """
                #version 450
                #extension GL_EXT_nonuniform_qualifier : require
                layout(binding = 0) uniform Material { vec4 tint; float gain; } materials[];
                layout(location = 0) flat in int k;
                layout(location = 0) out vec4 color;
                void main() { color = materials[nonuniformEXT(k)].tint * materials[nonuniformEXT(k)].gain; }
                """);
        long[] tints = new long[8 * 4], gains = new long[8];
        for (int b = 0; b < 8; b++) {
            for (int c = 0; c < 4; c++) tints[4 * b + c] = Float.floatToRawIntBits(b + c / 4f) & 0xffffffffL;
            gains[b] = Float.floatToRawIntBits(2f) & 0xffffffffL;
        }
        ShaderInputs in =
                new ShaderInputs().set("k", 5).set("materials_tint", tints).set("materials_gain", gains);
        ShaderOutputs out = new Interpreter(s).run(in);
        assertEquals(Float.floatToRawIntBits(11f) & 0xffffffffL, out.output("color")[2]);
        assertNull(new Interpreter(s)
                .trackNans()
                .track(PrecisionTracker.model(4))
                .run(in)
                .undecidedUnderNanContract());
        ShaderInputs past =
                new ShaderInputs().set("k", 8).set("materials_tint", tints).set("materials_gain", gains);
        assertNotNull(new Interpreter(s)
                .trackNans()
                .track(PrecisionTracker.model(4))
                .run(past)
                .undecidedUnderNanContract());
        Compiler.Result r = Compiler.compile(s, Compiler.Options.verifying());
        for (long k = 0; k < 10; k++) {
            ShaderInputs any =
                    new ShaderInputs().set("k", k).set("materials_tint", tints).set("materials_gain", gains);
            assertTrue(
                    new Interpreter(r.machine().optimized())
                            .run(any)
                            .sameAs(new dev.lathe.backend.sim.Simulator(
                                            r.machine().program())
                                    .run(any)
                                    .outputs()),
                    "the binary agrees with the interpreter for k = " + k);
        }
    }
}
