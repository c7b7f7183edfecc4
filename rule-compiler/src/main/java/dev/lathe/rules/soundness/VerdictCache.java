package dev.lathe.rules.soundness;

import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sampling checker's verdicts kept on disk beside the proofs ({@link ProofCache}), so that a
 * second {@code lathe rules check} of an unchanged rule set (NIR's 3,000 rules) reads its answers
 * rather than sampling again. A verdict is a function of the rule as compiled, the checker's
 * settings (samples, seed, sizes) and the code that computes it; the key holds all three, the
 * code as a digest of the class files of the op table and of the checker ({@link #CODE}), so a
 * changed op or checker is never answered from an old run.
 *
 * <p>Every verdict is kept, an unsound one with its counterexample ({@link CounterexampleText});
 * the command still fails on it. Files are written whole and renamed into place; one that does
 * not parse is ignored.
 */
public final class VerdictCache {
    private final Path dir;
    private final AtomicInteger fresh = new AtomicInteger();

    /** A cache in {@code dir}, made when first written; null for none. */
    public VerdictCache(Path dir) {
        this.dir = dir;
    }

    /** How many rules {@link #check} had to sample. */
    public int checkedNow() {
        return fresh.get();
    }

    /** The cached verdict, or a fresh one (kept when worth keeping). Thread-safe. */
    public Verdict check(SoundnessChecker checker, CheckedRule rule) {
        Verdict v = get(rule, checker.settings());
        if (v != null) return v;
        fresh.incrementAndGet();
        v = checker.check(rule);
        put(rule, checker.settings(), v);
        return v;
    }

    private static String where(CheckedRule rule) {
        return rule.location() + ": rule " + rule.name();
    }

    Verdict get(CheckedRule rule, SoundnessChecker.Settings settings) {
        String text = CacheFiles.read(dir, key(rule, settings));
        if (text == null || !text.endsWith("\n")) return null;
        String line = text.substring(0, text.length() - 1);
        if (line.startsWith("UNSOUND\t")) return CounterexampleText.read(rule, line);
        String[] parts = line.split("\t", 4);
        if (parts.length != 4) return null;
        Verdict.Kind kind;
        long checked;
        try {
            kind = Verdict.Kind.valueOf(parts[0]);
            checked = Long.parseLong(parts[1]);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (kind == Verdict.Kind.UNSOUND) return null;
        return new Verdict(kind, rule.name(), where(rule) + parts[3], checked, parts[2], null);
    }

    void put(CheckedRule rule, SoundnessChecker.Settings settings, Verdict v) {
        String text;
        if (v.kind() == Verdict.Kind.UNSOUND) {
            text = CounterexampleText.write(rule, v);
        } else {
            String where = where(rule);
            text = v.message().startsWith(where)
                    ? v.kind() + "\t" + v.checked() + "\t" + v.sizes().replace('\t', ' ') + "\t"
                            + v.message().substring(where.length()).replace('\n', ' ')
                    : null;
        }
        if (text != null) CacheFiles.write(dir, key(rule, settings), text + "\n");
    }

    /**
     * The rule's refutation read under NIR's semantics ({@link NirReading#of}), kept like a verdict:
     * when the counterexample does not stand in NIR, the reading samples the rule again, which is
     * most of a warm run's time on NIR's rules. Null where there is no reading.
     */
    public NirReading nirReading(CheckedRule rule, Verdict refutation, SoundnessChecker.Settings settings) {
        String cex = refutation == null ? null : CounterexampleText.write(rule, refutation);
        if (dir == null || cex == null) return NirReading.of(rule, refutation, settings);
        String name = ProofCache.sha256("nir reading\n" + key(rule, settings) + "\n" + cex) + ".nir";
        String kept = CacheFiles.read(dir, name);
        if (kept != null && kept.endsWith("\n")) {
            String[] parts = kept.substring(0, kept.length() - 1).split("\t", 2);
            if (parts.length == 2 && parts[0].equals("NONE")) return null;
            if (parts.length == 2) {
                try {
                    return new NirReading(NirReading.Kind.valueOf(parts[0]), parts[1]);
                } catch (IllegalArgumentException e) {
                    // damaged: read it again
                }
            }
        }
        NirReading r = NirReading.of(rule, refutation, settings);
        CacheFiles.write(
                dir,
                name,
                (r == null ? "NONE\t" : r.kind().name() + "\t" + r.detail().replace('\n', ' ')) + "\n");
        return r;
    }

    static String key(CheckedRule rule, SoundnessChecker.Settings settings) {
        StringBuilder b = new StringBuilder("verdict code ")
                .append(CODE)
                .append(" samples ")
                .append(settings.samples())
                .append(" seed ")
                .append(settings.seed())
                .append(" sizes ")
                .append(settings.sizes())
                .append('\n')
                .append(rule.ulpBound())
                .append(' ')
                .append(rule.maxWidth())
                .append(' ')
                .append(rule.reassociating())
                .append('\n');
        ProofCache.ruleKey(rule, b);
        return ProofCache.sha256(b.toString()) + ".verdict";
    }

    /**
     * The classes whose code decides a verdict: the op table's evaluation and the checker. Their
     * class files' digest is part of every key.
     */
    private static final List<Class<?>> DECIDING = List.of(
            dev.lathe.ir.op.Op.class,
            dev.lathe.ir.op.FloatBits.class,
            dev.lathe.ir.op.Bits.class,
            dev.lathe.ir.op.MediumPrecision.class,
            dev.lathe.ir.rewrite.RuleLiteral.class,
            SoundnessChecker.class,
            RuleEvaluator.class,
            RealEvaluator.class,
            Values.class,
            FlagSemantics.class);

    /** The other classes of the op package (its evaluation functions), read by name. */
    private static final List<String> OP_FUNCTIONS = List.of(
            "OpEvals",
            "Eval",
            "FloatFns",
            "IntFns",
            "ConvertFns",
            "PackFns",
            "NirFns",
            "NirDefinitions",
            "Fp16",
            "IntegerDot",
            "OperandType",
            "TypeClass",
            "OpFlag",
            "SizeSet");

    /** The digest of {@link #DECIDING} and {@link #OP_FUNCTIONS}' class files, once per process. */
    static final String CODE = codeDigest();

    private static String codeDigest() {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            java.util.ArrayDeque<Class<?>> work = new java.util.ArrayDeque<>(DECIDING);
            while (!work.isEmpty()) {
                Class<?> c = work.pop();
                add(d, c, c.getName().substring(c.getName().lastIndexOf('.') + 1));
                work.addAll(List.of(c.getDeclaredClasses()));
            }
            for (String n : OP_FUNCTIONS) add(d, dev.lathe.ir.op.Op.class, n);
            return HexFormat.of().formatHex(d.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    private static void add(MessageDigest d, Class<?> near, String simpleName) {
        try (InputStream in = near.getResourceAsStream(simpleName + ".class")) {
            if (in == null) throw new IllegalStateException("no class file for " + simpleName);
            d.update(simpleName.getBytes(StandardCharsets.UTF_8));
            d.update(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
