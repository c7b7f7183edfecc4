package dev.lathe.ir.interp;

/** A run that cannot continue: the iteration limit, bad inputs, or IR the interpreter cannot run. */
public final class InterpreterException extends RuntimeException {
    public InterpreterException(String message) {
        super(message);
    }
}
