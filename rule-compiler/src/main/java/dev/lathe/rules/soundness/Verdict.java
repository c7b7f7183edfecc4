package dev.lathe.rules.soundness;

/**
 * What the checker concluded about one rule.
 *
 * @param kind     sound, unsound (with a counterexample) or unchecked (with the reason)
 * @param message  the report line: for an unsound rule {@code FILE:LINE:COL: rule NAME is unsound
 *                 at N bits: a = …: pattern gives …, replacement gives …}
 * @param checked  how many inputs were compared, over every bit size
 * @param sizes    the bit sizes (of the matched value) that were checked
 */
public record Verdict(Kind kind, String rule, String message, long checked, String sizes) {
    public enum Kind { SOUND, UNSOUND, UNCHECKED }

    public boolean isSound() {
        return kind == Kind.SOUND;
    }
}
