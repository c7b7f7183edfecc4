package dev.lathe.driver.fuzz;

import java.util.regex.Pattern;

/** Checks that a message names where the problem is: {@code FILE:LINE:COL:} or {@code FILE: word N:}. */
final class Located {
    private Located() {}

    private static final Pattern LINE_COL = Pattern.compile("^\\S+:\\d+:\\d+: ", Pattern.DOTALL);
    private static final Pattern WORD = Pattern.compile("^\\S+: word [1-9]\\d*: ", Pattern.DOTALL);

    /** A message of a text input: it must start with the file, a line and a column. */
    static void require(String message, String file, String what) throws FuzzFailure {
        if (message == null
                || !message.startsWith(file)
                || !LINE_COL.matcher(message).find()) {
            throw new FuzzFailure(
                    "a message without its line and column",
                    what + " without its line and column: " + firstLine(message));
        }
    }

    /**
     * A message of a binary whose header the mutations keep: it must start with the file and the
     * offset of a word past the magic number (word 0 is where a translator that lost track says).
     */
    static void requireWord(String message, String file, String what) throws FuzzFailure {
        if (message == null
                || !message.startsWith(file)
                || !WORD.matcher(message).find()) {
            throw new FuzzFailure(
                    "a message without its word offset", what + " without its word offset: " + firstLine(message));
        }
    }

    static String firstLine(String s) {
        if (s == null) return "(no message)";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
