package dev.lathe.bench;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.compile.Target;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
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
 * The whole backend pipeline (IR optimization with the rules, scalarization, selection,
 * register allocation, linearization, legalization, statistics) on one generated function of
 * about {@code size} instructions, of the ops the target selects, 32-bit values, operands drawn
 * from the last {@code window} values (24: the program fits the register file without spilling;
 * 0: from every value made, so MaxLive grows with the size, into the thousands at 100,000, and
 * register allocation spills).
 * Single-shot, on a freshly parsed copy each iteration, like {@link PipelineBench}. Divide by
 * the instruction count printed at setup for the time per IR instruction.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 20)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class CompileBench {
    @Param({"1000", "10000", "100000"})
    public int size;

    @Param({"24", "0"})
    public int window;

    private String text;
    private Shader shader;

    @Setup(Level.Trial)
    public void generate() {
        Shader s = RandomProgramGenerator.generate(
                42,
                RandomProgramGenerator.Options.large(size)
                        .withWideSizes(false)
                        .withRandomOps(Target.IR3_LIKE.selectedOps())
                        .withWindow(window));
        text = IrPrinter.print(s);
        MachineCompiler.Result r = Compiler.compile(IrParser.parse("bench.ir", text));
        System.out.println("\n[setup] size " + size + ", window " + window + ": "
                + s.entryPoint().instructionCount() + " IR instructions, "
                + r.program().code().size() + " machine instructions, MaxLive "
                + r.stats().maxLive() + ", " + r.stats().spills() + " spills, "
                + r.stats().fills() + " fills");
    }

    @Setup(Level.Iteration)
    public void copy() {
        shader = IrParser.parse("bench.ir", text);
    }

    @Benchmark
    public MachineCompiler.Result compile() {
        return Compiler.compile(shader);
    }
}
