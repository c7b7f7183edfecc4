package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.generated.GeneratedRules;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.Node;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The generated matchers against the rule interpreter (the reference), for every rule file, on
 * seeded random programs:
 *
 * <ul>
 *   <li>on 1,000 programs, both make exactly the same rewrites: the same IR afterwards and the same count per rule;
 *   <li>the result is a fixpoint: running the rules again changes nothing (the driver re-queued
 *       everything a rewrite could have made match);
 *   <li>the same on 500 programs made of the ops the patterns mention, where at least 60% of
 *       each file's rules must fire (so the comparison covers them);
 *   <li>on 11,000 programs, with every instruction marked exact (so only {@code =>} rules may fire), the rewritten
 *       program validates and computes the same outputs under the NaN contract: bit for bit,
 *       except that a NaN a float operation made may be any NaN (ir/README.md, "NaN"). A program
 *       whose reference run reads such a NaN's bits has many allowed outcomes: it must match
 *       bit for bit, or it decides nothing; nearly all programs must decide.
 * </ul>
 *
 * A failure names the rule file and the seed, and shows the program.
 */
class RuleDifferentialTest {
    static final int PROGRAMS = 1000;
    /** Programs for the exact-rules comparison: seeds 1000 to 10999 once showed exact rules changing NaN bits. */
    static final int EXACT_PROGRAMS = 11_000;
    /** The share of a file's rules (in tenths) that must fire on the rule-dense programs. */
    static final int MIN_FIRED_TENTHS = 6;

    static Options optionsFor(long seed) {
        return Options.mixed(seed);
    }

