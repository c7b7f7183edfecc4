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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code // test optimize PIPELINE} file tests ({@link FileTests}; they live in
 * {@code filetests/optimize/<pass>/}, at least six per pass): the file holds {@code CHECK:} lines
 * (see {@link FileCheck}) and is run through the pipeline with validation after every pass; the
 * canonical output must satisfy the checks (and the precise output, when the file keeps one).
 * With {@code // SAME-OUTPUTS: N} the interpreter also runs the program before and after on N
 * seeded random input sets (textures included) and the outputs must be identical.
 * A failure shows the file, the first check that failed and the actual IR.
 */
final class OptimizeFiles {
    private OptimizeFiles() {}

    static Path passesDir() {
        return FileTests.root().resolve("optimize");
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

    /** A {@code // test optimize RUN} file ({@link FileTests}): {@code text} after the pipeline {@code run}. */
    static void check(Path f, String text, String run) throws IOException {
        int inputSets = 0;
        for (String l : text.split("\n")) {
            String t = l.trim();
            if (t.startsWith("// SAME-OUTPUTS:"))
                inputSets = Integer.parseInt(
                        t.substring("// SAME-OUTPUTS:".length()).trim());
        }
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
