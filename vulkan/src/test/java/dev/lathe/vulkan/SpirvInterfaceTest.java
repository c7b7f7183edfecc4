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
        return SpirvInterface.read(Files.readAllBytes(ComputeOracleTest.shaders().resolve(name)));
    }

    @Test
    void uniformBlocksAreLaidOutByTheirOffsetsAndStrides() throws IOException {
        SpirvInterface i = read("camera_ubo.vert.spv");
        assertEquals("vertex", i.stage());
        SpirvInterface.Block camera = i.uniformBlocks().stream().filter(b -> b.name().equals("camera")).findFirst().orElseThrow();
        assertEquals(0, camera.set());
        assertEquals(0, camera.binding());
        assertEquals(List.of("camera_view", "camera_projection", "camera_cameraPos"), camera.members().stream().map(SpirvInterface.Member::name).toList());
        SpirvInterface.Member projection = camera.members().get(1);
        assertEquals(64, projection.offset());
        assertEquals(16, projection.scalarCount());
        // column-major mat4: scalar 6 is column 1, row 2
        assertEquals(64 + 16 + 8, projection.scalarOffset(6));
        SpirvInterface.Block object = i.uniformBlocks().stream().filter(b -> b.name().equals("object")).findFirst().orElseThrow();
        assertEquals(1, object.set());
        SpirvInterface.Member uvScale = object.members().get(3);
        assertEquals("object_uvScale", uvScale.name());
        assertEquals(144, uvScale.offset());
        assertEquals(148, object.size());
        assertTrue(i.unsupported().contains("the vertex stage (only compute shaders run so far)"), i.unsupported().toString());
    }

    @Test
    void pushConstantsAndStorageBuffers() throws IOException {
        SpirvInterface i = read("saxpy.comp.spv");
        assertEquals("compute", i.stage());
        assertEquals("main", i.entryPoint());
        assertEquals(8, i.localSize()[0]);
        SpirvInterface.Block push = i.pushConstants();
        assertEquals(List.of("pc_a", "pc_n"), push.members().stream().map(SpirvInterface.Member::name).toList());
        assertEquals(4, push.members().get(1).offset());
        assertEquals(List.of(new SpirvInterface.StorageBuffer("Y", 0, 1), new SpirvInterface.StorageBuffer("X", 0, 0)),
                i.storageBuffers().stream().sorted((a, b) -> b.name().compareTo(a.name())).toList());
        assertTrue(i.unsupported().isEmpty(), i.unsupported().toString());
        assertNull(read("collatz.comp.spv").pushConstants());
    }

    @Test
    void notSpirvIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SpirvInterface.read(new byte[24]));
        assertEquals("not a SPIR-V module: bad magic number", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SpirvInterface.read(new byte[3]));
    }
}
