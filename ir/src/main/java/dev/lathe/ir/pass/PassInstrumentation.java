package dev.lathe.ir.pass;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What happens after every pass, at both levels: the IR's {@link PassManager} and the backend's
 * machine pipeline. The program is checked (when verifying; its problems end the compilation
 * with the program printed), then printed to the trace when {@code --print-after-all} or
 * {@code --print-after NAME} asks. Said once, so that the options mean the same for an IR pass
 * and a machine pass.
 */
public final class PassInstrumentation {
    private final boolean verify;
    private final boolean printAfterAll;
    private final String printAfter;
    private final PrintWriter trace;

    /** {@code trace} receives printed programs (may be null when nothing is printed). */
    public PassInstrumentation(boolean verify, boolean printAfterAll, String printAfter, PrintWriter trace) {
        this.verify = verify;
        this.printAfterAll = printAfterAll;
        this.printAfter = printAfter;
        this.trace = trace;
    }

    /**
     * After pass {@code pass} ran. When verifying, {@code problems} are the program's; any ends
     * the compilation with {@code failure} of "{@code wrong}:", each problem on a line of its own,
     * and {@code shown} (the program, or the part of it the problems are in). Then, when asked,
     * {@code heading} and {@code printed} go to the trace.
     */
    public void after(
            String pass,
            Supplier<List<String>> problems,
            String wrong,
            Supplier<String> shown,
            Function<String, RuntimeException> failure,
            String heading,
            Supplier<String> printed) {
        if (verify) {
            List<String> found = problems.get();
            if (!found.isEmpty()) {
                StringBuilder sb = new StringBuilder(wrong).append(':');
                for (String p : found) sb.append("\n  ").append(p);
                throw failure.apply(sb.append('\n').append(shown.get()).toString());
            }
        }
        if (trace != null && (printAfterAll || pass.equals(printAfter))) {
            trace.println(heading);
            trace.print(printed.get());
            trace.flush();
        }
    }
}
