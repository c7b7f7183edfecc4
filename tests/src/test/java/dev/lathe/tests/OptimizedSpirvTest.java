package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lathe.driver.ExternalTool;
import dev.lathe.driver.shaderdb.DifferentialCheck;
import dev.lathe.ir.Shader;
import dev.lathe.ir.validate.Validator;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * What applications ship: every bundled shader after {@code spirv-opt -O} and {@code -Os}
 * (Debian's spirv-tools), and with its loop passes on top, checked by {@code spirv-val}, then read, validated and compiled, and
 * simulated against the interpreter. Optimized modules use the freedom SPIR-V gives and glslang
 * does not take: phis on loop headers and continue targets, values that leave loops, returns
 * merged into a one-iteration loop, OpUndef among the constants.
 */
class OptimizedSpirvTest {
    @TempDir
    static Path tmp;

    static boolean spirvTools() {
        return ExternalTool.available("spirv-opt") && ExternalTool.available("spirv-val");
    }

    @TestFactory
    Stream<DynamicTest> everyShaderAfterSpirvOpt() throws IOException {
        assumeTrue(spirvTools(), "spirv-opt is not installed (apt-get install spirv-tools)");
        List<DynamicTest> tests = new ArrayList<>();
        // -O and -Os as applications ship them; then loops reshaped (peeled, unswitched, split)
        for (List<String> flags : List.of(
                List.of("-O"),
                List.of("-Os"),
                List.of("--loop-peeling", "--loop-unswitch", "--loop-fission=4", "-O"))) {
            String flag = String.join(" ", flags);
            for (Path f : ShaderCorpusTest.binaries()) {
                String name = f.getFileName().toString();
                tests.add(DynamicTest.dynamicTest(name + " " + flag, () -> {
                    Path out = tmp.resolve(name.replace(".spv", flag.replaceAll("[^A-Za-z0-9]", "") + ".spv"));
                    List<String> command = new ArrayList<>(List.of("spirv-opt"));
                    command.addAll(flags);
                    command.addAll(List.of(f.toString(), "-o", out.toString()));
                    run(command.toArray(new String[0]));
                    run("spirv-val", out.toString());
                    Shader shader = SpirvFrontend.read(out.toString(), Files.readAllBytes(out));
                    assertEquals(List.of(), Validator.validate(shader), out.toString());
                    String difference = DifferentialCheck.check(shader, null, 8);
                    assertNull(difference, () -> name + " " + flag + ": " + difference);
                }));
            }
        }
        return tests.stream();
    }

    private static void run(String... command) throws ExternalTool.ToolException {
        ExternalTool.Result r = ExternalTool.run(60, command);
        assertEquals(0, r.exitCode(), () -> String.join(" ", command) + ": " + r.output());
    }
}
