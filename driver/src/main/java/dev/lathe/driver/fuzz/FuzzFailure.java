package dev.lathe.driver.fuzz;

/**
 * What an oracle found wrong with an input. {@code kind} names the class of failure ("a
 * translated module does not validate", "internal error: ArrayIndexOutOfBoundsException"), so
 * that minimizing keeps to inputs that fail the same way; the message says the details.
 */
public final class FuzzFailure extends Exception {
    private final String kind;

    public FuzzFailure(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    public String kind() {
        return kind;
    }

    /** An exception that should never reach a user, described by its class and first frames in Lathe. */
    static FuzzFailure internal(Throwable t) {
        StringBuilder where = new StringBuilder();
        int shown = 0;
        for (StackTraceElement e : t.getStackTrace()) {
            if (!e.getClassName().startsWith("dev.lathe.") || e.getClassName().startsWith("dev.lathe.driver.fuzz."))
                continue;
            where.append(shown == 0 ? " at " : " < ")
                    .append(e.getClassName().substring(e.getClassName().lastIndexOf('.') + 1))
                    .append('.')
                    .append(e.getMethodName())
                    .append(':')
                    .append(e.getLineNumber());
            if (++shown == 3) break;
        }
        String name = t.getClass().getSimpleName();
        return new FuzzFailure("internal error: " + name, "internal error: " + t + where);
    }
}
