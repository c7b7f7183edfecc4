package dev.lathe.rules.soundness;

import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Proofs kept on disk, so that an unchanged rule is not proved again: one small file per rule,
 * named by a SHA-256 of everything the answer depends on — the rule as compiled (its text, and
 * the ops, literals, size classes and conditions the compiler made of it, so a change of the
 * compiler's reading is a change of key), the sizes asked for, the time budget, and the
 * encoding's and the search's versions. Where the rule sits in its file is not part of the key:
 * a rule moved to another line keeps its proof, and the report line is rebuilt with the new
 * location.
 *
 * <p>Proved, unknown and tested answers are kept, and refutations with their counterexample
 * (which the checker made from the solver's model, so they are kept only while the checker's and
 * the op table's code is unchanged: {@link VerdictCache#CODE}); a refuted rule still fails the
 * build. Encoding mismatches are not kept: they are a bug of the encoding, to be seen each time.
 * An unknown stays unknown while the budget is unchanged; delete the directory (or raise the
 * budget) to ask again. Files are written whole and renamed into place, so parallel writers and
 * interrupted builds leave either the old answer or the new one; a file that does not parse is
 * ignored.
 */
public final class ProofCache {
    private final Path dir;
    private final AtomicInteger fresh = new AtomicInteger();

    /** A cache in {@code dir}, made when first written; null for none (every rule is proved). */
    public ProofCache(Path dir) {
        this.dir = dir;
    }

    /** Where the proofs are kept, or null. */
    public Path dir() {
        return dir;
    }

    /** How many rules {@link #prove} had to prove (not found in the cache). */
    public int provedNow() {
        return fresh.get();
    }

    /** The cached proof of the rule under these settings, or null. */
    public Proof get(CheckedRule rule, RuleProver.Settings settings) {
        String text = CacheFiles.read(dir, key(rule, settings));
        if (text == null) return null;
        if (!text.endsWith("\n")) return null;
        String[] lines = text.split("\n");
        String[] parts = lines[0].split("\t", 4);
        if (parts.length != 4) return null;
        Proof.Kind kind;
        try {
            kind = Proof.Kind.valueOf(parts[0]);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!cacheable(kind)) return null;
        List<Integer> proved = sizes(parts[1]), unknown = sizes(parts[2]);
        if (proved == null || unknown == null) return null;
        Verdict counterexample = null;
        if (kind == Proof.Kind.REFUTED) {
            // a refutation is the checker's verdict on the solver's model: kept while the checker's
            // and the op table's code is the same ({@link VerdictCache#CODE})
            if (lines.length != 3 || !lines[1].equals("code " + VerdictCache.CODE)) return null;
            counterexample = CounterexampleText.read(rule, lines[2]);
            if (counterexample == null) return null;
        }
        String message = RuleProver.where(rule) + parts[3];
        return new Proof(kind, rule.name(), message, proved, unknown, counterexample);
    }

    /** Keeps the proof, when it is of a kind worth keeping; a failure to write only costs a later proof. */
    public void put(CheckedRule rule, RuleProver.Settings settings, Proof proof) {
        String where = RuleProver.where(rule);
        if (dir == null || !cacheable(proof.kind()) || !proof.message().startsWith(where)) return;
        String text = proof.kind() + "\t" + join(proof.proved()) + "\t" + join(proof.unknown()) + "\t"
                + proof.message().substring(where.length()).replace('\n', ' ') + "\n";
        if (proof.kind() == Proof.Kind.REFUTED) {
            String cex = proof.counterexample() == null ? null : CounterexampleText.write(rule, proof.counterexample());
            if (cex == null) return;
            text += "code " + VerdictCache.CODE + "\n" + cex + "\n";
        }
        CacheFiles.write(dir, key(rule, settings), text);
    }

    /** The cached proof, or a fresh one (then kept when worth keeping). Thread-safe. */
    public Proof prove(RuleProver.Settings settings, CheckedRule rule) {
        Proof p = get(rule, settings);
        if (p != null) return p;
        fresh.incrementAndGet();
        p = new RuleProver(settings).prove(rule);
        put(rule, settings, p);
        return p;
    }

    private static boolean cacheable(Proof.Kind kind) {
        return kind != Proof.Kind.ENCODING_MISMATCH;
    }

    /** The file name of a rule's proof under these settings. */
    static String key(CheckedRule rule, RuleProver.Settings settings) {
        StringBuilder b = new StringBuilder();
        b.append("encoding ")
                .append(SmtOps.VERSION)
                .append(" search ")
                .append(RuleProver.SEARCH_VERSION)
                .append(" timeout ")
                .append(settings.timeoutMs())
                .append(" sizes ")
                .append(settings.sizes())
                .append('\n');
        ruleKey(rule, b);
        return sha256(b.toString()) + ".proof";
    }

    /**
     * Everything about a compiled rule an answer depends on, without its position: its name and
     * text, its arrow, and the ops, literals, size classes and conditions the compiler made of it.
     * The verdict cache ({@link VerdictCache}) keys on it too.
     */
    static void ruleKey(CheckedRule rule, StringBuilder b) {
        b.append(rule.name())
                .append('\n')
                .append(rule.text())
                .append('\n')
                .append(rule.arrow())
                .append(rule.usedBits() == 0 ? "" : " @low" + rule.usedBits())
                .append('\n');
        render(rule.pattern(), b);
        b.append('\n');
        render(rule.replacement(), b);
        b.append('\n');
        for (Condition c : rule.conditions()) {
            b.append(c.predicate())
                    .append(' ')
                    .append(c.var().name())
                    .append(' ')
                    .append(c.type())
                    .append(' ')
                    .append(c.bound())
                    .append('\n');
        }
        b.append(rule.classes()).append('\n').append(rule.varTypes()).append('\n');
    }

    /** The SHA-256 of a key, in hex. */
    static String sha256(String key) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** The compiled rule's shape, without positions (rule trees are a handful of nodes deep). */
    private static void render(Node n, StringBuilder b) {
        if (n instanceof Node.VarNode v) {
            b.append(v.constOnly() ? "#" : "").append(v.name()).append('/').append(v.sizeClass());
        } else if (n instanceof Node.ConstNode c) {
            b.append('\'')
                    .append(c.text())
                    .append('\'')
                    .append(c.asFloat() ? "f" : "i")
                    .append(c.context())
                    .append('/')
                    .append(c.sizeClass());
        } else {
            Node.OpNode o = (Node.OpNode) n;
            b.append(o.op().opName())
                    .append('[')
                    .append(o.opClass())
                    .append("]/")
                    .append(o.sizeClass())
                    .append(o.once() ? "@once" : "")
                    .append(o.flags().isEmpty() ? "" : "[" + o.flags() + "]")
                    .append(o.builtExact() ? "[exact]" : "")
                    .append(o.uses().isEmpty() ? "" : "@" + new java.util.TreeSet<>(o.uses()))
                    .append('(');
            for (int i = 0; i < o.srcs().size(); i++) {
                if (i > 0) b.append(',');
                render(o.srcs().get(i), b);
            }
            b.append(')');
        }
    }

    private static String join(List<Integer> sizes) {
        List<String> s = new ArrayList<>();
        for (int x : sizes) s.add(Integer.toString(x));
        return String.join(",", s);
    }

    private static List<Integer> sizes(String text) {
        List<Integer> out = new ArrayList<>();
        if (text.isEmpty()) return out;
        for (String s : text.split(",")) {
            try {
                out.add(Integer.parseInt(s));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return List.copyOf(out);
    }
}
