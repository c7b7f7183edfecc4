package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The Java half of {@code lathe rules import-nir}: Mesa's rules, as the dumper wrote them from
 * an evaluated {@code nir_opt_algebraic.py} (one row per rule: pass, source line, search,
 * replacement, condition, elements past it, and the dumper's problem with it), translated as a
 * pasted tuple is ({@link MesaTuples}) and compiled one by one. What compiles becomes one rule
 * file per NIR pass, each rule named after its tuple's line ({@code nir_1234}; the second rule a
 * loop makes on that line {@code nir_1234_2}) and citing it in the comment that ends its line,
 * which the generated matcher keeps. What does not is refused with its reason: a rule is
 * imported meaning what its tuple means, or not at all.
 */
public final class NirImport {
    private NirImport() {}

    /** The first line of every file the importer writes: what it is, and that it is regenerated. */
    public static final String HEADER = "# Imported by `lathe rules import-nir`";

    /** One rule of the dump. */
    public record Row(
            String pass, int line, String search, String replace, String condition, String extra, String problem) {
        /** The rule as nir_opt_algebraic.py writes it. */
        public String tuple() {
            return rule(true);
        }

        /** The tuple, with or without the elements past its condition (the translation reads none). */
        String rule(boolean withExtra) {
            return "(" + search + ", " + replace
                    + (condition.isEmpty()
                            ? ""
                            : ", '" + condition.replace("\\", "\\\\").replace("'", "\\'") + "'")
                    + (withExtra && !extra.isEmpty() ? ", " + extra : "") + ")";
        }
    }

    /**
     * A rule imported: its Lathe name and text, the tuple it is, NIR's test mark (or null), and
     * which file of its pass it is in: 0 the pass's own, 1 and up a file of the rules that can
     * never fire in the pass ({@code unreachable}: why), each file free of the rules that hide
     * its own ({@link #fileName(String, int)}).
     */
    public record Imported(
            String pass, int line, String name, String rule, String tuple, String mark, int layer, String unreachable) {
        Imported placed(int layer, String unreachable) {
            return new Imported(pass, line, name, rule, tuple, mark, layer, unreachable);
        }
    }

    /** A rule not imported, and why. */
    public record Refused(String pass, int line, String tuple, String reason) {}

    /** The import: the rules of each pass (in the file's order of passes) and the refusals. */
    public record Result(String source, Map<String, List<Imported>> passes, List<Refused> refused) {
        public int total() {
            int n = refused.size();
            for (List<Imported> p : passes.values()) n += p.size();
            return n;
        }

        public int imported() {
            return total() - refused.size();
        }
    }

    /** A dump the importer cannot read: a bug of the dumper, said with the row. */
    public static final class BadDump extends RuntimeException {
        BadDump(String message) {
            super(message);
        }
    }

    private static final Pattern PASS_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern MARK = Pattern.compile("nir_algebraic\\.(?:[A-Za-z_]+\\.)*TestStatus\\.([A-Za-z_]+)");

