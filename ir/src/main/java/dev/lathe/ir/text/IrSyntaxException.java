package dev.lathe.ir.text;

/** Malformed IR text: carries a located {@link Diagnostic}. */
public final class IrSyntaxException extends RuntimeException {
    private final transient Diagnostic diagnostic;

    public IrSyntaxException(Diagnostic diagnostic) {
        super(diagnostic.headline());
        this.diagnostic = diagnostic;
    }

    public Diagnostic diagnostic() {
        return diagnostic;
    }
}
