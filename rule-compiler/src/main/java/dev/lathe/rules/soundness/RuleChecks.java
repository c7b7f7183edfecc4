package dev.lathe.rules.soundness;

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
 * What the generated soundness tests call: compiles a rule file of the repository once (system
 * property {@code lathe.root}, default {@code ..}) and checks one of its rules with the default
 * settings, or with {@code -Dlathe.seed=…} and {@code -Dlathe.samples=…} to replay or widen a run;
 * and proves it with the SMT prover, through the proof cache the build keeps
 * ({@code -Dlathe.proof.cache=DIR}, {@code -Dlathe.proof.timeout-ms=N}; {@code -Dlathe.prove=false}
 * skips the proofs); and exercises its generated matcher on a program made from its pattern.
 */
public final class RuleChecks {
    private RuleChecks() {}

    private static final Map<String, CheckedFile> FILES = new ConcurrentHashMap<>();

    /** The verdict for rule {@code name} of {@code file} (a path relative to the repository root). */
    public static Verdict check(String file, String name) {
        return new SoundnessChecker(settings()).check(rule(file, name));
    }

    /** The prover's answer for the rule, or null when proofs are off ({@code -Dlathe.prove=false}). */
    public static Proof prove(String file, String name) {
        if (!Boolean.parseBoolean(System.getProperty("lathe.prove", "true"))) return null;
        return CACHE.prove(proofSettings(), rule(file, name));
    }

    /**
     * Exercises the rule's matcher in {@code rules} (the generated class) on a program made from
     * the rule's own pattern ({@link RuleFiring}).
     */
    public static RuleFiring.Result fire(dev.lathe.ir.rewrite.RuleSet rules, String file, String name) {
        return RuleFiring.exercise(rules, rule(file, name));
    }

    private static final ProofCache CACHE = new ProofCache(
            System.getProperty("lathe.proof.cache") == null ? null : Path.of(System.getProperty("lathe.proof.cache")));

    static RuleProver.Settings proofSettings() {
        RuleProver.Settings d = RuleProver.Settings.defaults();
        return new RuleProver.Settings(Integer.getInteger("lathe.proof.timeout-ms", d.timeoutMs()), d.sizes());
    }

    private static CheckedRule rule(String file, String name) {
        CheckedFile f = FILES.computeIfAbsent(file, RuleChecks::compile);
        for (CheckedRule r : f.rules()) {
            if (r.name().equals(name)) return r;
        }
        throw new IllegalStateException(file + " has no rule " + name + " (rebuild to regenerate the tests)");
    }

    static SoundnessChecker.Settings settings() {
        SoundnessChecker.Settings d = SoundnessChecker.Settings.defaults();
        long seed = Long.getLong("lathe.seed", d.seed());
        int samples = Integer.getInteger("lathe.samples", d.samples());
        return new SoundnessChecker.Settings(samples, seed, d.sizes());
    }

    private static CheckedFile compile(String file) {
        Path root = Path.of(System.getProperty("lathe.root", ".."));
        try {
            String text = Files.readString(root.resolve(file));
            RuleCompiler.Result r = RuleCompiler.compile(file, text);
            if (!r.ok()) throw new IllegalStateException(r.render());
            return r.file();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
