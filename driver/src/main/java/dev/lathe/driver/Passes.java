package dev.lathe.driver;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.generated.GeneratedRules;
import dev.lathe.ir.pass.LowerDoubles;
import dev.lathe.ir.pass.LowerInt64;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleInfo;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.rewrite.RuleStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one pass registry: every pass of the {@code ir} module and one rewrite pass per generated
 * rule file (named by its {@code pass NAME;}). Each rule pass shares one {@link RuleStats}
 * across every time a pipeline runs it, so a command can report which rules fired.
 */
public final class Passes {
    private final PassRegistry registry = PassRegistry.standard();
    private final List<RuleStats> stats = new ArrayList<>();

    public Passes() {
        // the 64-bit lowerings lower what this target lacks (fround_even, say, it has)
        registry.replace("lower_doubles", () -> new LowerDoubles(MachineCompiler.LACKS_64));
        registry.replace("lower_int64", () -> new LowerInt64(MachineCompiler.LACKS_64));
        for (RuleSet rules : GeneratedRules.all()) {
            RuleStats s = new RuleStats(rules);
            stats.add(s);
            registry.register(rules.passName(), () -> new RewritePass(rules, s));
        }
    }

    /**
     * These passes with the rule pass of {@code rules.passName()} running {@code rules} instead
     * (another version of a rule file: an experiment, a benchmark).
     */
    public Passes replacing(RuleSet rules) {
        RuleStats s = new RuleStats(rules);
        stats.replaceAll(old -> old.ruleSet().passName().equals(rules.passName()) ? s : old);
        registry.replace(rules.passName(), () -> new RewritePass(rules, s));
        return this;
    }

    /**
     * These passes with the rules named in {@code names} never applied, in whichever rule file
     * they are ({@code --disable-rules pack_hi,pack_lo}: an experiment measuring what rules do).
     *
     * @throws IllegalArgumentException naming a rule no rule file has
     */
    public Passes disabling(Set<String> names) {
        if (names.isEmpty()) return this;
        checkRuleNames(names);
        for (RuleStats s : stats) {
            RuleSet rules = s.ruleSet();
            registry.replace(rules.passName(), () -> new RewritePass(rules, s, RewritePass.CACHED, Set.copyOf(names)));
        }
        return this;
    }

    /** @throws IllegalArgumentException naming the first of {@code names} (in order) that no rule file has */
    public static void checkRuleNames(Set<String> names) {
        Set<String> known = new TreeSet<>();
        for (RuleSet r : GeneratedRules.all()) for (RuleInfo i : r.rules()) known.add(i.name());
        for (String n : new TreeSet<>(names)) {
            if (!known.contains(n)) throw new IllegalArgumentException("no rule named '" + n + "' (lathe rules check rules/*.rules prints every rule's name)");
        }
    }

    public PassRegistry registry() {
        return registry;
    }

    /** How often each rule fired, one entry per rule file. */
    public List<RuleStats> ruleStats() {
        return stats;
    }

    /** The generated rule set of the rule file whose pass is {@code name}, or null. */
    public static RuleSet ruleSet(String name) {
        for (RuleSet r : GeneratedRules.all()) if (r.passName().equals(name)) return r;
        return null;
    }
}
