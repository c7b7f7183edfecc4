package dev.lathe.driver;

import dev.lathe.backend.compile.Allocation;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.compile.MachinePasses;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassInstrumentation;
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
     * How to compile, the one record of it: the IR pipeline (parsed once), the machine pipeline,
     * the instrumentation both pipelines share (print after one pass, IR or machine, by its name,
     * or after every pass; time the passes; verify after every pass: the IR validator, the machine
     * verifier), register allocation's budget, the rules left out and the rule passes added.
     */
    public record Options(
            Pipeline pipeline,
            List<String> machine,
            PassInstrumentation.Settings instrumentation,
            Allocation allocation,
            Set<String> disabledRules,
            List<RuleSet> extraRules) {
        /** Copies the lists and the set, so options never change once made. */
        public Options {
            machine = List.copyOf(machine);
            disabledRules = Set.copyOf(disabledRules);
            extraRules = List.copyOf(extraRules);
        }

        /** The default IR and machine pipelines and register allocation; nothing verified, printed or timed; Lathe's rules only. */
        public static Options defaults() {
            return new Options(
                    Pipelines.OPTIMIZE,
                    Pipelines.MACHINE,
                    PassInstrumentation.Settings.none(),
                    Allocation.DEFAULT,
                    Set.of(),
                    List.of());
        }

        /** Defaults plus verification after every pass, as tests run. */
        public static Options verifying() {
            return defaults().withVerify(true);
        }

        /** With the rules named in {@code names} never applied ({@code --disable-rules}). */
        public Options withDisabledRules(Set<String> names) {
            return new Options(pipeline, machine, instrumentation, allocation, names, extraRules);
        }

        /** With the IR pipeline {@code p}. */
        public Options withPipeline(Pipeline p) {
            return new Options(p, machine, instrumentation, allocation, disabledRules, extraRules);
        }

        /**
         * With the IR pipeline {@code text} (null: the default one); its pass names are checked when it is compiled
         * with ({@link Compiler#check}).
         *
         * @throws IllegalArgumentException when the text is not a pipeline, saying where
         */
        public Options withPipeline(String text) {
            return withPipeline(text == null ? Pipelines.OPTIMIZE : Pipeline.parse(text));
        }

        /** With the machine pipeline {@code passes}. */
        public Options withMachine(List<String> passes) {
            return new Options(pipeline, passes, instrumentation, allocation, disabledRules, extraRules);
        }

        /** With verification after every pass on ({@code v} true) or off. */
        public Options withVerify(boolean v) {
            return withInstrumentation(instrumentation.withVerify(v));
        }

        /** With the instrumentation {@code settings}. */
        public Options withInstrumentation(PassInstrumentation.Settings settings) {
            return new Options(pipeline, machine, settings, allocation, disabledRules, extraRules);
        }

        /** With printing and timing: after every pass or after {@code pass}, to {@code to}. */
        public Options withTrace(boolean all, String pass, boolean time, PrintWriter to) {
            return withInstrumentation(new PassInstrumentation.Settings(instrumentation.verify(), all, pass, time, to));
        }

        /**
         * With a rule pass for each of {@code rules} beside Lathe's own ({@code --rules-jar}, {@link RuleJars}):
         * the pipeline may name their passes.
         */
        public Options withRules(List<RuleSet> rules) {
            return new Options(pipeline, machine, instrumentation, allocation, disabledRules, rules);
        }

        /**
         * With the parts of the switches in {@code off} left out ({@link Pipelines#SWITCHES}, {@code --no-NAME}): from
         * the default machine pipeline, and from this IR pipeline.
         */
        public Options withSwitchesOff(Set<String> off) {
            return withMachine(Pipelines.machine(off)).withPipeline(Pipelines.optimize(pipeline, off));
        }

        /** With register allocation's budget and spilling choices {@code a} ({@code --max-regs} and friends). */
        public Options withAllocation(Allocation a) {
            return new Options(pipeline, machine, instrumentation, a, disabledRules, extraRules);
        }
    }

    /**
     * What compiling gives: the machine result, the runs and time per pass of both pipelines (time when timed) then
     * per analysis, and how often each rule of the rule passes that ran fired ({@code lathe compile --rule-stats}).
     */
    public record Result(
            MachineCompiler.Result machine,
            List<PassInstrumentation.Timing> timings,
            List<dev.lathe.ir.rewrite.RuleStats> ruleStats) {}

    /** Compiles {@code shader} with the default pipelines. */
    public static MachineCompiler.Result compile(Shader shader) {
        return compile(shader, Options.defaults()).machine();
    }

    /** {@code pipeline}: a pipeline text over {@link Passes}; a wrong one is an IllegalArgumentException. */
    public static MachineCompiler.Result compile(Shader shader, String pipeline) {
        return compile(shader, Options.defaults().withPipeline(pipeline)).machine();
    }

    /** Checks {@code options} before anything runs ({@link #checkPipeline}, {@link #checkPrintAfter}). */
    public static void check(Options options) {
        check(options, new Passes(options.extraRules()));
    }

    private static void check(Options options, Passes passes) {
        checkPipeline(options, passes);
        checkPrintAfter(options.instrumentation().printAfter(), passes.registry());
        passes.checkRuleNames(options.disabledRules());
    }

    /**
     * @throws IllegalArgumentException when {@code options.pipeline()} runs a pass its {@link Passes} lack or the machine
     *     pipeline is not one, saying which, or when the passes as they will run break {@link Pipelines#ORDER}, saying
     *     which rule and why
     */
    public static void checkPipeline(Options options) {
        checkPipeline(options, new Passes(options.extraRules()));
    }

    /** Both pipelines are made of known passes, and the whole order as it will run keeps {@link Pipelines#ORDER}. */
    private static void checkPipeline(Options options, Passes passes) {
        String unknown = options.pipeline().unknownPass(passes.registry());
        if (unknown != null) throw new IllegalArgumentException("pipeline \"" + options.pipeline() + "\": " + unknown);
        MachinePasses.pipeline(options.machine());
        // the pipeline given, then the lowering, then the machine passes
        List<String> order = new ArrayList<>(options.pipeline().order());
        order.addAll(Pipelines.lowering(options.machine()).order());
        order.addAll(options.machine());
        String problem = Pipelines.orderProblem(order);
        if (problem != null)
            throw new IllegalArgumentException("the passes break the order they must keep: " + problem);
    }

    /**
     * @throws IllegalArgumentException when {@code options}' print-after pass is neither null nor the name of one of its
     *     passes (IR, rule or machine pass)
     */
    public static void checkPrintAfter(Options options) {
        checkPrintAfter(options.instrumentation().printAfter(), new Passes(options.extraRules()).registry());
    }

    private static void checkPrintAfter(String pass, PassRegistry registry) {
        if (pass != null && registry.entry(pass) == null) {
            throw new IllegalArgumentException("unknown pass '" + pass + "' (IR passes: "
                    + String.join(", ", registry.irNames()) + "; machine passes: "
                    + String.join(", ", MachinePasses.names()) + ")");
        }
    }

    /** Compiles {@code shader}; options {@link #check} refuses are an IllegalArgumentException. */
    public static Result compile(Shader shader, Options options) {
        Passes passes = new Passes(options.extraRules()); // one registry checks the options and runs them
        check(options, passes);
        passes.disabling(options.disabledRules());
        Pipeline lower = Pipelines.lowering(options.machine());
        // one instrumentation for both pipelines: one table of passes in the order they ran, one meaning of the options
        PassInstrumentation instrumentation = new PassInstrumentation(options.instrumentation());
        PassManager pm = new PassManager(passes.registry(), instrumentation);
        // a PassException is a bug of a pass (or of the rules), never the target refusing the shader: it is not a
        // CompileException
        pm.run(shader, options.pipeline());
        pm.run(shader, lower);
        MachineCompiler.Result machine =
                MachineCompiler.compile(shader, options.machine(), options.allocation(), instrumentation);
        Set<String> ran = new java.util.HashSet<>(options.pipeline().passNames());
        ran.addAll(lower.passNames());
        List<dev.lathe.ir.rewrite.RuleStats> stats = new ArrayList<>();
        for (dev.lathe.ir.rewrite.RuleStats st : passes.ruleStats())
            if (ran.contains(st.ruleSet().passName())) stats.add(st);
        return new Result(machine, instrumentation.timings(), stats);
    }
}
