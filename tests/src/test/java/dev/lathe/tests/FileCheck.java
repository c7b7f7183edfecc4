package dev.lathe.tests;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small FileCheck: ordered {@code CHECK:}, {@code CHECK-NEXT:} and {@code CHECK-NOT:} lines
 * matched against output text, line by line.
 *
 * <ul>
 *   <li>{@code CHECK: pat} — some later line contains pat; matching continues after it;
 *   <li>{@code CHECK-NEXT: pat} — the line right after the previous match contains pat;
 *   <li>{@code CHECK-NOT: pat} — no line between the previous match and the next positive match
 *       (or the end) contains pat.
 * </ul>
 *
 * A pattern is literal text with {@code {{regex}}} pieces, {@code [[NAME:regex]]} to capture a
 * variable and {@code [[NAME]]} to use one (captured on an earlier line or earlier in the same
 * pattern), so checks need not hard-code value numbers. A {@code CHECK-NOT} that uses a variable
 * nobody captured yet is an error, not a check that can never fire. Variable names are letters
 * and digits.
 */
final class FileCheck {
    enum Kind {
        CHECK,
        NEXT,
        NOT
    }

    record Check(Kind kind, String pattern, int line) {}

    /** The checks found in the comment lines of {@code text}. */
    static List<Check> parse(String text) {
        List<Check> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].trim();
            if (!l.startsWith("//")) continue;
            l = l.substring(2).trim();
            if (l.startsWith("CHECK-NEXT:"))
                out.add(new Check(Kind.NEXT, l.substring(11).trim(), i + 1));
            else if (l.startsWith("CHECK-NOT:"))
                out.add(new Check(Kind.NOT, l.substring(10).trim(), i + 1));
            else if (l.startsWith("CHECK:"))
                out.add(new Check(Kind.CHECK, l.substring(6).trim(), i + 1));
        }
        return out;
    }

    /** Null when every check holds, else a message naming the first check that failed. */
    static String verify(List<Check> checks, String output) {
        String[] lines = output.split("\n", -1);
        Map<String, String> vars = new HashMap<>();
        int pos = 0; // next line to search
        int lastMatch = -1;
        List<Check> pendingNots = new ArrayList<>();
        for (Check c : checks) {
            switch (c.kind()) {
                case NOT -> pendingNots.add(c);
                case CHECK -> {
                    int found = -1;
                    for (int i = pos; i < lines.length && found < 0; i++) {
                        if (match(c.pattern(), lines[i], vars, false)) found = i;
                    }
                    if (found < 0) return describe(c, "no line matches", lastMatch);
                    String bad = checkNots(pendingNots, lines, pos, found, vars);
                    if (bad != null) return bad;
                    pendingNots.clear();
                    match(c.pattern(), lines[found], vars, true);
                    lastMatch = found;
                    pos = found + 1;
                }
                case NEXT -> {
                    if (lastMatch < 0) return describe(c, "CHECK-NEXT needs an earlier CHECK", lastMatch);
                    int want = lastMatch + 1;
                    if (want >= lines.length || !match(c.pattern(), lines[want], vars, true)) {
                        return describe(
                                c,
                                "the next line is '" + (want < lines.length ? lines[want] : "<end>") + "'",
                                lastMatch);
                    }
                    String bad = checkNots(pendingNots, lines, pos, want, vars);
                    if (bad != null) return bad;
                    pendingNots.clear();
                    lastMatch = want;
                    pos = want + 1;
                }
            }
        }
        return checkNots(pendingNots, lines, pos, lines.length, vars);
    }

    private static String checkNots(List<Check> nots, String[] lines, int from, int to, Map<String, String> vars) {
        for (Check n : nots) {
            String undefined = undefinedVariable(n.pattern(), vars);
            if (undefined != null) {
                return "line " + n.line() + ": CHECK-NOT uses [[" + undefined + "]] before any CHECK captured it";
            }
            for (int i = from; i < to; i++) {
                if (match(n.pattern(), lines[i], vars, false)) {
                    return "line " + n.line() + ": CHECK-NOT: " + n.pattern() + " — but output line " + (i + 1)
                            + " has it: '" + lines[i].trim() + "'";
                }
            }
        }
        return null;
    }

    private static String describe(Check c, String why, int lastMatch) {
        return "line " + c.line() + ": " + (c.kind() == Kind.NEXT ? "CHECK-NEXT: " : "CHECK: ") + c.pattern() + " — "
                + why + (lastMatch >= 0 ? " (after output line " + (lastMatch + 1) + ")" : "");
    }

    /** A variable the pattern uses but neither captures itself nor finds in {@code vars}, or null. */
    private static String undefinedVariable(String pattern, Map<String, String> vars) {
        List<String> own = new ArrayList<>();
        Matcher m = PIECE.matcher(pattern);
        while (m.find()) {
            if (m.group(1) != null) continue;
            if (m.group(3) != null) own.add(m.group(2));
            else if (!own.contains(m.group(2)) && !vars.containsKey(m.group(2))) return m.group(2);
        }
        return null;
    }

    private static final Pattern PIECE = Pattern.compile("\\{\\{(.*?)}}|\\[\\[([A-Za-z_][A-Za-z0-9_]*)(?::(.*?))?]]");

    /** Whether {@code line} contains the pattern; with {@code bind}, captured variables are kept. */
    static boolean match(String pattern, String line, Map<String, String> vars, boolean bind) {
        StringBuilder regex = new StringBuilder();
        List<String> captures = new ArrayList<>();
        Matcher m = PIECE.matcher(pattern);
        int at = 0;
        while (m.find()) {
            regex.append(Pattern.quote(pattern.substring(at, m.start())));
            if (m.group(1) != null) {
                regex.append("(?:").append(m.group(1)).append(')');
            } else if (m.group(3) != null) {
                regex.append("(?<")
                        .append(m.group(2))
                        .append('>')
                        .append(m.group(3))
                        .append(')');
                captures.add(m.group(2));
            } else if (captures.contains(m.group(2))) {
                regex.append("\\k<").append(m.group(2)).append('>'); // captured earlier in this pattern
            } else {
                String v = vars.get(m.group(2));
                if (v == null) return false;
                regex.append(Pattern.quote(v));
            }
            at = m.end();
        }
        regex.append(Pattern.quote(pattern.substring(at)));
        Matcher lm = Pattern.compile(regex.toString()).matcher(line);
        if (!lm.find()) return false;
        if (bind) {
            for (String name : captures) vars.put(name, lm.group(name));
        }
        return true;
    }
}
