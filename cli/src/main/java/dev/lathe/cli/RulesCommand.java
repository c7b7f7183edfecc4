package dev.lathe.cli;

import dev.lathe.ir.op.Bits;
import dev.lathe.rules.NirImport;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.RuleCompilerMain;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.soundness.NirReading;
import dev.lathe.rules.soundness.Proof;
import dev.lathe.rules.soundness.ProofCache;
import dev.lathe.rules.soundness.ProofTally;
import dev.lathe.rules.soundness.RuleJobs;
import dev.lathe.rules.soundness.RuleProver;
import dev.lathe.rules.soundness.SoundnessChecker;
import dev.lathe.rules.soundness.Verdict;
import dev.lathe.rules.soundness.VerdictCache;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe rules …}: work with rule files. */
@Command(
        name = "rules",
        mixinStandardHelpOptions = true,
        description = "Work with rule files.",
        subcommands = {RulesCommand.Check.class, RulesCommand.Prove.class, ImportNirCommand.class})
final class RulesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "missing subcommand (try: lathe rules check --help)");
    }

    /** The options both commands take: which bit sizes, and how many rules at once. */
    static final class SizesAndJobs {
        @Option(
                names = "--bits",
                paramLabel = "LIST",
                split = ",",
                description = "bit sizes, e.g. 8,16,32,64 (default: all)")
        List<Integer> bits;

        @Option(names = "--jobs", paramLabel = "N", description = "rules at once (default: the number of cores)")
        int jobs = Runtime.getRuntime().availableProcessors();

        /** {@code --bits} as a {@code Bits.sizeFlag} set (all sizes when absent). */
        int sizeFlags(String command) {
            if (bits == null) return 31;
            int sizes = 0;
            for (int b : bits) {
                if (!Bits.isValidBitSize(b))
                    throw new CliException(command + ": --bits: " + b + " is not a bit size (1, 8, 16, 32 or 64)");
                sizes |= Bits.sizeFlag(b);
            }
            return sizes;
        }

        int jobs(String command) {
            if (jobs < 1) throw new CliException(command + ": --jobs must be positive");
            return jobs;
        }

        /** {@link RuleJobs#forEach}, a failure of the work said as the command's error. */
        <T> void forEachRule(
                String failure, int jobs, List<CheckedRule> rules, Function<CheckedRule, T> work, Consumer<T> report)
                throws InterruptedException {
            try {
                RuleJobs.forEach(jobs, rules, work, report);
            } catch (ExecutionException e) {
                throw new CliException(failure + ": " + e.getCause());
            }
        }
    }

    /** How rules are proved: the solver's budget and where answers are kept. */
    static final class ProofOptions {
        @Option(
                names = "--timeout-ms",
                paramLabel = "N",
                description = "the solver's time for each rule at each bit size (default ${DEFAULT-VALUE})")
        int timeoutMs = RuleProver.Settings.defaults().timeoutMs();

        @Option(
                names = "--proof-cache",
                paramLabel = "DIR",
                description = "where proofs are kept, so that an unchanged rule is not proved again "
                        + "(default: $XDG_CACHE_HOME/lathe/proofs, or ~/.cache/lathe/proofs)")
        Path cacheDir;

        @Option(names = "--no-proof-cache", description = "prove every rule again, and keep nothing")
        boolean noCache;

        RuleProver.Settings settings(String command, int sizes) {
            if (timeoutMs < 1) throw new CliException(command + ": --timeout-ms must be positive");
            return new RuleProver.Settings(timeoutMs, sizes);
        }

        ProofCache cache() {
            if (noCache) return new ProofCache(null);
            if (cacheDir != null) return new ProofCache(cacheDir);
            String xdg = System.getenv("XDG_CACHE_HOME");
            Path base =
                    xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
            return new ProofCache(base.resolve("lathe").resolve("proofs"));
        }
    }

    /** The column {@code rules prove} and {@code rules check} print for a proof. */
    static String proofTag(Proof p) {
        if (p == null) return "-        ";
        return switch (p.kind()) {
            case PROVED -> "proved   ";
            case REFUTED -> "REFUTED  ";
            case UNKNOWN -> "unknown  ";
            case TESTED -> "tested   ";
            case ENCODING_MISMATCH -> "ENCODING ";
        };
    }

    /** The rules loaded, with the pass of each file, and whether every file is an import of NIR's rules. */
    record Loaded(List<CheckedRule> rules, Map<String, String> passByFile, boolean imported) {
        String passOf(CheckedRule r) {
            return passByFile.getOrDefault(r.file(), "");
        }
    }

    /** A directory's rule files ({@code *.rules}, by name), or the file itself. */
    static List<Path> ruleFiles(List<Path> args) {
        List<Path> files = new ArrayList<>();
        for (Path a : args) {
            if (!java.nio.file.Files.isDirectory(a)) {
                files.add(a);
                continue;
            }
            List<Path> in = new ArrayList<>();
            try (var s = java.nio.file.Files.newDirectoryStream(a, "*.rules")) {
                for (Path f : s) in.add(f);
            } catch (java.io.IOException e) {
                throw new CliException(a + ": cannot be read: " + e.getMessage());
            }
            if (in.isEmpty()) throw new CliException(a + ": a directory with no .rules files");
            in.sort(java.util.Comparator.comparing(Path::toString));
            files.addAll(in);
        }
        return files;
    }

    /**
     * The rules of {@code files} (directories stand for their {@code *.rules}), compiled as the
     * build compiles them; errors stop the command, warnings go to stderr.
     */
    static Loaded load(List<Path> args, CommandSpec spec) {
        List<Path> files = ruleFiles(args);
        List<CheckedRule> rules = new ArrayList<>();
        StringBuilder errors = new StringBuilder();
        Map<String, String> owners = new HashMap<>();
        Map<String, String> passes = new HashMap<>();
        StringBuilder warnings = new StringBuilder();
        boolean imported = true;
        for (Path f : files) {
            String text = ShaderFiles.readText(f);
            imported &= NirImport.imported(text);
            RuleCompiler.Result r = RuleCompiler.compile(f.toString(), text);
            // As the build says them: a file's errors and warnings together, in line order.
            if (!r.ok()) errors.append(errors.length() > 0 ? "\n" : "").append(r.renderAll());
            else if (!r.warnings().isEmpty()) warnings.append(r.renderAll()).append('\n');
            String duplicate = RuleCompilerMain.duplicatePass(r.file().passName(), f.toString(), text, owners);
            if (duplicate != null)
                errors.append(errors.length() > 0 ? "\n" : "").append(duplicate);
            passes.put(f.toString(), r.file().passName());
            rules.addAll(r.file().rules());
        }
        if (errors.length() > 0) throw new CliException(errors.toString());
        spec.commandLine().getErr().print(warnings);
        spec.commandLine().getErr().flush();
        return new Loaded(rules, passes, imported && !files.isEmpty());
    }

    /** How the report is written, and whether refutations are read under NIR's semantics. */
    static final class ReportOptions {
        @Option(
                names = "--format",
                paramLabel = "FORMAT",
                description = "text (one line per rule as it is done, then the counts), json or csv (one record per "
                        + "rule, at the end; json adds the counts by pass); default ${DEFAULT-VALUE}")
        RuleReport.Format format = RuleReport.Format.text;

        @Option(
                names = "--nir",
                negatable = true,
                description = "re-run each refuted rule's counterexample under NIR's semantics (the op table's NIR "
                        + "definitions; NaNs alike) and say 'wrong in NIR' or 'differs from Lathe's semantics' "
                        + "(default: on for rule files lathe rules import-nir wrote)")
        Boolean nir;

        boolean nir(Loaded loaded) {
            return nir != null ? nir : loaded.imported();
        }
    }

    /** The NIR reading of a rule's refutation (the proof's counterexample, else the sampling one), or null. */
    static NirReading nirReading(
            CheckedRule rule, Verdict verdict, Proof proof, SoundnessChecker.Settings sampling, VerdictCache cache) {
        if (proof != null && proof.kind() == Proof.Kind.REFUTED && proof.counterexample() != null)
            return cache.nirReading(rule, proof.counterexample(), sampling);
        if (verdict != null && verdict.kind() == Verdict.Kind.UNSOUND) return cache.nirReading(rule, verdict, sampling);
        return null;
    }

    /** {@code lathe rules prove FILE…}: the SMT prover. */
    @Command(
            name = "prove",
            mixinStandardHelpOptions = true,
            description = {
                "Prove exact rules (=>) with the Z3 SMT solver: for every bit size a rule admits, the solver "
                        + "looks for any input on which the pattern and the replacement differ under the op table's semantics "
                        + "and the NaN contract. Each rule is 'proved', 'REFUTED' (with a counterexample checked against the op "
                        + "table, printed as 'rules check' prints one), 'unknown' (the solver's time ran out at some size) or "
                        + "'tested' (an inexact rule, or an op with no SMT encoding: the sampling check stands). "
                        + "Exits with 1 if a rule is refuted.",
                "Example: lathe rules prove rules/algebraic.rules --timeout-ms 5000"
            })
    static final class Prove implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE.rules", arity = "1..*", description = "rule files, or directories of them")
        List<Path> files;

        @Mixin
        ProofOptions proofs;

        @Mixin
        SizesAndJobs run;

        @Mixin
        ReportOptions report;

        /** One rule and its proof. */
        /** One rule, its proof, and (with --nir) its refutation read under NIR's semantics. */
        private record Proved(CheckedRule rule, Proof proof, NirReading reading) {}

        @Override
        public Integer call() throws InterruptedException {
            RuleProver.Settings settings = proofs.settings("lathe rules prove", run.sizeFlags("lathe rules prove"));
            int jobs = run.jobs("lathe rules prove");
            Loaded loaded = load(files, spec);
            List<CheckedRule> rules = loaded.rules();
            boolean nir = report.nir(loaded);
            boolean text = report.format == RuleReport.Format.text;
            RuleReport entries = new RuleReport(false, true, nir);
            SoundnessChecker.Settings sampling = new SoundnessChecker.Settings(
                    SoundnessChecker.Settings.defaults().samples(),
                    SoundnessChecker.Settings.defaults().seed(),
                    settings.sizes());
            ProofCache cache = proofs.cache();
            VerdictCache readings = new VerdictCache(cache.dir());
            PrintWriter out = spec.commandLine().getOut();
            ProofTally tally = new ProofTally();
            run.forEachRule(
                    "lathe rules prove: the prover failed",
                    jobs,
                    rules,
                    r -> {
                        Proof p = cache.prove(settings, r);
                        return new Proved(r, p, nir ? nirReading(r, null, p, sampling, readings) : null);
                    },
                    pr -> {
                        Proof p = pr.proof();
                        tally.add(p);
                        NirReading reading = pr.reading();
                        entries.add(new RuleReport.Entry(pr.rule(), loaded.passOf(pr.rule()), null, p, reading));
                        if (text) out.println(proofTag(p) + " " + p.message() + RuleReport.nirSuffix(reading));
                    });
            if (text) {
                out.println(rules.size() + (rules.size() == 1 ? " rule: " : " rules: ") + tally + " ("
                        + settings.timeoutMs() + " ms per rule and size)");
                entries.printPasses(out);
            } else if (report.format == RuleReport.Format.json) {
                entries.writeJson(out);
            } else {
                entries.writeCsv(out);
            }
            out.flush();
            return tally.wrong() > 0 ? 1 : 0;
        }
    }

    /** {@code lathe rules check FILE…}: the soundness checker. */
    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = {
                "Check rules for soundness: evaluate each rule's pattern and replacement with the op table on "
                        + "edge values, one value of each float class and random inputs (exhaustively at 8 bits for small "
                        + "integer rules), at every bit size the rule admits; and ask the SMT prover about it, as "
                        + "'rules prove' does (proofs and sampling verdicts are kept in the proof cache, so an unchanged rule is not checked again; --no-prove samples only). Prints one "
                        + "line per rule, its sampling verdict then its proof (proved, tested, unknown, REFUTED), and a "
                        + "summary; exits with 1 if a rule is unsound or refuted, and with 2 if no rule could be checked at "
                        + "the sizes asked for (--bits): a run that showed nothing sound must not pass a script for one that did.",
                "Example: lathe rules check rules/*.rules"
            })
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE.rules", arity = "1..*", description = "rule files, or directories of them")
        List<Path> files;

        @Option(
                names = "--samples",
                paramLabel = "N",
                description = "random inputs per rule and bit size (default ${DEFAULT-VALUE})")
        int samples = SoundnessChecker.Settings.defaults().samples();

        @Option(
                names = "--seed",
                paramLabel = "S",
                description = "the random seed (printed in the summary; default ${DEFAULT-VALUE})")
        long seed = SoundnessChecker.Settings.defaults().seed();

        @Option(names = "--no-prove", description = "sample only: do not ask the SMT prover")
        boolean noProve;

        @Mixin
        ProofOptions proofs;

        @Mixin
        SizesAndJobs run;

        @Mixin
        ReportOptions report;

        /** One rule's sampling verdict and, unless --no-prove, its proof. */
        private record Checked(CheckedRule rule, Verdict verdict, Proof proof, NirReading reading) {}

        @Override
        public Integer call() throws InterruptedException {
            if (samples < 1) throw new CliException("lathe rules check: --samples must be positive");
            int sizes = run.sizeFlags("lathe rules check");
            int jobs = run.jobs("lathe rules check");
            RuleProver.Settings proving = proofs.settings("lathe rules check", sizes);
            Loaded loaded = load(files, spec);
            List<CheckedRule> rules = loaded.rules();
            boolean nir = report.nir(loaded);
            boolean text = report.format == RuleReport.Format.text;
            RuleReport entries = new RuleReport(true, !noProve, nir);
            SoundnessChecker checker = new SoundnessChecker(new SoundnessChecker.Settings(samples, seed, sizes));
            ProofCache cache = noProve ? null : proofs.cache();
            // sampling verdicts are kept beside the proofs (not with --no-proof-cache)
            VerdictCache verdicts = new VerdictCache(proofs.cache().dir());
            PrintWriter out = spec.commandLine().getOut();
            int[] counts = new int[Verdict.Kind.values().length];
            ProofTally tally = new ProofTally();
            long[] inputs = {0};
            List<String> refutations = new ArrayList<>();
            run.forEachRule(
                    "lathe rules check: the checker failed",
                    jobs,
                    rules,
                    r -> {
                        Verdict v = verdicts.check(checker, r);
                        Proof p = cache == null ? null : cache.prove(proving, r);
                        return new Checked(r, v, p, nir ? nirReading(r, v, p, checker.settings(), verdicts) : null);
                    },
                    c -> {
                        Verdict v = c.verdict();
                        NirReading reading = c.reading();
                        entries.add(new RuleReport.Entry(c.rule(), loaded.passOf(c.rule()), v, c.proof(), reading));
                        inputs[0] += v.checked();
                        counts[v.kind().ordinal()]++;
                        String tag = switch (v.kind()) {
                            case SOUND -> "sound    ";
                            case UNSOUND -> "UNSOUND  ";
                            case UNCHECKED -> "unchecked";
                        };
                        if (text)
                            out.println(tag + " " + proofTag(c.proof()) + " " + v.message()
                                    + (c.proof() != null && c.proof().wrong() ? "" : RuleReport.nirSuffix(reading)));
                        if (c.proof() != null) {
                            tally.add(c.proof());
                            if (c.proof().wrong())
                                refutations.add(proofTag(c.proof()) + " "
                                        + c.proof().message() + RuleReport.nirSuffix(reading));
                        }
                    });
            if (!text) {
                if (report.format == RuleReport.Format.json) entries.writeJson(out);
                else entries.writeCsv(out);
                out.flush();
                return exitCode(counts, refutations);
            }
            for (String r : refutations) out.println(r);
            int sound = counts[Verdict.Kind.SOUND.ordinal()], unsound = counts[Verdict.Kind.UNSOUND.ordinal()];
            int unchecked = counts[Verdict.Kind.UNCHECKED.ordinal()];
            out.println(rules.size() + (rules.size() == 1 ? " rule: " : " rules: ") + sound + " sound, " + unsound
                    + " UNSOUND, " + unchecked + " unchecked; " + inputs[0] + " inputs compared (seed " + seed + ", "
                    + samples + " samples per size"
                    + (verdicts.checkedNow() < rules.size()
                            ? "; " + (rules.size() - verdicts.checkedNow()) + " verdicts from "
                                    + proofs.cache().dir()
                            : "")
                    + ")");
            if (cache != null) {
                out.println("proofs: " + tally + " (" + proving.timeoutMs()
                        + " ms per rule and size; " + cache.provedNow() + " new, " + (rules.size() - cache.provedNow())
                        + " from " + (cache.dir() == null ? "no cache" : cache.dir()) + ")");
            }
            entries.printPasses(out);
            out.flush();
            return exitCode(counts, refutations);
        }

        /** 1 if a rule is unsound or refuted; 2 (thrown) if nothing could be checked at the sizes asked for. */
        private static int exitCode(int[] counts, List<String> refutations) {
            int sound = counts[Verdict.Kind.SOUND.ordinal()], unsound = counts[Verdict.Kind.UNSOUND.ordinal()];
            int unchecked = counts[Verdict.Kind.UNCHECKED.ordinal()];
            if (sound + unsound == 0 && unchecked > 0) {
                throw new CliException(
                        "lathe rules check: no rule could be checked at the requested sizes "
                                + "(see the unchecked lines): nothing was shown sound",
                        2);
            }
            return unsound > 0 || !refutations.isEmpty() ? 1 : 0;
        }
    }
}
