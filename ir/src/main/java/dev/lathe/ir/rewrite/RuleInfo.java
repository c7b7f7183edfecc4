package dev.lathe.ir.rewrite;

/**
 * What the driver and reports know of one rule.
 *
 * @param name     the rule's name
 * @param location {@code rules/algebraic.rules:12}
 * @param text     the rule as written
 * @param exact    {@code =>} (true) or {@code ~=>} (false)
 * @param proof    what the build's SMT prover said of it, in a word: {@link #PROVED} (at every
 *                 size it applies at), {@link #UNKNOWN} (not decided in the time budget at some
 *                 size; sampled), {@link #TESTED} (inexact, or an op without an SMT encoding;
 *                 sampled), or {@link #NOT_PROVED} (built without proofs, or read at run time)
 */
public record RuleInfo(String name, String location, String text, boolean exact, String proof) {
    /** The build's SMT prover proved the rule at every size it applies at. */
    public static final String PROVED = "proved";
    /** The prover did not decide the rule in its time budget at some size; the rule was sampled. */
    public static final String UNKNOWN = "unknown";
    /** Inexact, or an op without an SMT encoding: the rule was only sampled. */
    public static final String TESTED = "tested";
    /** Built without proofs, or a rule read at run time: nothing was asked of the prover. */
    public static final String NOT_PROVED = "-";

    /** A rule not (yet) seen by the prover. */
    public RuleInfo(String name, String location, String text, boolean exact) {
        this(name, location, text, exact, NOT_PROVED);
    }
}
