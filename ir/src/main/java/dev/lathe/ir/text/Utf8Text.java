package dev.lathe.ir.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Text files (rules, IR) are UTF-8. A file that is not gets an error at the line and column of
 * the first bad byte (the column counting the characters before it), not the JDK's "Input
 * length = 1".
 */
public final class Utf8Text {
    private Utf8Text() {}

    /** A file that is not UTF-8; the message is {@code file:line:col: error: …}, the line and a caret. */
    public static final class Malformed extends Exception {
        public Malformed(String message) {
            super(message, null, false, false);
        }
    }

    public static String decode(byte[] bytes, String file) throws Malformed {
        CharsetDecoder d = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = d.decode(in, out, true);
        if (!r.isError()) r = d.flush(out);
        if (!r.isError()) return out.flip().toString();
        String before = out.flip().toString();
        int line = 1, lineStart = 0;
        for (int i = 0; i < before.length(); i++) {
            if (before.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        int column = before.length() - lineStart + 1;
        // The line as far as it can be shown: bad bytes as U+FFFD.
        String lenient = new String(bytes, StandardCharsets.UTF_8);
        String shown = Diagnostic.lineOf(lenient, line);
        String message = String.format(
                "not valid UTF-8 here (byte 0x%02X); the file must be UTF-8 text", bytes[in.position()] & 0xFF);
        throw new Malformed(Diagnostic.error(file, line, column, message, shown).render());
    }
}
