package dev.lathe.ir.pass;

/**
 * The standard optimization pipeline, the whole of it in one place (the order is the design):
 *
 * <ol>
 *   <li>{@code vars_to_ssa} turns local variables into SSA values, so everything after works on
 *       SSA only;
 *   <li>the loop runs the algebraic rules and the cleanup passes until none makes progress:
 *       rules expose constants, folding exposes constant branches, dead_cf removes them, which
 *       makes phis trivial, which exposes copies and common subexpressions, which makes code
 *       dead;
 *   <li>{@code opt_minmax} follows the rules: with the range analysis it drops the clamps,
 *       minimums, maximums and selects whose outcome is decided, which the rules' single-value
 *       conditions cannot see (min(i, n) with i a loop counter below n);
 *   <li>{@code opt_if} turns tiny pure diamonds into {@code bcsel} inside the loop, because that
 *       exposes more folding and rules;
 *   <li>{@code late} rules run once after the loop: they make the code cheaper for the target
 *       (fused multiply-add, subtraction) in ways the algebraic rules would undo;
 *   <li>{@code sink_constants} runs last: it moves constants next to their uses to shorten live
 *       ranges, and nothing after it should move them back.
 * </ol>
 *
 * The rule passes come from the generated matchers, which the {@code ir} module cannot see: code
 * with only {@link PassRegistry#standard()} uses {@link #CORE}, the same list without them.
 */
public final class DefaultPipeline {
    private DefaultPipeline() {}

    public static final String TEXT = text(true);

    /** The pipeline without the rule passes. */
    public static final String CORE = text(false);

    private static String text(boolean rules) {
        java.util.List<String> loop = new java.util.ArrayList<>();
        if (rules) loop.add("algebraic");
        loop.addAll(java.util.List.of("opt_minmax", "constant_fold", "copy_prop", "phi_simplify", "dead_cf", "opt_if", "cse", "dce"));
        java.util.List<String> steps = new java.util.ArrayList<>();
        steps.add("vars_to_ssa");
        steps.add("loop(" + String.join(", ", loop) + ")");
        if (rules) {
            steps.add("late");
            steps.add("dce");
        }
        steps.add("sink_constants");
        return String.join(", ", steps);
    }
}
