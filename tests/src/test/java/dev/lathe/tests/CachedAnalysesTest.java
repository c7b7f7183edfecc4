package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.driver.Pipelines;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.analysis.Analyses;
import dev.lathe.ir.analysis.range.RangeAnalysis;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.pass.Pass;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.text.IrPrinter;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The range facts the default pipeline keeps from pass to pass ({@link Analyses}) answer exactly
 * as a fresh analysis of the function would, after every pass that hands them on, on random
 * programs: a pass that edits the function without reporting an edit, or a report that loses
 * something, shows up here as an element that differs. And they are kept: the optimization
 * loop computes the analysis once a round, not once for each pass that asks.
 */
class CachedAnalysesTest {
    static final int PROGRAMS = 300;

    @Test
    void keptRangeFactsAnswerAsFreshOnesAfterEveryPass() {
        Map<String, Integer> checkedAfter = new HashMap<>();
        for (long seed = 0; seed < PROGRAMS; seed++) {
            Shader s = RandomProgramGenerator.generate(seed, Options.mixed(seed));
            String before = IrPrinter.print(s);
            long k = seed;
            PassRegistry checking = checkingEveryPass(OptimizeFiles.registry(), (pass, fn) -> {
                if (fn.analyses().current() == null) return;
                checkedAfter.merge(pass, 1, Integer::sum);
                RangeFacts kept = fn.analyses().ranges();
                RangeAnalysis fresh = RangeAnalysis.run(fn);
                for (Block b : fn.blocks()) {
                    for (Instr instr = b.firstInstr(); instr != null; instr = instr.next()) {
                        Instr i = instr;
                        if (i.def() == null) continue;
                        for (int c = 0; c < i.def().numComponents(); c++) {
                            int comp = c;
                            assertEquals(
                                    fresh.range(i.def(), c),
                                    kept.range(i.def(), c),
                                    () -> "seed " + k + ", after " + pass + ": " + IrPrinter.instrToString(i)
                                            + " component " + comp + "\nbefore the pipeline:\n" + before);
                        }
                    }
                }
            });
            new PassManager(checking, PassInstrumentation.Settings.verifying()).run(s, Pipelines.OPTIMIZE);
        }
        // the passes that keep the facts did keep them (they are current after them)
        for (String pass :
                new String[] {"algebraic", "opt_minmax", "copy_prop", "constant_fold", "cse", "dce", "late"}) {
            assertTrue(
                    checkedAfter.getOrDefault(pass, 0) > PROGRAMS / 2,
                    () -> pass + " kept the facts only " + checkedAfter.get(pass) + " times");
        }
    }

    @Test
    void theOptimizationLoopComputesTheRangeAnalysisOnceARound() {
        Shader s = RandomProgramGenerator.generate(7, Options.large(3000));
        PassManager pm = new PassManager(
                OptimizeFiles.registry(), new PassInstrumentation.Settings(false, false, null, true, null));
        pm.run(s, Pipelines.OPTIMIZE);
        int analyses = 0, rounds = 0;
        for (PassInstrumentation.Timing t : pm.timings()) {
            if (t.pass().equals(Analyses.Kind.RANGES.label())) analyses = t.runs();
            if (t.pass().equals("opt_minmax")) rounds = t.runs();
        }
        assertTrue(rounds >= 2, "rounds: " + rounds);
        // algebraic and opt_minmax both ask in every round; without the cache that is two analyses a round
        assertTrue(analyses >= 1 && analyses <= rounds, analyses + " range analyses in " + rounds + " rounds");
    }

    interface Check {
        void after(String pass, Function fn);
    }

    /** {@code registry}'s passes, each followed by {@code check} on the function it ran on. */
    static PassRegistry checkingEveryPass(PassRegistry registry, Check check) {
        PassRegistry out = new PassRegistry();
        for (String name : registry.irNames()) {
            out.register(name, () -> {
                Pass p = registry.create(name);
                return fn -> {
                    boolean progress = p.run(fn);
                    check.after(name, fn);
                    return progress;
                };
            });
        }
        return out;
    }
}
