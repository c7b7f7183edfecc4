package dev.lathe.ir.pass;

import dev.lathe.ir.Function;
import dev.lathe.ir.Shader;
import dev.lathe.ir.analysis.Analyses;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link Pipeline} over every function of a shader, each pass made by a
 * {@link PassRegistry}. After each pass its {@link PassInstrumentation} counts and times it,
 * validates the IR (a failure names the pass) and prints it when asked. A {@code loop(…)} that
 * keeps making progress past {@link #MAX_LOOP_ROUNDS} stops with an error naming the passes that
 * still change the IR, instead of hanging.
 */
public final class PassManager {
    /** How many rounds a loop group may take. */
    public static final int MAX_LOOP_ROUNDS = 100;

    private final PassRegistry registry;
    private final PassInstrumentation instrumentation;

    /** Runs the passes of {@code registry} under {@code instrumentation} (shared with the machine pipeline, if any). */
    public PassManager(PassRegistry registry, PassInstrumentation instrumentation) {
        this.registry = registry;
        this.instrumentation = instrumentation;
    }

    /** Runs the passes of {@code registry} with {@code settings}. */
    public PassManager(PassRegistry registry, PassInstrumentation.Settings settings) {
        this(registry, new PassInstrumentation(settings));
    }

    /**
     * Runs the pipeline on every function; returns whether anything changed.
     *
     * @throws IllegalArgumentException when the registry has no IR pass of a name the pipeline runs
     */
    public boolean run(Shader shader, Pipeline pipeline) {
        String problem = pipeline.unknownPass(registry);
        if (problem != null) throw new IllegalArgumentException("pipeline \"" + pipeline + "\": " + problem);
        // one instance per step of the pipeline, as if each step were written out
        Map<Pipeline.Run, Pass> made = new IdentityHashMap<>();
        boolean progress = false;
        for (Function fn : shader.functions()) progress |= runSteps(shader, fn, pipeline.steps(), made);
        return progress;
    }

    private boolean runSteps(Shader shader, Function fn, List<Pipeline.Step> steps, Map<Pipeline.Run, Pass> made) {
        boolean progress = false;
        for (Pipeline.Step step : steps) {
            if (step instanceof Pipeline.Run r) {
                Pass pass = made.computeIfAbsent(r, x -> registry.create(x.pass()));
                progress |= runPass(shader, fn, r.pass(), pass);
            } else {
                progress |= runLoop(shader, fn, ((Pipeline.Loop) step).body(), made);
            }
        }
        return progress;
    }

    private boolean runLoop(Shader shader, Function fn, List<Pipeline.Step> steps, Map<Pipeline.Run, Pass> made) {
        boolean any = false;
        for (int round = 1; ; round++) {
            Map<String, Long> before = instrumentation.progressCounts();
            if (!runSteps(shader, fn, steps, made)) return any;
            any = true;
            if (round >= MAX_LOOP_ROUNDS) {
                List<String> busy = new ArrayList<>();
                instrumentation.progressCounts().forEach((pass, n) -> {
                    if (!n.equals(before.get(pass))) busy.add(pass);
                });
                throw new PassException("the pipeline loop did not settle after " + round
                        + " rounds; passes still making progress: " + String.join(", ", busy));
            }
        }
    }

    private boolean runPass(Shader shader, Function fn, String name, Pass pass) {
        Analyses analyses = fn.analyses();
        long[] analysisBefore = null;
        boolean timing = instrumentation.timing();
        if (timing) {
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
            throw new PassException("pass " + name + " failed on function " + fn.name() + ": " + e, e);
        }
        long elapsed = System.nanoTime() - start;
        if (timing) {
            // the analyses a pass asked for are rows of their own, their time taken out of the pass's
            long[] after = analysisSnapshot(analyses);
            for (Analyses.Kind k : Analyses.Kind.values()) {
                int o = 2 * k.ordinal();
                long spent = after[o + 1] - analysisBefore[o + 1];
                long runs = after[o] - analysisBefore[o];
                if (spent == 0 && runs == 0) continue;
                instrumentation.analysis(k.label(), runs, spent);
                elapsed -= spent;
            }
        }
        instrumentation.ran(name, progress, elapsed);
        instrumentation.after(
                name,
                () -> Validator.validate(fn).stream()
                        .map(ValidationError::format)
                        .toList(),
                "the IR is invalid after pass " + name,
                () -> IrPrinter.print(fn),
                PassException::new,
                "// after " + name + (progress ? " (progress)" : " (no change)"),
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

    /** The instrumentation's table: runs, progress and time per pass, then per analysis ({@link PassInstrumentation#timings}). */
    public List<PassInstrumentation.Timing> timings() {
        return instrumentation.timings();
    }
}
