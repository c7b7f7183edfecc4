package dev.lathe.driver;

import dev.lathe.backend.compile.Target;
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
 * The one pass registry: every pass of the {@code ir} module, one rewrite pass per rule file
 * (named by its {@code pass NAME;}) — Lathe's own, generated from {@code rules/}, and any a user
 * adds — and the backend's machine passes ({@link #Passes(List)}: rule sets their build generated with {@code lathe-maven-plugin},
 * see {@link RuleJars}). Each rule pass shares one {@link RuleStats} across every time a pipeline
 * runs it, so a command can report which rules fired.
 *
 * <p>Public and stable: a compiler built on Lathe makes one of these, adds its rule sets, and
 * parses pipelines over {@link #registry()}.
 */
public final class Passes {
    private final PassRegistry registry = PassRegistry.standard();
    private final List<RuleStats> stats = new ArrayList<>();

    /** The {@code ir} module's passes and Lathe's own rule passes. */
    public Passes() {
        this(List.of());
    }

    /**
     * The {@code ir} module's passes, Lathe's own rule passes and a rule pass for each of
     * {@code extraRules}, in that order.
     *
     * @throws IllegalArgumentException when a rule set's pass name is already a pass's name
     */
    public Passes(List<RuleSet> extraRules) {
        // the target says what it lacks: the 64-bit lowerings lower that (fround_even, say, it has), its lowering rules
        // the rest, and its machine passes come last
        registry.replace("lower_doubles", () -> new LowerDoubles(Target.IR3_LIKE.lacks64()));
        registry.replace("lower_int64", () -> new LowerInt64(Target.IR3_LIKE.lacks64()));
        List<RuleSet> all = new ArrayList<>(GeneratedRules.all());
        all.addAll(Target.IR3_LIKE.loweringRules());
        all.addAll(extraRules);
        for (RuleSet rules : all) {
            RuleStats s = new RuleStats(rules);
            stats.add(s);
            registry.register(
                    rules.passName(),
                    () -> new RewritePass(rules, s, RewritePass.CACHED, Set.of(), Target.IR3_LIKE.ruleOptions()));
        }
        for (PassRegistry.Entry e : Target.IR3_LIKE.machinePasses()) registry.register(e);
    }

    /**
     * These passes with the rule pass of {@code rules.passName()} running {@code rules} instead
     * (another version of a rule file: an experiment, a benchmark).
     */
    public Passes replacing(RuleSet rules) {
        RuleStats s = new RuleStats(rules);
        stats.replaceAll(old -> old.ruleSet().passName().equals(rules.passName()) ? s : old);
        registry.replace(
                rules.passName(),
                () -> new RewritePass(rules, s, RewritePass.CACHED, Set.of(), Target.IR3_LIKE.ruleOptions()));
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
            registry.replace(
                    rules.passName(),
                    () -> new RewritePass(
                            rules, s, RewritePass.CACHED, Set.copyOf(names), Target.IR3_LIKE.ruleOptions()));
        }
        return this;
    }

    /** @throws IllegalArgumentException naming the first of {@code names} (in order) that no rule file of these passes has */
    public void checkRuleNames(Set<String> names) {
        Set<String> known = new TreeSet<>();
        for (RuleStats s : stats) for (RuleInfo i : s.ruleSet().rules()) known.add(i.name());
        for (String n : new TreeSet<>(names)) {
            if (!known.contains(n))
                throw new IllegalArgumentException(
                        "no rule named '" + n + "' (lathe rules check rules/*.rules prints every rule's name)");
        }
    }

    /** The passes by name, for {@link dev.lathe.ir.pass.Pipeline#parse}. */
    public PassRegistry registry() {
        return registry;
    }

    /** How often each rule fired, one entry per rule file. */
    public List<RuleStats> ruleStats() {
        return stats;
    }
}
