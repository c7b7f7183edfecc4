package dev.lathe.rules.soundness;

import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the generated soundness tests call. Each generated test class holds one, made with the
 * settings of the build that generated it ({@link #of}): the directory the rule files are cited
 * from, the sampling checker's seed and samples, and whether and how to prove. A system
 * property overrides each, to replay or widen a run without regenerating: {@code lathe.root},
 * {@code lathe.seed}, {@code lathe.samples}, {@code lathe.prove}, {@code lathe.proof.timeout-ms},
 * {@code lathe.proof.cache}.
 *
 * <p>It compiles a rule file once, then checks one of its rules with the sampling checker,
 * proves it with the SMT prover (through the proof cache the build keeps), and exercises its
 * generated matcher on a program made from its pattern.
 */
public final class RuleChecks {
    private final Path root;
    private final SoundnessChecker.Settings sampling;
    private final boolean prove;
    private final RuleProver.Settings proofSettings;
    private final ProofCache cache;
    private final Map<String, CheckedFile> files = new ConcurrentHashMap<>();

    private RuleChecks(
            Path root,
            SoundnessChecker.Settings sampling,
            boolean prove,
            RuleProver.Settings proofSettings,
            ProofCache cache) {
        this.root = root;
        this.sampling = sampling;
        this.prove = prove;
        this.proofSettings = proofSettings;
        this.cache = cache;
    }

    /**
     * The checks of one build: rule files under {@code root}, the sampling checker's {@code seed}
     * and {@code samples}, and the prover's budget and cache directory (null: none) when
     * {@code prove}; each overridden by its system property when set.
     */
    public static RuleChecks of(
            String root, long seed, int samples, boolean prove, int proofTimeoutMs, String proofCache) {
        String cacheDir = System.getProperty("lathe.proof.cache", proofCache);
        SoundnessChecker.Settings d = SoundnessChecker.Settings.defaults();
        return new RuleChecks(
                Path.of(System.getProperty("lathe.root", root)),
                new SoundnessChecker.Settings(
                        Integer.getInteger("lathe.samples", samples), Long.getLong("lathe.seed", seed), d.sizes()),
                Boolean.parseBoolean(System.getProperty("lathe.prove", Boolean.toString(prove))),
                new RuleProver.Settings(
                        Integer.getInteger("lathe.proof.timeout-ms", proofTimeoutMs),
                        RuleProver.Settings.defaults().sizes()),
                new ProofCache(cacheDir == null ? null : Path.of(cacheDir)));
    }

    /** The sampling checker's verdict for rule {@code name} of {@code file} (a path under the root). */
    public Verdict check(String file, String name) {
        return new SoundnessChecker(sampling).check(rule(file, name));
    }

    /** The prover's answer for the rule, or null when proofs are off. */
    public Proof prove(String file, String name) {
        if (!prove) return null;
        return cache.prove(proofSettings, rule(file, name));
    }

    /**
     * Exercises the rule's matcher in {@code rules} (the generated class) on a program made from
     * the rule's own pattern ({@link RuleFiring}).
     */
    public RuleFiring.Result fire(RuleSet rules, String file, String name) {
        return RuleFiring.exercise(rules, rule(file, name));
    }

    private CheckedRule rule(String file, String name) {
        CheckedFile f = files.computeIfAbsent(file, this::compile);
        for (CheckedRule r : f.rules()) {
            if (r.name().equals(name)) return r;
        }
        throw new IllegalStateException(file + " has no rule " + name + " (rebuild to regenerate the tests)");
    }

    private CheckedFile compile(String file) {
        try {
            String text = Files.readString(root.resolve(file));
            RuleCompiler.Result r = RuleCompiler.compile(file, text);
            if (!r.ok()) throw new IllegalStateException(r.render());
            return r.file();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the rule file " + root.resolve(file)
                            + " (set -Dlathe.root to the directory it is cited from)",
                    e);
        }
    }
}
