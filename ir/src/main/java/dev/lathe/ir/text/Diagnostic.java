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

    /** The widest part of a source line shown under a message; longer lines show a window. */
    private static final int SHOWN_WIDTH = 120;

    /**
     * The headline, then the source line and a caret (when the line is known). Tabs and control
     * characters show as one space or '?' each, so the caret stays under the column; a line wider
     * than {@value #SHOWN_WIDTH} characters shows the part around the column, marked with "...".
     */
    public String render() {
        if (sourceLine == null) return headline();
        StringBuilder shown = new StringBuilder(sourceLine.length());
        for (int i = 0; i < sourceLine.length(); i++) {
            char ch = sourceLine.charAt(i);
            shown.append(ch == '\t' ? ' ' : ch < 0x20 || ch == 0x7F ? '?' : ch);
        }
        int caret = Math.max(0, Math.min(column - 1, shown.length()));
        if (shown.length() > SHOWN_WIDTH) {
            int from = Math.max(0, Math.min(caret - SHOWN_WIDTH / 2, shown.length() - SHOWN_WIDTH));
            int to = Math.min(shown.length(), from + SHOWN_WIDTH);
            String window = (from > 0 ? "..." : "") + shown.substring(from, to) + (to < shown.length() ? "..." : "");
            caret = caret - from + (from > 0 ? 3 : 0);
            shown = new StringBuilder(window);
        }
        StringBuilder sb = new StringBuilder(headline()).append('\n');
        sb.append("  ").append(shown).append('\n').append("  ");
        sb.append(" ".repeat(caret));
        sb.append('^');
        return sb.toString();
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
