package dev.lathe.cli;

import dev.lathe.driver.fuzz.FuzzFailure;
import dev.lathe.driver.fuzz.FuzzTarget;
import dev.lathe.driver.fuzz.FuzzTargets;
import dev.lathe.driver.fuzz.Fuzzer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "fuzz",
        mixinStandardHelpOptions = true,
        description = {
            "Mutation fuzzing of what Lathe reads: ir (IR text), rules (rule files), spirv (SPIR-V binaries; with",
            "spirv-val installed, mutants it accepts are also compiled and checked against the interpreter), machine (binaries).",
            "A failure prints its case and writes the minimized input; run it again with --replay FILE.",
            "Example: lathe fuzz spirv --cases 20000 --seed 7"
        })
final class FuzzCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "TARGET", description = "ir, rules, spirv or machine")
    String target;

    @Option(names = "--cases", paramLabel = "N", description = "how many cases (default ${DEFAULT-VALUE})")
    long cases = 1000;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "the seed; case K of seed S is always the same input (default ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--first", paramLabel = "K", description = "the first case to run (default 0)")
    long first;

    @Option(
            names = "--corpus",
            paramLabel = "PATH",
            description =
                    "files or directories the mutations start from (default: the project's examples, rules or shaders)")
    List<Path> corpus = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "where minimized failures go (default ${DEFAULT-VALUE})")
    Path out = Path.of("fuzz-failures");

    @Option(
            names = "--time-limit",
            paramLabel = "MS",
            description = "each case's time limit in milliseconds (default ${DEFAULT-VALUE})")
    long timeLimit = 20_000;

    @Option(
            names = "--replay",
            paramLabel = "FILE",
            description = "run one input (a minimized failure) through the target's checks instead")
    Path replay;

    @Override
    public Integer call() throws IOException {
        if (!FuzzTargets.NAMES.contains(target)) {
            throw new CliException(
                    "lathe fuzz: unknown target '" + target + "' (one of " + String.join(", ", FuzzTargets.NAMES) + ")",
                    2);
        }
        if (cases < 1 || first < 0 || timeLimit < 1)
            throw new CliException("lathe fuzz: --cases and --time-limit must be positive, --first not negative", 2);
        List<Path> from = corpus.isEmpty() ? FuzzTargets.defaultCorpus(target, Path.of("")) : corpus;
        FuzzTarget t;
        try {
            t = FuzzTargets.create(target, from, true);
        } catch (IllegalArgumentException e) {
            throw new CliException("lathe fuzz: " + e.getMessage(), 2);
        }
        Fuzzer fuzzer = new Fuzzer(t, timeLimit, out);
        if (replay != null) {
            byte[] input = ProgramFiles.readBytes(replay);
            Object outcome = fuzzer.attempt(input);
            if (outcome instanceof FuzzFailure f) {
                spec.commandLine().getOut().println("FAILED " + replay + ": " + f.getMessage());
                return 1;
            }
            spec.commandLine().getOut().println(replay + ": " + outcome);
            return 0;
        }
        Fuzzer.Report report = fuzzer.run(seed, first, cases);
        spec.commandLine().getOut().print(report.text());
        return report.failures().isEmpty() ? 0 : 1;
    }
}
