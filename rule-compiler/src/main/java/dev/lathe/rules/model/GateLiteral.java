package dev.lathe.rules.model;

import java.util.List;

/**
 * One atom of a rule's gate, maybe negated: {@code option(lower_fsat)} (the target sets the
 * option), {@code stage(vertex)} (the shader is of that stage) or
 * {@code float_controls(denorm_preserve32)} (the shader asks for that float-control execution
 * mode, as SPIR-V's {@code OpExecutionMode … DenormPreserve 32}). NIR's rules are gated on all
 * three: {@code options->lower_fsat}, {@code info->stage}, {@code info->float_controls_execution_mode}.
 */
public record GateLiteral(Kind kind, String name, boolean negated) {
    /** What a literal asks about: the target, or the shader being compiled. */
    public enum Kind {
        OPTION("option", ""),
        STAGE("stage", dev.lathe.ir.rewrite.RuleInfo.STAGE_FACT),
        FLOAT_CONTROLS("float_controls", dev.lathe.ir.rewrite.RuleInfo.FLOAT_CONTROLS_FACT);

        private final String spelling;
        private final String keyPrefix;

        Kind(String spelling, String keyPrefix) {
            this.spelling = spelling;
            this.keyPrefix = keyPrefix;
        }

        public String spelling() {
            return spelling;
        }

        /** The kind a gate atom's name spells ({@code option}, {@code stage}, {@code float_controls}), or null. */
        public static Kind bySpelling(String s) {
            for (Kind k : values()) if (k.spelling.equals(s)) return k;
            return null;
        }
    }

    /** The stages a {@code stage(…)} gate may name: Lathe's and those a later Lathe may compile. */
    public static final List<String> STAGES =
            List.of("vertex", "fragment", "compute", "geometry", "tess_ctrl", "tess_eval");

    /** This literal negated. */
    public GateLiteral negate() {
        return new GateLiteral(kind, name, !negated);
    }

    /** As a rule writes it: {@code !option(lower_fsat)}. */
    public String text() {
        return (negated ? "!" : "") + kind.spelling + "(" + name + ")";
    }

    /**
     * As {@link dev.lathe.ir.rewrite.RuleInfo#gates()} keeps it: {@code lower_fsat},
     * {@code !stage:vertex}, {@code float_controls:denorm_preserve32}.
     */
    public String key() {
        return (negated ? "!" : "") + kind.keyPrefix + name;
    }
}
