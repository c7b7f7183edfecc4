package dev.lathe.cli;

/** A user-facing failure: its message is printed as is (one or a few lines) and the exit code is non-zero. */
public final class CliException extends RuntimeException {
    private final int exitCode;

    public CliException(String message) {
        this(message, 1);
    }

    public CliException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
