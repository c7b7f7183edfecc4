package dev.lathe.ir.pass;

/** A pass left the IR invalid, failed, or a pipeline loop did not settle. */
public final class PassException extends RuntimeException {
    public PassException(String message) {
        super(message);
    }

    public PassException(String message, Throwable cause) {
        super(message, cause);
    }
}
