package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.driver.shaderdb.DifferentialCheck;
import dev.lathe.ir.Shader;
import dev.lathe.ir.validate.Validator;
import dev.lathe.spirv.SpirvException;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example GLSL shader through the whole compiler from its committed SPIR-V: the IR it
 * becomes validates, and on 16 random input sets the simulated binary agrees with the
 * interpreter bit for bit ({@link DifferentialCheck}: the usual binary against the IR it was
 * selected from, and the binary compiled with no inexact rule against the unoptimized IR).
 */
class ShaderCorpusTest {
    /** Shaders that use what the IR lacks, with the cause their failure must name: none now. */
    static final Map<String, String> UNSUPPORTED = Map.of();

    static List<Path> binaries() throws IOException {
        try (Stream<Path> s = Files.list(ExamplesTest.root().resolve("examples/shaders"))) {
            return s.filter(p -> p.toString().endsWith(".spv")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleShaderCompilesAndRuns() throws IOException {
        List<Path> files = binaries();
        assertTrue(files.size() >= 40, "example shaders: " + files.size());
        return files.stream()
                .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
                    byte[] bytes = Files.readAllBytes(f);
                    String cause = UNSUPPORTED.get(f.getFileName().toString());
                    if (cause != null) {
                        SpirvException e =
                                assertThrows(SpirvException.class, () -> SpirvFrontend.read(f.toString(), bytes));
                        assertTrue(
                                e.getMessage().contains("unsupported")
                                        && e.getMessage().contains(cause),
                                e.getMessage());
                        return;
                    }
                    Shader fromSpirv = SpirvFrontend.read(f.toString(), bytes);
                    assertEquals(List.of(), Validator.validate(fromSpirv), f.toString());
                    String difference = DifferentialCheck.check(fromSpirv, null, 16);
                    assertNull(difference, () -> f + ": " + difference);
                }));
    }
}
