package dev.lathe.ir.pass;

import dev.lathe.ir.Function;
import dev.lathe.ir.Shader;
import dev.lathe.ir.analysis.Analyses;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link Pipeline} over every function of a shader. Options: validate after every pass
 * (a failure names the pass), print the IR after every pass or after one named pass, and time
 * each pass. A {@code loop(…)} that keeps making progress past {@link Options#maxLoopIterations}
 * stops with an error naming the passes that still change the IR, instead of hanging.
 */
public final class PassManager {

    /**
     * @param validate          run the validator after every pass
     * @param printAfterAll     print the IR after every pass
     * @param printAfter        print the IR after each run of this pass (or null)
     * @param timePasses        collect the time spent in each pass
     * @param maxLoopIterations how many rounds a loop group may take
     */
    public record Options(
            boolean validate, boolean printAfterAll, String printAfter, boolean timePasses, int maxLoopIterations) {
        /** Nothing validated, printed or timed; a loop group may take 100 rounds. */
        public static Options defaults() {
            return new Options(false, false, null, false, 100);
        }

        /** Defaults plus validation after every pass, as tests run. */
        public static Options validating() {
            return new Options(true, false, null, false, 100);
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

    private final Options options;
    private final PassInstrumentation instrumentation;
    private final Map<String, long[]> timings = new LinkedHashMap<>();
    /** Per analysis: computations, 0, nanoseconds (with timing on). */
    private final Map<Analyses.Kind, long[]> analysisTimings = new java.util.EnumMap<>(Analyses.Kind.class);

    /** {@code trace} receives printed IR (may be null when nothing is printed). */
    public PassManager(Options options, PrintWriter trace) {
        this.options = options;
        this.instrumentation =
                new PassInstrumentation(options.validate(), options.printAfterAll(), options.printAfter(), trace);
    }

    /** Runs the pipeline on every function; returns whether anything changed. */
    public boolean run(Shader shader, Pipeline pipeline) {
        boolean progress = false;
        for (Function fn : shader.functions()) progress |= runSteps(shader, fn, pipeline.steps());
        return progress;
    }

    private boolean runSteps(Shader shader, Function fn, List<Pipeline.Step> steps) {
        boolean progress = false;
        for (Pipeline.Step step : steps) {
            if (step instanceof Pipeline.PassStep ps) {
                progress |= runPass(shader, fn, ps.pass());
            } else {
                progress |= runLoop(shader, fn, ((Pipeline.LoopStep) step).steps());
            }
        }
        return progress;
    }

    private boolean runLoop(Shader shader, Function fn, List<Pipeline.Step> steps) {
        boolean any = false;
        for (int round = 1; ; round++) {
            Map<String, long[]> before = snapshotProgress();
            if (!runSteps(shader, fn, steps)) return any;
            any = true;
            if (round >= options.maxLoopIterations()) {
                List<String> busy = new ArrayList<>();
                Map<String, long[]> after = snapshotProgress();
                for (var e : after.entrySet()) {
                    long[] b = before.get(e.getKey());
                    if (b == null || b[1] != e.getValue()[1]) busy.add(e.getKey());
                }
                throw new PassException("the pipeline loop did not settle after " + round
                        + " rounds; passes still making progress: " + String.join(", ", busy));
            }
        }
    }

    private Map<String, long[]> snapshotProgress() {
        Map<String, long[]> m = new LinkedHashMap<>();
        timings.forEach((k, v) -> m.put(k, v.clone()));
        return m;
    }

    private boolean runPass(Shader shader, Function fn, Pass pass) {
        Analyses analyses = fn.analyses();
        long[] analysisBefore = null;
        if (options.timePasses()) {
            analyses.timing(true);
            analysisBefore = analysisSnapshot(analyses);
        }
        long start = System.nanoTime();
        boolean progress;
        try {
            progress = pass.run(fn);
        } catch (PassException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PassException("pass " + pass.name() + " failed on function " + fn.name() + ": " + e, e);
        }
        long elapsed = System.nanoTime() - start;
        long[] t = timings.computeIfAbsent(pass.name(), k -> new long[3]);
        t[0]++;
        if (progress) t[1]++;
        if (options.timePasses()) {
            long[] after = analysisSnapshot(analyses);
            for (Analyses.Kind k : Analyses.Kind.values()) {
                int o = 2 * k.ordinal();
                long spent = after[o + 1] - analysisBefore[o + 1];
                long runs = after[o] - analysisBefore[o];
                if (spent == 0 && runs == 0) continue;
                long[] a = analysisTimings.computeIfAbsent(k, x -> new long[3]);
                a[0] += runs;
                a[2] += spent;
                elapsed -= spent;
            }
            t[2] += elapsed;
        }
        instrumentation.after(
                pass.name(),
                () -> Validator.validate(fn).stream()
                        .map(ValidationError::format)
                        .toList(),
                "the IR is invalid after pass " + pass.name(),
                () -> IrPrinter.print(fn),
                PassException::new,
                "// after " + pass.name() + (progress ? " (progress)" : " (no change)"),
                () -> IrPrinter.print(shader));
        return progress;
    }

    private static long[] analysisSnapshot(Analyses a) {
        long[] s = new long[2 * Analyses.Kind.values().length];
        for (Analyses.Kind k : Analyses.Kind.values()) {
            s[2 * k.ordinal()] = a.computations(k);
            s[2 * k.ordinal() + 1] = a.nanos(k);
        }
        return s;
    }

    /**
     * Runs, progress counts and (with timing on) time per pass, in first-run order; then, with
     * timing on, a row per analysis the passes computed (see {@link Timing}).
     */
    public List<Timing> timings() {
        List<Timing> out = new ArrayList<>();
        timings.forEach((k, v) -> out.add(new Timing(k, (int) v[0], (int) v[1], v[2])));
        analysisTimings.forEach((k, v) -> out.add(new Timing(k.label(), (int) v[0], 0, v[2])));
        return out;
    }
}
