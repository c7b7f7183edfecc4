package dev.lathe.driver.shaderdb;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.sim.SimulationException;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.ShaderSources;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * Compiles every shader under some directories, in parallel, into one results row each. Rows
 * come out sorted by path whatever the number of threads; a shader that fails gets a row with
 * its message and the run goes on. Only the compile-time column differs between runs.
 */
public final class CorpusRunner {
    private CorpusRunner() {}

    /** The files a corpus run picks up. */
    static boolean isShader(Path p) {
        String n = p.getFileName().toString();
        // a GLSL file with its SPIR-V beside it counts once, as the SPIR-V (no glslang needed)
        if (ShaderSources.isGlsl(n) && Files.exists(p.resolveSibling(n + ".spv"))) return false;
        return ShaderSources.isShader(p);
    }

    public static List<Path> collect(List<Path> roots) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path r : roots) {
            if (Files.isRegularFile(r)) {
                files.add(r);
                continue;
            }
            if (!Files.isDirectory(r)) throw new IOException(r + ": no such file or directory");
            try (Stream<Path> s = Files.walk(r)) {
                s.filter(Files::isRegularFile).filter(CorpusRunner::isShader).forEach(files::add);
            }
        }
        files.sort(null);
        return files;
    }

    /** Compiles {@code files} on {@code jobs} threads; {@code done} hears the count of finished shaders. */
    public static List<ResultsCsv.Row> run(List<Path> files, int jobs, String passes, IntConsumer done) {
        return run(files, jobs, Compiler.Options.defaults().withPipeline(passes), 0, null, done);
    }

    /**
     * Like {@link #run(List, int, String, IntConsumer)}, and with {@code checkSets > 0} every
     * compiled shader is also simulated against the interpreter on that many random input sets
     * ({@link DifferentialCheck}); a disagreement makes the row a failure naming it. GLSL is
     * compiled for {@code targetEnv} (null: the automatic choice of {@code ShaderSources}).
     */
    public static List<ResultsCsv.Row> run(
            List<Path> files, int jobs, Compiler.Options options, int checkSets, String targetEnv, IntConsumer done) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, jobs));
        try {
            List<Future<ResultsCsv.Row>> futures = new ArrayList<>();
            int[] finished = {0};
            for (Path f : files) {
                futures.add(pool.submit(() -> {
                    ResultsCsv.Row r = compileOne(f, options, checkSets, targetEnv);
                    synchronized (finished) {
                        done.accept(++finished[0]);
                    }
                    return r;
                }));
            }
            List<ResultsCsv.Row> rows = new ArrayList<>();
            for (Future<ResultsCsv.Row> fu : futures) {
                try {
                    rows.add(fu.get());
                } catch (Exception e) {
                    throw new IllegalStateException("internal error in the corpus run: " + e.getMessage(), e);
                }
            }
            return rows;
        } finally {
            pool.shutdownNow();
        }
    }

    static ResultsCsv.Row compileOne(Path f, Compiler.Options options, int checkSets, String targetEnv) {
        String name = f.toString();
        long t0 = System.nanoTime();
        String stage = "unknown";
        try {
            Shader s = ShaderSources.load(f, targetEnv);
            stage = s.stage().name().toLowerCase(Locale.ROOT);
            List<ValidationError> errors = Validator.validate(s);
            if (!errors.isEmpty()) return failed(name, stage, t0, errors.get(0).format());
            DifferentialCheck.Outcome checked = null;
            if (checkSets > 0) {
                // before compiling: the compiler changes the shader it is given
                try {
                    checked = DifferentialCheck.run(s, options, checkSets, Interpreter.DEFAULT_ITERATION_LIMIT);
                } catch (SimulationException | InterpreterException e) {
                    checked = new DifferentialCheck.Outcome(e.getMessage(), checkSets, 0, 0, null);
                }
            }
            MachineCompiler.Result r = Compiler.compile(s, options).machine();
            if (checked != null && checked.difference() != null) {
                return new ResultsCsv.Row(
                        name,
                        stage,
                        Map.of(),
                        (System.nanoTime() - t0) / 1e6,
                        "check: " + checked.difference(),
                        checked);
            }
            Map<String, Long> values = ResultsCsv.values(r.stats());
            if (checked != null && checked.simulatedCycles() >= 0)
                values.put(ResultsCsv.SIMULATED_CYCLES, checked.simulatedCycles());
            return new ResultsCsv.Row(name, stage, values, (System.nanoTime() - t0) / 1e6, null, checked);
        } catch (RuntimeException e) {
            // every failure of one shader is recorded, the run goes on
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return failed(name, stage.equals("unknown") ? stageOf(name) : stage, t0, m);
        }
    }

    private static String stageOf(String name) {
        Stage s = ShaderSources.stageOfName(name);
        return s == null ? "unknown" : s.name().toLowerCase(Locale.ROOT);
    }

    private static ResultsCsv.Row failed(String name, String stage, long t0, String message) {
        return new ResultsCsv.Row(name, stage, Map.of(), (System.nanoTime() - t0) / 1e6, message);
    }
}
