package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the build's proof cache keys on, keeps, and refuses to trust. */
class ProofCacheTest {
    private static final RuleProver.Settings SETTINGS = new RuleProver.Settings(20_000, 31);

    @TempDir
    Path dir;

    private static CheckedRule rule(String text, int index) {
        RuleCompiler.Result r = RuleCompiler.compile("rules/t.rules", text);
        assertTrue(r.ok(), r.render());
        return r.file().rules().get(index);
    }

    @Test
    void aProofIsKeptAndFoundAgainAtItsNewLocation() {
        ProofCache cache = new ProofCache(dir);
        CheckedRule r = rule("pass t;\nineg_ineg: ineg(ineg(a)) => a;\n", 0);
        Proof first = cache.prove(SETTINGS, r);
        assertEquals(Proof.Kind.PROVED, first.kind(), first.message());
        assertEquals(1, cache.provedNow());

        CheckedRule moved =
                rule("pass t;\n\n# a comment\nother: iadd(a, 0) => a;\nineg_ineg: ineg(ineg(a)) => a;\n", 1);
        Proof again = cache.prove(SETTINGS, moved);
        assertEquals(1, cache.provedNow(), "an unchanged rule is not proved again");
        assertEquals(first.kind(), again.kind());
        assertEquals(first.proved(), again.proved());
        assertEquals("rules/t.rules:5:1: rule ineg_ineg is proved at 8, 16, 32, 64 bits", again.message());
    }

    @Test
    void theKeyChangesWithTheRuleTheBudgetAndTheSizes() {
        CheckedRule r = rule("pass t;\nr: ineg(ineg(a)) => a;\n", 0);
        String key = ProofCache.key(r, SETTINGS);
        assertEquals(key, ProofCache.key(rule("pass t;\n\n\nr: ineg(ineg(a)) => a;\n", 0), SETTINGS));
        assertNotEquals(key, ProofCache.key(rule("pass t;\nr: inot(inot(a)) => a;\n", 0), SETTINGS));
        assertNotEquals(key, ProofCache.key(rule("pass t;\nr: ineg(ineg(a@32)) => a;\n", 0), SETTINGS));
        assertNotEquals(key, ProofCache.key(rule("pass t;\ns: ineg(ineg(a)) => a;\n", 0), SETTINGS));
        assertNotEquals(key, ProofCache.key(r, new RuleProver.Settings(1_000, 31)));
        assertNotEquals(key, ProofCache.key(r, new RuleProver.Settings(20_000, 8)));
    }

    @Test
    void aRefutationIsKeptWithItsCounterexampleWhileTheCheckersCodeIsTheSame() throws IOException {
        ProofCache cache = new ProofCache(dir);
        CheckedRule wrong = rule("pass t;\nr: ieq(ixor(a@32, 0x1234abcd), 0x0f0f1111) => false;\n", 0);
        Proof first = cache.prove(SETTINGS, wrong);
        assertEquals(Proof.Kind.REFUTED, first.kind());
        Proof again = cache.prove(SETTINGS, wrong);
        assertEquals(1, cache.provedNow(), "a refuted rule is not proved again");
        assertTrue(again.wrong(), "and still fails the build");
        assertEquals(first.message(), again.message());
        assertEquals(
                first.counterexample().counterexample(), again.counterexample().counterexample());
        assertEquals(first.counterexample().message(), again.counterexample().message());
        // made by other code (an op table since changed), it is proved again
        Path f = dir.resolve(ProofCache.key(wrong, SETTINGS));
        Files.writeString(f, Files.readString(f).replace("code " + VerdictCache.CODE, "code 0000"));
        assertNull(cache.get(wrong, SETTINGS));
    }

    @Test
    void aDamagedEntryIsIgnoredAndReplaced() throws IOException {
        ProofCache cache = new ProofCache(dir);
        CheckedRule r = rule("pass t;\nr: inot(inot(a)) => a;\n", 0);
        Path f = dir.resolve(ProofCache.key(r, SETTINGS));
        Files.writeString(f, "PROVED\t8,16\t"); // cut short by a crash
        assertNull(cache.get(r, SETTINGS));
        Files.writeString(f, "REFUTED\t\t\t is refuted\n"); // no counterexample
        assertNull(cache.get(r, SETTINGS));
        Files.writeString(f, "PROVED\teight\t\t is proved\n");
        assertNull(cache.get(r, SETTINGS));
        assertEquals(Proof.Kind.PROVED, cache.prove(SETTINGS, r).kind());
        Proof kept = cache.get(r, SETTINGS);
        assertNotNull(kept);
        assertEquals(List.of(1, 8, 16, 32, 64), kept.proved());
    }

    @Test
    void withoutADirectoryEveryRuleIsProved() {
        ProofCache none = new ProofCache(null);
        CheckedRule r = rule("pass t;\nr: inot(inot(a)) => a;\n", 0);
        none.prove(SETTINGS, r);
        none.prove(SETTINGS, r);
        assertEquals(2, none.provedNow());
    }
}
