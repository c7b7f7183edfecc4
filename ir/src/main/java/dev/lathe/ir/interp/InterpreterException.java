package dev.lathe.ir.interp;

/** A run that cannot continue: the iteration limit, bad inputs, or IR the interpreter cannot run. */
public class InterpreterException extends RuntimeException {
    public InterpreterException(String message) {
        super(message);
    }

    /** The run took more loop iterations than its limit: the inputs make it (nearly) endless. */
    public static final class IterationLimit extends InterpreterException {
        public IterationLimit(String message) {
            super(message);
        }
    }
}
