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
 * @param gates    the rule's gate clauses, each its literals joined by {@code |}: {@code lower_fsat}
 *                 for {@code option(lower_fsat)}, {@code !lower_fsat} for {@code !option(lower_fsat)},
 *                 {@code stage:vertex} for {@code stage(vertex)}, {@code float_controls:rounding_mode_rte16}
 *                 for {@code float_controls(rounding_mode_rte16)}; the rule applies only where the
 *                 target's options and the shader satisfy every clause ({@link #gatedOff})
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

    /** The key prefix of a gate literal on the shader's stage: {@code stage:vertex}. */
    public static final String STAGE_FACT = "stage:";
    /** The key prefix of a gate literal on the shader's float controls: {@code float_controls:denorm_preserve32}. */
    public static final String FLOAT_CONTROLS_FACT = "float_controls:";

    /**
     * The first gate clause that {@code options} (the options the target sets) cannot satisfy,
     * whatever the shader, or null: a clause with a literal on the shader ({@code stage:vertex},
     * {@code float_controls:denorm_preserve32}) may hold for some shader.
     */
    public String gatedOff(Set<String> options) {
        return firstUnsatisfied(options, null);
    }

    /**
     * The first gate clause that the target's {@code options} and the facts of the shader being
     * compiled ({@link #shaderFacts}) do not satisfy, or null when the rule applies.
     */
    public String gatedOff(Set<String> options, Set<String> shaderFacts) {
        return firstUnsatisfied(options, shaderFacts);
    }

    /** The first clause no literal of which holds; a literal on the shader holds when {@code shaderFacts} is null. */
    private String firstUnsatisfied(Set<String> options, Set<String> shaderFacts) {
        for (String clause : gates) {
            boolean holds = false;
            for (String lit : clause.split("\\|")) {
                boolean negated = lit.startsWith("!");
                String atom = negated ? lit.substring(1) : lit;
                boolean onShader = atom.indexOf(':') >= 0;
                if (onShader && shaderFacts == null
                        || (onShader ? shaderFacts.contains(atom) : options.contains(atom)) != negated) {
                    holds = true;
                    break;
                }
            }
            if (!holds) return clause;
        }
        return null;
    }

    /** True when some gate asks about the shader (its stage, its float controls), not only the target. */
    public boolean gatedOnShader() {
        for (String clause : gates) if (clause.indexOf(':') >= 0) return true;
        return false;
    }

    /** What gates may ask of {@code shader}: {@code stage:fragment}, {@code float_controls:denorm_preserve32} … */
    public static Set<String> shaderFacts(dev.lathe.ir.Shader shader) {
        Set<String> out = new java.util.HashSet<>();
        out.add(STAGE_FACT + shader.stage().spelling());
        for (String fc : shader.floatControls()) out.add(FLOAT_CONTROLS_FACT + fc);
        return out;
    }
}
