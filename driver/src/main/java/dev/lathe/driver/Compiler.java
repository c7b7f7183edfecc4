package dev.lathe.driver;

import dev.lathe.backend.compile.Allocation;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.compile.MachinePasses;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.rewrite.RuleSet;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Shader in, machine code out, by {@link Pipelines}: the IR optimization pipeline (the default
 * one, or the one given), the lowering the target needs, then the machine pipeline. The shader
 * is changed in place.
 */
public final class Compiler {
    private Compiler() {}

    /**
     * How to run: the IR pipeline's text, and the conveniences of both pass managers — print
     * after one pass (IR or machine, by its name) or after every pass, time the passes, verify
     * after every pass (the IR validator, the machine verifier).
     */
    public record Options(
            String pipeline,
            List<String> machine,
            boolean verify,
            boolean printAfterAll,
            String printAfter,
            boolean timePasses,
            PrintWriter trace,
            Allocation allocation,
            Set<String> disabledRules,
            List<RuleSet> extraRules) {
        /** Copies the lists and the set, so options never change once made. */
        public Options {
            machine = List.copyOf(machine);
            disabledRules = Set.copyOf(disabledRules);
            extraRules = List.copyOf(extraRules);
        }

        /** Options with no rules disabled and no rule passes beside Lathe's own. */
        public Options(
                String pipeline,
                List<String> machine,
                boolean verify,
                boolean printAfterAll,
                String printAfter,
                boolean timePasses,
                PrintWriter trace,
                Allocation allocation) {
            this(
                    pipeline,
                    machine,
                    verify,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    allocation,
                    Set.of(),
                    List.of());
        }

        /** With the rules named in {@code names} never applied ({@code --disable-rules}). */
        public Options withDisabledRules(Set<String> names) {
            return new Options(
                    pipeline,
                    machine,
                    verify,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    allocation,
                    names,
                    extraRules);
        }

        /** The default IR and machine pipelines and register allocation; nothing verified, printed or timed; Lathe's rules only. */
        public static Options defaults() {
            return new Options(
                    Pipelines.DEFAULT,
                    Pipelines.MACHINE,
                    false,
                    false,
                    null,
                    false,
                    null,
                    Allocation.DEFAULT,
                    Set.of(),
                    List.of());
        }

        /** Defaults plus verification after every pass, as tests run. */
        public static Options verifying() {
            return defaults().withVerify(true);
        }

        /** With the IR pipeline {@code text} (null: the default one). */
        public Options withPipeline(String text) {
            return new Options(
                    text == null ? Pipelines.DEFAULT : text,
                    machine,
                    verify,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    allocation,
                    disabledRules,
                    extraRules);
        }

        /** With the machine pipeline {@code passes}. */
        public Options withMachine(List<String> passes) {
            return new Options(
                    pipeline,
                    passes,
                    verify,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    allocation,
                    disabledRules,
                    extraRules);
        }

        /** With verification after every pass on ({@code v} true) or off. */
        public Options withVerify(boolean v) {
            return new Options(
                    pipeline,
                    machine,
                    v,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    allocation,
                    disabledRules,
                    extraRules);
        }

        /** With printing and timing: after every pass or after {@code pass}, to {@code to}. */
        public Options withTrace(boolean all, String pass, boolean time, PrintWriter to) {
            return new Options(pipeline, machine, verify, all, pass, time, to, allocation, disabledRules, extraRules);
        }

        /**
         * With a rule pass for each of {@code rules} beside Lathe's own ({@code --rules-jar}, {@link RuleJars}):
         * the pipeline may name their passes.
         */
        public Options withRules(List<RuleSet> rules) {
            return new Options(
                    pipeline,
                    machine,
                    verify,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    allocation,
                    disabledRules,
                    rules);
        }

        /** With register allocation's budget and spilling choices {@code a} ({@code --max-regs} and friends). */
        public Options withAllocation(Allocation a) {
            return new Options(
                    pipeline,
                    machine,
                    verify,
                    printAfterAll,
                    printAfter,
                    timePasses,
                    trace,
                    a,
                    disabledRules,
                    extraRules);
        }
    }

    /**
     * What compiling gives: the machine result, the time per pass of both pipelines (when timed),
     * and how often each rule of the rule passes that ran fired ({@code lathe compile --rule-stats}).
     */
    public record Result(
            MachineCompiler.Result machine,
            List<PassManager.Timing> timings,
            List<dev.lathe.ir.rewrite.RuleStats> ruleStats) {}

