package dev.lathe.ir.text;

/** A token of IR text, with its 1-based position. */
record Token(Kind kind, String text, int line, int column) {
    enum Kind {
        /** A word: keywords, op names, types, labels, {@code true}, {@code inf} … */
        IDENT,
        /** {@code %name} (text without the %) */
        VALUE,
        /** {@code @name} (text without the @) */
        SYMBOL,
        /** A numeric literal, signed, decimal or hex, integer or float. */
        NUMBER,
        /** One of {@code = , : ( ) { } [ ] ! .} */
        PUNCT,
        EOF
    }

    boolean is(String punctOrWord) {
        return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(punctOrWord);
    }

    String describe() {
        return switch (kind) {
            case IDENT -> "'" + text + "'";
            case VALUE -> "'%" + text + "'";
            case SYMBOL -> "'@" + text + "'";
            case NUMBER -> "number " + text;
            case PUNCT -> "'" + text + "'";
            case EOF -> "end of file";
        };
    }
}
