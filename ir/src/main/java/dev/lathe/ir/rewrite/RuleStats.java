package dev.lathe.ir.rewrite;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** How often each rule of a rule set fired, across every run of its pass. */
public final class RuleStats {
    private final RuleSet rules;
    private final long[] fired;

    /** Zero counts for every rule of {@code rules}. */
    public RuleStats(RuleSet rules) {
        this.rules = rules;
        this.fired = new long[rules.rules().size()];
    }

    /** The rule set whose rules these counts are of. */
    public RuleSet ruleSet() {
        return rules;
    }

    void count(int rule) {
        fired[rule]++;
    }

    /** How often rule number {@code rule} (its index in {@link RuleSet#rules}) fired. */
    public long fired(int rule) {
        return fired[rule];
    }

    /** How many rewrites the rules made in all. */
    public long total() {
        long t = 0;
        for (long f : fired) t += f;
        return t;
    }

    /** One rule's count. */
    public record Entry(RuleInfo rule, long count) {}

    /** The rules that fired, most frequent first (ties in file order). */
    public List<Entry> firedMostFirst() {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < fired.length; i++) {
            if (fired[i] > 0) out.add(new Entry(rules.rules().get(i), fired[i]));
        }
        out.sort(Comparator.comparingLong(Entry::count).reversed());
        return out;
    }

    /** The rules that never fired, in file order. */
    public List<RuleInfo> neverFired() {
        List<RuleInfo> out = new ArrayList<>();
        for (int i = 0; i < fired.length; i++) {
            if (fired[i] == 0) out.add(rules.rules().get(i));
        }
        return out;
    }
}
