package dev.lathe.cli;

import dev.lathe.driver.Compiler;
import dev.lathe.driver.Passes;
import dev.lathe.driver.RuleJars;
import dev.lathe.ir.rewrite.RuleSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The rule passes a command runs: {@code --rules-jar JAR} adds the rule passes of a project built
 * with {@code lathe-maven-plugin} (its {@code pass NAME;} becomes a pass the pipeline can name),
 * and {@code --disable-rules NAME,…} runs them without the named rules, to measure what they do
 * ({@code --disable-rules pack_hi,pack_lo} on the fp64 shaders, the pack_double_2x32_split_y discussion of 2016, docs/BACKGROUND.md).
 */
final class RuleSwitches {
    @Option(
            names = "--rules-jar",
            paramLabel = "JAR",
            description = "also register the rule passes of this jar (or classes directory) "
                    + "built with lathe-maven-plugin; repeatable")
    List<Path> jars = List.of();

    @Option(
            names = "--disable-rules",
            paramLabel = "NAMES",
            split = ",",
            description = "never apply these rules (names as --rule-stats and "
                    + "lathe rules check print them), in whichever rule file they are")
    List<String> disabled = List.of();

    /** The passes: Lathe's, the jars', with the disabled rules off; a CliException naming the command on a bad jar or name. */
    Passes passes(String command) {
        Passes p = registry(command);
        return p.disabling(names(command, p));
    }

    /** {@code options} with the jars' rule sets and the disabled rules. */
    Compiler.Options apply(Compiler.Options options, String command) {
        List<RuleSet> extra = extraRules(command);
        return options.withRules(extra).withDisabledRules(names(command, registry(command, extra)));
    }

    private Passes registry(String command) {
        return registry(command, extraRules(command));
    }

    private static Passes registry(String command, List<RuleSet> extra) {
        try {
            return new Passes(extra);
        } catch (IllegalArgumentException e) {
            throw new CliException(command + ": --rules-jar: " + e.getMessage());
        }
    }

    private List<RuleSet> extraRules(String command) {
        List<RuleSet> sets = new ArrayList<>();
        for (Path jar : jars) {
            try {
                sets.addAll(RuleJars.load(jar));
            } catch (IllegalArgumentException e) {
                throw new CliException(command + ": --rules-jar " + e.getMessage());
            }
        }
        return sets;
    }

    private Set<String> names(String command, Passes passes) {
        Set<String> s = new LinkedHashSet<>(disabled);
        try {
            passes.checkRuleNames(s);
        } catch (IllegalArgumentException e) {
            throw new CliException(command + ": --disable-rules: " + e.getMessage());
        }
        return s;
    }
}
