package dev.lathe.ir.text;

/** Splits IR text into tokens on demand (the parser needs two of lookahead); comments are {@code //} to the end of the line and {@code /* … *}{@code /}. */
final class Lexer {
    private final String text;
    private final String file;
    private int pos;
    private int line = 1;
    private int lineStart;
    private String[] words = new String[256];
    private int wordCount;
    /** Columns count code points: the characters before {@link #countedTo} on this line that were low surrogates. */
    private int countedLine = -1, countedTo, lowSurrogates;

    Lexer(String file, String text) {
        this.file = file;
        this.text = text;
    }

    /** The next token; at the end, an EOF token (again on every further call). */
    Token nextToken() {
        skipSpaceAndComments();
        if (pos >= text.length()) return new Token(Token.Kind.EOF, "", line, column(pos));
        return next();
    }

    private IrSyntaxException error(int l, int col, String msg) {
        return new IrSyntaxException(Diagnostic.error(file, l, col, msg, Diagnostic.lineOf(text, l)));
    }

    private void skipSpaceAndComments() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '\n') {
                pos++;
                line++;
                lineStart = pos;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (c == '/' && pos + 1 < text.length() && text.charAt(pos + 1) == '/') {
                while (pos < text.length() && text.charAt(pos) != '\n') pos++;
            } else if (c == '/' && pos + 1 < text.length() && text.charAt(pos + 1) == '*') {
                int l = line, col = column(pos);
                pos += 2;
                while (true) {
                    if (pos + 1 >= text.length()) throw error(l, col, "unterminated comment");
                    if (text.charAt(pos) == '*' && text.charAt(pos + 1) == '/') {
                        pos += 2;
                        break;
                    }
                    if (text.charAt(pos) == '\n') {
                        line++;
                        lineStart = pos + 1;
                    }
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /**
     * The 1-based column of {@code p} on the current line, in code points (as the rule compiler's
     * lexer counts), so that a character outside the BMP before it counts once. Tokens come in
     * order, so the count goes on from the last call: linear in the line, however long.
     */
    private int column(int p) {
        if (countedLine != lineStart || p < countedTo) {
            countedLine = lineStart;
            countedTo = lineStart;
            lowSurrogates = 0;
        }
        for (; countedTo < p; countedTo++) {
            if (Character.isLowSurrogate(text.charAt(countedTo))) lowSurrogates++;
        }
        return p - lineStart + 1 - lowSurrogates;
    }

    private Token next() {
        int col = column(pos);
        char c = text.charAt(pos);
        if (c == '%' || c == '@') {
            int start = ++pos;
            while (pos < text.length() && isWordPart(text.charAt(pos))) pos++;
            if (pos == start) throw error(line, col, "expected a name after '" + c + "'");
            // Value names are mostly distinct: a table of them would cost more than it saves.
            return c == '%' ? new Token(Token.Kind.VALUE, text.substring(start, pos), line, col)
                    : new Token(Token.Kind.SYMBOL, word(start, pos), line, col);
        }
        if (Character.isDigit(c) || ((c == '-' || c == '+') && pos + 1 < text.length()
                && (Character.isDigit(text.charAt(pos + 1)) || text.startsWith("inf", pos + 1)
                || text.startsWith("nan", pos + 1)))) {
            return number(col);
        }
        if (isWordStart(c)) {
            int start = pos;
            while (pos < text.length() && isWordPart(text.charAt(pos))) pos++;
            return new Token(Token.Kind.IDENT, word(start, pos), line, col);
        }
        String punct = punctuation(c);
        if (punct != null) {
            pos++;
            return new Token(Token.Kind.PUNCT, punct, line, col);
        }
        throw error(line, col, "unexpected character " + Diagnostic.describeChar(text.codePointAt(pos)));
    }

    private Token number(int col) {
        int start = pos;
        if (text.charAt(pos) == '-' || text.charAt(pos) == '+') pos++;
        if (text.startsWith("inf", pos) || text.startsWith("nan", pos)) {
            pos += 3;
        } else if (text.startsWith("0x", pos) || text.startsWith("0X", pos)) {
            pos += 2;
            while (pos < text.length() && Character.digit(text.charAt(pos), 16) >= 0) pos++;
        } else {
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
            if (pos + 1 < text.length() && text.charAt(pos) == '.' && Character.isDigit(text.charAt(pos + 1))) {
                pos++;
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
            }
            if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
                int save = pos;
                pos++;
                if (pos < text.length() && (text.charAt(pos) == '-' || text.charAt(pos) == '+')) pos++;
                if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
                } else {
                    pos = save;
                }
            }
        }
        if (pos < text.length() && isWordPart(text.charAt(pos))) {
            // Words that start with a digit ("2d") are words; the parser says if one is misplaced.
            while (pos < text.length() && isWordPart(text.charAt(pos))) pos++;
            return new Token(Token.Kind.IDENT, word(start, pos), line, col);
        }
        return new Token(Token.Kind.NUMBER, word(start, pos), line, col);
    }

    private static String punctuation(char c) {
        return switch (c) {
            case '=' -> "=";
            case ',' -> ",";
            case ':' -> ":";
            case '(' -> "(";
            case ')' -> ")";
            case '{' -> "{";
            case '}' -> "}";
            case '[' -> "[";
            case ']' -> "]";
            case '!' -> "!";
            case '.' -> ".";
            default -> null;
        };
    }

    /**
     * The text from {@code start} to {@code end} as a string, one string per distinct word.
     * A function's text repeats the same op names, types, bit sizes and constants over and
     * over; a new string for each occurrence was a third of what parsing allocated (open
     * addressing; a string's hash is the one computed here).
     */
    private String word(int start, int end) {
        int length = end - start;
        int h = 0;
        for (int i = start; i < end; i++) h = 31 * h + text.charAt(i);
        int mask = words.length - 1;
        int slot = (h ^ h >>> 16) & mask;
        for (String w = words[slot]; w != null; w = words[slot]) {
            if (w.length() == length && text.regionMatches(start, w, 0, length)) return w;
            slot = (slot + 1) & mask;
        }
        String w = text.substring(start, end);
        words[slot] = w;
        if (++wordCount * 2 > words.length) growWords();
        return w;
    }

    private void growWords() {
        String[] old = words;
        words = new String[old.length * 2];
        int mask = words.length - 1;
        for (String w : old) {
            if (w == null) continue;
            int h = w.hashCode();
            int slot = (h ^ h >>> 16) & mask;
            while (words[slot] != null) slot = (slot + 1) & mask;
            words[slot] = w;
        }
    }
}
