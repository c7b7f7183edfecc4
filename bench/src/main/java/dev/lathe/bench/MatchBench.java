package dev.lathe.bench;

import dev.lathe.bench.grown.GrownRules;
import dev.lathe.generated.AlgebraicRules;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.analysis.range.RangeAnalysis;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.Rewriter;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Matching alone: every ALU instruction of the {@link RewriteBench} function, already rewritten
 * to its fixpoint (with the grown rules, which hold the algebraic ones), is offered to the rule set once per invocation; no rule fires (the setup
 * checks it), so the IR never changes and what is timed is the matchers: reading the operands,
 * comparing ops and literals, and asking conditions of range facts computed beforehand (the
 * whole function analyzed in the setup; narrowing by branches is still applied per question).
 * This is the part of {@link RewriteBench} in which the generated matchers and the rule
 * interpreter differ; the rest of a rewrite pass (the driver's walk, building the
 * replacements, computing the facts) is the same for both. Run from the repository root.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class MatchBench {
    @Param({"generated", "interpreter", "grown"})
    public String rules;

    @Param({"10000", "100000"})
    public int size;

    private RuleSet ruleSet;
    private AluInstr[] roots;
    private Rewriter rewriter;

    @Setup(Level.Trial)
    public void prepare() throws IOException {
        RuleRootedFunction f = RuleRootedFunction.generate(size);
        CheckedFile checked = f.rules();
        Function fn = f.shader().entryPoint();
        // the grown rules hold the algebraic ones: their fixpoint is a fixpoint of all three sets
        new RewritePass(GrownRules.INSTANCE).run(fn);
        ruleSet = switch (rules) {
            case "generated" -> AlgebraicRules.INSTANCE;
            case "interpreter" -> new RuleInterpreter(checked);
            case "grown" -> GrownRules.INSTANCE;
            default -> throw new IllegalArgumentException("unknown rules parameter " + rules);
        };
        List<AluInstr> all = new ArrayList<>();
        for (Instr i : fn.instructions()) {
            if (i instanceof AluInstr a) all.add(a);
        }
        roots = all.toArray(new AluInstr[0]);
        rewriter = new Rewriter(fn, new RangeFacts(RangeAnalysis.run(fn)));
        if (offerAll() != -roots.length) throw new IllegalStateException("a rule fired on the fixpoint function");
        System.out.println("\n[setup] " + rules + ": " + ruleSet.rules().size() + " rules; " + roots.length
                + " ALU instructions offered per invocation");
    }

    @Benchmark
    public int offerAll() {
        int sum = 0;
        for (AluInstr root : roots) {
            rewriter.begin(root);
            sum += ruleSet.rewrite(root, rewriter);
        }
        return sum;
    }
}
