package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Measures how much of NIR's rule file Lathe can say: reads a table of evaluated NIR rules (one
 * per line: pass, source line, search, replacement, condition, as Python's repr writes them),
 * translates each tuple as a pasted one is ({@link MesaTuples}), compiles each translation as a
 * rule file of its own, and prints the counts and the reasons, most common first, with
 * {@code OUT.rules} (the rules that compile, one pass per NIR pass) and {@code OUT.refused}.
 *
 * <p>{@code java -cp … dev.lathe.rules.NirSurvey RULES.tsv OUT}. A measuring tool for the docs
 * (docs/NIR.md); the importer that runs NIR's Python itself is {@code lathe rules import-nir}.
 */
public final class NirSurvey {
    private NirSurvey() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: NirSurvey RULES.tsv OUT");
            System.exit(2);
        }
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        Map<String, Integer> refusals = new TreeMap<>(), errors = new TreeMap<>();
        Map<String, StringBuilder> passes = new TreeMap<>();
        StringBuilder refused = new StringBuilder();
        int total = 0, translated = 0, compiled = 0, unreadable = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            total++;
            String tuple =
                    "(" + f[2] + ", " + f[3] + (f[4].isEmpty() ? "" : ", '" + f[4].replace("'", "\\'") + "'") + ")";
            MesaTuples.Translation t = MesaTuples.translation(tuple);
            String where = f[0] + ":" + f[1];
            if (t == null) {
                unreadable++;
                refused.append(where).append("\tunreadable\t").append(tuple).append('\n');
                continue;
            }
            if (t.rule() == null) {
                refusals.merge(kind(t.refusal()), 1, Integer::sum);
                refused.append(where)
                        .append("\t")
                        .append(t.refusal())
                        .append('\t')
                        .append(tuple)
                        .append('\n');
                continue;
            }
            translated++;
            String name = "nir_" + f[1];
            RuleCompiler.Result r = RuleCompiler.compile(where, "pass t;\n" + name + ": " + t.rule() + "\n");
            if (r.ok()) {
                compiled++;
                passes.computeIfAbsent(f[0], k -> new StringBuilder("pass " + k + ";\n"))
                        .append("# nir_opt_algebraic.py:")
                        .append(f[1])
                        .append('\n')
                        .append(name)
                        .append("_")
                        .append(compiled)
                        .append(": ")
                        .append(t.rule())
                        .append('\n');
            } else {
                for (Diagnostic d : r.errors()) errors.merge(kind(d.message()), 1, Integer::sum);
                refused.append(where)
                        .append("\tcompile: ")
                        .append(r.errors().isEmpty() ? "?" : r.errors().get(0).message())
                        .append('\t')
                        .append(t.rule())
                        .append('\n');
            }
        }
        System.out.printf(
                "%d NIR rules: %d translated, %d refused, %d unreadable; %d compile (%.1f%%)%n",
                total, translated, total - translated - unreadable, unreadable, compiled, 100.0 * compiled / total);
        System.out.println("refused, by reason:");
        print(refusals);
        System.out.println("compile errors, by kind:");
        print(errors);
        StringBuilder all = new StringBuilder();
        for (StringBuilder p : passes.values()) all.append(p).append('\n');
        Files.writeString(Path.of(args[1] + ".rules"), all.toString());
        Files.writeString(Path.of(args[1] + ".refused"), refused.toString());
    }

    /** A message with its particulars (names, numbers) kept: the reasons group by their words. */
    private static String kind(String message) {
        return message.length() > 140 ? message.substring(0, 140) : message;
    }

    private static void print(Map<String, Integer> counts) {
        List<Map.Entry<String, Integer>> es = new ArrayList<>(counts.entrySet());
        es.sort((a, b) -> b.getValue() - a.getValue());
        for (var e : es.subList(0, Math.min(60, es.size()))) System.out.printf("%6d  %s%n", e.getValue(), e.getKey());
    }
}
