package dev.lathe.ir.rewrite;

import java.util.List;
import java.util.Set;

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
 * @param gates    the rule's option gates: {@code lower_fsat} for {@code option(lower_fsat)},
 *                 {@code !lower_fsat} for {@code !option(lower_fsat)}; the rule applies only where
 *                 the target's options satisfy every one ({@link #gatedOff})
 */
public record RuleInfo(String name, String location, String text, boolean exact, String proof, List<String> gates) {
    /** The build's SMT prover proved the rule at every size it applies at. */
    public static final String PROVED = "proved";
    /** The prover did not decide the rule in its time budget at some size; the rule was sampled. */
    public static final String UNKNOWN = "unknown";
    /** Inexact, or an op without an SMT encoding: the rule was only sampled. */
    public static final String TESTED = "tested";
    /** Built without proofs, or a rule read at run time: nothing was asked of the prover. */
    public static final String NOT_PROVED = "-";

    /** Keeps a copy of the gates. */
    public RuleInfo {
        gates = List.copyOf(gates);
    }

    /** A rule without option gates. */
    public RuleInfo(String name, String location, String text, boolean exact, String proof) {
        this(name, location, text, exact, proof, List.of());
    }

    /** A rule not (yet) seen by the prover. */
    public RuleInfo(String name, String location, String text, boolean exact) {
        this(name, location, text, exact, NOT_PROVED);
    }

    /** The first gate that {@code options} (the options the target sets) does not satisfy, or null. */
    public String gatedOff(Set<String> options) {
        for (String g : gates) {
            boolean negated = g.startsWith("!");
            if (options.contains(negated ? g.substring(1) : g) == negated) return g;
        }
        return null;
    }
}
