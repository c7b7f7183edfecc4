package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * An index past an array of uniform blocks, or past an array in a uniform block, is undefined in
 * Vulkan (the interpreter reads zero there): the frontend notes such indices and the precision
 * model makes a run that takes one undecided (SaschaWillems' descriptorheap/cube.vert, whose
 * frameIndex -47 gave NaN on lavapipe). Needs glslangValidator; skipped where it is missing.
 */
class UndefinedIndexTest {
    @Test
    void anIndexPastAnArrayOfUniformBlocksIsUndecided() throws IOException {
        Shader s = DeviceDeviationsTest.shader("blocks.frag", """
                #version 450
                layout(push_constant) uniform P { int frame; int light; } pc;
                layout(binding = 0) uniform UBO { vec4 tint; vec4 lights[3]; } ubo[2];
                layout(location = 0) out vec4 color;
                void main() { color = ubo[pc.frame].tint + ubo[1].lights[pc.light]; }
                """);
        assertNull(run(s, 1, 2), "inside both arrays");
        assertNotNull(run(s, 2, 0), "past the array of blocks");
        assertNotNull(run(s, -47, 0), "a negative index");
        assertNotNull(run(s, 0, 3), "past the array in the block");
    }

    private static String run(Shader s, int frame, int light) {
        ShaderInputs in =
                new ShaderInputs().set("pc_frame", frame & 0xffffffffL).set("pc_light", light & 0xffffffffL);
        return new Interpreter(s)
                .trackNans()
                .track(PrecisionTracker.model(4))
                .run(in)
                .undecidedUnderNanContract();
    }
}
