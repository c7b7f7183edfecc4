package dev.lathe.bench;

import dev.lathe.driver.Passes;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.util.Set;
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
 * The default optimization pipeline on one generated function of about {@code size}
 * instructions (ifs, loops, locals, vectors, mixed bit sizes).
 *
 * <p>Single-shot: each iteration parses a fresh copy of the program (untimed), then times one
 * run of the pipeline on it, as a compiler optimizes a shader it has just read. (Re-parsing in
 * an invocation-level setup and forcing a collection there moved the fresh IR into the old
 * generation and measured the collector's write barriers more than the passes.) Divide the
 * score by the instruction count printed at setup for the time per instruction; the ratio
 * between the two sizes shows whether any pass is super-linear.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 30)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class PipelineBench {
    /** The default pipeline without its rule passes: what this benchmark has measured since before the rules existed. */
    static final Pipeline CORE = Pipelines.OPTIMIZE.without(Set.of("algebraic", "late"));

    @Param({"10000", "100000"})
    public int size;

    private String text;
    private Shader shader;

    @Setup(Level.Trial)
    public void generate() {
        Shader s = RandomProgramGenerator.generate(42, RandomProgramGenerator.Options.large(size));
        text = IrPrinter.print(s);
        System.out.println("\n[setup] size " + size + ": " + s.entryPoint().instructionCount() + " instructions, "
                + s.entryPoint().blocks().size() + " blocks");
    }

    @Setup(Level.Iteration)
    public void copy() {
        shader = IrParser.parse("bench.ir", text);
    }

    @Benchmark
    public Shader defaultPipeline() {
        new PassManager(new Passes().registry(), PassInstrumentation.Settings.none()).run(shader, CORE);
        return shader;
    }
}
