package dev.lathe.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Specialization constants at their defaults, in array lengths built by OpSpecConstantOp. */
class SpecConstantTest {
    @Test
    void arrayLengthsFromSpecConstantExpressions() throws IOException {
        assumeTrue(GlslBuildTest.glslang(), "glslangValidator is not installed (apt-get install glslang-tools)");
        Path f = Files.createTempDirectory("lathe-spec").resolve("spec.comp");
        Files.writeString(f, """
                #version 450
                layout(constant_id = 0) const int TILE = 16;
                layout(constant_id = 1) const int RADIUS = 3;
                layout(constant_id = 2) const uint SHIFT = 2u;
                layout(local_size_x = 16) in;
                shared float tile[TILE + 2 * RADIUS];
                shared uint bins[(TILE << SHIFT) / 3 - (RADIUS > 2 ? 1 : 0)];
                layout(std430, binding = 0) buffer B { float v[]; };
                void main() {
                    uint i = gl_LocalInvocationID.x;
                    tile[i] = v[i];
                    bins[i] = uint(i);
                    barrier();
                    v[i] = tile[i + 3u] + float(bins[i]);
                }
                """);
        Shader s = ShaderSources.load(f);
        Variable tile = s.variable("tile"), bins = s.variable("bins");
        assertEquals(22, tile.arrayLength());
        assertEquals((16 << 2) / 3 - 1, bins.arrayLength());
    }
}
