package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.sim.Simulator;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.RunValues;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The features public Vulkan shaders use, each on its example shader with values worked out by
 * hand (not by Lathe): the interpreter on the shader read from its committed SPIR-V, and the
 * simulator on the compiled binary, must both print the expected line.
 */
class SpirvFeaturesTest {
    /** A shader, the run's inputs in the command line's syntax, and a line the run must print. */
    record Case(String shader, List<String> inputs, String expected) {
        @Override
        public String toString() {
            return shader + " " + inputs;
        }
    }

    static final String TRIANGLE = "scene=-1,-1,5,3,-1,5,-1,3,5";

    static List<Case> cases() {
        return List.of(
                // 2 samples of one texel: the resolve averages them, mode 2 shows sample 1's alpha
                new Case(
                        "ms_resolve.frag",
                        List.of(
                                "texture positions=1x1x2:0,0,0,1,0,0,0,1",
                                "texture albedo=1x1x2:1,2,3,4,3,4,5,6",
                                "input uv=0.5,0.5",
                                "input view_light=0,0,5",
                                "input view_mode=0"),
                        "@color = vec4 f32 (2.0, 3.0, 4.0, 1.0)"),
                new Case(
                        "ms_resolve.frag",
                        List.of("texture albedo=1x1x2:1,2,3,4,3,4,5,6", "input uv=0.5,0.5", "input view_mode=2"),
                        "@color = vec4 f32 (6.0, 6.0, 6.0, 6.0)"),
                // the attachments' texels at x = 1: (0.5, 0.25, 1) lit fully, material 2 adds 0.5
                new Case(
                        "subpass_compose.frag",
                        List.of(
                                "frag-coord 1.5,0.5,0,1",
                                "texture albedo=2x1:9,9,9,9,0.5,0.25,1,1",
                                "texture normal_depth=2x1:0,0,1,0.7,0,0,1,0.3",
                                "texture material=2x1:0,0,0,0,2,0,0,0",
                                "input lighting_light_dir=0,0,-1,0",
                                "input lighting_show=0"),
                        "@color = vec4 f32 (1.0, 0.75, 1.5, 1.0)"),
                // two cubes of faces 0..11 holding their face number: +X of cube 1 is face 6
                new Case(
                        "cube_array.frag",
                        List.of(
                                "texture environments=1x1x12:" + faces(12),
                                "input view_dir=1,0,0",
                                "input world_normal=0,1,0",
                                "input scene_sky=1",
                                "input scene_probe=1",
                                "input scene_lod_bias=0"),
                        "@color = vec4 f32 (6.0, 6.0, 6.0, 6.002)"),
                // −Z of cube 0 (5) and of cube 1 (11: layer 7 clamps to 1), mixed half and half
                new Case(
                        "cube_array.frag",
                        List.of(
                                "texture environments=1x1x12:" + faces(12),
                                "input view_dir=0,0,-1",
                                "input world_normal=0,1,0",
                                "input scene_sky=0",
                                "input scene_probe=7",
                                "input scene_lod_bias=0"),
                        "@color = vec4 f32 (8.0, 8.0, 8.0, 8.002)"),
                // a triangle at z = 5 over the origin: shadowed; the nearest hit at t = 5, (u, v) = (¼, ¼), back-facing
                new Case(
                        "ray_query_shadow.frag",
                        List.of(
                                "buffer " + TRIANGLE,
                                "input world_pos=0,0,0",
                                "input normal=0,0,1",
                                "input albedo=1,1,1",
                                "input light_position=0,0,10",
                                "input light_strength=1"),
                        "@color = vec4 f32 (0.1, 0.1, 0.1, 1.0)"),
                new Case(
                        "ray_query_shadow.frag",
                        List.of(
                                "buffer " + TRIANGLE,
                                "input world_pos=0,0,0",
                                "input normal=0,0,1",
                                "input albedo=1,1,1",
                                "input light_position=0,0,10",
                                "input light_strength=1"),
                        "@occluder = vec4 f32 (5.0, 0.25, 0.25, 0.0)"),
                // a farther triangle first, then the same one wound the other way: primitive 1, front-facing
                new Case(
                        "ray_query_shadow.frag",
                        List.of(
                                "buffer scene=-1,-1,7,3,-1,7,-1,3,7,-1,-1,5,-1,3,5,3,-1,5",
                                "input world_pos=0,0,0",
                                "input normal=0,0,1",
                                "input light_position=0,0,10",
                                "input light_strength=1"),
                        "@occluder = vec4 f32 (5.0, 0.25, 0.25, 1.5)"),
                // the light in front of the triangle: lit
                new Case(
                        "ray_query_shadow.frag",
                        List.of(
                                "buffer " + TRIANGLE,
                                "input world_pos=0,0,0",
                                "input normal=0,0,1",
                                "input albedo=1,1,1",
                                "input light_position=0,0,4",
                                "input light_strength=1"),
                        "@color = vec4 f32 (1.0, 1.0, 1.0, 1.0)"),
                // nodes (1,2,3)·2 → (10,20,30)·0.5 → null: invocation 1 sums 2·2 + 0.5·20 = 14 into out[1]
                new Case(
                        "buffer_reference.comp",
                        List.of(
                                "invocation 1,0,0",
                                "input roots_first=0x100000000",
                                "input roots_out_values=0x100000040",
                                "input roots_steps=4",
                                "device-memory f32:1,2,3,2,0,0,10,20,30,0.5,0,0,0,0,0,0,0,0,0,0",
                                "patch-word 4=0x18",
                                "patch-word 5=1"),
                        "device memory = u32[20] (1065353216, 1073741824, 1077936128, 1073741824, 24, 1, 1092616192, 1101004800, 1106247680, "
                                + "1056964608, 0, 0, 0, 0, 0, 0, 0, 1096810496, 0, 0)"),
                // texture 5 and material 2 of the run-time sized arrays, material 0's gloss added
                new Case(
                        "descriptor_indexing.frag",
                        List.of(
                                "input uv=0.5,0.5",
                                "input texture_index=5",
                                "input material_index=2",
                                "texture textures[5]=1x1:1,2,3,4",
                                "texture textures[0]=1x1:9,9,9,9",
                                "buffer materials_2=0.5,0.5,2,1,0",
                                "buffer materials_0=0,0,0,0,0.25"),
                        "@color = vec4 f32 (0.75, 1.25, 6.25, 4.25)"),
                // an index past the 32 texture slots' array reads its last element (the simulator: t0 plus a clamped
                // index)
                new Case(
                        "descriptor_indexing.frag",
                        List.of(
                                "input uv=0.5,0.5",
                                "input texture_index=40",
                                "input material_index=2",
                                "texture textures[31]=1x1:1,2,3,4",
                                "texture textures[0]=1x1:9,9,9,9",
                                "buffer materials_2=0.5,0.5,2,1,0",
                                "buffer materials_0=0,0,0,0,0.25"),
                        "@color = vec4 f32 (0.75, 1.25, 6.25, 4.25)"),
                // gl_ViewIndex 1 picks the second eye's matrices (all zero here) and eye = 1
                new Case(
                        "multiview.vert",
                        List.of("input gl_ViewIndex=1", "input position=1,2,3", "input normal=0,0,1"),
                        "@eye = f32 (1.0)"),
                // outside the round sprite: discarded
                new Case("point_sprite.frag", List.of("input gl_PointCoord=0.95,0.95"), "discarded"),
                // a 2x2 rate: h = v = 2, tint (0.5, 0.5, 0.25) mixed half with the albedo
                new Case(
                        "shading_rate.frag",
                        List.of("input gl_ShadingRateEXT=5", "input albedo=1,1,1"),
                        "@color = vec4 f32 (0.75, 0.75, 0.625, 1.0)"),
                // a resident texel: the fetched texel (texel 3,4 of 4x8, value 2) mixed a quarter into the sample (1)
                new Case(
                        "sparse_residency.frag",
                        List.of("texture detail=4x8:" + sparseTexture(), "input uv=0.1,0.1", "input bias=0"),
                        "@color = vec4 f32 (1.25, 1.25, 1.25, 1.25)"));
    }

