package dev.lathe.ir.pass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.text.IrPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * For every pass (and the default pipeline), 320 seeded random programs: the interpreter's
 * outputs before and after are identical bit for bit, and the validator passes after every
 * pass. A failure prints the seed, the pass and the program before and after.
 */
class PassDifferentialTest {
    static final int PROGRAMS = 320;

    /**
     * The default pipeline's shape without the rule passes, which live in the generated module
     * this one cannot see (the driver's {@code Pipelines} holds the real one).
     */
    static final String CORE_PIPELINE =
            "vars_to_ssa, loop(opt_minmax, constant_fold, copy_prop, phi_simplify, dead_cf, opt_if, loop_unroll, vars_to_ssa, cse, dce),"
                    + " sink_constants";

    static Options optionsFor(long seed) {
        return Options.mixed(seed);
    }

    static ShaderOutputs run(Shader s, long seed) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed);
        Interpreter it = new Interpreter(s);
        return s.stage() == Stage.COMPUTE ? it.dispatch(in, 2, 1, 1) : it.run(in);
    }

    @TestFactory
    Stream<DynamicTest> everyPassPreservesOutputs() {
        List<String> pipelines = new ArrayList<>(PassRegistry.standard().names());
        pipelines.add(CORE_PIPELINE);
        List<DynamicTest> tests = new ArrayList<>();
        for (String pipeline : pipelines) {
            tests.add(DynamicTest.dynamicTest(pipeline, () -> {
                for (long seed = 0; seed < PROGRAMS; seed++) check(pipeline, seed);
            }));
        }
        return tests.stream();
    }

    static void check(String pipeline, long seed) {
        Shader s = RandomProgramGenerator.generate(seed, optionsFor(seed));
        String before = IrPrinter.print(s);
        ShaderOutputs expected = run(s, seed);
        PassManager pm = new PassManager(PassRegistry.standard(), PassInstrumentation.Settings.verifying());
        try {
            pm.run(s, Pipeline.parse(pipeline, PassRegistry.standard()));
        } catch (RuntimeException e) {
            throw new AssertionError(
                    "seed " + seed + ", " + pipeline + ": " + e.getMessage() + "\nbefore:\n" + before, e);
        }
        ShaderOutputs actual = run(s, seed);
        assertTrue(
                expected.sameAs(actual),
                () -> "seed " + seed + ": " + pipeline + " changed the outputs\nbefore:\n" + before + "\nafter:\n"
                        + IrPrinter.print(s));
    }
}
