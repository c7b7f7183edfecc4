package dev.lathe.cli;

import dev.lathe.backend.compile.Allocation;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Pipelines;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The compiler's switches ({@link Pipelines#SWITCHES}), as {@code lathe compile} and
 * {@code lathe shaderdb} spell them: each {@code --no-NAME} leaves out one part of the backend
 * (or loop unrolling), to measure what it does. The options are made from the table, so a new switch needs no code
 * here. Register allocation's budget and spilling choices ({@link Allocation}) come with them.
 */
@Command(modelTransformer = MachineSwitches.Declare.class)
final class MachineSwitches {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec; // the command this is mixed into, which holds the options

    /** Adds one {@code --no-NAME} flag per switch to the mixin (and so to every command it is mixed into). */
    static final class Declare implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            Pipelines.SWITCHES.forEach((name, sw) -> spec.addOption(OptionSpec.builder(option(name))
                    .type(boolean.class)
                    .description(sw.without())
                    .build()));
            return spec;
        }
    }

    private static String option(String name) {
        return "--no-" + name;
    }

    @Option(
            names = "--max-regs",
            paramLabel = "N",
            description = "let register allocation use only N vec4 registers, r0 to r(N-1) "
                    + "(1 to 48; default 48, the whole file): values that do not fit are spilled to private memory")
    int maxRegs = Allocation.MAX_REGS;

    @Option(
            names = "--no-reload-elision",
            description = "reload a spilled value for every instruction that reads it "
                    + "(by default a reloaded value stays in its register for the next readers)")
    boolean noReloadElision;

    @Option(
            names = "--spill-choice",
            paramLabel = "CHOICE",
            description = "which value leaves a full register file: next-use "
                    + "(default: the one read farthest ahead) or cost (i965's: the one whose reads weigh least)")
    String spillChoice = Allocation.SpillChoice.NEXT_USE.spelling();

    /** Register allocation's budget and choices; a CliException for a value out of range. */
    Allocation allocation(String command) {
        Allocation.SpillChoice c;
        try {
            c = Allocation.SpillChoice.parse(spillChoice);
        } catch (IllegalArgumentException e) {
            throw new CliException(command + ": --spill-choice: " + e.getMessage());
        }
        try {
            return new Allocation(maxRegs, !noReloadElision, c);
        } catch (IllegalArgumentException e) {
            throw new CliException(command + ": --max-regs: " + e.getMessage());
        }
    }

    /** The names of the switches turned off. */
    private Set<String> off() {
        Set<String> off = new TreeSet<>();
        for (String name : Pipelines.SWITCHES.keySet()) {
            Boolean on = spec.findOption(option(name)).getValue();
            if (Boolean.TRUE.equals(on)) off.add(name);
        }
        return off;
    }

    /** {@code options} with the switched-off parts left out of both pipelines (apply after choosing the IR pipeline). */
    Compiler.Options apply(Compiler.Options options) {
        return options.withSwitchesOff(off());
    }
}
