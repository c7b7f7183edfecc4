package dev.lathe.cli;

import dev.lathe.backend.program.Program;
import dev.lathe.backend.program.ProgramBinary;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lathe asm FILE.s [-o FILE.bin]}: assembles a program. */
@Command(
        name = "asm",
        mixinStandardHelpOptions = true,
        description = {
            "Assemble a program (.s, see backend/ISA.md) into a binary (.bin).",
            "Example: lathe asm examples/asm/sum_loop.s -o sum_loop.bin"
        })
final class AsmCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FILE.s", description = "the assembly program")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "OUT.bin",
            description = "where to write the binary (default: FILE.bin)")
    Path output;

    @Override
    public Integer call() {
        if (!file.toString().endsWith(".s"))
            throw new CliException(file + ": unsupported input (expected a .s assembly file)");
        Program p = ProgramFiles.load(file, source);
        ProgramFiles.write(output != null ? output : ProgramFiles.withExtension(file, ".bin"), ProgramBinary.write(p));
        return 0;
    }
}
