package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.interp.Texture;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reproducers of the device's own deviations from the Vulkan specification that the corpora's
 * disagreements come down to (vulkan/README.md and scripts/sascha-known.txt list them). Each
 * asserts what the specification says, from the interpreter, and what lavapipe does instead: a
 * lavapipe that is fixed fails here, and its entries come off the lists. Needs glslangValidator.
 */
class DeviceDeviationsTest extends LavapipeTest {
    static byte[] glsl(String name, String source) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("lathe-deviation");
        Path f = dir.resolve(name), out = dir.resolve(name + ".spv");
        Files.writeString(f, source);
        Process p;
        try {
            p = new ProcessBuilder("glslangValidator", "-V", "--quiet", "-o", out.toString(), f.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            assumeTrue(false, "glslangValidator is not installed (apt-get install glslang-tools)");
            throw e;
        }
        p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor(), "glslangValidator failed on " + name);
        return Files.readAllBytes(out);
    }

    /** {@link #glsl} read into IR by the SPIR-V frontend. */
    static dev.lathe.ir.Shader shader(String name, String source) throws IOException {
        try {
            return dev.lathe.spirv.SpirvFrontend.read(name, glsl(name, source));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while glslangValidator ran on " + name, e);
        }
    }

    static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xffffffffL;
    }

    /**
     * SaschaWillems' shadowmappingcascade/debugshadowmap.frag samples a sampler2DArray at layer
     * float(flatUint). Vulkan ("Texel Coordinate Systems", array layer selection): the layer is
     * clamp(RNE(layer), 0, layers − 1), so 4294967273.0 takes the last layer. lavapipe takes
     * another: its float-to-integer conversion of the layer overflows past 2^31 (cube arrays:
     * cube_array.frag near −2^31). A layer of 10^6 is clamped right.
     */
    @Test
    void lavapipeMisclampsAnArrayLayerPastTwoToThe31() throws IOException, InterruptedException {
        byte[] spirv = glsl("layer.frag", """
                #version 450
                layout(binding = 0) uniform sampler2DArray layers;
                layout(location = 0) flat in uint layer;
                layout(location = 0) out vec4 color;
                void main() { color = texture(layers, vec3(0.5, 0.5, float(layer))); }
                """);
        Shader shader = SpirvFrontend.read("layer.frag", spirv);
        for (long layer : new long[] {1_000_000L, 0xffffffe9L}) {
            ShaderInputs in = new ShaderInputs()
                    .set("layer", layer)
                    .setTexture(
                            "layers",
                            new Texture(1, 1, 2, new long[] {f(10), f(10), f(10), f(10), f(20), f(20), f(20), f(20)}));
            ShaderOutputs spec = new Interpreter(shader).run(in);
            assertEquals(f(20), spec.output("color")[0], "the last layer, as Vulkan clamps");
            List<ShaderOutputs> device = GraphicsRun.fragment(vk, spirv, in);
            long got = device.get(0).output("color")[0];
            if (layer == 1_000_000L) assertEquals(f(20), got, "lavapipe clamps a layer of 10^6 right");
            else
                assertEquals(
                        f(10),
                        got,
                        "lavapipe took the last layer for 4294967273.0: fixed? take debugshadowmap.frag off the lists");
        }
    }

    /**
     * Vulkan ("Wrapping Operation", CLAMP_TO_EDGE): the texel index is clamp(floor(u · width), 0,
     * width − 1), so any u past 1 takes the last texel. lavapipe takes the first for u = 3·10^9 on
     * a 2-texel texture (u · width past 2^31: the conversion overflows), and is right at 10^9.
     * The oracle's random coordinates rarely go that far; a disagreement that does is lavapipe's.
     */
    @Test
    void lavapipeWrapsAHugeCoordinateToTheFirstTexel() throws IOException, InterruptedException {
        byte[] spirv = glsl("coordinate.frag", """
                #version 450
                layout(binding = 0) uniform sampler2D t;
                layout(location = 0) flat in vec2 uv;
                layout(location = 0) out vec4 color;
                void main() { color = texture(t, uv); }
                """);
        Shader shader = SpirvFrontend.read("coordinate.frag", spirv);
        for (float u : new float[] {1e9f, 3e9f}) {
            ShaderInputs in = new ShaderInputs()
                    .set("uv", f(u), f(0.25f))
                    .setTexture("t", new Texture(2, 1, 1, new long[] {f(10), 0, 0, 0, f(20), 0, 0, 0}));
            assertEquals(f(20), new Interpreter(shader).run(in).output("color")[0], "the last texel, as Vulkan clamps");
            long got = GraphicsRun.fragment(vk, spirv, in).get(0).output("color")[0];
            if (u == 1e9f) assertEquals(f(20), got, "lavapipe clamps u = 10^9 right");
            else
                assertEquals(f(10), got, "lavapipe took the last texel for u = 3e9: fixed? say so in vulkan/README.md");
        }
    }

    /**
     * SPIR-V's OpFAdd is correctly rounded (Vulkan, "Precision and Operation of SPIR-V
     * Instructions"), so {@code 1.0 + (a + b)} with a = b = 2^-24 is 1 + 2^-23. lavapipe gives
     * 1.0: it adds the constant first, {@code (1.0 + a) + b}, a reassociation Vulkan does not allow
     * (a sum whose third operand is not a constant is right). SaschaWillems' offscreen/mirror.frag
     * adds 49 texels / 49 to an output whose alpha starts at 1.0 and meets it.
     */
    @Test
    void lavapipeReassociatesAConstantIntoASum() throws IOException, InterruptedException {
        byte[] spirv = glsl("sum.frag", """
                #version 450
                layout(location = 0) flat in vec4 v;
                layout(location = 0) out vec4 color;
                void main() { color = vec4(1.0 + (v.x + v.y), v.z + (v.x + v.y), 0.0, 0.0); }
                """);
        Shader shader = SpirvFrontend.read("sum.frag", spirv);
        float t = 0x1p-24f;
        ShaderInputs in = new ShaderInputs().set("v", f(t), f(t), f(1f), 0);
        long right = f(1f + 2 * t);
        long[] spec = new Interpreter(shader).run(in).output("color");
        assertEquals(right, spec[0]);
        assertEquals(right, spec[1]);
        long[] device = GraphicsRun.fragment(vk, spirv, in).get(0).output("color");
        assertEquals(right, device[1], "lavapipe adds three inputs in order");
        assertEquals(f(1f), device[0], "lavapipe added 1.0 + (a + b) in order: fixed? take mirror.frag off the lists");
    }

    /**
     * The same for a cube map array (examples/shaders/cube_array.frag, SaschaWillems'
     * texturecubemaparray samples): a cube index of −1818985312 is clamped to cube 0 by Vulkan;
     * lavapipe samples the last cube (6 × layer overflows 32 bits, it seems). −10^7 is right.
     */
    @Test
    void lavapipeMisclampsACubeArrayLayerNearMinusTwoToThe31() throws IOException, InterruptedException {
        byte[] spirv = glsl("cubes.frag", """
                #version 450
                layout(binding = 0) uniform samplerCubeArray cubes;
                layout(location = 0) flat in int cube;
                layout(location = 0) out vec4 color;
                void main() { color = texture(cubes, vec4(1.0, 0.25, 0.25, float(cube))); }
                """);
        Shader shader = SpirvFrontend.read("cubes.frag", spirv);
        long[] texels = new long[4 * 12];
        for (int k = 0; k < 12; k++) for (int c = 0; c < 4; c++) texels[4 * k + c] = f(k < 6 ? 10 : 20);
        for (int cube : new int[] {-10_000_000, -1_818_985_312}) {
            ShaderInputs in = new ShaderInputs()
                    .set("cube", cube & 0xffffffffL)
                    .setTexture("cubes", new Texture(1, 1, 12, texels));
            assertEquals(f(10), new Interpreter(shader).run(in).output("color")[0], "the first cube, as Vulkan clamps");
            long got = GraphicsRun.fragment(vk, spirv, in).get(0).output("color")[0];
            if (cube == -10_000_000) assertEquals(f(10), got, "lavapipe clamps -10^7 right");
            else
                assertEquals(
                        f(20),
                        got,
                        "lavapipe took the first cube for -1818985312: fixed? take the cube array shaders off the lists");
        }
    }
}
