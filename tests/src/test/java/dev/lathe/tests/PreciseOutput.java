package dev.lathe.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole expected output of a golden file, kept at its end (Cranelift's {@code precise-output}):
 * a line {@code // PRECISE-OUTPUT:} and after it one {@code // | LINE} per output line. A test
 * compares the output with it line for line; run with {@code -Dlathe.bless} it writes the output
 * there instead, so a change that moves every golden is accepted by one command and reviewed as a
 * diff. A new golden gets its block the same way: write the marker line, then bless.
 */
final class PreciseOutput {
    private PreciseOutput() {}

    static final String MARKER = "// PRECISE-OUTPUT:";
    static final String LINE = "// | ";

    /** The command that rewrites the blocks, for messages. */
    static final String BLESS =
            "mvn -B -pl tests -am test -Dtest='CompileFiles,OptimizeFiles' -Dsurefire.failIfNoSpecifiedTests=false -Dlathe.bless";

    /** Whether this run rewrites the expected outputs ({@code -Dlathe.bless}, or {@code -Dlathe.bless=true}). */
    static boolean blessing() {
        String b = System.getProperty("lathe.bless");
        return b != null && !b.equals("false");
    }

    /** Whether {@code text} keeps a precise output. */
    static boolean wanted(String text) {
        return text.lines().anyMatch(l -> l.trim().equals(MARKER) || l.trim().startsWith(MARKER + " "));
    }

    /** The expected output lines {@code text} keeps after its marker. */
    static List<String> expected(String text) {
        List<String> out = new ArrayList<>();
        boolean after = false;
        for (String l : text.lines().toList()) {
            if (!after) {
                after = l.trim().startsWith(MARKER);
                continue;
            }
            if (l.startsWith(LINE)) out.add(l.substring(LINE.length()));
            else if (l.equals(LINE.trim())) out.add("");
        }
        return out;
    }

    /** {@code text} with its block after the marker holding {@code actual}. */
    static String blessed(String text, String actual) {
        StringBuilder sb = new StringBuilder();
        for (String l : text.lines().toList()) {
            sb.append(l).append('\n');
            if (l.trim().startsWith(MARKER)) break;
        }
        for (String l : actual.lines().toList())
            sb.append(l.isEmpty() ? LINE.trim() : LINE + l).append('\n');
        return sb.toString();
    }

    /**
     * Checks {@code actual} against the block of {@code file} (whose text is {@code text}), or
     * rewrites the block when blessing: null when it matches (or was written, or the file keeps
     * none), else where it first differs and how to accept it.
     */
    static String check(Path file, String text, String actual) throws IOException {
        return check(file, text, actual, blessing());
    }

    /** {@link #check(Path, String, String)}, blessing or not as {@code bless} says. */
    static String check(Path file, String text, String actual, boolean bless) throws IOException {
        if (!wanted(text)) return null; // a golden that keeps no precise output: its CHECK lines say it all
        if (bless) {
            String b = blessed(text, actual);
            if (!b.equals(text)) Files.writeString(file, b);
            return null;
        }
        List<String> want = expected(text), got = actual.lines().toList();
        for (int k = 0; k < Math.max(want.size(), got.size()); k++) {
            String w = k < want.size() ? want.get(k) : "(nothing)", g = k < got.size() ? got.get(k) : "(nothing)";
            if (!w.equals(g)) {
                return " precise output, line " + (k + 1) + ": expected '" + w + "', got '" + g
                        + "' (if the change is meant: " + BLESS + ")";
            }
        }
        return null;
    }
}
