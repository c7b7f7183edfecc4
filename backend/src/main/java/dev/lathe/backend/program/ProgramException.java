package dev.lathe.backend.program;

/** A program file that cannot be read: the message starts with its location ({@code file:line:col} or a byte offset). */
public final class ProgramException extends RuntimeException {
    public ProgramException(String message) {
        super(message);
    }
}
