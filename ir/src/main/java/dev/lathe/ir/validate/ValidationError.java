package dev.lathe.ir.validate;

import dev.lathe.ir.SourceLoc;

/**
 * One broken rule of the IR: the check that failed (a short stable name such as
 * {@code ssa-dominance}), what is wrong, and where — the instruction's text and, for parsed IR,
 * its file position.
 */
public record ValidationError(String check, String message, String where, SourceLoc loc) {

    /** {@code file:line:col: error: message [check]}, or {@code where: message [check]} without a position. */
    public String format() {
        String head = loc != null ? loc + ": error: " : "error: " + where + ": ";
        return head + message + " [" + check + "]";
    }

    @Override
    public String toString() {
        return format();
    }
}
