package dev.lathe.cli;

import dev.lathe.generated.GeneratedRules;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.rewrite.RuleStats;
import java.util.ArrayList;
import java.util.List;

/**
 * Every pass the command line knows: the {@code ir} passes and one rewrite pass per generated
 * rule file (named by its {@code pass NAME;}). Each rule pass shares one {@link RuleStats}
 * across all the times a pipeline runs it, for {@code --rule-stats}.
 */
final class Passes {
    final PassRegistry registry = PassRegistry.standard();
    final List<RuleStats> stats = new ArrayList<>();

    Passes() {
        for (RuleSet rules : GeneratedRules.all()) {
            RuleStats s = new RuleStats(rules);
            stats.add(s);
            registry.register(rules.passName(), () -> new RewritePass(rules, s));
        }
    }
}
