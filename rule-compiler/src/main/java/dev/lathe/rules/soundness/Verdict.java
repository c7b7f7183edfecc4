package dev.lathe.rules.soundness;

import java.util.List;
import java.util.Map;

/**
 * What the checker concluded about one rule.
 *
 * @param kind     sound, unsound (with a counterexample) or unchecked (with the reason)
 * @param message  the report line: for an unsound rule {@code FILE:LINE:COL: rule NAME is unsound
 *                 at N bits: a = …: pattern gives …, replacement gives …}
 * @param checked  how many inputs were compared, over every bit size
 * @param sizes    the bit sizes (of the matched value) that were checked
 */
public record Verdict(
        Kind kind, String rule, String message, long checked, String sizes, Counterexample counterexample) {
    public enum Kind {
        SOUND,
        UNSOUND,
        UNCHECKED
    }

    /**
     * The (shrunk) input of an unsound rule and what each side computes on it.
     *
     * @param bits        the size of the matched value
     * @param inputs      a value per variable
     * @param inputBits   the size of each variable
     * @param pattern     what the pattern computes
     * @param replacement what the replacement computes
     * @param classSizes  the size of every size class of the rule
     * @param opensNaN    the replacement gives a NaN a float operation makes (its bits open under the
     *                    NaN contract), or bits computed from one, where the pattern's bits are
     *                    exact: wrong even when the bits happen to agree
     */
    public record Counterexample(
            int bits,
            Map<String, Long> inputs,
            Map<String, Integer> inputBits,
            long pattern,
            long replacement,
            List<Integer> classSizes,
            boolean opensNaN) {}

    public boolean isSound() {
        return kind == Kind.SOUND;
    }
}
