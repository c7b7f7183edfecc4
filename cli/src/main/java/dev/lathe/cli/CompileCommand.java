package dev.lathe.cli;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.program.ProgramBinary;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.text.IrPrinter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe compile FILE.ir [--emit asm|bin|stats|ir] [-o OUT]}: the backend. */
@Command(name = "compile", mixinStandardHelpOptions = true,
        description = {"Compile a shader to machine code for the ir3-like target (backend/ISA.md).",
                "--emit asm prints the assembly (a .s program), bin writes the binary, stats prints the shader-db line, "
                        + "ir prints the IR the code was selected from.",
                "--print-after PASS (an IR pass, or isel, regalloc, linearize, legalize), --print-after-all, --time-passes and --verify-each work as for lathe opt, over the IR and the machine passes.",
                "Example: lathe compile examples/ir/lambert.ir --emit asm --print-after regalloc"})
final class CompileCommand implements Callable<Integer> {
    enum Emit { asm, bin, stats, ir }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", description = "the shader")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(names = "--emit", paramLabel = "KIND", description = "asm (default), bin, stats or ir")
    Emit emit = Emit.asm;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write here instead of standard output (bin: default FILE.bin)")
    Path output;

    @Option(names = "--passes", paramLabel = "LIST", description = "the IR pipeline before selection (default: the default pipeline)")
    String passes;

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
        Compiler.Options options = Compiler.Options.defaults().withPipeline(passes).withMachine(machine.passes())
                .withAllocation(machine.allocation("lathe compile")).withDisabledRules(rules.names("lathe compile")).withVerify(o.verifyEach).withTrace(o.printAfterAll, o.printAfter, o.timePasses, out);
        Compiler.Result compiled = ProgramFiles.compile(file, options, source);
        if (o.timePasses) PassTimes.print(compiled.timings(), spec.commandLine().getErr());
        MachineCompiler.Result r = compiled.machine();
        if (emit == Emit.bin) {
            ProgramFiles.write(output != null ? output : ProgramFiles.withExtension(file, ".bin"), ProgramBinary.write(r.program()));
            return 0;
        }
        String text = switch (emit) {
            case asm -> ProgramText.print(r.program());
            case stats -> r.stats().line(file.getFileName().toString()) + "\n";
            default -> IrPrinter.print(r.optimized());
        };
        if (output != null) ProgramFiles.write(output, text.getBytes(StandardCharsets.UTF_8));
        else {
            if (o.printing()) out.println("// final");
            out.print(text);
            out.flush();
        }
        return 0;
    }
}
