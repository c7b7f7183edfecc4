package dev.lathe.cli;

import dev.lathe.driver.ExternalTool;
import dev.lathe.rules.NirImport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lathe rules import-nir}: Mesa's {@code nir_opt_algebraic.py} as Lathe rule files. The
 * file is Python that builds most of its rules in loops and helper functions, so it is run,
 * not parsed: python3 evaluates it with the project's stand-ins for the two Mesa modules it
 * imports ({@code nir_algebraic}, {@code nir_opcodes}; resources next to this class), and a
 * dumper writes every rule each {@code AlgebraicPass} receives, with its source line.
 * {@link NirImport} translates and writes them.
 */
@Command(
        name = "import-nir",
        mixinStandardHelpOptions = true,
        description = {
            "Import Mesa's algebraic rules: evaluate a nir_opt_algebraic.py with python3 and write one rule file "
                    + "per NIR pass into DIR (PASS.rules, each rule named after its tuple's line, nir_1234, gated by its "
                    + "condition), and DIR/REFUSED.md with every tuple that has no faithful Lathe translation and why. "
                    + "Then check and prove them: lathe rules check DIR.",
            "Example: lathe rules import-nir mesa/src/compiler/nir/nir_opt_algebraic.py -o nir-rules"
        })
final class ImportNirCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "nir_opt_algebraic.py", description = "Mesa's rule file")
    Path file;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "DIR",
            required = true,
            description = "where the rule files go")
    Path out;

    @Option(names = "--python", paramLabel = "CMD", description = "the Python 3 to run (default ${DEFAULT-VALUE})")
    String python = "python3";

    @Option(
            names = "--timeout",
            paramLabel = "S",
            description = "seconds the file may take to evaluate (default ${DEFAULT-VALUE})")
    int timeout = 300;

    private static final String COMMAND = "lathe rules import-nir";
    private static final List<String> RESOURCES =
            List.of("nir_dump.py", "stub/nir_algebraic.py", "stub/nir_opcodes.py");

    @Override
    public Integer call() {
        if (!Files.isRegularFile(file)) throw new CliException(COMMAND + ": " + file + ": no such file");
        if (!Files.isReadable(file)) throw new CliException(COMMAND + ": " + file + ": cannot be read");
        if (timeout < 1) throw new CliException(COMMAND + ": --timeout must be positive");
        if (Files.exists(out) && !Files.isDirectory(out))
            throw new CliException(COMMAND + ": " + out + " is not a directory");
        Path work = null;
        try {
            work = Files.createTempDirectory("lathe-nir-");
            for (String r : RESOURCES) {
                Path to = work.resolve(r);
                Files.createDirectories(to.getParent());
                try (InputStream in = ImportNirCommand.class.getResourceAsStream("nir/" + r)) {
                    if (in == null) throw new IllegalStateException("the jar lacks its resource nir/" + r);
                    Files.copy(in, to);
                }
            }
            Path dump = work.resolve("rules.tsv");
            ExternalTool.Result run = ExternalTool.run(
                    timeout,
                    List.of(
                            python,
                            work.resolve("nir_dump.py").toString(),
                            "--file",
                            file.toAbsolutePath().toString(),
                            "--stub",
                            work.resolve("stub").toString(),
                            "--out",
                            dump.toString()));
            if (!run.ok()) {
                String said = run.output().isEmpty() ? "(it printed nothing)" : tail(run.output());
                throw new CliException(
                        run.exitCode() == 3
                                ? COMMAND + ": " + said
                                : COMMAND + ": " + python + " failed on " + file + " (exit " + run.exitCode() + "): "
                                        + said);
            }
            NirImport.Result result;
            try {
                result = NirImport.translate(
                        NirImport.rows(Files.readString(dump, StandardCharsets.UTF_8)), file.toString());
            } catch (NirImport.BadDump e) {
                throw new CliException(COMMAND + ": " + e.getMessage());
            }
            NirImport.write(result, out);
            report(result);
            return 0;
        } catch (ExternalTool.ToolException e) {
            throw new CliException(COMMAND + ": " + e.getMessage()
                    + (e.getMessage().endsWith("is not on the PATH")
                            ? "; the importer runs Mesa's Python with it (install python3, or name one with --python)"
                            : ""));
        } catch (IOException e) {
            throw new CliException(COMMAND + ": " + e.getMessage());
        } finally {
            if (work != null) delete(work);
        }
    }

    private void report(NirImport.Result result) {
        PrintWriter o = spec.commandLine().getOut();
        Map<String, Integer> refused = new java.util.HashMap<>();
        for (NirImport.Refused r : result.refused()) refused.merge(r.pass(), 1, Integer::sum);
        int unreachable = 0;
        for (var e : result.passes().entrySet()) {
            int n = e.getValue().size(), all = n + refused.getOrDefault(e.getKey(), 0);
            int never = (int) e.getValue().stream().filter(r -> r.layer() > 0).count();
            unreachable += never;
            o.printf(
                    "%-40s %5d of %5d imported -> %s%s%n",
                    e.getKey(),
                    n,
                    all,
                    out.resolve(e.getKey() + ".rules"),
                    never == 0
                            ? ""
                            : " (" + never + " that can never fire in the pass: "
                                    + out.resolve(NirImport.fileName(e.getKey(), 1) + ".rules") + ")");
        }
        o.printf(
                "%d of %d rules imported (%.1f%%); %d refused, each with its reason in %s%n",
                result.imported(),
                result.total(),
                result.total() == 0 ? 0.0 : 100.0 * result.imported() / result.total(),
                result.refused().size(),
                out.resolve("REFUSED.md"));
        if (unreachable > 0)
            o.println(unreachable + " imported rules can never fire in NIR (an earlier rule of their pass hides each);"
                    + " they are kept in the _unreachable files, to be checked all the same");
        o.println("next: lathe rules check " + out);
        o.flush();
    }

    /** The last lines of what the tool said: a traceback's end is where the cause is. */
    private static String tail(String output) {
        String[] lines = output.split("\n");
        int from = Math.max(0, lines.length - 6);
        return String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
