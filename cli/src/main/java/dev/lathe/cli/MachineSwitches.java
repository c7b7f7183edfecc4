package dev.lathe.cli;

import dev.lathe.driver.Pipelines;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The machine pipeline's switches ({@link Pipelines#SWITCHES}), as {@code lathe compile} and
 * {@code lathe shaderdb} spell them: each {@code --no-NAME} leaves out one part of the backend,
 * to measure what it does. The options are made from the table, so a new switch needs no code
 * here.
 */
@Command(modelTransformer = MachineSwitches.Declare.class)
final class MachineSwitches {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec; // the command this is mixed into, which holds the options

    /** Adds one {@code --no-NAME} flag per switch to the mixin (and so to every command it is mixed into). */
    static final class Declare implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            Pipelines.SWITCHES.forEach((name, sw) -> spec.addOption(OptionSpec.builder(option(name)).type(boolean.class)
                    .description(sw.without()).build()));
            return spec;
        }
    }

    private static String option(String name) {
        return "--no-" + name;
    }

    /** The machine pipeline with the switched-off parts left out. */
    List<String> passes() {
        Set<String> off = new TreeSet<>();
        for (String name : Pipelines.SWITCHES.keySet()) {
            Boolean on = spec.findOption(option(name)).getValue();
            if (Boolean.TRUE.equals(on)) off.add(name);
        }
        return Pipelines.machine(off);
    }
}
