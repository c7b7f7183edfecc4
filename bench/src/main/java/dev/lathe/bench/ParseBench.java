package dev.lathe.bench;

import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading IR text: the parser on the text of the function {@link PipelineBench} optimizes
 * (seed 42, {@code Options.large(size)}). Every other benchmark parses its input in an untimed
 * setup; this one times that step. Run with {@code -prof gc} for the bytes allocated per parse,
 * which also decide how far apart in memory the parsed IR's objects end up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ParseBench {
    @Param({"10000", "100000"})
    public int size;

    private String text;

    @Setup
    public void print() {
        Shader s = RandomProgramGenerator.generate(42, RandomProgramGenerator.Options.large(size));
        text = IrPrinter.print(s);
        System.out.println(
                "\n[setup] " + s.entryPoint().instructionCount() + " instructions, " + text.length() + " characters");
    }

    @Benchmark
    public Shader parse() {
        return IrParser.parse("bench.ir", text);
    }
}
