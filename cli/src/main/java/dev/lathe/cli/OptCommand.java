package dev.lathe.cli;

import dev.lathe.backend.compile.Target;
import dev.lathe.driver.Passes;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassException;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe opt FILE.ir}: runs passes and prints the optimized IR. */
@Command(
        name = "opt",
        mixinStandardHelpOptions = true,
        description = {
            "Optimize a shader and print the result.",
            "Pipelines are pass names separated by commas; loop(a, b, …) repeats a group until no pass in it makes progress.",
            "Example: lathe opt x.ir --passes 'loop(constant_fold, copy_prop, algebraic, dce), late'",
            "The IR is validated before and after; --verify-each checks it after every pass."
        })
final class OptCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", description = "the shader to optimize")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    static final class Which {
        @Option(names = "--passes", paramLabel = "LIST", description = "the passes to run, e.g. cse,copy_prop,dce")
        String passes;

        @Option(names = "--pipeline", paramLabel = "NAME", description = "a named pipeline: default")
        String pipeline;
    }

    @ArgGroup(exclusive = true)
    Which which;

    @Mixin
    PassOptions passOptions = new PassOptions();

    @Mixin
    RuleSwitches rules = new RuleSwitches();

    @Option(
            names = "--rule-stats",
            description = "print how often each rule fired, most frequent first, and the rules "
                    + "that never fired (to standard error)")
    boolean ruleStats;

    @Override
    public Integer call() {
        Passes passes = rules.passes("lathe opt");
        PassRegistry registry = passes.registry();
        if (which != null && which.pipeline != null && !which.pipeline.equals("default")) {
            throw new CliException("lathe opt: unknown pipeline '" + which.pipeline + "' (known: default)");
        }
        Pipeline pipeline = PassesOption.parse("lathe opt", which == null ? null : which.passes, registry);
        String problem = Pipelines.orderProblem(pipeline.order());
        if (problem != null) throw new CliException("lathe opt: the passes break the order they must keep: " + problem);
        PassOptions o = passOptions;
        if (o.printAfter != null && !registry.irNames().contains(o.printAfter)) {
            throw new CliException("lathe opt: --print-after: unknown pass '" + o.printAfter + "'");
        }
        Shader s = ShaderFiles.load(file, source);
        PrintWriter out = spec.commandLine().getOut();
        PassManager pm = new PassManager(registry, o.settings(out));
        try {
            pm.run(s, pipeline);
        } catch (PassException e) {
            throw new CliException(file + ": " + e.getMessage());
        }
        var errors = Validator.validate(s);
        if (!errors.isEmpty()) {
            throw new CliException(file + ": the optimized IR is invalid (a pass is wrong): "
                    + errors.get(0).format());
        }
        if (o.printing()) out.println("// final");
        out.print(IrPrinter.print(s));
        out.flush();
        if (o.timePasses) PassTimes.print(pm.timings(), spec.commandLine().getErr());
        if (ruleStats) {
            Set<String> ran = pipeline.passNames();
            printRuleStats(
                    passes.ruleStats().stream()
                            .filter(st -> ran.contains(st.ruleSet().passName()))
                            .toList(),
                    spec.commandLine().getErr());
        }
        return 0;
    }

    /** The statistics of the rule sets a pipeline ran (a rule set it did not run has none to tell). */
    static void printRuleStats(java.util.List<RuleStats> stats, PrintWriter err) {
        for (RuleStats st : stats) {
            err.println("rules of pass " + st.ruleSet().passName() + ": " + st.total() + " rewrite"
                    + (st.total() == 1 ? "" : "s"));
            for (RuleStats.Entry e : st.firedMostFirst()) {
                err.printf(
                        "  %8d  %-28s %-8s %s%n",
                        e.count(), e.rule().name(), e.rule().proof(), e.rule().location());
            }
            var never = new java.util.ArrayList<>(st.neverFired());
            var gated = new java.util.ArrayList<String>();
            never.removeIf(r -> {
                String gate = r.gatedOff(Target.IR3_LIKE.ruleOptions());
                if (gate != null)
                    gated.add(r.name() + " ("
                            + (gate.startsWith("!") ? "!option(" + gate.substring(1) : "option(" + gate) + "))");
                return gate != null;
            });
            if (!gated.isEmpty())
                err.println("  off, gated on an option the target " + "does not satisfy (" + gated.size() + "): "
                        + String.join(", ", gated));
            if (!never.isEmpty()) {
                err.println("  never fired (" + never.size() + "):");
                StringBuilder line = new StringBuilder("   ");
                for (var r : never) {
                    if (line.length() + r.name().length() > 96) {
                        err.println(line);
                        line = new StringBuilder("   ");
                    }
                    line.append(' ').append(r.name());
                }
                if (line.length() > 3) err.println(line);
            }
        }
        err.flush();
    }
}
