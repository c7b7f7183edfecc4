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
 * becomes validates, and on 16 random input sets
 *
 * <ul>
 *   <li>the binary compiled as usual gives exactly what the interpreter gives for the IR it was
 *       selected from (inexact {@code ~=>} rules such as fma fusion may have changed that IR's
 *       results: on huge random inputs their rounding differences are not small);
 *   <li>the binary compiled with every instruction marked exact (so no {@code ~=>} rule fires)
 *       gives exactly what the interpreter gives for the unoptimized IR from SPIR-V.
 * </ul>
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
            Shader exact = IrParser.parse(f.toString(), text);
            for (dev.lathe.ir.Instr i : exact.entryPoint().instructions()) {
                if (i instanceof dev.lathe.ir.AluInstr a) a.setExact(true);
            }
            ShaderCompiler.Result strict = ShaderCompiler.compile(exact);
            for (long seed = 0; seed < 16; seed++) {
                Shader original = IrParser.parse(f.toString(), text);
                long k = seed;
                ShaderOutputs machine = BackendEndToEndTest.simulate(r.program(), original, seed);
                assertTrue(BackendEndToEndTest.interpret(r.optimized(), seed).sameAs(machine),
                        () -> f + ", input set " + k + ": the binary disagrees with the IR it was compiled from");
                ShaderOutputs strictMachine = BackendEndToEndTest.simulate(strict.program(), original, seed);
                assertTrue(BackendEndToEndTest.interpret(original, seed).sameAs(strictMachine),
                        () -> f + ", input set " + k + ": compiled with no inexact rule, the binary disagrees with the unoptimized IR");
            }
        }));
    }
}
