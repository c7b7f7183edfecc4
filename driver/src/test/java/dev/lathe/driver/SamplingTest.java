package dev.lathe.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.Texture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The sampling the frontend lowers (cube face selection, array layers, depth comparisons,
 * subgroups of one), run in the interpreter on GLSL compiled by glslang, against hand-worked
 * answers. Needs glslangValidator; skipped where it is missing.
 */
class SamplingTest {
    /** The frontend's IR of GLSL {@code source} compiled by glslang (the test is skipped without it). */
    static Shader glsl(String name, String source) throws IOException {
        assumeTrue(GlslBuildTest.glslang(), "glslangValidator is not installed (apt-get install glslang-tools)");
        Path dir = Files.createTempDirectory("lathe-sampling");
        Path f = dir.resolve(name);
        Files.writeString(f, source);
        return ShaderSources.load(f);
    }

    private static float red(Shader s, ShaderInputs in) {
        return Float.intBitsToFloat((int) new Interpreter(s).run(in).output("color")[0]);
    }

    private static long[] floats(float... xs) {
        long[] r = new long[xs.length];
        for (int i = 0; i < xs.length; i++) r[i] = Float.floatToRawIntBits(xs[i]) & 0xffffffffL;
        return r;
    }

    /** A texture whose texel k holds k in every component. */
    private static Texture numbered(int w, int h, int d) {
        float[] v = new float[w * h * d * 4];
        for (int i = 0; i < v.length; i++) v[i] = i / 4;
        return new Texture(w, h, d, floats(v));
    }

    @Test
    void cubeMapsPickTheFaceOfTheMajorAxis() throws IOException {
        Shader s = glsl("cube.frag", """
                #version 450
                layout(location = 0) in vec3 dir;
                layout(location = 0) out vec4 color;
                layout(binding = 0) uniform samplerCube sky;
                void main() { color = texture(sky, dir); }
                """);
        float[][] dirs = {
            {1, .2f, .3f},
            {-1, .2f, .3f},
            {.1f, 1, .3f},
            {.1f, -1, .3f},
            {.1f, .2f, 1},
            {.1f, .2f, -1},
            {1, 1, 1},
            {1, -1, .5f}
        };
        float[] faces = {0, 1, 2, 3, 4, 5, 4, 3}; // ties: z over y over x
        for (int k = 0; k < dirs.length; k++) {
            ShaderInputs in = new ShaderInputs().set("dir", floats(dirs[k])).setTexture("sky", numbered(1, 1, 6));
            assertEquals(faces[k], red(s, in), "direction " + Arrays.toString(dirs[k]));
        }
        // within +X, s runs along -z and t along -y: (1, 0.5, -0.5) is texel (1, 0) of a 2x2 face
        ShaderInputs in = new ShaderInputs().set("dir", floats(1, -0.5f, -0.5f)).setTexture("sky", numbered(2, 2, 6));
        assertEquals(3, red(s, in));
    }

    @Test
    void arrayLayersRoundToEvenAndClamp() throws IOException {
        Shader s = glsl("layers.frag", """
                #version 450
                layout(location = 0) in float layer;
                layout(location = 0) out vec4 color;
                layout(binding = 0) uniform sampler2DArray tex;
                void main() { color = texture(tex, vec3(0.5, 0.5, layer)); }
                """);
        float[] layers = {-1, 0.5f, 1.4f, 1.5f, 2.5f, 7};
        float[] want = {0, 0, 1, 2, 2, 3};
        for (int k = 0; k < layers.length; k++) {
            ShaderInputs in = new ShaderInputs().set("layer", floats(layers[k])).setTexture("tex", numbered(1, 1, 4));
            assertEquals(want[k], red(s, in), "layer " + layers[k]);
        }
    }

    @Test
    void depthComparisonsPassWhenTheReferenceIsAtMostTheTexel() throws IOException {
        Shader s = glsl("shadow.frag", """
                #version 450
                layout(location = 0) in float ref;
                layout(location = 0) out vec4 color;
                layout(binding = 0) uniform sampler2DShadow map;
                void main() { color = vec4(texture(map, vec3(0.5, 0.5, ref))); }
                """);
        Texture half = new Texture(1, 1, 1, floats(0.5f, 0, 0, 1));
        float[] refs = {0.4f, 0.5f, 0.6f, Float.NaN};
        float[] want = {1, 1, 0, 0};
        for (int k = 0; k < refs.length; k++) {
            assertEquals(
                    want[k],
                    red(s, new ShaderInputs().set("ref", floats(refs[k])).setTexture("map", half)),
                    "reference " + refs[k]);
        }
    }

    @Test
    void subgroupsHaveOneInvocation() throws IOException {
        Shader s = glsl("sub.frag", """
                #version 450
                #extension GL_KHR_shader_subgroup_ballot : require
                #extension GL_KHR_shader_subgroup_arithmetic : require
                layout(location = 0) in float x;
                layout(location = 0) out vec4 color;
                void main() {
                    uvec4 b = subgroupBallot(x > 0.0);
                    color = vec4(float(subgroupBallotBitCount(b)), float(gl_SubgroupSize) + float(gl_SubgroupInvocationID),
                                 subgroupAdd(x) + subgroupExclusiveMul(x), subgroupExclusiveMin(x));
                }
                """);
        long[] out = new Interpreter(s)
                .run(new ShaderInputs().set("x", floats(2.5f)))
                .output("color");
        assertEquals(1f, Float.intBitsToFloat((int) out[0]));
        assertEquals(1f, Float.intBitsToFloat((int) out[1]));
        assertEquals(3.5f, Float.intBitsToFloat((int) out[2])); // 2.5 + the product's identity 1
        assertEquals(Float.POSITIVE_INFINITY, Float.intBitsToFloat((int) out[3]));
    }
}
