package dev.lathe.ir.pass;

import dev.lathe.ir.Function;
import dev.lathe.ir.Shader;
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
    public record Options(boolean validate, boolean printAfterAll, String printAfter, boolean timePasses,
                          int maxLoopIterations) {
        public static Options defaults() {
            return new Options(false, false, null, false, 100);
        }

        /** Defaults plus validation after every pass, as tests run. */
        public static Options validating() {
            return new Options(true, false, null, false, 100);
        }
    }

    /** Time and runs of one pass. */
    public record Timing(String pass, int runs, int progress, long nanos) {}

    private final Options options;
    private final PrintWriter trace;
    private final Map<String, long[]> timings = new LinkedHashMap<>();

    /** {@code trace} receives printed IR (may be null when nothing is printed). */
    public PassManager(Options options, PrintWriter trace) {
        this.options = options;
        this.trace = trace;
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
        if (options.timePasses()) t[2] += elapsed;
        if (options.validate()) {
            List<ValidationError> errors = Validator.validate(fn);
            if (!errors.isEmpty()) {
                StringBuilder sb = new StringBuilder("the IR is invalid after pass " + pass.name() + ":");
                for (ValidationError e : errors) sb.append("\n  ").append(e.format());
                sb.append("\n").append(IrPrinter.print(fn));
                throw new PassException(sb.toString());
            }
        }
        if (trace != null && (options.printAfterAll() || pass.name().equals(options.printAfter()))) {
            trace.println("// after " + pass.name() + (progress ? " (progress)" : " (no change)"));
            trace.print(IrPrinter.print(shader));
            trace.flush();
        }
        return progress;
    }

    /** Runs, progress counts and (with timing on) time per pass, in first-run order. */
    public List<Timing> timings() {
        List<Timing> out = new ArrayList<>();
        timings.forEach((k, v) -> out.add(new Timing(k, (int) v[0], (int) v[1], v[2])));
        return out;
    }
}
