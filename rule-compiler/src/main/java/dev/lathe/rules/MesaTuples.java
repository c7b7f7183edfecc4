package dev.lathe.rules;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.Diagnostic;
import java.util.ArrayList;
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
 * {@code True}/{@code False}, swizzles ({@code 'a.xy'} in a replacement, {@code 'unpack_64_2x32.y'}
 * on a search op; NIR's implicit read of a variable's first components, in a smaller context,
 * is written as the swizzle it is). Names Mesa spells differently get Lathe's where the two agree on
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
                Translation tr = translation(text.substring(start, end));
                message = tr == null
                        ? general()
                        : tr.rule() != null
                                ? "this is a rule in the form of Mesa's nir_algebraic.py; Lathe writes it as "
                                        + tr.rule()
                                : "this is a rule in the form of Mesa's nir_algebraic.py, which Lathe cannot write as it"
                                        + " means: " + tr.refusal();
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

    /** {@code ignoreExact}: written as {@code ignore_exact(op, …)}. */
    private record Tuple(List<Item> items, boolean ignoreExact) implements Item {
        Tuple(List<Item> items) {
            this(items, false);
        }
    }

    private record Str(String value) implements Item {}

    private record Word(String text) implements Item {}

    /**
     * A tuple's translation: the Lathe rule that means what the tuple means, or why there is
     * none ({@code refusal}); never a rule that means something else.
     */
    record Translation(String rule, String refusal) {}

    /** Thrown where a tuple says something Lathe cannot say as written. */
    private static final class Refusal extends RuntimeException {
        Refusal(String reason) {
            super(reason, null, false, false);
        }
    }

    /** A rule's translation, or null when the tuple is not one this class can read. */
    static String translate(String tuple) {
        Translation t = translation(tuple);
        if (t == null) return null;
        return t.rule() != null ? t.rule() : null;
    }

    /** The tuple read and translated; null when it is not a tuple of two or three items this class can read. */
    static Translation translation(String tuple) {
        Tuple t;
        try {
            Reader r = new Reader(tuple);
            Item item = r.item(0);
            r.skipSpace();
            if (r.pos != tuple.length()
                    || !(item instanceof Tuple tt)
                    || tt.items().size() < 2
                    || tt.items().size() > 3) return null;
            t = tt;
        } catch (IllegalArgumentException e) {
            return null;
        }
        try {
            Writer w = new Writer();
            w.counts(t.items().get(0), t.items().get(1));
            String pattern = w.expr(t.items().get(0), true);
            String replacement = w.expr(t.items().get(1), false);
            if (pattern == null || replacement == null) return null;
            if (!pattern.contains("("))
                throw new Refusal("the search pattern is a bare variable, which no rule matches");
            if (t.items().size() == 3) w.gates(t.items().get(2));
            if (w.reassociating && w.ignoresExact)
                throw new Refusal("ignore_exact in a '~' rule (an op matched even where it may not be"
                        + " reassociated) has no Lathe form yet");
            StringBuilder sb = new StringBuilder(pattern)
                    .append(w.reassociating ? " ~~> " : " => ")
                    .append(replacement);
            List<String> conds = new ArrayList<>(w.conditions);
            conds.addAll(w.gates);
            if (!conds.isEmpty()) sb.append(" if ").append(String.join(", ", conds));
            sb.append(';');
            return new Translation(sb.toString(), null);
        } catch (Refusal e) {
            return new Translation(null, e.getMessage());
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
            String word = s.substring(start, pos);
            if (word.equals("ignore_exact") && pos < s.length() && s.charAt(pos) == '(') {
                // ignore_exact('feq', a, 0.0): the op may be matched on an exact instruction too; in an
                // exact rule every op may, so it reads as the op itself
                Item args = item(depth + 1);
                if (!(args instanceof Tuple t)) throw new IllegalArgumentException("ignore_exact");
                return new Tuple(t.items(), true);
            }
            return new Word(word);
        }
    }

    // NIR's '.y' after a search op's name (swizzle_y): the op's result read at component 1
    private static final Pattern OP =
            Pattern.compile("([~!])?([a-z_0-9]+)(?:@([0-9]+))?(?:\\(([a-z_0-9, -]*)\\))?(\\.y)?");
    // a variable's swizzle comes last, as NIR's _var_name_re has it: 'a(is_finite).xy'
    private static final Pattern VAR =
            Pattern.compile("(#)?([a-zA-Z_][a-zA-Z_0-9]*)(?:@(int|uint|float|bool)?([0-9]+)?)?(?:\\(([a-z_0-9, ]*)\\))?"
                    + "(\\.[xyzwa-p]+)?");

    /**
     * NIR's conditions on a variable whose meaning a Lathe condition states exactly (NIR's range
     * analysis classes a NaN apart from its range: is_not_negative holds for a NaN, while
     * is_a_number_not_negative is IEEE's {@code >= 0}); {@code %s} is the variable.
     */
    private static final java.util.Map<String, String> CONDITIONS = java.util.Map.ofEntries(
            java.util.Map.entry("is_pos_power_of_two", "is_power_of_two(%s), is_gt_zero(%s)"),
            java.util.Map.entry("is_zero", "is_zero(%s)"),
            java.util.Map.entry("is_not_zero", "is_not_zero(%s)"),
            java.util.Map.entry("is_finite", "is_finite(%s)"),
            java.util.Map.entry("is_a_number", "is_a_number(%s)"),
            java.util.Map.entry("is_finite_not_zero", "is_finite(%s), is_not_zero(%s)"),
            java.util.Map.entry("is_a_number_not_negative", "is_ge_zero(%s)"),
            java.util.Map.entry("is_a_number_not_positive", "is_le_zero(%s)"),
            java.util.Map.entry("is_a_number_gt_zero", "is_gt_zero(%s)"),
            java.util.Map.entry("is_a_number_lt_zero", "is_lt_zero(%s)"),
            java.util.Map.entry("is_ult_32", "ult_const(%s, 32)"),
            java.util.Map.entry("is_not_negative", "is_ge_zero_or_nan(%s)"),
            java.util.Map.entry("is_not_positive", "is_le_zero_or_nan(%s)"),
            java.util.Map.entry("is_gt_zero", "is_gt_zero_or_nan(%s)"),
            java.util.Map.entry("is_lt_zero", "is_lt_zero_or_nan(%s)"),
            java.util.Map.entry("is_nan", "is_nan(%s)"),
            java.util.Map.entry("is_any_comp_nan", "is_any_comp_nan(%s)"),
            java.util.Map.entry("is_negative_zero", "is_negative_zero(%s)"),
            java.util.Map.entry("is_gt_0_and_lt_1", "is_gt_0_and_lt_1(%s)"),
            java.util.Map.entry("is_zero_to_one", "is_zero_to_one(%s)"),
            java.util.Map.entry("is_odd", "is_odd(%s)"),
            java.util.Map.entry("is_lower_half_zero", "is_lower_half_zero(%s)"),
            java.util.Map.entry("is_upper_half_zero", "is_upper_half_zero(%s)"),
            java.util.Map.entry("is_lower_half_negative_one", "is_lower_half_negative_one(%s)"),
            java.util.Map.entry("is_upper_half_negative_one", "is_upper_half_negative_one(%s)"),
            java.util.Map.entry("is_bitcount2", "is_bitcount2(%s)"),
            java.util.Map.entry("is_16_bits", "is_16_bits(%s)"),
            java.util.Map.entry("is_2x_16_bits", "is_2x_16_bits(%s)"),
            java.util.Map.entry("is_neg2x_16_bits", "is_neg2x_16_bits(%s)"),
            java.util.Map.entry("is_not_const", "is_not_const(%s)"),
            java.util.Map.entry("is_not_const_zero", "is_not_const_zero(%s)"),
            java.util.Map.entry("is_not_const_and_not_fsign", "is_not_const_and_not_fsign(%s)"),
            java.util.Map.entry("is_fmul", "is_fmul(%s)"),
            java.util.Map.entry("is_not_fmul", "is_not_fmul(%s)"),
            java.util.Map.entry("is_ult_0xfffc07fc", "ult_const(%s, 0xfffc07fc)"),
            java.util.Map.entry("is_integral", "is_integral_or_nan(%s)"),
            java.util.Map.entry("is_neg_power_of_two", "is_neg_power_of_two_not_min(%s)"),
            java.util.Map.entry("is_first_5_bits_uge_2", "is_first_5_bits_uge_2(%s)"),
            java.util.Map.entry("is_5lsb_not_zero", "is_5lsb_not_zero(%s)"),
            java.util.Map.entry("is_const_bitmask", "is_const_bitmask(%s)"),
            java.util.Map.entry("is_unsigned_multiple_of_2", "is_unsigned_multiple_of(%s, 2)"),
            java.util.Map.entry("is_unsigned_multiple_of_4", "is_unsigned_multiple_of(%s, 4)"),
            java.util.Map.entry("is_unsigned_multiple_of_8", "is_unsigned_multiple_of(%s, 8)"),
            java.util.Map.entry("is_unsigned_multiple_of_16", "is_unsigned_multiple_of(%s, 16)"),
            java.util.Map.entry("is_unsigned_multiple_of_32", "is_unsigned_multiple_of(%s, 32)"),
            java.util.Map.entry("is_unsigned_multiple_of_64", "is_unsigned_multiple_of(%s, 64)"));

    /** NIR's conditions that a later Lathe may say, with what stands in the way now (none at present). */
    private static final java.util.Map<String, String> NOT_YET = java.util.Map.of();

    private static final class Writer {
        /**
         * The component count each variable occurrence is read at (0: the rule's width), worked
         * out from the op table as {@link ComponentCheck} does: NIR reads a variable used in a
         * smaller context through its first components, which a Lathe rule writes as a swizzle.
         */
        final java.util.IdentityHashMap<Item, Integer> readAt = new java.util.IdentityHashMap<>();
        /** Each variable's count where the pattern first reads it whole. */
        final java.util.Map<String, Integer> varCount = new java.util.HashMap<>();

        boolean reassociating;
        /** An op of the pattern is written ignore_exact(…): matched on exact instructions too. */
        boolean ignoresExact;
        /** How deep in its expression the op being written is (0: the root). */
        int level;

        final List<String> conditions = new ArrayList<>();
        final List<String> gates = new ArrayList<>();
        /** The pattern's constant variables ({@code '#b'}), so each later occurrence is written {@code #b} too. */
        final java.util.Set<String> constants = new java.util.HashSet<>();

        /** The op a tuple applies, or null when Lathe has none by that name (the writer refuses it). */
        private static Op opOf(Item item) {
            if (!(item instanceof Tuple t) || t.items().isEmpty() || !(t.items().get(0) instanceof Str s)) return null;
            var m = OP.matcher(s.value());
            if (!m.matches()) return null;
            try {
                return Op.byName(opName(m.group(2)));
            } catch (Refusal e) {
                return null;
            }
        }

        private static boolean swizzleY(Item item) {
            if (!(item instanceof Tuple t) || t.items().isEmpty() || !(t.items().get(0) instanceof Str s)) return false;
            var m = OP.matcher(s.value());
            return m.matches() && m.group(5) != null;
        }

        void counts(Item search, Item replace) {
            Op root = opOf(search);
            int rootComps = root != null && root.isHorizontal() ? root.output().components() : 0;
            if (rootComps == 0 && Math.min(widthBound(search), widthBound(replace)) == 1) rootComps = 1;
            visitCounts(search, rootComps, true);
            visitCounts(replace, rootComps, false);
        }

        /** The smallest count of a horizontal op read at the rule's width (its swizzle's length when it has one). */
        private static int widthBound(Item top) {
            int max = Integer.MAX_VALUE;
            java.util.ArrayDeque<Item> work = new java.util.ArrayDeque<>(List.of(top));
            while (!work.isEmpty()) {
                Item it = work.pop();
                if (!(it instanceof Tuple t)) continue;
                Op op = opOf(t);
                if (op != null && op.isHorizontal()) {
                    max = Math.min(max, swizzleY(t) ? 1 : op.output().components());
                    continue;
                }
                for (int k = 1; k < t.items().size(); k++) work.push(t.items().get(k));
            }
            return max;
        }

        private void visitCounts(Item item, int n, boolean pattern) {
            if (item instanceof Tuple t) {
                Op op = opOf(t);
                for (int k = 1; k < t.items().size(); k++) {
                    int i = k - 1;
                    int comps = op != null && op.isHorizontal() && i < op.numInputs()
                            ? op.input(i).components()
                            : n;
                    visitCounts(t.items().get(k), comps, pattern);
                }
                return;
            }
            String text = item instanceof Str s ? s.value() : ((Word) item).text();
            var m = VAR.matcher(text);
            if (!m.matches()) return;
            readAt.put(item, n);
            if (pattern && m.group(6) == null) varCount.putIfAbsent(m.group(2), n);
        }

        String expr(Item item, boolean pattern) {
            if (item instanceof Tuple t) {
                if (t.items().isEmpty() || !(t.items().get(0) instanceof Str opText)) return null;
                var m = OP.matcher(opText.value());
                if (!m.matches()) return null;
                if ("!".equals(m.group(1)) && pattern)
                    throw new Refusal("'!" + m.group(2) + "' on a search op has no meaning in NIR either");
                if ("~".equals(m.group(1))) {
                    if (!pattern) throw new Refusal("'~' on a replacement op has no meaning in NIR either");
                    // NIR's '~': right where the instruction may be reassociated and contracted, as
                    // an identity over the real numbers: Lathe's ~~> (which asks it of every float
                    // op matched, where NIR asks it of the ops marked: it fires on no more)
                    reassociating = true;
                }
                if (t.ignoreExact() && pattern) ignoresExact = true;
                String name = opName(m.group(2));
                StringBuilder sb = new StringBuilder(name);
                List<String> flags = new ArrayList<>();
                boolean once = false;
                int lowBits = 0;
                List<String> uses = new ArrayList<>();
                if (m.group(4) != null) {
                    for (String raw : m.group(4).split(",")) {
                        String cond = raw.trim();
                        switch (cond) {
                            case "" -> {}
                            case "is_used_once" -> once = true;
                            case "is_only_used_as_float",
                                    "is_only_used_by_fadd",
                                    "is_only_used_by_iadd",
                                    "is_used_by_non_fsat",
                                    "is_not_used_by_if" -> uses.add(cond.substring(3));
                            case "only_lower_8_bits_used" -> lowBits = 8;
                            case "only_lower_16_bits_used" -> lowBits = 16;
                            case "nsz", "nnan", "ninf" -> flags.add(cond);
                            // newer Mesa's spelling of '~' on one op: right where it may be contracted
                            case "contract" -> {
                                if (!pattern)
                                    throw new Refusal("(contract) on a replacement op has no meaning in NIR either");
                                reassociating = true;
                            }
                            case "no_signed_wrap" -> flags.add("nsw");
                            case "no_unsigned_wrap" -> flags.add("nuw");
                            // a hint to NIR's generator (more commutative ops than its matcher unrolls)
                            case "many-comm-expr" -> {}
                            default ->
                                throw new Refusal(
                                        "NIR's condition " + cond + " on " + m.group(2) + " has no Lathe form yet");
                        }
                    }
                }
                if (!pattern && (once || !flags.isEmpty() || !uses.isEmpty()))
                    throw new Refusal("a condition on a replacement op (" + m.group(4) + ") has no Lathe form");
                if ("!".equals(m.group(1))) flags.add("exact"); // NIR's '!op': the instruction is built exact
                if (!flags.isEmpty())
                    sb.append('[').append(String.join(", ", flags)).append(']');
                if (m.group(3) != null) sb.append('@').append(m.group(3));
                sb.append('(');
                int myLevel = level++;
                for (int k = 1; k < t.items().size(); k++) {
                    String a = expr(t.items().get(k), pattern);
                    if (a == null) return null;
                    sb.append(k > 1 ? ", " : "").append(a);
                }
                level--;
                sb.append(')');
                if (once) sb.append("@once");
                for (String u : uses) sb.append('@').append(u);
                if (lowBits != 0) {
                    if (myLevel != 0 || !pattern)
                        throw new Refusal("only_lower_" + lowBits + "_bits_used on an inner op (not the root) has no"
                                + " Lathe form");
                    sb.append("@low").append(lowBits);
                }
                if (m.group(5) != null) {
                    if (!pattern) throw new Refusal("'.y' on a replacement op has no meaning in NIR either");
                    sb.append(".y"); // NIR's swizzle_y: the op's result read at component 1
                }
                return sb.toString();
            }
            if (item instanceof Str s) return variable(item, s.value(), pattern);
            String w = ((Word) item).text();
            if (w.equals("True")) return "true";
            // nir_opt_algebraic.py's own constants: NAN = math.nan, and Python's spellings
            if (w.equals("NAN") || w.equals("math.nan")) return "nan";
            if (w.equals("math.inf")) return "inf";
            if (w.equals("False")) return "false";
            if (Character.isDigit(w.charAt(0)) || w.startsWith("-") || w.startsWith("+") || w.startsWith(".")) return w;
            return variable(item, w, pattern);
        }

        private String variable(Item item, String text, boolean pattern) {
            var m = VAR.matcher(text);
            if (!m.matches()) return null;
            String swizzle = m.group(6);
            if (swizzle != null && pattern)
                throw new Refusal("a swizzled variable in a search pattern (" + text + ") has no Lathe form: a"
                        + " pattern binds variables whole");
            if (swizzle == null && !pattern) {
                // NIR reads a variable in a smaller context through its first components: say so
                Integer k = varCount.get(m.group(2));
                Integer n = readAt.get(item);
                if (k != null && n != null && n > 0 && k > n)
                    swizzle = "." + dev.lathe.rules.model.Node.SWIZZLE_LETTERS.substring(0, n);
            }
            StringBuilder sb = new StringBuilder();
            // NIR marks a constant variable where it first appears; Lathe writes the mark each time
            if (pattern && (m.group(1) != null || constants.contains(m.group(2)))) {
                sb.append('#');
                constants.add(m.group(2));
            }
            String name = m.group(2);
            sb.append(name);
            // before any annotation: a@32.x would lex 32.x as a number
            if (swizzle != null) sb.append(swizzle);
            String type = m.group(3), bits = m.group(4);
            if (type != null && type.equals("bool")) {
                sb.append("@1"); // NIR's booleans are 1-bit
            } else if (type != null && bits != null) {
                sb.append('@')
                        .append(
                                switch (type) {
                                    case "int" -> "i";
                                    case "uint" -> "u";
                                    default -> "f";
                                })
                        .append(bits);
            } else if (type != null) {
                throw new Refusal("a type without a size (" + text + ") has no Lathe form: Lathe's annotations"
                        + " name both, as in a@f32");
            } else if (bits != null) {
                sb.append('@').append(bits);
            }
            if (m.group(5) != null) {
                if (!pattern) throw new Refusal("a condition on a replacement variable (" + text + ") means nothing");
                for (String cond : m.group(5).split(",")) {
                    String c = cond.trim();
                    if (c.isEmpty()) continue;
                    String lathe = CONDITIONS.get(c);
                    if (lathe != null) {
                        conditions.add(lathe.replace("%s", name));
                    } else if (NOT_YET.containsKey(c)) {
                        throw new Refusal(NOT_YET.get(c));
                    } else {
                        throw new Refusal("NIR's condition " + c + " has no Lathe form yet");
                    }
                }
            }
            return sb.toString();
        }

        /** NIR's third element, a C expression on options, the stage and float controls (see {@link NirGateExpr}). */
        void gates(Item cond) {
            String text = cond instanceof Str s ? s.value() : cond instanceof Word w ? w.text() : null;
            if (text == null) throw new Refusal("the rule's condition is not a string");
            try {
                String gate = NirGateExpr.translate(text.trim());
                if (!gate.isEmpty()) gates.add(gate);
            } catch (NirGateExpr.Unreadable e) {
                throw new Refusal("the rule's condition '" + text + "' has no Lathe gate: " + e.getMessage());
            }
        }

        /** Lathe's name for a NIR op: the same name, or the one op it names (b2f is b2f32); else a refusal. */
        private static String opName(String nir) {
            // an unsized conversion (u2f, b2f …) is Lathe's too: one rule per size that fits
            if (Op.byName(nir) != null || !SizeFamilies.members(nir).isEmpty()) return nir;
            // the same op by another name: NIR's conversions to a boolean are 1-bit
            String same = switch (nir) {
                case "fsaturate" -> "fsat";
                case "f2b", "f2b1" -> "f2b1";
                case "i2b", "i2b1" -> "i2b1";
                default -> null;
            };
            if (same != null && Op.byName(same) != null) return same;
            String vendor = privateTo(nir);
            if (vendor != null)
                throw new Refusal(nir + " is private to NIR's " + vendor + " backend, which Lathe does not target");
            throw new Refusal("Lathe has no op " + nir);
        }

        /** The backend a NIR op belongs to alone ({@code usadd_4x8_vc4}: vc4), or null. */
        private static String privateTo(String nir) {
            if (nir.endsWith("_vc4")) return "vc4";
            if (nir.endsWith("_dxil")) return "DXIL";
            if (nir.endsWith("_amd")) return "AMD";
            if (nir.endsWith("_agx")) return "AGX";
            if (nir.endsWith("_mdg")) return "Midgard";
            return null;
        }
    }
}