    /** Compiles {@code shader} with the default pipelines. */
    public static MachineCompiler.Result compile(Shader shader) {
        return compile(shader, Pipelines.DEFAULT);
    }

    /** {@code pipeline}: a pipeline text over {@link Passes}; a wrong one is an IllegalArgumentException. */
    public static MachineCompiler.Result compile(Shader shader, String pipeline) {
        return compile(shader, Options.defaults().withPipeline(pipeline)).machine();
    }

    /** Checks {@code options} before anything runs ({@link #checkPipeline}, {@link #checkPrintAfter}). */
    public static void check(Options options) {
        Passes passes = new Passes(options.extraRules());
        check(options, passes);
    }

    private static void check(Options options, Passes passes) {
        checkPipeline(options, passes);
        checkPrintAfter(options.printAfter(), passes.registry());
        passes.checkRuleNames(options.disabledRules());
    }

    /**
     * @throws IllegalArgumentException when {@code options.pipeline()} is not a pipeline over its {@link Passes}, saying
     *     where, or when the passes as they will run break {@link Pipelines#ORDER}, saying which rule and why
     */
    public static void checkPipeline(Options options) {
        checkPipeline(options, new Passes(options.extraRules()));
    }

    /** Both pipelines parse, and the whole order as it will run keeps {@link Pipelines#ORDER}. */
    private static void checkPipeline(Options options, Passes passes) {
        Pipeline optimize = Pipeline.parse(options.pipeline(), passes.registry());
        MachinePasses.pipeline(options.machine());
        // the pipeline given, then the lowering, then the machine passes
        List<String> order = new ArrayList<>(optimize.order());
        order.addAll(Pipeline.parse(Pipelines.lowering(options.machine()), passes.registry())
                .order());
        order.addAll(options.machine());
        String problem = Pipelines.orderProblem(order);
        if (problem != null)
            throw new IllegalArgumentException("the passes break the order they must keep: " + problem);
    }

    /**
     * @throws IllegalArgumentException when {@code options.printAfter()} is neither null nor one of the IR's
     *     (with {@code options}' rule passes) or the backend's passes
     */
    public static void checkPrintAfter(Options options) {
        checkPrintAfter(options.printAfter(), new Passes(options.extraRules()).registry());
    }

    private static void checkPrintAfter(String pass, PassRegistry registry) {
        Set<String> ir = registry.names();
        if (pass != null && !ir.contains(pass) && !MachinePasses.names().contains(pass)) {
            throw new IllegalArgumentException("unknown pass '" + pass + "' (IR passes: " + String.join(", ", ir)
                    + "; machine passes: " + String.join(", ", MachinePasses.names()) + ")");
        }
    }

    /** Compiles {@code shader}; options {@link #check} refuses are an IllegalArgumentException. */
    public static Result compile(Shader shader, Options options) {
        Passes passes = new Passes(options.extraRules()); // one registry checks the options and runs them
        check(options, passes);
        passes.disabling(options.disabledRules());
        Pipeline optimize = Pipeline.parse(options.pipeline(), passes.registry());
        Pipeline lower = Pipeline.parse(Pipelines.lowering(options.machine()), passes.registry());
        PassManager pm = new PassManager(
                new PassManager.Options(
                        options.verify(), options.printAfterAll(), options.printAfter(), options.timePasses(), 100),
                options.trace());
        // a PassException is a bug of a pass (or of the rules), never the target refusing the shader: it is not a
        // CompileException
        pm.run(shader, optimize);
        pm.run(shader, lower);
        MachineCompiler.Result machine = MachineCompiler.compile(
                shader,
                new MachineCompiler.Options(
                        options.machine(),
                        options.verify(),
                        options.printAfterAll(),
                        options.printAfter(),
                        options.timePasses(),
                        options.trace(),
                        options.allocation()));
        // the passes of both pipelines in the order they ran, then the analyses the IR passes computed
        List<PassManager.Timing> timings = new ArrayList<>();
        for (PassManager.Timing t : pm.timings()) if (!t.isAnalysis()) timings.add(t);
        timings.addAll(machine.timings());
        for (PassManager.Timing t : pm.timings()) if (t.isAnalysis()) timings.add(t);
        Set<String> ran = new java.util.HashSet<>(optimize.passNames());
        ran.addAll(lower.passNames());
        List<dev.lathe.ir.rewrite.RuleStats> stats = new ArrayList<>();
        for (dev.lathe.ir.rewrite.RuleStats st : passes.ruleStats())
            if (ran.contains(st.ruleSet().passName())) stats.add(st);
        return new Result(machine, timings, stats);
    }
}