    @TestFactory
    Stream<DynamicTest> generatedMatchersAgreeWithTheInterpreter() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleSet generated : GeneratedRules.all()) {
            Path file = ExamplesTest.root().resolve("rules/" + generated.passName() + ".rules");
            String text = Files.readString(file);
            RuleCompiler.Result r = RuleCompiler.compile("rules/" + generated.passName() + ".rules", text);
            assertTrue(r.ok(), r.render());
            RuleSet reference = new RuleInterpreter(r.file());
            tests.add(DynamicTest.dynamicTest(generated.passName() + ": same rewrites", () -> {
                for (long seed = 0; seed < PROGRAMS; seed++) sameRewrites(generated, reference, seed);
            }));
            Set<Op> roots = patternOps(r.file());
            tests.add(DynamicTest.dynamicTest(generated.passName() + ": same rewrites on rule-dense programs", () -> {
                RuleStats seen = new RuleStats(generated);
                for (long seed = 0; seed < PROGRAMS / 2; seed++)
                    ruleDenseProgram(generated, reference, roots, seed, seen);
                // The comparison means little for rules that never fire: most must.
                int fired = generated.rules().size() - seen.neverFired().size();
                assertTrue(
                        fired * 10 >= generated.rules().size() * MIN_FIRED_TENTHS,
                        () -> generated.passName()
                                + ": only " + fired + " of " + generated.rules().size() + " rules fired; never: "
                                + seen.neverFired().stream().map(x -> x.name()).toList());
            }));
            tests.add(DynamicTest.dynamicTest(generated.passName() + ": exact rules keep outputs", () -> {
                int compared = 0;
                for (long seed = 0; seed < EXACT_PROGRAMS; seed++)
                    compared += exactRulesKeepOutputs(generated, seed) ? 1 : 0;
                assertTrue(
                        compared * 100 >= EXACT_PROGRAMS * 99,
                        compared + " of " + EXACT_PROGRAMS + " programs decided");
            }));
        }
        return tests.stream();
    }

    static void sameRewrites(RuleSet generated, RuleSet reference, long seed) {
        sameRewrites(generated, reference, seed, optionsFor(seed), new RuleStats(generated));
    }

    /** Rewrites one program both ways and compares; returns the generated side's counts in {@code seen}. */
    static void sameRewrites(RuleSet generated, RuleSet reference, long seed, Options options, RuleStats seen) {
        String text = IrPrinter.print(RandomProgramGenerator.generate(seed, options));
        Shader a = IrParser.parse("a.ir", text);
        Shader b = IrParser.parse("b.ir", text);
        RuleStats sa = seen;
        RuleStats sb = new RuleStats(reference);
        long[] before = new long[generated.rules().size()];
        for (int i = 0; i < before.length; i++) before[i] = sa.fired(i);
        new RewritePass(generated, sa).run(a.entryPoint());
        new RewritePass(reference, sb).run(b.entryPoint());
        String pa = IrPrinter.print(a);
        assertEquals(
                IrPrinter.print(b),
                pa,
                () -> generated.passName() + ", seed " + seed
                        + ": the generated matcher and the interpreter rewrote differently\nbefore:\n" + text);
        for (int i = 0; i < generated.rules().size(); i++) {
            int rule = i;
            assertEquals(
                    sb.fired(i),
                    sa.fired(i) - before[i],
                    () -> generated.passName() + ", seed " + seed + ": rule "
                            + generated.rules().get(rule).name() + " fired a different number of times");
        }
        assertEquals(List.of(), Validator.validate(a), generated.passName() + ", seed " + seed);
        assertFixpoint(generated, a, seed, text);
    }

    /**
     * Programs made of the ops the patterns mention (so rules match and rewrites cascade): the same rewrites
     * both ways, and one run reaches a fixpoint (a second run finds nothing to do).
     */
    static void ruleDenseProgram(RuleSet generated, RuleSet reference, Set<Op> roots, long seed, RuleStats seen) {
        Options o = Options.standard().withTargetInstructions(150).withRandomOps(roots);
        sameRewrites(generated, reference, seed, o, seen);
    }

    /** Every op some pattern of the file mentions, at its root or inside. */
    static Set<Op> patternOps(CheckedFile file) {
        Set<Op> ops = EnumSet.noneOf(Op.class);
        ArrayDeque<Node> work = new ArrayDeque<>();
        for (var rule : file.rules()) work.add(rule.pattern());
        while (!work.isEmpty()) {
            if (work.poll() instanceof Node.OpNode n) {
                ops.add(n.op());
                work.addAll(n.srcs());
            }
        }
        return ops;
    }

    static void assertFixpoint(RuleSet rules, Shader rewritten, long seed, String before) {
        RuleStats again = new RuleStats(rules);
        new RewritePass(rules, again).run(rewritten.entryPoint());
        assertEquals(
                0,
                again.total(),
                () -> rules.passName() + ", seed " + seed + ": a second run still rewrote " + again.firedMostFirst()
                        + "\nbefore:\n" + before);
    }

    /** Whether the comparison decided (it fails the test when the rules broke the contract). */
    static boolean exactRulesKeepOutputs(RuleSet generated, long seed) {
        Shader s = RandomProgramGenerator.generate(seed, optionsFor(seed));
        for (Instr i : s.entryPoint().instructions()) {
            if (i instanceof AluInstr alu) alu.setExact(true);
        }
        String before = IrPrinter.print(s);
        ShaderOutputs expected = run(s, seed);
        new RewritePass(generated).run(s.entryPoint());
        assertEquals(List.of(), Validator.validate(s), generated.passName() + ", seed " + seed);
        ShaderOutputs.Comparison c = expected.compareUnderNanContract(run(s, seed));
        assertTrue(
                c.kind() != ShaderOutputs.Comparison.Kind.BROKEN,
                () -> generated.passName() + ", seed " + seed + ": exact rules changed the outputs (" + c.detail()
                        + ")\nbefore:\n" + before + "\nafter:\n" + IrPrinter.print(s));
        return c.kind() == ShaderOutputs.Comparison.Kind.KEPT;
    }

    /** A run that tracks where NaNs of open bits go, so it can be compared under the NaN contract. */
    static ShaderOutputs run(Shader s, long seed) {
        Interpreter it = new Interpreter(s).trackNans();
        var in = RandomProgramGenerator.randomInputs(s, seed);
        return s.stage() == Stage.COMPUTE ? it.dispatch(in, 2, 1, 1) : it.run(in);
    }
}
