package dev.lathe.cli;

import dev.lathe.driver.Compiler;
import dev.lathe.driver.Passes;
import dev.lathe.driver.ShaderSources;
import dev.lathe.driver.shaderdb.CorpusRunner;
import dev.lathe.driver.shaderdb.ResultsCsv;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe shaderdb DIR… [-o results.csv] [--jobs N] [--passes LIST]}: the corpus runner. */
@Command(
        name = "shaderdb",
        mixinStandardHelpOptions = true,
        description = {
            "Compile every shader under the given directories and record its statistics, like Mesa's shader-db.",
            "Writes one CSV row per shader (sorted by path; failures keep their message) and prints a summary.",
            "Example: lathe shaderdb examples/ir -o before.csv"
        })
final class ShaderDbCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "directories (or files) of shaders")
    List<Path> dirs = new ArrayList<>();

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE.csv",
            description = "write the results here")
    Path output;

    @Option(
            names = "--no-times",
            description = "leave the compile-ms column empty: the same shaders then give a byte-identical CSV")
    boolean noTimes;

    @Option(names = "--jobs", paramLabel = "N", description = "threads (default: the number of cores)")
    int jobs = Runtime.getRuntime().availableProcessors();

    @Option(
            names = "--passes",
            paramLabel = "LIST",
            description = "the IR pipeline before selection (default: the default pipeline)")
    String passes;

    @Option(
            names = "--check",
            paramLabel = "N",
            description =
                    "also run every compiled shader in the simulator against the IR interpreter on N random input sets "
                            + "(bit for bit; compute shaders as two workgroups); a disagreement is a failure; the sim-cycles column gets the mean of the "
                            + "simulated cycles")
    int check;

    @Option(
            names = "--check-vulkan",
            paramLabel = "N",
            description = "also run every SPIR-V and GLSL shader on the system's Vulkan (Mesa's lavapipe "
                    + "preferred) against the IR interpreter, until N input sets are decided (from at most 16N seeds), under the NaN contract and "
                    + "within the precision Vulkan requires; exits 1 if any shader disagrees")
    int checkVulkan;

    @Option(
            names = "--vulkan-device",
            paramLabel = "INDEX|NAME",
            description =
                    "run --check-vulkan on this device: its index in "
                            + "`lathe vulkan-devices`, or part of its name (case aside); default: Mesa's lavapipe where the loader sees it, else the first device")
    String vulkanDevice;

    @Option(
            names = "--vulkan-timeout",
            paramLabel = "SECONDS",
            description =
                    "with --check-vulkan: a shader whose run gives no answer in this many "
                            + "seconds is taken as a hung driver, its process killed, and the next shader run in a new one (default: 600)")
    int vulkanTimeout = 600;

    @Mixin
    MachineSwitches machine = new MachineSwitches();

    @Mixin
    RuleSwitches rules = new RuleSwitches();

    @Override
    public Integer call() {
        if (source.targetEnv != null && !ShaderSources.TARGET_ENVS.contains(source.targetEnv)) {
            throw new CliException("lathe shaderdb: --target-env: unknown target environment '" + source.targetEnv
                    + "' (one of " + String.join(", ", ShaderSources.TARGET_ENVS) + ")");
        }
        if (jobs < 1) throw new CliException("lathe shaderdb: --jobs must be at least 1");
        if (check < 0) throw new CliException("lathe shaderdb: --check must be 0 or more");
        if (checkVulkan < 0) throw new CliException("lathe shaderdb: --check-vulkan must be 0 or more");
        if (vulkanDevice != null && checkVulkan == 0)
            throw new CliException("lathe shaderdb: --vulkan-device needs --check-vulkan N");
        if (vulkanTimeout < 1) throw new CliException("lathe shaderdb: --vulkan-timeout must be at least 1");
        List<Path> files;
        try {
            files = CorpusRunner.collect(dirs);
        } catch (IOException e) {
            throw new CliException("lathe shaderdb: " + e.getMessage());
        }
        if (files.isEmpty())
            throw new CliException("lathe shaderdb: no shaders (.ir, .spv, .vert, .frag, .comp) under " + dirs);
        Compiler.Options options = rules.apply(
                Compiler.Options.defaults().withAllocation(machine.allocation("lathe shaderdb")), "lathe shaderdb");
        options = machine.apply(options.withPipeline(
                PassesOption.parse("lathe shaderdb", passes, new Passes(options.extraRules()).registry())));
        PrintWriter out = spec.commandLine().getOut();
        boolean terminal = System.console() != null;
        int total = files.size();
        List<ResultsCsv.Row> rows = CorpusRunner.run(files, jobs, options, check, source.targetEnv, done -> {
            if (!terminal) return;
            int width = 30, filled = done * width / total;
            System.err.print("\r[" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total);
            if (done == total) System.err.println();
        });
        if (output != null)
            ProgramFiles.write(output, ResultsCsv.write(rows, !noTimes).getBytes(StandardCharsets.UTF_8));
        int ok = 0;
        long inst = 0, cycles = 0;
        for (ResultsCsv.Row r : rows) {
            if (!r.ok()) continue;
            ok++;
            inst += r.values().get("instructions");
            cycles += r.values().get("cycles");
        }
        out.println(total + " shaders: " + ok + " compiled, " + (total - ok) + " failed");
        out.println("instructions: " + inst + ", estimated cycles: " + cycles);
        if (check > 0) {
            long simulated = 0;
            for (ResultsCsv.Row r : rows)
                if (r.ok() && r.values().containsKey(ResultsCsv.SIMULATED_CYCLES))
                    simulated += r.values().get(ResultsCsv.SIMULATED_CYCLES);
            out.println("simulated cycles (mean over the input sets, summed over the shaders): " + simulated);
        }
        if (check > 0) {
            // what each shader's check compared: a check that compared little says little
            for (ResultsCsv.Row r : rows) {
                if (r.check() == null) continue;
                out.println((r.check().weak() ? "WARNING checked " : "checked ") + r.name() + ": "
                        + r.check().summary());
            }
        }
        for (ResultsCsv.Row r : rows) {
            if (!r.ok())
                out.println("FAILED " + (r.error().startsWith(r.name()) ? r.error() : r.name() + ": " + r.error()));
        }
        if (output != null) out.println("results: " + output);
        if (checkVulkan > 0)
            return VulkanCheck.run(files, source.targetEnv, checkVulkan, vulkanDevice, vulkanTimeout, out) ? 0 : 1;
        return 0;
    }
}
