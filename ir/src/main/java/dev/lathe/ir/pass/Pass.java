package dev.lathe.ir.pass;

import dev.lathe.ir.Function;

/**
 * An optimization or lowering pass over one function. Like NIR's passes it reports whether it
 * made progress, which is what drives the optimization loop to a fixpoint.
 */
public interface Pass {
    /** The name pipelines use, e.g. {@code copy_prop}. */
    String name();

    /** Runs the pass; returns whether it changed the function. */
    boolean run(Function fn);
}
