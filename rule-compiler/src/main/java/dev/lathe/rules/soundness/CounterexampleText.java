package dev.lathe.rules.soundness;

import dev.lathe.rules.model.CheckedRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An unsound verdict, counterexample and all, as one line of a cache file ({@link VerdictCache},
 * and {@link ProofCache} for a refutation): so a rule set whose wrong rules are known (NIR's) is
 * not sampled and refuted again on every run. The message is kept without the rule's position,
 * which is rebuilt from the rule, as for the other answers.
 */
final class CounterexampleText {
    private CounterexampleText() {}

    /** The verdict as a line (no newline), or null where it cannot be kept. */
    static String write(CheckedRule rule, Verdict v) {
        Verdict.Counterexample c = v.counterexample();
        String where = RuleProver.where(rule);
        if (c == null || !v.message().startsWith(where)) return null;
        List<String> classes = new ArrayList<>();
        for (int s : c.classSizes()) classes.add(Integer.toString(s));
        return String.join(
                "\t",
                v.kind().name(),
                Long.toString(v.checked()),
                v.sizes(),
                Integer.toString(c.bits()),
                Long.toString(c.pattern()),
                Long.toString(c.replacement()),
                Boolean.toString(c.opensNaN()),
                String.join(",", classes),
                pairs(c.inputs()),
                pairs(c.inputBits()),
                v.message().substring(where.length()).replace('\n', ' ').replace('\t', ' '));
    }

    private static String pairs(Map<String, ? extends Number> m) {
        List<String> out = new ArrayList<>();
        for (var e : new java.util.TreeMap<>(m).entrySet()) out.add(e.getKey() + "=" + e.getValue());
        return String.join(";", out);
    }

    /** The verdict a line written by {@link #write} holds, or null where it does not parse. */
    static Verdict read(CheckedRule rule, String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 11) return null;
        try {
            Verdict.Kind kind = Verdict.Kind.valueOf(f[0]);
            List<Integer> classes = new ArrayList<>();
            if (!f[7].isEmpty()) for (String s : f[7].split(",")) classes.add(Integer.parseInt(s));
            Map<String, Long> inputs = new LinkedHashMap<>();
            Map<String, Integer> bits = new LinkedHashMap<>();
            if (!f[8].isEmpty()) for (String p : f[8].split(";")) inputs.put(name(p), Long.parseLong(value(p)));
            if (!f[9].isEmpty()) for (String p : f[9].split(";")) bits.put(name(p), Integer.parseInt(value(p)));
            var cex = new Verdict.Counterexample(
                    Integer.parseInt(f[3]),
                    Map.copyOf(inputs),
                    Map.copyOf(bits),
                    Long.parseLong(f[4]),
                    Long.parseLong(f[5]),
                    List.copyOf(classes),
                    Boolean.parseBoolean(f[6]));
            return new Verdict(kind, rule.name(), RuleProver.where(rule) + f[10], Long.parseLong(f[1]), f[2], cex);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return null;
        }
    }

    private static String name(String pair) {
        return pair.substring(0, pair.indexOf('='));
    }

    private static String value(String pair) {
        return pair.substring(pair.indexOf('=') + 1);
    }
}
