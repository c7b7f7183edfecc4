package dev.lathe.rules;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import dev.lathe.ir.rewrite.RuleInfo;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.text.Diagnostic;
import dev.lathe.ir.text.Utf8Text;
import dev.lathe.rules.codegen.MatcherGenerator;
import dev.lathe.rules.codegen.SoundnessTestGenerator;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.soundness.Proof;
import dev.lathe.rules.soundness.ProofCache;
import dev.lathe.rules.soundness.ProofTally;
import dev.lathe.rules.soundness.RuleJobs;
import dev.lathe.rules.soundness.RuleProver;
import dev.lathe.rules.soundness.SoundnessChecker;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;

/**
 * The rule compiler as the build runs it:
 *
 * <pre>RuleCompilerMain --rules DIR --out DIR [--tests-out DIR] [--package NAME] [--cite-from DIR]
 *                  [--prove true|false] [--proof-cache DIR] [--proof-timeout-ms N]
 *                  [--samples N] [--seed S] [--in-build]</pre>
 *
 * Compiles every {@code *.rules} file of the rules directory (in name order), prints every
 * diagnostic of every file and exits with 1 if there is any; otherwise writes one matcher class
 * per file and {@code GeneratedRules}, which lists them, under the output directory, and with
 * {@code --tests-out} one soundness test class per file (a test per rule). Rule locations are
 * cited relative to {@code --cite-from} (the repository root), where the generated tests read
 * the rule files; they check with the sampling checker's {@code --samples} and {@code --seed}
 * and prove with the same settings as the build.
 *
 * <p>With {@code --prove true} every rule first goes to the SMT prover (on every core, each
 * answer kept in the {@code --proof-cache} directory so that an unchanged rule is not proved
 * again). A refuted rule is an error, printed with its counterexample, like a type error: no
 * matcher is generated for a rule known to be wrong. Rules the solver could not decide in the
 * budget are listed. Each rule's answer goes into its {@code RuleInfo} ({@code --rule-stats}).
 */
public final class RuleCompilerMain {
    private RuleCompilerMain() {}

    /**
     * Entry point. The diagnostics go to standard error. With {@code --in-build} (how the pom runs
     * it: exec-maven-plugin's {@code java} goal runs it inside Maven's JVM, where System.exit would
     * end Maven itself) a failure throws, which fails the build; run on its own it exits with the
     * code, so that a broken rule file prints its diagnostics and nothing that looks like a crash.
     */
    public static void main(String[] args) {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean inBuild = rest.remove("--in-build");
        int code = run(rest.toArray(String[]::new), System.err);
        if (code == 0) return;
        if (inBuild) throw new RuleCompilationFailed("the rule files have errors (see above)");
        System.exit(code);
    }

