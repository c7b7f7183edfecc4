package dev.lathe.ir.pass;

import dev.lathe.ir.Function;

/**
 * An optimization or lowering pass over one function. Like NIR's passes it reports whether it
 * made progress, which is what drives the optimization loop to a fixpoint. Its name is its
 * {@link PassRegistry} entry's, said there only.
 */
@FunctionalInterface
public interface Pass {
    /** Runs the pass; returns whether it changed the function. */
    boolean run(Function fn);
}
