package dev.lathe.cli;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.interp.RunValues;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe run FILE.ir --input NAME=VALUES …}: the interpreter. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run a shader in the IR interpreter and print its outputs and buffers.",
            "Values are comma-separated: 1.5, -2, 0x3f800000 (raw bits), inf, nan, true.",
            "Anything not given reads as zero.",
            "Example: lathe run examples/ir/lambert.ir --input normal=0,0,1 --input light_dir=0,0.6,0.8"
        })
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", description = "the shader to run")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Mixin
    RunOptions run = new RunOptions();

    @Override
    public Integer call() {
        Shader s = ShaderFiles.load(file, source);
        try {
            ShaderInputs in = run.inputs(s);
            Interpreter interp = new Interpreter(s, run.iterationLimit);
            ShaderOutputs out;
            int[] g = run.dispatchCounts(s);
            if (g != null) {
                out = interp.dispatch(in, g[0], g[1], g[2]);
            } else {
                out = interp.run(in);
            }
            spec.commandLine().getOut().print(RunValues.format(s, out, run.hex));
            return 0;
        } catch (IllegalArgumentException e) {
            throw new CliException("lathe run: " + e.getMessage());
        } catch (InterpreterException e) {
            throw new CliException(file + ": " + e.getMessage());
        }
    }
}
