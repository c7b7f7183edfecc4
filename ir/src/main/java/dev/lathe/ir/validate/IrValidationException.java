package dev.lathe.ir.validate;

import java.util.List;

/** Thrown by {@link Validator#check} when the IR breaks a rule; holds every error found. */
public final class IrValidationException extends RuntimeException {
    private final transient List<ValidationError> errors;

    public IrValidationException(List<ValidationError> errors) {
        super(errors.get(0).format() + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : ""));
        this.errors = List.copyOf(errors);
    }

    public List<ValidationError> errors() {
        return errors;
    }
}
