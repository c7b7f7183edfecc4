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

    /** The headline, then the source line and a caret (when the line is known). */
    public String render() {
        if (sourceLine == null) return headline();
        StringBuilder sb = new StringBuilder(headline()).append('\n');
        String shown = sourceLine.replace('\t', ' ');
        sb.append("  ").append(shown).append('\n').append("  ");
        for (int i = 1; i < column && i <= shown.length(); i++) sb.append(' ');
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
