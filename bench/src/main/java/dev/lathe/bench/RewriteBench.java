package dev.lathe.bench;

import dev.lathe.bench.grown.GrownRules;
import dev.lathe.generated.AlgebraicRules;
import dev.lathe.ir.Shader;
import dev.lathe.ir.analysis.range.RangeAnalysis;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedFile;
import java.io.IOException;
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
 * Rewriting one generated function of about 100,000 instructions to a fixpoint with the
 * algebraic rules, three ways:
 *
 * <ul>
 *   <li>{@code generated}: the generated matcher class;
 *   <li>{@code interpreter}: the rule interpreter on the same rules (the reference);
 *   <li>{@code grown}: the generated matchers of the rule set grown ten times by rules rooted
 *       at opcodes the function does not contain ({@code GrowRules});
 *   <li>{@code none}: no rules at all — the driver's own cost (building the CFG of the fresh
 *       function, the worklist, offering each instruction), which the other three share;
 *       subtracting it gives the time spent matching and rewriting.
 * </ul>
 *
 * The function's random arithmetic uses only ops that some algebraic rule is rooted at, so
 * every instruction is offered to real rules. Single-shot: each iteration parses a fresh copy
 * (untimed) and times one {@link RewritePass} run. Run from the repository root (it reads
 * {@code rules/algebraic.rules}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 25)
@Measurement(iterations = 30)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class RewriteBench {
    @Param({"generated", "interpreter", "grown", "none"})
    public String rules;

    @Param({"10000", "100000"})
    public int size;

    /**
     * Where the range facts come from: {@code in-pass}, computed by the pass as its conditions
     * ask (what the compiler does); {@code ready}, the whole function analyzed in the untimed
     * setup and handed to the pass (a pipeline that keeps its analysis up to date across
     * passes), so that the timed pass is matching, rewriting and keeping the facts current.
     * Only {@code in-pass} runs by default; {@code -p facts=ready} selects the other.
     */
    @Param({"in-pass"})
    public String facts;

    private String text;
    private RuleSet ruleSet;
    private Shader shader;
    private RangeFacts ready;

    @Setup(Level.Trial)
    public void prepare() throws IOException {
        RuleRootedFunction f = RuleRootedFunction.generate(size);
        CheckedFile checked = f.rules();
        Shader s = f.shader();
        text = IrPrinter.print(s);
        ruleSet = switch (rules) {
            case "generated" -> AlgebraicRules.INSTANCE;
            case "interpreter" -> new RuleInterpreter(checked);
            case "grown" -> GrownRules.INSTANCE;
            case "none" -> new RuleInterpreter(new CheckedFile("none", "none", List.of()));
            default -> throw new IllegalArgumentException("unknown rules parameter " + rules);
        };
        System.out.println("\n[setup] " + rules + ": " + ruleSet.rules().size() + " rules; function of "
                + s.entryPoint().instructionCount() + " instructions");
    }

    @Setup(Level.Iteration)
    public void copy() {
        shader = IrParser.parse("bench.ir", text);
        ready = switch (facts) {
            case "in-pass" -> null;
            case "ready" -> new RangeFacts(RangeAnalysis.run(shader.entryPoint()));
            default -> throw new IllegalArgumentException("unknown facts parameter " + facts);
        };
    }

    @Benchmark
    public Shader rewrite() {
        RewritePass pass = ready == null
                ? new RewritePass(ruleSet)
                : new RewritePass(ruleSet, new RuleStats(ruleSet), fn -> ready);
        pass.run(shader.entryPoint());
        return shader;
    }
}
