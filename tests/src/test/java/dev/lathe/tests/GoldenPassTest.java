package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.driver.Passes;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden pass tests: every {@code passes/<pass>/*.ir} file under the test resources starts with
 * {@code // RUN: PIPELINE}, holds {@code CHECK:} lines (see {@link FileCheck}), and is run through
 * the pipeline with validation after every pass; the canonical output must satisfy the checks.
 * With {@code // SAME-OUTPUTS: N} the interpreter also runs the program before and after on N
 * seeded random input sets (textures included) and the outputs must be identical.
 * A failure shows the file, the first check that failed and the actual IR.
 */
class GoldenPassTest {

    static Path passesDir() {
        return ExamplesTest.root().resolve("tests/src/test/resources/passes");
    }

    static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.walk(passesDir())) {
            return s.filter(p -> p.toString().endsWith(".ir")).sorted().toList();
        }
    }

    @Test
    void atLeastSixGoldenTestsPerPass() throws IOException {
        for (String pass : registry().irNames()) {
            Path dir = passesDir().resolve(pass);
            long n = Files.isDirectory(dir)
                    ? Files.list(dir).filter(p -> p.toString().endsWith(".ir")).count()
                    : 0;
            assertTrue(n >= 6, "passes/" + pass + " has " + n + " golden tests; at least 6 are required");
        }
    }

    @TestFactory
    Stream<DynamicNode> goldenFiles() throws IOException {
        List<DynamicNode> byPass = new ArrayList<>();
        Path root = passesDir();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                List<DynamicNode> tests = new ArrayList<>();
                for (Path f : files()) {
                    if (f.getParent().equals(dir))
                        tests.add(DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
                }
                byPass.add(DynamicContainer.dynamicContainer(dir.getFileName().toString(), tests));
            }
        }
        return byPass.stream();
    }

    /** The ir passes and the generated rule passes (algebraic, late, …). */
    static PassRegistry registry() {
        return new Passes().registry();
    }

    /** The interpreter's outputs on seeded random inputs (textures included); a compute shader runs two workgroups. */
    static ShaderOutputs runOn(Shader s, long seed) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed);
        Interpreter it = new Interpreter(s);
        return s.stage() == Stage.COMPUTE ? it.dispatch(in, 2, 1, 1) : it.run(in);
    }

    static void check(Path f) throws IOException {
        String text = Files.readString(f);
        String run = null;
        int inputSets = 0;
        for (String l : text.split("\n")) {
            String t = l.trim();
            if (t.startsWith("// RUN:") && run == null)
                run = t.substring("// RUN:".length()).trim();
            if (t.startsWith("// SAME-OUTPUTS:"))
                inputSets = Integer.parseInt(
                        t.substring("// SAME-OUTPUTS:".length()).trim());
        }
        if (run == null) fail(f + ": no '// RUN: PIPELINE' line");
        List<FileCheck.Check> checks = FileCheck.parse(text);
        if (checks.isEmpty()) fail(f + ": no CHECK lines");
        Shader s = IrParser.parse(f.toString(), text);
        assertTrue(Validator.validate(s).isEmpty(), () -> f + ": the input is invalid: " + Validator.validate(s));
        List<ShaderOutputs> expected = new ArrayList<>();
        for (int seed = 0; seed < inputSets; seed++) expected.add(runOn(s, seed));
        new PassManager(registry(), PassInstrumentation.Settings.verifying()).run(s, Pipeline.parse(run, registry()));
        String out = IrPrinter.print(s);
        String pipeline = run;
        for (int seed = 0; seed < inputSets; seed++) {
            int k = seed;
            assertTrue(
                    expected.get(seed).sameAs(runOn(s, seed)),
                    () -> f + ": the outputs changed on random input set " + k + "\n--- IR after '" + pipeline
                            + "' ---\n" + out);
        }
        String failure = FileCheck.verify(checks, out);
        if (failure != null) fail(f + ":" + failure + "\n--- actual IR after '" + run + "' ---\n" + out);
        String precise = PreciseOutput.check(f, text, out);
        if (precise != null) fail(f + ":" + precise + "\n--- actual IR after '" + run + "' ---\n" + out);
    }
}
