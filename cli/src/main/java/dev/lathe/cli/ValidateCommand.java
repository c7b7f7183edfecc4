package dev.lathe.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe validate FILE.ir…}: parse and run the validator. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = {
            "Check shaders: syntax, SSA dominance, use lists, op types and sizes, phis, jumps, "
                    + "control-flow structure. Prints 'FILE: ok' or every error with its location."
        })
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", arity = "1..*", description = "the shaders to check")
    Path[] files;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Override
    public Integer call() {
        int failed = 0;
        StringBuilder errors = new StringBuilder();
        for (Path f : files) {
            try {
                ShaderFiles.load(f, source);
                spec.commandLine().getOut().println(f + ": ok");
            } catch (CliException e) {
                failed++;
                if (errors.length() > 0) errors.append('\n');
                errors.append(e.getMessage());
            }
        }
        spec.commandLine().getOut().flush();
        if (failed > 0) throw new CliException(errors.toString());
        return 0;
    }
}
