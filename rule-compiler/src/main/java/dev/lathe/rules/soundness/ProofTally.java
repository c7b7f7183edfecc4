package dev.lathe.rules.soundness;

import java.util.EnumMap;
import java.util.Map;

/** How many rules got each answer from the prover, and the summary every report prints of them. */
public final class ProofTally {
    private final Map<Proof.Kind, Integer> counts = new EnumMap<>(Proof.Kind.class);

    public void add(Proof p) {
        counts.merge(p.kind(), 1, Integer::sum);
    }

    public int count(Proof.Kind kind) {
        return counts.getOrDefault(kind, 0);
    }

    /** Refuted rules and encoding mismatches: the answers that fail a build or a command. */
    public int wrong() {
        return count(Proof.Kind.REFUTED) + count(Proof.Kind.ENCODING_MISMATCH);
    }

    /** {@code 377 proved, 0 REFUTED, 8 unknown, 29 tested only}, and the encoding mismatches if any. */
    @Override
    public String toString() {
        int mismatch = count(Proof.Kind.ENCODING_MISMATCH);
        return count(Proof.Kind.PROVED) + " proved, " + count(Proof.Kind.REFUTED) + " REFUTED, "
                + count(Proof.Kind.UNKNOWN)
                + " unknown, " + count(Proof.Kind.TESTED) + " tested only"
                + (mismatch == 0
                        ? ""
                        : ", " + mismatch
                                + " where the SMT encoding disagrees with the op table (a bug in Lathe: please report it)");
    }
}
