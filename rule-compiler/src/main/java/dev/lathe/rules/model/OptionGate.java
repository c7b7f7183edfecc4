package dev.lathe.rules.model;

/**
 * {@code option(NAME)} or {@code !option(NAME)}: a rule that applies only where the target sets
 * (or does not set) a named option, as NIR's {@code 'options->lower_fsat'}. An option the target
 * does not name is not set. A gate says nothing about values: the checker and the prover judge
 * the rule as if it always applied.
 */
public record OptionGate(String option, boolean negated) {
    /** As a rule writes it. */
    public String text() {
        return (negated ? "!" : "") + "option(" + option + ")";
    }

    /** As {@link dev.lathe.ir.rewrite.RuleInfo#gates()} keeps it: {@code lower_fsat} or {@code !lower_fsat}. */
    public String key() {
        return (negated ? "!" : "") + option;
    }
}
