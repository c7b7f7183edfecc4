package dev.lathe.cli;

import dev.lathe.ir.pass.PassInstrumentation;
import java.io.PrintWriter;
import java.util.List;

/**
 * The {@code --time-passes} table of {@code lathe opt} and {@code lathe compile}: a row per pass,
 * then a row per analysis the passes asked for (in parentheses; its time is not in the passes').
 */
final class PassTimes {
    private PassTimes() {}

    static void print(List<PassInstrumentation.Timing> timings, PrintWriter err) {
        long total = 0;
        for (PassInstrumentation.Timing t : timings) total += t.nanos();
        err.printf("%-22s %6s %9s %10s %6s%n", "pass", "runs", "progress", "time (ms)", "share");
        for (PassInstrumentation.Timing t : timings) {
            // an analysis's row: its time inside the passes (taken out of theirs), computations from scratch as runs
            err.printf(
                    "%-22s %6d %9s %10.3f %5.1f%%%n",
                    t.pass(),
                    t.runs(),
                    t.isAnalysis() ? "-" : Integer.toString(t.progress()),
                    t.nanos() / 1e6,
                    total == 0 ? 0.0 : 100.0 * t.nanos() / total);
        }
        err.printf("%-22s %6s %9s %10.3f%n", "total", "", "", total / 1e6);
        err.flush();
    }
}
