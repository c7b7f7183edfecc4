package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The oracle's own reading of a module's interface, on bundled shaders whose layout is worked out by hand. */
class SpirvInterfaceTest {
    static SpirvInterface read(String name) throws IOException {
        return SpirvInterface.read(
                Files.readAllBytes(ComputeOracleTest.shaders().resolve(name)));
    }

    @Test
    void uniformBlocksAreLaidOutByTheirOffsetsAndStrides() throws IOException {
        SpirvInterface i = read("camera_ubo.vert.spv");
        assertEquals("vertex", i.stage());
        SpirvInterface.Block camera = i.uniformBlocks().stream()
                .filter(b -> b.name().equals("camera"))
                .findFirst()
                .orElseThrow();
        assertEquals(0, camera.set());
        assertEquals(0, camera.binding());
        assertEquals(
                List.of("camera_view", "camera_projection", "camera_cameraPos"),
                camera.members().stream().map(SpirvInterface.Member::name).toList());
        SpirvInterface.Member projection = camera.members().get(1);
        assertEquals(64, projection.offset());
        assertEquals(16, projection.scalarCount());
        // column-major mat4: scalar 6 is column 1, row 2
        assertEquals(64 + 16 + 8, projection.scalarOffset(6));
        SpirvInterface.Block object = i.uniformBlocks().stream()
                .filter(b -> b.name().equals("object"))
                .findFirst()
                .orElseThrow();
        assertEquals(1, object.set());
        SpirvInterface.Member uvScale = object.members().get(3);
        assertEquals("object_uvScale", uvScale.name());
        assertEquals(144, uvScale.offset());
        assertEquals(148, object.size());
        assertEquals(List.of(), i.unsupported());
        // the attributes and varyings by location, gl_Position as member 0 of gl_PerVertex
        assertEquals(
                List.of("position@0 f3", "normal@1 f3", "uv@2 f2"),
                i.inputs().stream().map(SpirvInterfaceTest::varying).toList());
        assertEquals(
                List.of("worldNormal@0 f3", "texCoord@1 f2", "tint@2 f4", "viewDepth@3 f1"),
                i.outputs().stream().map(SpirvInterfaceTest::varying).toList());
        SpirvInterface.BuiltIn position = i.builtInOutputs().get(0);
        assertEquals(SpirvInterface.POSITION, position.builtIn());
        assertEquals(0, position.member());
        assertEquals(4, position.shape().components());
    }

    static String varying(SpirvInterface.Varying v) {
        return v.name() + "@" + v.location() + " " + v.shape().base()
                + v.shape().components();
    }

    /**
     * An array whose length is a specialization constant has its default length (the oracle
     * specializes nothing, nor does the frontend): SaschaWillems' ssao.frag sizes its kernel so,
     * and the oracle bound one element of 64, which the device read as zeros past the first.
     */
    @Test
    void anArraySizedByASpecializationConstantHasItsDefaultLength() throws IOException, InterruptedException {
        SpirvInterface i = SpirvInterface.read(DeviceDeviationsTest.glsl("kernel.frag", """
                #version 450
                layout(constant_id = 0) const int KERNEL = 64;
                layout(binding = 0) uniform Kernel { vec4 samples[KERNEL]; } kernel;
                layout(location = 0) flat in int k;
                layout(location = 0) out vec4 color;
                void main() { color = kernel.samples[k]; }
                """));
        SpirvInterface.Block b = i.uniformBlocks().get(0);
        assertEquals(64 * 4, b.members().get(0).scalarCount());
        assertEquals(64 * 16, b.size());
    }

    @Test
    void pushConstantsAndStorageBuffers() throws IOException {
        SpirvInterface i = read("saxpy.comp.spv");
        assertEquals("compute", i.stage());
        assertEquals("main", i.entryPoint());
        assertEquals(8, i.localSize()[0]);
        SpirvInterface.Block push = i.pushConstants();
        assertEquals(
                List.of("pc_a", "pc_n"),
                push.members().stream().map(SpirvInterface.Member::name).toList());
        assertEquals(4, push.members().get(1).offset());
        assertEquals(
                List.of(new SpirvInterface.StorageBuffer("Y", 0, 1), new SpirvInterface.StorageBuffer("X", 0, 0)),
                i.storageBuffers().stream()
                        .sorted((a, b) -> b.name().compareTo(a.name()))
                        .toList());
        assertTrue(i.unsupported().isEmpty(), i.unsupported().toString());
        assertNull(read("collatz.comp.spv").pushConstants());
    }

    @Test
    void notSpirvIsRefused() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SpirvInterface.read(new byte[24]));
        assertEquals("not a SPIR-V module: bad magic number", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SpirvInterface.read(new byte[3]));
    }

    /**
     * An array of samplers has its length (each element is bound); a run-time sized array of
     * uniform blocks has the frontend's {@link dev.lathe.spirv.SpirvFrontend#RUN_TIME_UNIFORM_BLOCKS}.
     */
    @Test
    void arraysOfSamplersAndRunTimeArraysOfUniformBlocks() throws IOException, InterruptedException {
        SpirvInterface i = SpirvInterface.read(DeviceDeviationsTest.glsl("arrays.frag", """
                #version 450
                #extension GL_EXT_nonuniform_qualifier : require
                layout(set = 0, binding = 1) uniform texture2D color;
                layout(set = 0, binding = 2) uniform sampler samplers[3];
                layout(set = 1, binding = 0) uniform U { vec4 tint; } u[];
                layout(location = 0) flat in int k;
                layout(location = 0) out vec4 outColor;
                void main() { outColor = texture(sampler2D(color, samplers[k]), vec2(0.5)) * u[k].tint; }
                """));
        assertEquals(List.of(new SpirvInterface.Sampler(0, 2, 3)), i.samplers());
        SpirvInterface.Block u = i.uniformBlocks().get(0);
        assertEquals(dev.lathe.spirv.SpirvFrontend.RUN_TIME_UNIFORM_BLOCKS, u.count());
        assertEquals(List.of(), i.unsupported());
    }
}
