package dev.lathe.ir.pass;

/**
 * The standard optimization pipeline, the whole of it in one place (the order is the design):
 *
 * <ol>
 *   <li>{@code vars_to_ssa} turns local variables into SSA values, so everything after works on
 *       SSA only;
 *   <li>the loop runs the cleanup passes until none makes progress: folding exposes constant
 *       branches, dead_cf removes them, which makes phis trivial, which exposes copies and common
 *       subexpressions, which makes code dead;
 *   <li>{@code opt_if} turns tiny pure diamonds into {@code bcsel} inside the loop, because that
 *       exposes more folding;
 *   <li>{@code sink_constants} runs last: it moves constants next to their uses to shorten live
 *       ranges, and nothing after it should move them back.
 * </ol>
 */
public final class DefaultPipeline {
    private DefaultPipeline() {}

    public static final String TEXT = String.join(", ",
            "vars_to_ssa",
            "loop(" + String.join(", ",
                    "constant_fold",
                    "copy_prop",
                    "phi_simplify",
                    "dead_cf",
                    "opt_if",
                    "cse",
                    "dce") + ")",
            "sink_constants");
}
