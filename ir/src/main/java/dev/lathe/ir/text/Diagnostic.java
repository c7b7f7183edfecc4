package dev.lathe.ir.text;

/**
 * A located message about a text file: {@code file:line:col: severity: message}, rendered with
 * the offending source line and a caret under the column.
 */
public record Diagnostic(String file, int line, int column, String severity, String message, String sourceLine) {

    public static Diagnostic error(String file, int line, int column, String message, String sourceLine) {
        return new Diagnostic(file, line, column, "error", message, sourceLine);
    }

    /** The one-line form: {@code file:line:col: error: message}. */
    public String headline() {
        return file + ":" + line + ":" + column + ": " + severity + ": " + message;
    }

    /** The widest part of a source line shown under a message, in terminal columns; longer lines show a window. */
    private static final int SHOWN_WIDTH = 120;

    /**
     * The headline, then the source line and a caret (when the line is known). The column counts
     * Unicode characters (code points), as the rule and IR lexers do; the caret is placed by
     * terminal width, so that it stays under its character after wide characters (CJK, fullwidth
     * forms, emoji: two columns each) and combining marks (none). Tabs show as one space, control
     * and invisible format characters as '?', so every character on the line has a visible cell.
     * A line wider than {@value #SHOWN_WIDTH} columns shows the part around the caret, marked
     * with "...".
     */
    public String render() {
        if (sourceLine == null) return headline();
        int[] cps = sourceLine.codePoints().toArray();
        int[] at = new int[cps.length + 1]; // at[k]: the terminal column where character k starts
        for (int k = 0; k < cps.length; k++) at[k + 1] = at[k] + width(shown(cps[k]));
        int caret = Math.max(0, Math.min(column - 1, cps.length));
        int from = 0, to = cps.length;
        if (at[cps.length] > SHOWN_WIDTH) {
            while (from < caret && at[caret] - at[from] > SHOWN_WIDTH / 2) from++;
            while (from > 0 && at[cps.length] - at[from - 1] <= SHOWN_WIDTH) from--;
            to = from;
            while (to < cps.length && at[to + 1] - at[from] <= SHOWN_WIDTH) to++;
        }
        StringBuilder line = new StringBuilder();
        if (from > 0) line.append("...");
        for (int k = from; k < to; k++) line.appendCodePoint(shown(cps[k]));
        if (to < cps.length) line.append("...");
        int pad = at[caret] - at[from] + (from > 0 ? 3 : 0);
        return headline() + "\n  " + line + "\n  " + " ".repeat(pad) + '^';
    }

    /**
     * A character as a message names it: {@code '$'}; a non-ASCII one with its code point too,
     * {@code '＄' (U+FF04)}; a control character by its code point alone.
     */
    public static String describeChar(int cp) {
        String code = String.format("U+%04X", cp);
        if (cp < 0x20 || cp == 0x7F) return code;
        return cp < 0x80 ? "'" + (char) cp + "'" : "'" + Character.toString(cp) + "' (" + code + ")";
    }

    /** How a character of the source line is shown: tabs as a space, what has no visible cell as '?'. */
    private static int shown(int cp) {
        if (cp == '\t') return ' ';
        if (cp < 0x20 || cp == 0x7F) return '?';
        int type = Character.getType(cp);
        if (type == Character.FORMAT
                || type == Character.SURROGATE
                || type == Character.UNASSIGNED
                || type == Character.PRIVATE_USE
                || type == Character.CONTROL) return '?';
        return cp;
    }

    /**
     * Terminal columns of a shown character: none for combining marks, two for East Asian wide
     * and fullwidth characters and emoji (the main blocks of Unicode's EastAsianWidth W and F
     * classes), one otherwise.
     */
    static int width(int cp) {
        int type = Character.getType(cp);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK) return 0;
        boolean wide = (cp >= 0x1100 && cp <= 0x115F)
                || (cp >= 0x2E80 && cp <= 0x303E)
                || (cp >= 0x3041 && cp <= 0x33FF)
                || (cp >= 0x3400 && cp <= 0x4DBF)
                || (cp >= 0x4E00 && cp <= 0x9FFF)
                || (cp >= 0xA000 && cp <= 0xA4CF)
                || (cp >= 0xAC00 && cp <= 0xD7A3)
                || (cp >= 0xF900 && cp <= 0xFAFF)
                || (cp >= 0xFE30 && cp <= 0xFE4F)
                || (cp >= 0xFF00 && cp <= 0xFF60)
                || (cp >= 0xFFE0 && cp <= 0xFFE6)
                || (cp >= 0x1F300 && cp <= 0x1F64F)
                || (cp >= 0x1F900 && cp <= 0x1F9FF)
                || (cp >= 0x20000 && cp <= 0x3FFFD);
        return wide ? 2 : 1;
    }

    /** The {@code line}-th (1-based) line of {@code text}, or null. */
    public static String lineOf(String text, int line) {
        if (text == null || line < 1) return null;
        int start = 0;
        for (int l = 1; l < line; l++) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) return null;
            start = nl + 1;
        }
        int end = text.indexOf('\n', start);
        String s = end < 0 ? text.substring(start) : text.substring(start, end);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public String toString() {
        return headline();
    }
}
