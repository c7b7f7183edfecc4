package dev.lathe.ir.pass;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What happens after every pass, at both levels: the IR's {@link PassManager} and the backend's
 * machine pipeline share one of these per compilation. It counts each pass's runs, progress and
 * (when timing) time, in one table; the program is checked (when verifying; its problems end the
 * compilation with the program printed), then printed to the trace when
 * {@code --print-after-all} or {@code --print-after NAME} asks. Said once, so that the options
 * mean the same for an IR pass and a machine pass.
 */
public final class PassInstrumentation {
    /**
     * The instrumentation a compilation asks for, the one record of it (the IR pipeline, the
     * machine pipeline and the command line all take this).
     *
     * @param verify        check the program after every pass (the IR validator, the machine verifier)
     * @param printAfterAll print the program after every pass
     * @param printAfter    print it after each run of this pass (or null)
     * @param timePasses    time each pass
     * @param trace         where printing goes (may be null when nothing is printed)
     */
    public record Settings(
            boolean verify, boolean printAfterAll, String printAfter, boolean timePasses, PrintWriter trace) {
        /** Nothing verified, printed or timed. */
        public static Settings none() {
            return new Settings(false, false, null, false, null);
        }

        /** Verification after every pass, nothing printed or timed: as tests run. */
        public static Settings verifying() {
            return new Settings(true, false, null, false, null);
        }

        /** These settings with verification on ({@code v} true) or off. */
        public Settings withVerify(boolean v) {
            return new Settings(v, printAfterAll, printAfter, timePasses, trace);
        }
    }

    /**
     * Time and runs of one pass; or, for an analysis ({@code pass} in parentheses, e.g.
     * "(range analysis)"), the time spent computing it inside the passes (taken out of theirs)
     * and how many times it was computed from scratch ({@code runs}; {@code progress} is 0).
     */
    public record Timing(String pass, int runs, int progress, long nanos) {
        /** Whether this row is an analysis's, not a pass's. */
        public boolean isAnalysis() {
            return pass.startsWith("(");
        }
    }

    private final Settings settings;
    /** Per pass, in first-run order: runs, runs with progress, nanoseconds (with timing on). */
    private final Map<String, long[]> passes = new LinkedHashMap<>();
    /** Per analysis label: computations, 0, nanoseconds. */
    private final Map<String, long[]> analyses = new LinkedHashMap<>();

    public PassInstrumentation(Settings settings) {
        this.settings = settings;
    }

    public Settings settings() {
        return settings;
    }

    /** Whether passes are timed. */
    public boolean timing() {
        return settings.timePasses();
    }

    /** Pass {@code pass} ran, made progress or not, in {@code nanos} of its own (counted when timing). */
    public void ran(String pass, boolean progress, long nanos) {
        long[] t = passes.computeIfAbsent(pass, k -> new long[3]);
        t[0]++;
        if (progress) t[1]++;
        if (settings.timePasses()) t[2] += nanos;
    }

    /** An analysis was computed {@code runs} times from scratch inside a pass, in {@code nanos}. */
    public void analysis(String label, long runs, long nanos) {
        long[] a = analyses.computeIfAbsent(label, k -> new long[3]);
        a[0] += runs;
        a[2] += nanos;
    }

    /** How many runs of each pass made progress so far (what a loop that does not settle is diagnosed with). */
    Map<String, Long> progressCounts() {
        Map<String, Long> m = new LinkedHashMap<>();
        passes.forEach((k, v) -> m.put(k, v[1]));
        return m;
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
        if (settings.verify()) {
            List<String> found = problems.get();
            if (!found.isEmpty()) {
                StringBuilder sb = new StringBuilder(wrong).append(':');
                for (String p : found) sb.append("\n  ").append(p);
                throw failure.apply(sb.append('\n').append(shown.get()).toString());
            }
        }
        PrintWriter trace = settings.trace();
        if (trace != null && (settings.printAfterAll() || pass.equals(settings.printAfter()))) {
            trace.println(heading);
            trace.print(printed.get());
            trace.flush();
        }
    }

    /**
     * Runs, progress counts and (with timing on) time per pass, in first-run order, IR and machine
     * passes alike; then a row per analysis the passes computed (see {@link Timing}).
     */
    public List<Timing> timings() {
        List<Timing> out = new ArrayList<>();
        passes.forEach((k, v) -> out.add(new Timing(k, (int) v[0], (int) v[1], v[2])));
        analyses.forEach((k, v) -> out.add(new Timing(k, (int) v[0], 0, v[2])));
        return out;
    }
}
