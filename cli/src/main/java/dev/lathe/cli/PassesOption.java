package dev.lathe.cli;

import dev.lathe.driver.Pipelines;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;

/**
 * The one reading of {@code --passes}, for every command that takes it ({@code opt},
 * {@code analyze}, {@code compile}, {@code shaderdb}): the text becomes the one pipeline model
 * once, each pass name checked where it is written; the commands hand that pipeline on.
 */
final class PassesOption {
    private PassesOption() {}

    /**
     * The pipeline {@code text} spells over {@code registry}'s IR passes ({@link Pipelines#OPTIMIZE} when it is null);
     * a mistake is a CliException "{@code command}: --passes: …" saying where.
     */
    static Pipeline parse(String command, String text, PassRegistry registry) {
        if (text == null) return Pipelines.OPTIMIZE;
        try {
            return Pipeline.parse(text, registry);
        } catch (IllegalArgumentException e) {
            throw new CliException(command + ": --passes: " + e.getMessage());
        }
    }
}
