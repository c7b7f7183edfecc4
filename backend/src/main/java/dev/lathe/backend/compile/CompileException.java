package dev.lathe.backend.compile;

/** A shader the backend cannot compile: the message says why and, when known, where ({@code file:line:col}). */
public final class CompileException extends RuntimeException {
    public CompileException(String message) {
        super(message);
    }
}