    /** The rows of a dump (a header line, then tab-separated rows with {@code \t \n \\} escaped). */
    public static List<Row> rows(String tsv) {
        List<Row> rows = new ArrayList<>();
        String[] lines = tsv.split("\n", -1);
        if (lines.length == 0 || !lines[0].startsWith("pass\tline\t")) throw new BadDump("the dump has no header line");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isEmpty()) continue;
            String[] f = lines[i].split("\t", -1);
            if (f.length != 7) throw new BadDump("row " + i + " of the dump has " + f.length + " columns, not 7");
            int line;
            try {
                line = f[1].isEmpty() ? 0 : Integer.parseInt(f[1]);
            } catch (NumberFormatException e) {
                throw new BadDump("row " + i + " of the dump has line '" + f[1] + "'");
            }
            rows.add(new Row(
                    unescape(f[0]),
                    line,
                    unescape(f[2]),
                    unescape(f[3]),
                    unescape(f[4]),
                    unescape(f[5]),
                    unescape(f[6])));
        }
        return rows;
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char d = s.charAt(++i);
                b.append(d == 't' ? '\t' : d == 'n' ? '\n' : d);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Translates and compiles every row; {@code source} is the file's name as rules cite it. */
    public static Result translate(List<Row> rows, String source) {
        Map<String, List<Imported>> passes = new LinkedHashMap<>();
        List<Refused> refused = new ArrayList<>();
        Map<Integer, Integer> perLine = new HashMap<>();
        for (Row row : rows) {
            List<Imported> pass = passes.computeIfAbsent(row.pass(), k -> new ArrayList<>());
            String reason = reason(row);
            if (reason != null) {
                refused.add(new Refused(row.pass(), row.line(), row.tuple(), reason));
                continue;
            }
            MesaTuples.Translation t = MesaTuples.translation(row.rule(false));
            if (t == null) {
                refused.add(new Refused(row.pass(), row.line(), row.tuple(), "the importer cannot read this tuple"));
                continue;
            }
            if (t.rule() == null) {
                refused.add(new Refused(row.pass(), row.line(), row.tuple(), t.refusal()));
                continue;
            }
            int k = perLine.merge(row.line(), 1, Integer::sum);
            String name = "nir_" + row.line() + (k > 1 ? "_" + k : "");
            RuleCompiler.Result r =
                    RuleCompiler.compile(source + ":" + row.line(), "pass t;\n" + name + ": " + t.rule() + "\n");
            if (!r.ok()) {
                refused.add(new Refused(
                        row.pass(),
                        row.line(),
                        row.tuple(),
                        "it does not compile: " + firstMessage(r.errors()) + " (translated as `" + t.rule() + "`)"));
                continue;
            }
            pass.add(new Imported(row.pass(), row.line(), name, t.rule(), row.tuple(), mark(row.extra()), 0, null));
        }
        Result result = new Result(source, passes, refused);
        for (var e : passes.entrySet()) e.setValue(layered(result, e.getKey(), e.getValue()));
        return result;
    }

    /** Past this many files of unreachable rules a pass's remaining rules are refused (no NIR file comes close). */
    private static final int MAX_LAYERS = 4;

    /**
     * The rules of a pass, each placed in the first of the pass's files where Lathe's checks
     * between rules accept it. NIR's matcher tries a pass's rules in order, as Lathe's does, so a
     * rule that duplicates an earlier one, or that an earlier one hides, never fires in NIR
     * either; Lathe's compiler refuses such a rule in a hand-written file (a mistake), and the
     * importer keeps it in a file of its own, so that it is still checked and proved and the
     * finding is said.
     */
    private static List<Imported> layered(Result result, String pass, List<Imported> rules) {
        List<Imported> placed = new ArrayList<>();
        List<Imported> remaining = rules;
        for (int layer = 0; !remaining.isEmpty(); layer++) {
            if (layer > MAX_LAYERS) {
                for (Imported r : remaining)
                    result.refused()
                            .add(new Refused(
                                    pass,
                                    r.line(),
                                    r.tuple(),
                                    "in NIR's pass it can never fire (" + r.unreachable() + "), and more than "
                                            + MAX_LAYERS + " files of such rules would be needed to keep it"));
                break;
            }
            List<Integer> lines = new ArrayList<>();
            String text = RuleSyntax.normalize(passFile(result.source(), pass, layer, remaining, lines));
            RuleSyntax.Result syntax = RuleSyntax.parse(pass, text);
            Checker.Result checked = Checker.check(syntax.file(), text);
            if (!syntax.errors().isEmpty() || !checked.errors().isEmpty()) {
                List<Diagnostic> errors = new ArrayList<>(syntax.errors());
                errors.addAll(checked.errors());
                throw new IllegalStateException("the importer wrote a pass file with errors its rules did not have"
                        + " alone: " + errors.get(0).render());
            }
            Map<Integer, String> rejected = new HashMap<>();
            for (var e :
                    StaticChecks.check(checked.checkedAlone(), text).rejected().entrySet())
                rejected.putIfAbsent(e.getKey().line(), e.getValue());
            List<Imported> next = new ArrayList<>();
            for (int i = 0; i < remaining.size(); i++) {
                Imported r = remaining.get(i);
                String why = rejected.get(lines.get(i));
                if (why == null) placed.add(r.placed(layer, r.unreachable()));
                else next.add(r.placed(layer + 1, r.unreachable() != null ? r.unreachable() : why));
            }
            remaining = next;
        }
        // in the file's order, whichever of the pass's files each is in
        Map<String, Imported> byName = new HashMap<>();
        for (Imported r : placed) byName.put(r.name(), r);
        List<Imported> ordered = new ArrayList<>();
        for (Imported r : rules) if (byName.containsKey(r.name())) ordered.add(byName.get(r.name()));
        return ordered;
    }

    /** Why a row cannot be a rule before it is translated, or null. */
    private static String reason(Row row) {
        if (!row.problem().isEmpty()) return row.problem();
        if (!PASS_NAME.matcher(row.pass()).matches())
            return "its pass's name '" + row.pass() + "' is not a name a rule file can have";
        if (row.line() <= 0) return "the dumper could not tell which line of the file makes it";
        if (!row.extra().isEmpty() && mark(row.extra()) == null)
            return "it has elements past its condition (" + row.extra() + ") that the importer does not know";
        return null;
    }

    /** NIR's test mark among the elements past the condition ({@code TestStatus.XFAIL}: XFAIL), or null. */
    private static String mark(String extra) {
        if (extra.isEmpty()) return null;
        var m = MARK.matcher(extra.trim());
        return m.matches() ? m.group(1) : null;
    }

    private static String firstMessage(List<Diagnostic> errors) {
        return errors.isEmpty() ? "(no message)" : errors.get(0).message();
    }

    /** The name of a pass's file: its own ({@code layer} 0), or its {@code k}th file of rules that never fire. */
    public static String fileName(String pass, int layer) {
        return layer == 0 ? pass : pass + "_unreachable" + (layer == 1 ? "" : Integer.toString(layer));
    }

    /** The text of one of a pass's rule files ({@link Imported#layer}). */
    public static String passFile(Result result, String pass, int layer) {
        List<Imported> rules = new ArrayList<>();
        for (Imported r : result.passes().get(pass)) if (r.layer() == layer) rules.add(r);
        return passFile(result.source(), pass, layer, rules, new ArrayList<>());
    }

    /** The file's text; {@code lines} gets the line of each rule. */
    private static String passFile(String source, String pass, int layer, List<Imported> rules, List<Integer> lines) {
        StringBuilder b = new StringBuilder(HEADER)
                .append(" from ")
                .append(source)
                .append(": NIR's pass ")
                .append(pass)
                .append(layer == 0 ? ", " : ", the ")
                .append(rules.size())
                .append(rules.size() == 1 ? " rule" : " rules")
                .append(layer == 0 ? ".\n" : " of it that can never fire.\n");
        if (layer > 0) {
            b.append("# NIR's matcher tries a pass's rules in order, so each of these is hidden by an earlier rule of")
                    .append(" the pass\n# (its comment says which). Lathe refuses such rules in a pass; they are")
                    .append(" kept here to be\n# checked and proved all the same.\n");
        }
        b.append("# Each rule is named after the line of its tuple, which the comment after it cites; REFUSED.md")
                .append(" lists\n# the tuples not imported. Import again rather than edit.\n")
                .append("pass ")
                .append(fileName(pass, layer))
                .append(";\n\n");
        int line = (int) b.chars().filter(c -> c == '\n').count() + 1;
        for (Imported r : rules) {
            lines.add(line++);
            b.append(r.name())
                    .append(": ")
                    .append(r.rule())
                    .append("  # ")
                    .append(fileName(source))
                    .append(':')
                    .append(r.line())
                    .append(r.mark() == null ? "" : ", marked " + r.mark() + " by NIR")
                    .append(layer == 0 || r.unreachable() == null ? "" : "; " + r.unreachable())
                    .append('\n');
        }
        return b.toString();
    }

    /** The text of REFUSED.md: the count by reason, then every refused tuple by pass. */
    public static String refusedFile(Result result) {
        String file = fileName(result.source());
        StringBuilder b = new StringBuilder("# Rules of ").append(file).append(" not imported\n\n");
        b.append(HEADER.substring(2))
                .append(" from ")
                .append(result.source())
                .append(": ")
                .append(result.refused().size())
                .append(" of its ")
                .append(result.total())
                .append(" rules are not imported, each for the reason given. Lathe imports a rule meaning what its")
                .append(" tuple means, or not at all.\n\n");
        Map<String, Integer> byReason = new TreeMap<>();
        for (Refused r : result.refused()) byReason.merge(kind(r.reason()), 1, Integer::sum);
        List<Map.Entry<String, Integer>> reasons = new ArrayList<>(byReason.entrySet());
        reasons.sort((x, y) -> y.getValue() - x.getValue());
        if (!reasons.isEmpty()) {
            b.append("| rules | reason |\n|---:|---|\n");
            for (var e : reasons)
                b.append("| ")
                        .append(e.getValue())
                        .append(" | ")
                        .append(cell(e.getKey()))
                        .append(" |\n");
        }
        String pass = null;
        for (Refused r : result.refused()) {
            if (!r.pass().equals(pass)) {
                pass = r.pass();
                b.append("\n## ").append(pass).append("\n\n");
            }
            b.append("- `")
                    .append(file)
                    .append(':')
                    .append(r.line())
                    .append("` ")
                    .append(r.reason().replace("\n", " "))
                    .append("\n  `")
                    .append(r.tuple().replace("`", "'").replace("\n", " "))
                    .append("`\n");
        }
        return b.toString();
    }

    /** A reason without its particulars past the first clause, so that like reasons count together. */
    private static String kind(String reason) {
        String k = reason.replaceAll(" \\(translated as `[^`]*`\\)$", "");
        return k.length() > 160 ? k.substring(0, 160) + "…" : k;
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    private static String fileName(String source) {
        int slash = Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\'));
        return source.substring(slash + 1);
    }

    /**
     * Writes one {@code PASS.rules} per pass and {@code REFUSED.md} into {@code dir} (made when
     * missing), after removing the rule files an earlier import wrote there (those that start
     * with {@link #HEADER}), so a pass the file no longer has does not linger.
     */
    public static List<Path> write(Result result, Path dir) {
        try {
            Files.createDirectories(dir);
            try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "*.rules")) {
                for (Path f : old) {
                    if (imported(f)) Files.delete(f);
                }
            }
            List<Path> written = new ArrayList<>();
            for (var e : result.passes().entrySet()) {
                int layers = 0;
                for (Imported r : e.getValue()) layers = Math.max(layers, r.layer());
                for (int layer = 0; layer <= layers; layer++) {
                    Path f = dir.resolve(fileName(e.getKey(), layer) + ".rules");
                    Files.writeString(f, passFile(result, e.getKey(), layer), StandardCharsets.UTF_8);
                    written.add(f);
                }
            }
            Path refused = dir.resolve("REFUSED.md");
            Files.writeString(refused, refusedFile(result), StandardCharsets.UTF_8);
            written.add(refused);
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a rule file is one the importer wrote (its first line is {@link #HEADER}…). */
    public static boolean imported(Path ruleFile) {
        try (var in = Files.newBufferedReader(ruleFile, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            return first != null && first.startsWith(HEADER);
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    /** {@link #imported}, for a file's text. */
    public static boolean imported(String text) {
        return text.startsWith(HEADER);
    }
}
