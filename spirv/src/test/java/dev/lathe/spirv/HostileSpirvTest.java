package dev.lathe.spirv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Modules fuzzing found (assembled from the .spvasm beside each .spv in
 * {@code src/test/resources/hostile}): valid SPIR-V that once crashed Lathe, and invalid SPIR-V
 * whose message once named no instruction or dumped an exception. The refusals are file tests
 * ({@code tests/src/test/resources/filetests/run/hostile_spirv/}, each with its message); what
 * needs the IR itself stays here.
 */
class HostileSpirvTest {
    static byte[] module(String name) throws IOException {
        try (InputStream in = HostileSpirvTest.class.getResourceAsStream("/hostile/" + name + ".spv")) {
            if (in == null) throw new IOException("no test module " + name);
            return in.readAllBytes();
        }
    }

    /** An OpAccessChain into a uvec3 with a constant index past its end (spirv-val accepts it): an undefined value, never a crash. */
    @Test
    void constantIndexPastAVectorReadsAnUndefinedValue() throws IOException {
        for (String name : List.of("access_chain_past_vector_16", "access_chain_past_vector_ffffffff")) {
            Shader s = SpirvFrontend.read(name + ".spv", module(name));
            assertEquals(List.of(), Validator.validate(s), name);
            String text = IrPrinter.print(s);
            assertTrue(text.contains("undef"), text);
        }
    }
}
