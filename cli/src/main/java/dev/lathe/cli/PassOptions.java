package dev.lathe.cli;

import dev.lathe.ir.pass.PassInstrumentation;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * The pass manager's conveniences, as {@code lathe opt} and {@code lathe compile} spell them:
 * print after one pass or after every pass, time the passes, check the program after every
 * pass ({@code lathe compile}: over the IR and the machine pipeline).
 */
final class PassOptions {
    @Option(names = "--print-after-all", description = "print the program after every pass (to standard output)")
    boolean printAfterAll;

    @Option(names = "--print-after", paramLabel = "PASS", description = "print the program after each run of PASS")
    String printAfter;

    @Option(names = "--time-passes", description = "print the time spent in each pass (to standard error)")
    boolean timePasses;

    @Option(
            names = {"--verify-each", "--validate-each"},
            description = "validate the IR after every IR pass (and verify the machine "
                    + "program after every machine pass)")
    boolean verifyEach;

    /** These options as the pass managers take them, printing to {@code out}. */
    PassInstrumentation.Settings settings(PrintWriter out) {
        return new PassInstrumentation.Settings(verifyEach, printAfterAll, printAfter, timePasses, out);
    }

    /** Whether anything is printed between passes (then the result follows a "// final" line). */
    boolean printing() {
        return printAfterAll || printAfter != null;
    }
}
