package dev.lathe.bench;

import dev.lathe.driver.Passes;
import dev.lathe.ir.Block;
import dev.lathe.ir.Shader;
import dev.lathe.ir.analysis.range.RangeAnalysis;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.Pipeline;
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
 * The range analysis on one generated function of about {@code size} instructions with ifs and
 * nested loops, its locals already in SSA form (so loop-carried values are header phis, which
 * the analysis widens and narrows). The analysis does not change the IR, so one copy serves
 * every invocation. Setup prints the instruction and phi counts and how many transfer-function
 * evaluations the fixpoint took; divide the score by the instruction count for the time per
 * instruction.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class RangeAnalysisBench {
    @Param({"10000", "100000"})
    public int size;

    private Shader shader;

    @Setup(Level.Trial)
    public void generate() {
        shader = RandomProgramGenerator.generate(42, RandomProgramGenerator.Options.large(size));
        new PassManager(new Passes().registry(), PassInstrumentation.Settings.none())
                .run(shader, Pipeline.parse("vars_to_ssa"));
        int phis = 0;
        for (Block b : shader.entryPoint().blocks()) phis += b.phis().size();
        RangeAnalysis a = RangeAnalysis.run(shader.entryPoint());
        System.out.println("\n[setup] size " + size + ": " + shader.entryPoint().instructionCount() + " instructions, "
                + phis + " phis, " + shader.entryPoint().blocks().size() + " blocks, " + a.evaluations()
                + " evaluations to the fixpoint");
    }

    @Benchmark
    public RangeAnalysis analyze() {
        return RangeAnalysis.run(shader.entryPoint());
    }
}
