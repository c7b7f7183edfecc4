package dev.lathe.cli;

import dev.lathe.driver.Passes;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code --disable-rules NAME,…}: the rule passes run without the named rules, to measure what
 * they do ({@code --disable-rules pack_hi,pack_lo} on the fp64 shaders, seed 003).
 */
final class RuleSwitches {
    @Option(names = "--disable-rules", paramLabel = "NAMES", split = ",", description = "never apply these rules (names as --rule-stats and "
            + "lathe rules check print them), in whichever rule file they are")
    List<String> disabled = List.of();

    /** The names; a CliException naming the command when one is no rule's. */
    Set<String> names(String command) {
        Set<String> s = new LinkedHashSet<>(disabled);
        try {
            Passes.checkRuleNames(s);
        } catch (IllegalArgumentException e) {
            throw new CliException(command + ": --disable-rules: " + e.getMessage());
        }
        return s;
    }
}
