package dev.lathe.rules;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.text.Diagnostic;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Rules pasted from Mesa's {@code nir_opt_algebraic.py}, {@code (('fmul', a, 1.0), a),}: each
 * such tuple gets one error at its first parenthesis that says how Lathe writes it (the rule
 * translated, when the tuple is one this class can read), and its text is blanked out before
 * the rule grammar sees it, so that the quotes and commas inside do not give a dozen more
 * errors. A tuple starts a line with {@code ((} and a quote, which no Lathe rule can.
 *
 * <p>What is translated: op strings ({@code '~fadd'} makes the rule inexact, {@code 'op@32'} an
 * op size, {@code 'op(is_used_once)'} an {@code @once}), variable strings ({@code '#b'},
 * {@code 'a@32'}, {@code 'a(is_not_zero)'} a condition), bare variables, numbers and
 * {@code True}/{@code False}. Names Mesa spells differently get Lathe's where the two agree on
 * one op; anything else is kept as written, for the ordinary diagnostics to explain once the
 * translation is pasted in.
 */
final class MesaTuples {
    private MesaTuples() {}

    /** The text with the tuples blanked (same length, same line ends) and one error per tuple. */
    record Found(String text, List<Diagnostic> errors) {}

    static Found blank(String file, String original) {
        if (!original.contains("((")) return new Found(original, List.of());
        // Quotes a word processor curled read as Python's (one char for one: offsets stay).
        String text = original.replace('\u2018', '\'')
                .replace('\u2019', '\'')
                .replace('\u201C', '"')
                .replace('\u201D', '"');
        StringBuilder out = null;
        List<Diagnostic> errors = new ArrayList<>();
        List<int[]> python = new ArrayList<>(); // {line, start, end} of Python lines around the tuples
        boolean inBlock = false; // inside a /* comment: what looks like a tuple there is a comment
        int line = 1;
        for (int lineStart = 0; lineStart < text.length(); ) {
            int lineEnd = text.indexOf('\n', lineStart);
            if (lineEnd < 0) lineEnd = text.length();
            int start = inBlock ? -1 : tupleStart(text, lineStart, lineEnd);
            if (start < 0) {
                if (!inBlock
                        && PYTHON_LINE
                                .matcher(text.substring(lineStart, lineEnd))
                                .matches()) {
                    python.add(new int[] {line, lineStart, lineEnd});
                }
                inBlock = commentStateAfter(text, lineStart, lineEnd, inBlock);
                lineStart = lineEnd + 1;
                line++;
                continue;
            }
            int end = tupleEnd(text, start); // exclusive; -1: unbalanced
            String message;
            if (end < 0) {
                end = lineEnd;
                message = general();
            } else {
                String rule = translate(text.substring(start, end));
                message = rule == null
                        ? general()
                        : "this is a rule in the form of Mesa's nir_algebraic.py; Lathe writes it as " + rule;
                // the comma that separates it from the next tuple goes with it
                int k = end;
                while (k < text.length() && (text.charAt(k) == ' ' || text.charAt(k) == '\t')) k++;
                if (k < text.length() && text.charAt(k) == ',') end = k + 1;
            }
            errors.add(Diagnostic.error(
                    file, line, text.codePointCount(lineStart, start) + 1, message, Diagnostic.lineOf(original, line)));
            if (out == null) out = new StringBuilder(original);
            for (int k = start; k < end; k++) {
                if (out.charAt(k) != '\n') out.setCharAt(k, ' ');
                else line++;
            }
            // the rest of the line the tuple ends on is read as usual
            int next = text.indexOf('\n', end);
            if (next < 0) break;
            inBlock = commentStateAfter(text, end, next, false);
            lineStart = next + 1;
            line++;
        }
        if (out == null) return new Found(original, List.of());
        // Beside pasted tuples, the Python that held them (a = 'a', optimizations = [, ]) is
        // one mistake a line, said once, not a lexer error a character.
        for (int[] py : python) {
            int i = skipSpace(text, py[1], py[2]);
            errors.add(Diagnostic.error(
                    file,
                    py[0],
                    text.codePointCount(py[1], i) + 1,
                    "this is Python from around Mesa's rules (a variable or the list that holds them); Lathe needs none: delete it",
                    Diagnostic.lineOf(original, py[0])));
            for (int k = py[1]; k < py[2]; k++) out.setCharAt(k, ' ');
        }
        errors.sort(Comparator.comparingInt(Diagnostic::line));
        return new Found(out.toString(), errors);
    }

    /**
     * The Python of nir_opt_algebraic.py around its tuples: {@code a = 'a'}, {@code optimizations
     * = [}, {@code optimizations.extend([}, {@code ]}, {@code ])} (with a trailing comment).
     */
    private static final Pattern PYTHON_LINE =
            Pattern.compile("\\s*(?:[A-Za-z_][A-Za-z_0-9]*\\s*=\\s*(?:'[^']*'|\"[^\"]*\")"
                    + "|[A-Za-z_][A-Za-z_0-9.]*\\s*(?:\\+?=\\s*\\[|\\.extend\\(\\s*\\[|\\(\\s*\\[)"
                    + "|\\]\\s*\\)?\\s*,?)\\s*(?:#.*)?");

    /**
     * Whether the text from {@code from} to {@code to} (one line) ends inside a block comment,
     * as the rule lexer reads comments: {@code /*} to the first {@code *}{@code /}, {@code //}
     * and {@code #} not followed by a name to the end of the line.
     */
    private static boolean commentStateAfter(String text, int from, int to, boolean inBlock) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (inBlock) {
                if (c == '*' && i + 1 < to && text.charAt(i + 1) == '/') {
                    inBlock = false;
                    i++;
                }
            } else if (c == '/' && i + 1 < to && text.charAt(i + 1) == '/') {
                return false;
            } else if (c == '#'
                    && (i + 1 >= to || !(Character.isLetter(text.charAt(i + 1)) || text.charAt(i + 1) == '_'))) {
                return false;
            } else if (c == '/' && i + 1 < to && text.charAt(i + 1) == '*') {
                inBlock = true;
                i++;
            }
        }
        return inBlock;
    }

    private static String general() {
        return "this looks like a rule in the form of Mesa's nir_algebraic.py; Lathe writes rules as "
                + "PATTERN => REPLACEMENT; (for example fmul(a, 1.0) => a;), see rules/README.md";
    }

    /** Where a tuple starts on the line: its first '(' when the line begins with '(', '(' and a quote; else -1. */
    private static int tupleStart(String text, int from, int to) {
        int i = skipSpace(text, from, to);
        if (i >= to || text.charAt(i) != '(') return -1;
        int j = skipSpace(text, i + 1, to);
        if (j >= to || text.charAt(j) != '(') return -1;
        int k = skipSpace(text, j + 1, to);
        return k < to && (text.charAt(k) == '\'' || text.charAt(k) == '"') ? i : -1;
    }

    private static int skipSpace(String text, int i, int to) {
        while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) i++;
        return i;
    }

    /** Just after the ')' that closes the '(' at {@code start} (strings skipped), or -1. */
    private static int tupleEnd(String text, int start) {
        int depth = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                int close = text.indexOf(c, i + 1);
                int nl = text.indexOf('\n', i + 1);
                if (close < 0 || (nl >= 0 && nl < close)) return -1;
                i = close;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i + 1;
            } else if (c == '#') {
                // a Python comment inside a tuple that spans lines
                int nl = text.indexOf('\n', i);
                if (nl < 0) return -1;
                i = nl;
            }
        }
        return -1;
    }

    // ---- a small reader of Python tuples, strings, numbers and names ---------------------------

    private sealed interface Item {}

    private record Tuple(List<Item> items) implements Item {}

    private record Str(String value) implements Item {}

    private record Word(String text) implements Item {}

    /** A rule's translation, or null when the tuple is not one this class can read. */
    static String translate(String tuple) {
        try {
            Reader r = new Reader(tuple);
            Item item = r.item(0);
            r.skipSpace();
            if (r.pos != tuple.length()
                    || !(item instanceof Tuple t)
                    || t.items().size() < 2
                    || t.items().size() > 3) return null;
            Writer w = new Writer();
            String pattern = w.expr(t.items().get(0), true);
            String replacement = w.expr(t.items().get(1), false);
            if (pattern == null || replacement == null) return null;
            StringBuilder sb = new StringBuilder(pattern)
                    .append(w.inexact ? " ~=> " : " => ")
                    .append(replacement);
            if (!w.conditions.isEmpty()) sb.append(" if ").append(String.join(", ", w.conditions));
            sb.append(';');
            for (String note : w.notes) sb.append(" (").append(note).append(')');
            if (t.items().size() == 3) {
                String cond = t.items().get(2) instanceof Str s
                        ? s.value()
                        : t.items().get(2) instanceof Word wd ? wd.text() : "…";
                sb.append(" (Lathe has no condition like '")
                        .append(cond)
                        .append("': the rule sets a pipeline runs are chosen with lathe opt --passes)");
            }
            return sb.toString();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) {
            this.s = s;
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (Character.isWhitespace(c)) {
                    pos++;
                } else if (c == '#') {
                    while (pos < s.length() && s.charAt(pos) != '\n') pos++;
                } else {
                    return;
                }
            }
        }

        Item item(int depth) {
            if (depth > 64) throw new IllegalArgumentException("too deep");
            skipSpace();
            if (pos >= s.length()) throw new IllegalArgumentException("end");
            char c = s.charAt(pos);
            if (c == '(') {
                pos++;
                List<Item> items = new ArrayList<>();
                while (true) {
                    skipSpace();
                    if (pos < s.length() && s.charAt(pos) == ')') {
                        pos++;
                        return new Tuple(items);
                    }
                    items.add(item(depth + 1));
                    skipSpace();
                    if (pos < s.length() && s.charAt(pos) == ',') {
                        pos++;
                    } else if (pos >= s.length() || s.charAt(pos) != ')') {
                        throw new IllegalArgumentException("expected , or )");
                    }
                }
            }
            if (c == '\'' || c == '"') {
                int close = s.indexOf(c, pos + 1);
                if (close < 0) throw new IllegalArgumentException("string");
                String v = s.substring(pos + 1, close);
                pos = close + 1;
                return new Str(v);
            }
            int start = pos;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || "_.-+".indexOf(s.charAt(pos)) >= 0))
                pos++;
            if (pos == start) throw new IllegalArgumentException("unexpected " + c);
            return new Word(s.substring(start, pos));
        }
    }

    private static final Pattern OP = Pattern.compile("(~)?([a-z_0-9]+)(?:@([0-9]+))?(?:\\(([a-z_, ]+)\\))?");
    private static final Pattern VAR =
            Pattern.compile("(#)?([a-zA-Z_][a-zA-Z_0-9]*)(?:@(int|uint|float|bool)?([0-9]+)?)?(?:\\(([a-z_, ]+)\\))?");

    private static final class Writer {
        boolean inexact;
        final List<String> conditions = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        String expr(Item item, boolean pattern) {
            if (item instanceof Tuple t) {
                if (t.items().isEmpty() || !(t.items().get(0) instanceof Str opText)) return null;
                var m = OP.matcher(opText.value());
                if (!m.matches()) return null;
                if (m.group(1) != null && pattern) inexact = true;
                StringBuilder sb = new StringBuilder(opName(m.group(2)));
                if (m.group(3) != null) sb.append('@').append(m.group(3));
                sb.append('(');
                for (int k = 1; k < t.items().size(); k++) {
                    String a = expr(t.items().get(k), pattern);
                    if (a == null) return null;
                    sb.append(k > 1 ? ", " : "").append(a);
                }
                sb.append(')');
                if (m.group(4) != null) {
                    for (String cond : m.group(4).split(",")) {
                        if (cond.trim().equals("is_used_once")) sb.append("@once");
                        // other conditions on an op have no Lathe form: the rule is read without them
                    }
                }
                return sb.toString();
            }
            if (item instanceof Str s) return variable(s.value(), pattern);
            String w = ((Word) item).text();
            if (w.equals("True")) return "true";
            if (w.equals("False")) return "false";
            if (Character.isDigit(w.charAt(0)) || w.startsWith("-") || w.startsWith("+") || w.startsWith(".")) return w;
            return variable(w, pattern);
        }

        private String variable(String text, boolean pattern) {
            var m = VAR.matcher(text);
            if (!m.matches()) return null;
            StringBuilder sb = new StringBuilder();
            if (m.group(1) != null && pattern) sb.append('#');
            String name = m.group(2);
            sb.append(name);
            String type = m.group(3), bits = m.group(4);
            if (type != null && bits != null) {
                sb.append('@')
                        .append(
                                switch (type) {
                                    case "int" -> "i";
                                    case "uint" -> "u";
                                    case "float" -> "f";
                                    default -> "";
                                })
                        .append(bits);
            } else if (bits != null) {
                sb.append('@').append(bits);
            }
            if (m.group(5) != null && pattern) {
                for (String cond : m.group(5).split(",")) {
                    String c = cond.trim();
                    if (c.isEmpty()) continue;
                    String advice = Suggest.conditionElsewhere(c);
                    if (Predicate.bySpelling(c) != null || advice == null) {
                        conditions.add(c + "(" + name + ")");
                    } else {
                        notes.add("Mesa's " + c + ": " + advice);
                    }
                }
            }
            return sb.toString();
        }

        /** Lathe's name for a Mesa op where there is exactly one; else the name as written. */
        private static String opName(String mesa) {
            if (Op.byName(mesa) != null) return mesa;
            // Mesa's unsized conversions from booleans: their 32-bit forms are the usual ones
            if (mesa.equals("b2i") || mesa.equals("b2f")) return mesa + "32";
            String s = Suggest.forOp(
                    mesa, Arrays.stream(Op.values()).map(Op::opName).toList());
            return s != null && s.matches("[a-z_0-9]+") ? s : mesa;
        }
    }
}
