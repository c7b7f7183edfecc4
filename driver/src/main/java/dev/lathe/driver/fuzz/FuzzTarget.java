package dev.lathe.driver.fuzz;

import java.util.List;
import java.util.SplittableRandom;

/**
 * One kind of input Lathe reads, with its mutations and its oracle. An input is either handled
 * — rejected with a located message, or accepted and then compiled, checked or round-tripped
 * as the target says — or it is a failure: an internal error (an exception no user should see),
 * a message without its location, a round trip that changes something, a miscompile.
 */
public interface FuzzTarget {
    /** The name {@code lathe fuzz} knows it by. */
    String name();

    /** The file extension of its inputs, for the minimized failures written out. */
    String extension();

    /** The inputs mutations start from (at least one). */
    List<byte[]> seeds();

    /** A mutant of {@code seed}: one or a few changes, drawn from {@code r} (the same r gives the same mutant). */
    byte[] mutate(byte[] seed, SplittableRandom r);

    /** Whether mutants keep the seed's length in units of {@link #unit} bytes (then minimizing reverts units). */
    default boolean keepsLength() {
        return false;
    }

    /** The size of a unit of a length-keeping mutation: a SPIR-V word, a byte. */
    default int unit() {
        return 1;
    }

    /**
     * Runs one input through the oracle: the category of a handled outcome ("rejected: syntax",
     * "compiled and checked"), or a {@link FuzzFailure}. Any other exception is an internal error.
     */
    String run(byte[] input) throws FuzzFailure;
}
