package dev.lathe.cli;

import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrPrinter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe print FILE.ir}: the canonical text. */
@Command(
        name = "print",
        mixinStandardHelpOptions = true,
        description = {
            "Print a shader in canonical form: values numbered %%0, %%1, … and blocks b0, b1, … "
                    + "in program order, constants in hex with their value as a comment. "
                    + "Printing the output again gives the same text."
        })
final class PrintCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", description = "the shader to print")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(names = "--no-validate", description = "print even if the IR breaks a validation rule")
    boolean noValidate;

    @Override
    public Integer call() {
        Shader s = noValidate ? ShaderFiles.parse(file, source) : ShaderFiles.load(file, source);
        spec.commandLine().getOut().print(IrPrinter.print(s));
        return 0;
    }
}
