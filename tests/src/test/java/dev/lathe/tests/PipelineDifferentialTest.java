package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.driver.Pipelines;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The whole default pipeline, rules included, on thousands of random programs: with every
 * instruction marked exact (so only {@code =>} rules fire, and no pass may change a result), the
 * optimized program computes what the program did under the NaN contract (bit for bit, except
 * that a NaN a float operation made may be any NaN). A program whose reference run reads the bits
 * of such a NaN has many allowed outcomes: it must match bit for bit, or it decides nothing;
 * nearly all must decide. The validator runs after every pass.
 */
class PipelineDifferentialTest {
    static final int PROGRAMS = 3000;

    @Test
    void theDefaultPipelineKeepsOutputsUnderTheNanContract() {
        int compared = 0;
        for (long seed = 0; seed < PROGRAMS; seed++) {
            Shader s = RandomProgramGenerator.generate(seed, Options.mixed(seed));
            for (Instr i : s.entryPoint().instructions()) {
                if (i instanceof AluInstr alu) alu.setExact(true);
            }
            String before = IrPrinter.print(s);
            ShaderOutputs expected = RuleDifferentialTest.run(IrParser.parse("before.ir", before), seed);
            new PassManager(OptimizeFiles.registry(), PassInstrumentation.Settings.verifying())
                    .run(s, Pipelines.OPTIMIZE);
            long k = seed;
            assertEquals(List.of(), Validator.validate(s), () -> "seed " + k);
            ShaderOutputs.Comparison c = expected.compareUnderNanContract(RuleDifferentialTest.run(s, seed));
            assertTrue(
                    c.kind() != ShaderOutputs.Comparison.Kind.BROKEN,
                    () -> "seed " + k + ": the default pipeline changed the outputs (" + c.detail() + ")\nbefore:\n"
                            + before + "\nafter:\n" + IrPrinter.print(s));
            if (c.kind() == ShaderOutputs.Comparison.Kind.KEPT) compared++;
        }
        assertTrue(compared * 100 >= PROGRAMS * 99, compared + " of " + PROGRAMS + " programs decided");
    }
}