    /** Ends a failed build; the diagnostics were already printed. */
    public static final class RuleCompilationFailed extends RuntimeException {
        public RuleCompilationFailed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Where the compiler's messages go, each at its level, so that a build tool logs them at it
     * ({@code lathe-maven-plugin} gives Maven's log) instead of guessing from the text.
     */
    public interface Log {
        /** A problem that fails the run: a diagnostic of a rule file, a refuted rule, a bad option. */
        void error(String message);

        /** A warning of a rule file, or a rule the prover could not decide. */
        void warn(String message);

        /** Progress: the proofs' summary. */
        void info(String message);

        /** Every message, whatever its level, printed to {@code out} (the command line's standard error). */
        static Log printingTo(PrintStream out) {
            return new Log() {
                @Override
                public void error(String message) {
                    out.println(message);
                }

                @Override
                public void warn(String message) {
                    out.println(message);
                }

                @Override
                public void info(String message) {
                    out.println(message);
                }
            };
        }
    }

    /** Runs the compiler with every message printed to {@code err}; returns the exit code. */
    public static int run(String[] args, PrintStream err) {
        return run(args, Log.printingTo(err));
    }

    /** Runs the compiler with its messages going to {@code log}; returns the exit code. */
    public static int run(String[] args, Log log) {
        Path rules = null;
        Path out = null;
        Path citeFrom = null;
        Path testsOut = null;
        String pkg = "dev.lathe.generated";
        boolean prove = false;
        Path proofCache = null;
        int proofTimeoutMs = RuleProver.Settings.defaults().timeoutMs();
        int samples = SoundnessChecker.Settings.defaults().samples();
        long seed = SoundnessChecker.Settings.defaults().seed();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                log.error("lathe rule compiler: " + a + " needs a value");
                return 2;
            }
            switch (a) {
                case "--rules" -> rules = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--package" -> pkg = args[++i];
                case "--cite-from" -> citeFrom = Path.of(args[++i]);
                case "--tests-out" -> testsOut = Path.of(args[++i]);
                case "--prove" -> {
                    String v = args[++i];
                    if (!v.equals("true") && !v.equals("false")) {
                        log.error("lathe rule compiler: --prove needs true or false, not " + v);
                        return 2;
                    }
                    prove = v.equals("true");
                }
                case "--proof-cache" -> proofCache = Path.of(args[++i]);
                case "--proof-timeout-ms", "--samples", "--seed" -> {
                    boolean anyLong = a.equals("--seed");
                    Long v = number(
                            args[++i], anyLong ? Long.MIN_VALUE : 1, anyLong ? Long.MAX_VALUE : Integer.MAX_VALUE);
                    if (v == null) {
                        log.error("lathe rule compiler: " + a + " needs a " + (anyLong ? "" : "positive ")
                                + "number, not " + args[i]);
                        return 2;
                    }
                    switch (a) {
                        case "--proof-timeout-ms" -> proofTimeoutMs = v.intValue();
                        case "--samples" -> samples = v.intValue();
                        default -> seed = v;
                    }
                }
                default -> {
                    log.error("lathe rule compiler: unknown option " + a);
                    return 2;
                }
            }
        }
        if (rules == null || out == null) {
            log.error(
                    "usage: RuleCompilerMain --rules DIR --out DIR [--tests-out DIR] [--package NAME] [--cite-from DIR]"
                            + " [--prove true|false] [--proof-cache DIR] [--proof-timeout-ms N] [--samples N] [--seed S] [--in-build]");
            return 2;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(rules)) {
            files = s.filter(p -> p.toString().endsWith(".rules")).sorted().toList();
        } catch (IOException e) {
            log.error("lathe rule compiler: cannot read " + rules + ": " + e.getMessage());
            return 1;
        }
        List<CheckedFile> checked = new ArrayList<>();
        // Each pass names one rule set (lathe opt --passes) and one class: both must be unique.
        Map<String, String> classOwners = new HashMap<>();
        int errors = 0;
        for (Path f : files) {
            String cite = citeFrom == null
                    ? f.toString()
                    : citeFrom.toAbsolutePath()
                            .normalize()
                            .relativize(f.toAbsolutePath().normalize())
                            .toString()
                            .replace('\\', '/');
            String text = readUtf8(f, cite, log);
            if (text == null) {
                errors++;
                continue;
            }
            RuleCompiler.Result r;
            try {
                r = RuleCompiler.compile(cite, text);
            } catch (RuntimeException | StackOverflowError e) {
                // A bug of the compiler, not of the file: said as one, with the file it met it in.
                log.error(cite + ": internal error of the rule compiler: " + e
                        + " (this is a bug in Lathe; please report it with the file)");
                errors++;
                continue;
            }
            if (!uniquePass(r.file().passName(), cite, text, classOwners, log)) errors++;
            if (!r.ok()) log.error(r.renderAll());
            else if (!r.warnings().isEmpty()) log.warn(r.renderAll());
            errors += r.errors().size();
            checked.add(r.file());
        }
        if (errors > 0) {
            log.error(errors + " error" + (errors == 1 ? "" : "s") + " in the rule files");
            return 1;
        }
        Map<CheckedRule, Proof> proofs = new IdentityHashMap<>();
        if (prove) {
            RuleProver.Settings settings = new RuleProver.Settings(
                    proofTimeoutMs, RuleProver.Settings.defaults().sizes());
            if (!proveAll(checked, new ProofCache(proofCache), settings, proofs, log)) return 1;
        }
        SoundnessTestGenerator.Settings tests = new SoundnessTestGenerator.Settings(
                citeFrom == null ? "." : citeFrom.toAbsolutePath().normalize().toString(),
                seed,
                samples,
                prove,
                proofTimeoutMs,
                proofCache == null
                        ? null
                        : proofCache.toAbsolutePath().normalize().toString());
        try {
            List<ClassName> sets = new ArrayList<>();
            for (CheckedFile f : checked) {
                JavaFile jf = MatcherGenerator.generate(f, pkg, r -> proofWord(proofs.get(r)));
                jf.writeTo(out);
                if (testsOut != null)
                    SoundnessTestGenerator.generate(f, pkg, tests).writeTo(testsOut);
                sets.add(ClassName.get(pkg, MatcherGenerator.classNameFor(f.passName())));
            }
            index(pkg, sets).writeTo(out);
        } catch (IOException e) {
            log.error("lathe rule compiler: cannot write " + out + ": " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /**
     * Proves every rule of the files on every core (through the cache when there is one), puts
     * the answers in {@code out}, prints the unknowns and a summary, and returns false after
     * printing the refutations when any rule is wrong.
     */
    static boolean proveAll(
            List<CheckedFile> files,
            ProofCache cache,
            RuleProver.Settings settings,
            Map<CheckedRule, Proof> out,
            Log log) {
        List<CheckedRule> rules = new ArrayList<>();
        for (CheckedFile f : files) rules.addAll(f.rules());
        long start = System.nanoTime();
        ProofTally tally = new ProofTally();
        int[] next = {0}; // answers arrive in the rules' order
        try {
            RuleJobs.forEach(Runtime.getRuntime().availableProcessors(), rules, r -> cache.prove(settings, r), p -> {
                out.put(rules.get(next[0]++), p);
                tally.add(p);
                if (p.wrong()) log.error("error: " + p.message());
                else if (p.kind() == Proof.Kind.UNKNOWN) log.warn("unknown: " + p.message());
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.error("lathe rule compiler: interrupted while proving the rules");
            return false;
        } catch (ExecutionException e) {
            log.error(
                    "lathe rule compiler: the SMT prover failed: " + e.getCause()
                            + " (this is a bug in Lathe, or Z3 could not start; build with -Dlathe.prove=false to skip the proofs)");
            return false;
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        log.info(String.format(
                "rule proofs: %s; %d new (%.1f s), %d from %s (%d ms per rule and size)",
                tally,
                cache.provedNow(),
                ms / 1000.0,
                rules.size() - cache.provedNow(),
                cache.dir() == null ? "no cache" : cache.dir(),
                settings.timeoutMs()));
        int wrong = tally.wrong();
        if (wrong > 0) {
            log.error(wrong + " rule" + (wrong == 1 ? " is" : "s are")
                    + " wrong (see above): fix or remove them; lathe rules prove FILE says the same without a build");
            return false;
        }
        return true;
    }

    /** {@code text} as a number in [min, max], or null. */
    private static Long number(String text, long min, long max) {
        try {
            long v = Long.parseLong(text);
            return v < min || v > max ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The word {@code RuleInfo.proof} holds for an answer (null: not proved in this build). */
    static String proofWord(Proof p) {
        if (p == null) return RuleInfo.NOT_PROVED;
        return switch (p.kind()) {
            case PROVED -> RuleInfo.PROVED;
            case UNKNOWN -> RuleInfo.UNKNOWN;
            case TESTED -> RuleInfo.TESTED;
            case REFUTED, ENCODING_MISMATCH ->
                throw new IllegalStateException("a wrong rule is never generated: " + p.message());
        };
    }

    /** The file's text, or null after printing why it cannot be had (unreadable, not UTF-8: located). */
    private static String readUtf8(Path f, String cite, Log log) {
        try {
            return Utf8Text.decode(Files.readAllBytes(f), cite);
        } catch (IOException e) {
            log.error(cite + ": cannot read: " + e.getMessage());
        } catch (Utf8Text.Malformed e) {
            log.error(e.getMessage());
        }
        return null;
    }

    /**
     * Whether the file's rule set name is not taken by an earlier file (compared as the class
     * name, ignoring case, so {@code a_b} and {@code aB} clash); prints the error when it is.
     */
    private static boolean uniquePass(String pass, String cite, String text, Map<String, String> owners, Log log) {
        String problem = duplicatePass(pass, cite, text, owners);
        if (problem == null) return true;
        log.error(problem);
        return false;
    }

    /**
     * The rendered error when another file already gave this rule set name ({@code owners}: the
     * names seen so far, by lower-case class name, with their files), else null after recording it.
     */
    public static String duplicatePass(String pass, String cite, String text, Map<String, String> owners) {
        String cls = MatcherGenerator.classNameFor(pass);
        String owner = owners.putIfAbsent(cls.toLowerCase(Locale.ROOT), cite);
        if (owner == null) return null;
        int line = passLine(text, pass);
        return Diagnostic.error(
                        cite,
                        line,
                        1,
                        "the pass '" + pass + "' has the same rule set name as " + owner + " (" + cls + "); rename one",
                        Diagnostic.lineOf(text, line))
                .render();
    }

    /** The line of a file's {@code pass} declaration, or 1. */
    private static int passLine(String text, String pass) {
        String[] lines = RuleSyntax.normalize(text).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].matches("\\s*pass\\s+" + Pattern.quote(pass) + "\\s*;.*")) return i + 1;
        }
        return 1;
    }

    /** {@code GeneratedRules.all()}: every generated rule set, in file order. */
    static JavaFile index(String pkg, List<ClassName> sets) {
        CodeBlock.Builder list = CodeBlock.builder().add("return $T.of(", List.class);
        for (int i = 0; i < sets.size(); i++) list.add(i == 0 ? "$T.INSTANCE" : ", $T.INSTANCE", sets.get(i));
        list.add(");\n");
        TypeSpec type = TypeSpec.classBuilder("GeneratedRules")
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addJavadoc(
                        "Every rule set compiled from {@code rules/}, in file name order. Generated; do not edit.\n")
                .addMethod(MethodSpec.constructorBuilder()
                        .addModifiers(Modifier.PRIVATE)
                        .build())
                .addMethod(MethodSpec.methodBuilder("all")
                        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                        .returns(ParameterizedTypeName.get(ClassName.get(List.class), ClassName.get(RuleSet.class)))
                        .addCode(list.build())
                        .build())
                .build();
        return JavaFile.builder(pkg, type)
                .addFileComment("Generated by the Lathe rule compiler. Do not edit.")
                .build();
    }
}
