package dev.lathe.ir.text;

/**
 * Splits IR text into tokens on demand (the parser needs two of lookahead); comments are
 * {@code //} to the end of the line and {@code /* … *}{@code /}.
 *
 * <p>Tokens are not objects: the lexer writes each into a ring of parallel arrays and the parser
 * holds an int handle (the token's number in the file). A token object per word was the largest
 * share of what parsing allocated, and that garbage, interleaved with the instructions the parser
 * keeps, spread a fresh function over several times its size in memory: the first walk over it
 * missed the cache on every instruction. A handle stays readable while fewer than {@link #RING}
 * tokens have been read after it; the parser holds handles within one statement (at most a few
 * dozen tokens) and copies into a {@link Token} what it keeps longer.
 */
final class Lexer {
    static final int RING = 1024;
    private static final int MASK = RING - 1;

    private final String text;
    private final String file;
    private int pos;
    private int line = 1;
    private int lineStart;
    private String[] words = new String[256];
    private int wordCount;
    /** Columns count code points: the characters before {@link #countedTo} on this line that were low surrogates. */
    private int countedLine = -1, countedTo, lowSurrogates;

    private final Token.Kind[] kinds = new Token.Kind[RING];
    /** The token's text, except for a {@code %name}, whose text is only read from {@link #starts} and {@link #ends} unless asked for. */
    private final String[] texts = new String[RING];

    private final int[] starts = new int[RING], ends = new int[RING], lines = new int[RING], columns = new int[RING];
    /** How many tokens have been read: the next token's handle. */
    private int count;

    Lexer(String file, String text) {
        this.file = file;
        this.text = text;
    }

    /** The handle after the last token read. */
    int count() {
        return count;
    }

    /** Reads the next token; at the end, an EOF token (again on every further call). */
    void readToken() {
        skipSpaceAndComments();
        if (pos >= text.length()) {
            put(Token.Kind.EOF, "", pos, pos, line, columnOf(pos));
        } else {
            next();
        }
    }

    private void put(Token.Kind kind, String word, int start, int end, int l, int col) {
        int slot = count++ & MASK;
        kinds[slot] = kind;
        texts[slot] = word;
        starts[slot] = start;
        ends[slot] = end;
        lines[slot] = l;
        columns[slot] = col;
    }

    private int slot(int h) {
        if (h < 0 || h >= count || count - h > RING)
            throw new IllegalStateException("token " + h + " is no longer held (read " + count + ")");
        return h & MASK;
    }

    Token.Kind kind(int h) {
        return kinds[slot(h)];
    }

    /** The token's text (a new string for a {@code %name}: prefer {@link #start}/{@link #end} on hot paths). */
    String text(int h) {
        int s = slot(h);
        return texts[s] != null ? texts[s] : text.substring(starts[s], ends[s]);
    }

    /** Where the token's text starts in the source (after the sigil of a name). */
    int start(int h) {
        return starts[slot(h)];
    }

    int end(int h) {
        return ends[slot(h)];
    }

    int line(int h) {
        return lines[slot(h)];
    }

    int column(int h) {
        return columns[slot(h)];
    }

    /** True if the token is the punctuation or word {@code s}. */
    boolean is(int h, String s) {
        int k = slot(h);
        return (kinds[k] == Token.Kind.PUNCT || kinds[k] == Token.Kind.IDENT) && texts[k].equals(s);
    }

    /** A copy that outlives the ring. */
    Token token(int h) {
        return new Token(kind(h), text(h), line(h), column(h));
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
                int l = line, col = columnOf(pos);
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
    private int columnOf(int p) {
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

    private void next() {
        int col = columnOf(pos);
        char c = text.charAt(pos);
        if (c == '%' || c == '@') {
            int start = ++pos;
            while (pos < text.length() && isWordPart(text.charAt(pos))) pos++;
            if (pos == start) throw error(line, col, "expected a name after '" + c + "'");
            // A value's name is not made a string here: the parser looks it up by its characters.
            if (c == '%') {
                put(Token.Kind.VALUE, null, start, pos, line, col);
            } else {
                put(Token.Kind.SYMBOL, word(start, pos), start, pos, line, col);
            }
            return;
        }
        if (Character.isDigit(c)
                || ((c == '-' || c == '+')
                        && pos + 1 < text.length()
                        && (Character.isDigit(text.charAt(pos + 1))
                                || text.startsWith("inf", pos + 1)
                                || text.startsWith("nan", pos + 1)))) {
            number(col);
            return;
        }
        if (isWordStart(c)) {
            int start = pos;
            while (pos < text.length() && isWordPart(text.charAt(pos))) pos++;
            put(Token.Kind.IDENT, word(start, pos), start, pos, line, col);
            return;
        }
        String punct = punctuation(c);
        if (punct != null) {
            pos++;
            put(Token.Kind.PUNCT, punct, pos - 1, pos, line, col);
            return;
        }
        throw error(line, col, "unexpected character " + Diagnostic.describeChar(text.codePointAt(pos)));
    }

    private void number(int col) {
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
            put(Token.Kind.IDENT, word(start, pos), start, pos, line, col);
            return;
        }
        put(Token.Kind.NUMBER, word(start, pos), start, pos, line, col);
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
