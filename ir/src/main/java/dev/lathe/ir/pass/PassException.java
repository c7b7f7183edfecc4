package dev.lathe.ir.pass;

/** A pass left the IR invalid, failed, or a pipeline loop did not settle. */
public final class PassException extends RuntimeException {
    /** A failure that {@code message} explains (the pass, the function, what went wrong). */
    public PassException(String message) {
        super(message);
    }

    /** A pass that threw {@code cause}; {@code message} names the pass and the function. */
    public PassException(String message, Throwable cause) {
        super(message, cause);
    }
}
