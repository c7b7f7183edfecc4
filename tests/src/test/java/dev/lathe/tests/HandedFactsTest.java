package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.generated.AlgebraicRules;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.analysis.range.RangeAnalysis;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rule pass handed range facts its caller made beforehand (a whole-function analysis) keeps
 * them current through its rewrites: the result is valid, keeps the program's outputs (exact
 * rules only) and is a fixpoint (a second run with fresh facts finds nothing).
 */
class HandedFactsTest {
    @Test
    void aPassKeepsHandedFactsCurrent() {
        long fired = 0;
        for (long seed = 0; seed < 150; seed++) {
            Shader s = RandomProgramGenerator.generate(seed, RuleDifferentialTest.optionsFor(seed));
            for (Instr i : s.entryPoint().instructions()) {
                if (i instanceof AluInstr alu) alu.setExact(true);
            }
            String before = IrPrinter.print(s);
            ShaderOutputs expected = RuleDifferentialTest.run(s, seed);
            RangeFacts facts = new RangeFacts(RangeAnalysis.run(s.entryPoint()));
            RuleStats stats = new RuleStats(AlgebraicRules.INSTANCE);
            new RewritePass(AlgebraicRules.INSTANCE, stats, fn -> facts).run(s.entryPoint());
            fired += stats.total();
            long fseed = seed;
            assertEquals(List.of(), Validator.validate(s), "seed " + seed);
            // under the NaN contract, as RuleDifferentialTest compares: an exact rule may give a NaN
            // of open bits other bits (fmax(a, a) => a)
            ShaderOutputs.Comparison c = expected.compareUnderNanContract(RuleDifferentialTest.run(s, seed));
            assertTrue(
                    c.kind() != ShaderOutputs.Comparison.Kind.BROKEN,
                    () -> "seed " + fseed + ": outputs changed (" + c.detail() + ")\nbefore:\n" + before + "\nafter:\n"
                            + IrPrinter.print(s));
            RuleStats again = new RuleStats(AlgebraicRules.INSTANCE);
            new RewritePass(AlgebraicRules.INSTANCE, again).run(s.entryPoint());
            assertEquals(
                    0,
                    again.total(),
                    () -> "seed " + fseed + ": not a fixpoint, a second run fired " + again.firedMostFirst()
                            + "\nbefore:\n" + before);
        }
        assertTrue(fired > 300, "only " + fired + " rewrites");
    }
}
