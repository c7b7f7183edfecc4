package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.compile.ShaderCompiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
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
 * becomes validates, and on 16 random input sets the simulated binary gives exactly what the
 * interpreter gives for the IR it was selected from, and what it gives for the unoptimized IR
 * within the tolerance of the inexact {@code ~=>} rules (a float may differ by a relative 1e-5,
 * NaN stays NaN).
 */
class ShaderCorpusTest {
    /** Shaders that use what the IR lacks, with the cause their failure must name. */
    static final Map<String, String> UNSUPPORTED = Map.of("prefix_sum.comp.spv", "Workgroup storage");

    static List<Path> binaries() throws IOException {
        try (Stream<Path> s = Files.list(ExamplesTest.root().resolve("examples/shaders"))) {
            return s.filter(p -> p.toString().endsWith(".spv")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleShaderCompilesAndRuns() throws IOException {
        List<Path> files = binaries();
        assertTrue(files.size() >= 10, "example shaders: " + files.size());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            byte[] bytes = Files.readAllBytes(f);
            String cause = UNSUPPORTED.get(f.getFileName().toString());
            if (cause != null) {
                SpirvException e = assertThrows(SpirvException.class, () -> SpirvFrontend.read(f.toString(), bytes));
                assertTrue(e.getMessage().contains("unsupported") && e.getMessage().contains(cause), e.getMessage());
                return;
            }
            Shader fromSpirv = SpirvFrontend.read(f.toString(), bytes);
            assertEquals(List.of(), Validator.validate(fromSpirv), f.toString());
            String text = IrPrinter.print(fromSpirv);
            ShaderCompiler.Result r = ShaderCompiler.compile(IrParser.parse(f.toString(), text));
            for (long seed = 0; seed < 16; seed++) {
                Shader original = IrParser.parse(f.toString(), text);
                ShaderOutputs machine = BackendEndToEndTest.simulate(r.program(), original, seed);
                ShaderOutputs selected = BackendEndToEndTest.interpret(r.optimized(), seed);
                long k = seed;
                assertTrue(selected.sameAs(machine), () -> f + ", input set " + k + ": the binary disagrees with the IR it was compiled from");
                ShaderOutputs unoptimized = BackendEndToEndTest.interpret(original, seed);
                String diff = Tolerance.compare(unoptimized, machine);
                assertEquals(null, diff, () -> f + ", input set " + k + ": " + diff);
            }
        }));
    }
}
