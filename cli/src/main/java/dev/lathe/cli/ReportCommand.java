package dev.lathe.cli;

import dev.lathe.driver.shaderdb.Report;
import dev.lathe.driver.shaderdb.ResultsCsv;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe report BEFORE.csv AFTER.csv}: shader-db's report.py on two corpus runs. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Compare two `lathe shaderdb` runs like shader-db's report.py: totals, helped/HURT, their statistics,",
            "95%% confidence intervals and a verdict per measurement (lower is better, except waves).",
            "Example: lathe report before.csv after.csv --summary-only",
            "With --totals: lathe report ir3.csv lathe.csv --totals -m instructions,nops,mov,waves"
        })
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BEFORE.csv")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER.csv")
    Path after;

    @Option(
            names = {"-m", "--measurements"},
            paramLabel = "LIST",
            split = ",",
            description = "the measurements to report (default: all)")
    List<String> measurements;

    @Option(
            names = {"-s", "--summary-only"},
            description = "no per-shader helped/HURT lines")
    boolean summaryOnly;

    @Option(
            names = {"-c", "--changes-only"},
            description = "only measurements that changed")
    boolean changesOnly;

    @Option(
            names = {"-t", "--totals"},
            description =
                    "instead: plain totals over every shader both runs compiled (loop counts not "
                            + "compared), as a Markdown table with the ratio after/before, and the shaders whose waves went down")
    boolean totals;

    @Override
    public Integer call() {
        List<String> ms = measurements == null ? ResultsCsv.MEASUREMENTS : measurements;
        for (String m : ms) {
            if (!ResultsCsv.MEASUREMENTS.contains(m)) {
                throw new CliException("lathe report: unknown measurement '" + m + "' (known: "
                        + String.join(", ", ResultsCsv.MEASUREMENTS) + ")");
            }
        }
        try {
            List<ResultsCsv.Row> b = ResultsCsv.read(before.toString(), ShaderFiles.readText(before));
            List<ResultsCsv.Row> a = ResultsCsv.read(after.toString(), ShaderFiles.readText(after));
            spec.commandLine()
                    .getOut()
                    .print(
                            totals
                                    ? Report.totals(b, a, ms)
                                    : Report.render(b, a, new Report.Options(ms, summaryOnly, changesOnly)));
            return 0;
        } catch (IllegalArgumentException e) {
            throw new CliException("lathe report: " + e.getMessage());
        }
    }
}
