package dev.lathe.cli;

import dev.lathe.backend.program.Program;
import dev.lathe.backend.program.ProgramText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe disasm FILE.bin [-o FILE.s]}: prints the assembly of a binary. */
@Command(
        name = "disasm",
        mixinStandardHelpOptions = true,
        description = {
            "Print the assembly text of a binary (.bin); assembling it again gives the same binary.",
            "Example: lathe disasm sum_loop.bin"
        })
final class DisasmCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.bin", description = "the binary")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "OUT.s",
            description = "write the text here instead of standard output")
    Path output;

    @Override
    public Integer call() {
        if (!file.toString().endsWith(".bin"))
            throw new CliException(file + ": unsupported input (expected a .bin binary)");
        Program p = ProgramFiles.load(file, source);
        String text = ProgramText.print(p);
        if (output != null) ProgramFiles.write(output, text.getBytes(StandardCharsets.UTF_8));
        else spec.commandLine().getOut().print(text);
        return 0;
    }
}
