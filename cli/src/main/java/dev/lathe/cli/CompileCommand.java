package dev.lathe.cli;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.program.ProgramBinary;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Passes;
import dev.lathe.ir.text.IrPrinter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lathe compile FILE… [--emit asm|bin|stats|ir] [-o OUT]}: the backend. Several files are
 * compiled one after another in one process (a build or a cache warmer saves a JVM start per
 * shader); then {@code -o} names a directory, and a file that fails is reported without
 * stopping the others (the exit code says so at the end).
 */
@Command(
        name = "compile",
        mixinStandardHelpOptions = true,
        description = {
            "Compile shaders to machine code for the ir3-like target (backend/ISA.md).",
            "--emit asm prints the assembly (a .s program), bin writes the binary, stats prints the shader-db line, "
                    + "ir prints the IR the code was selected from.",
            "With several files, -o DIR writes DIR/NAME.s (.bin, .stats, .ir) for each; without -o, stats lines go to "
                    + "standard output and binaries next to their sources.",
            "--print-after PASS (an IR pass, or isel, regalloc, linearize, legalize), --print-after-all, --time-passes and --verify-each work as for lathe opt, over the IR and the machine passes.",
            "Example: lathe compile examples/ir/lambert.ir --emit asm --print-after regalloc",
            "Example: lathe compile examples/shaders/*.spv --emit stats"
        })
final class CompileCommand implements Callable<Integer> {
    enum Emit {
        asm(".s"),
        bin(".bin"),
        stats(".stats"),
        ir(".ir");

        final String extension;

        Emit(String extension) {
            this.extension = extension;
        }
    }

    @Spec
    CommandSpec spec;

    @Parameters(
            paramLabel = "FILE",
            arity = "1..*",
            description = "the shaders (.ir, .spv, .comp/.frag/.vert through glslangValidator)")
    List<Path> files;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(names = "--emit", paramLabel = "KIND", description = "asm (default), bin, stats or ir")
    Emit emit = Emit.asm;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "OUT",
            description = "write here instead of standard output (bin: default FILE.bin); "
                    + "with several files, a directory")
    Path output;

    @Option(
            names = "--passes",
            paramLabel = "LIST",
            description = "the IR pipeline before selection (default: the default pipeline)")
    String passes;

    @Option(
            names = "--rule-stats",
            description = "print how often each rule of the IR pipelines fired (the lowering's too), most frequent "
                    + "first, and the rules that never fired (to standard error), as lathe opt does")
    boolean ruleStats;

    @Mixin
    PassOptions passOptions = new PassOptions();

    @Mixin
    MachineSwitches machine = new MachineSwitches();

    @Mixin
    RuleSwitches rules = new RuleSwitches();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PassOptions o = passOptions;
        Compiler.Options options = rules.apply(
                Compiler.Options.defaults()
                        .withAllocation(machine.allocation("lathe compile"))
                        .withInstrumentation(o.settings(out)),
                "lathe compile");
        options = machine.apply(options.withPipeline(
                PassesOption.parse("lathe compile", passes, new Passes(options.extraRules()).registry())));
        ProgramFiles.checkOptions(options); // once: a wrong option is one error, not one per file
        if (files.size() == 1) {
            Path f = files.get(0);
            compileOne(
                    f,
                    output != null || emit != Emit.bin ? output : ProgramFiles.withExtension(f, emit.extension),
                    options,
                    out);
            return 0;
        }
        List<Path> targets = targets();
        int failed = 0;
        for (int i = 0; i < files.size(); i++) {
            try {
                compileOne(files.get(i), targets.get(i), options, out);
            } catch (CliException e) {
                PrintWriter err = spec.commandLine().getErr();
                err.println(e.getMessage());
                err.flush();
                failed++;
            }
        }
        if (failed > 0) throw new CliException("lathe compile: " + failed + " of " + files.size() + " files failed");
        return 0;
    }

    /**
     * Where each of several files goes: DIR/NAME.ext with {@code -o DIR}, else standard output
     * (null) for stats and FILE.bin for binaries; assembly and IR of several files need a directory.
     */
    private List<Path> targets() {
        if (output == null && (emit == Emit.asm || emit == Emit.ir)) {
            throw new CliException(
                    "lathe compile: --emit " + emit + " of several files needs -o DIR (one output file per shader)");
        }
        if (output != null) {
            if (Files.exists(output) && !Files.isDirectory(output)) {
                throw new CliException("lathe compile: -o " + output + ": with several files this must be a directory");
            }
            try {
                Files.createDirectories(output);
            } catch (IOException e) {
                throw new CliException(
                        "lathe compile: -o " + output + ": cannot create the directory: " + e.getMessage());
            }
        }
        List<Path> targets = new ArrayList<>();
        Map<Path, Path> taken = new HashMap<>();
        for (Path f : files) {
            Path t = output != null
                    ? output.resolve(
                            ProgramFiles.withExtension(f, emit.extension).getFileName())
                    : emit == Emit.bin ? ProgramFiles.withExtension(f, emit.extension) : null;
            if (t != null) {
                Path other = taken.putIfAbsent(t.toAbsolutePath().normalize(), f);
                if (other != null)
                    throw new CliException("lathe compile: " + other + " and " + f + " would both write " + t);
            }
            targets.add(t);
        }
        return targets;
    }

    /** Compiles one file and writes what --emit asks to {@code target} (standard output when null; never null for bin). */
    private void compileOne(Path file, Path target, Compiler.Options options, PrintWriter out) {
        PassOptions o = passOptions;
        Compiler.Result compiled = ProgramFiles.compileChecked(file, options, source);
        if (o.timePasses) PassTimes.print(compiled.timings(), spec.commandLine().getErr());
        if (ruleStats)
            OptCommand.printRuleStats(compiled.ruleStats(), spec.commandLine().getErr());
        MachineCompiler.Result r = compiled.machine();
        if (emit == Emit.bin) {
            ProgramFiles.write(target, ProgramBinary.write(r.program()));
            return;
        }
        String text = switch (emit) {
            case asm -> ProgramText.print(r.program());
            case stats -> r.stats().line(file.getFileName().toString()) + "\n";
            default -> IrPrinter.print(r.optimized());
        };
        if (target != null) ProgramFiles.write(target, text.getBytes(StandardCharsets.UTF_8));
        else {
            if (o.printing()) out.println("// final");
            out.print(text);
            out.flush();
        }
    }
}