    /** Texels holding their own index (four equal components each). */
    static String faces(int n) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < n; k++)
            sb.append(k == 0 ? "" : ",")
                    .append(k)
                    .append(',')
                    .append(k)
                    .append(',')
                    .append(k)
                    .append(',')
                    .append(k);
        return sb.toString();
    }

    /** 4x8 texels of 1.0, but texel (3, 4) is 2.0. */
    static String sparseTexture() {
        StringBuilder sb = new StringBuilder();
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 4; x++) {
                String v = x == 3 && y == 4 ? "2" : "1";
                sb.append(sb.length() == 0 ? "" : ",")
                        .append(v)
                        .append(',')
                        .append(v)
                        .append(',')
                        .append(v)
                        .append(',')
                        .append(v);
            }
        }
        return sb.toString();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void interpreterAndSimulatorGiveTheHandWorkedValues(Case c) throws IOException {
        Path f = ExamplesTest.root().resolve("examples/shaders/" + c.shader() + ".spv");
        Shader s = SpirvFrontend.read(f.toString(), Files.readAllBytes(f));
        ShaderInputs in = inputs(s, c.inputs());
        String interpreted = RunValues.format(s, new Interpreter(s).run(in), false);
        assertTrue(interpreted.lines().anyMatch(c.expected()::equals), () -> "interpreter:\n" + interpreted);
        Shader fresh = SpirvFrontend.read(f.toString(), Files.readAllBytes(f));
        Simulator.Result r = new Simulator(Compiler.compile(fresh).program()).run(inputs(fresh, c.inputs()));
        String simulated = RunValues.format(fresh, r.outputs(), false);
        assertEquals(interpreted, simulated, "the simulator disagrees with the interpreter");
    }

    private static ShaderInputs inputs(Shader s, List<String> args) {
        ShaderInputs in = new ShaderInputs();
        for (String a : args) {
            String kind = a.substring(0, a.indexOf(' ')), arg = a.substring(a.indexOf(' ') + 1);
            switch (kind) {
                case "input" -> RunValues.applyInput(s, in, arg);
                case "texture" -> RunValues.applyTexture(s, in, arg);
                case "buffer" -> RunValues.applyBuffer(s, in, arg);
                case "device-memory" -> RunValues.applyDeviceMemory(in, arg);
                case "frag-coord" -> {
                    List<Float> v = List.of(arg.split(",")).stream()
                            .map(Float::parseFloat)
                            .collect(Collectors.toList());
                    in.setFragCoord(v.get(0), v.get(1), v.get(2), v.get(3));
                }
                case "invocation" -> {
                    String[] v = arg.split(",");
                    in.setLocalInvocationId(Integer.parseInt(v[0]), Integer.parseInt(v[1]), Integer.parseInt(v[2]));
                }
                case "patch-word" -> {
                    // one 32-bit word of device memory set by its bits (a pointer's halves among floats)
                    String[] kv = arg.split("=");
                    byte[] mem = in.buffer(ShaderInputs.DEVICE_MEMORY);
                    int at = Integer.parseInt(kv[0]) * 4;
                    long w = Long.decode(kv[1]);
                    for (int k = 0; k < 4; k++) mem[at + k] = (byte) (w >>> (8 * k));
                    in.setDeviceMemory(mem);
                }
                default -> throw new IllegalArgumentException(kind);
            }
        }
        return in;
    }
}
