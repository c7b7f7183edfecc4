package dev.lathe.spirv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Modules fuzzing found (assembled from the .spvasm beside each .spv in
 * {@code src/test/resources/hostile}): valid SPIR-V that once crashed Lathe, and invalid SPIR-V
 * whose message once named no instruction or dumped an exception.
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

    /**
     * Modules the SPIR-V fuzzer (lathe fuzz spirv) found translated into IR that did not validate,
     * minimized: each is now refused with the word offset of the instruction at fault.
     */
    @TestFactory
    Stream<DynamicTest> fuzzFindingsAreRefusedWhereTheyGoWrong() throws IOException {
        List<String> names =
                List.of("spirv-2-1649", "spirv-2-2133", "spirv-2-2397", "spirv-2-3121", "spirv-2-853", "spirv-3-10417");
        List<DynamicTest> tests = new ArrayList<>();
        for (String n : names) {
            byte[] bytes = module("fuzz/" + n);
            tests.add(DynamicTest.dynamicTest(n, () -> {
                SpirvException e = assertThrows(SpirvException.class, () -> SpirvFrontend.read(n + ".spv", bytes));
                assertTrue(e.getMessage().matches(n + "\\.spv: word [1-9][0-9]*: .+"), e.getMessage());
            }));
        }
        return tests.stream();
    }

    @Test
    void aWorkgroupTooLargeIsNamedAtItsExecutionMode() {
        SpirvException e = assertThrows(
                SpirvException.class, () -> SpirvFrontend.read("local_size_huge.spv", module("local_size_huge")));
        assertEquals(
                "local_size_huge.spv: word 16: unsupported LocalSize: a workgroup of 8 x 4294967295 x 1 invocations is more than 1024",
                e.getMessage());
    }

    @Test
    void aVariableOfATypeThatIsNoPointerIsNamed() {
        SpirvException g =
                assertThrows(SpirvException.class, () -> SpirvFrontend.read("v.spv", module("variable_not_pointer")));
        assertEquals("v.spv: word 63: OpVariable without a pointer type", g.getMessage());
        SpirvException l = assertThrows(
                SpirvException.class, () -> SpirvFrontend.read("l.spv", module("local_variable_not_pointer")));
        assertTrue(
                l.getMessage().matches("l\\.spv: word [1-9][0-9]*: OpVariable of type uint, which is no pointer type"),
                l.getMessage());
    }
}
