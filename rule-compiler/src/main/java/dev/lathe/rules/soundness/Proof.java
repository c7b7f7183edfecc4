package dev.lathe.rules.soundness;

import java.util.List;

/**
 * What the SMT prover concluded about one rule.
 *
 * @param kind     {@link Kind}
 * @param rule     the rule's name
 * @param message  the report line ({@code FILE:LINE:COL: rule NAME is proved at 8, 16, 32, 64 bits}),
 *                 for a refuted rule the sampling checker's counterexample line
 * @param proved   the sizes (of the matched value) proved
 * @param unknown  the sizes the solver gave up on (its time budget, usually)
 * @param counterexample for a refuted rule, the checker's verdict on the model (shrunk); else null
 */
public record Proof(
        Kind kind, String rule, String message, List<Integer> proved, List<Integer> unknown, Verdict counterexample) {
    public enum Kind {
        /** Every size the rule applies at was proved. */
        PROVED,
        /** The solver found inputs on which the two sides differ, and the op table agrees. */
        REFUTED,
        /** Nothing refuted, but some size was not decided in the time budget. */
        UNKNOWN,
        /** Not proved: an inexact rule ({@code ~=>}), or an op without an SMT encoding; the sampling check stands. */
        TESTED,
        /**
         * The solver's model says the sides differ and the op table says they agree: the SMT
         * encoding of some op is wrong. Never a verdict on the rule; a bug to fix.
         */
        ENCODING_MISMATCH
    }

    /** Refuted, or an encoding mismatch: an answer that must fail the build or the command. */
    public boolean wrong() {
        return kind == Kind.REFUTED || kind == Kind.ENCODING_MISMATCH;
    }
}
