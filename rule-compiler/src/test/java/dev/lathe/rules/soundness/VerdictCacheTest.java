package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sampling verdicts kept beside the proofs: found again for an unchanged rule, settings and code. */
class VerdictCacheTest {
    private static final SoundnessChecker CHECKER = new SoundnessChecker(SoundnessChecker.Settings.defaults());

    @TempDir
    Path dir;

    private static CheckedRule rule(String text, int index) {
        RuleCompiler.Result r = RuleCompiler.compile("rules/t.rules", text);
        assertTrue(r.ok(), r.render());
        return r.file().rules().get(index);
    }

    @Test
    void aVerdictIsKeptAndFoundAgainAtItsNewLocation() {
        VerdictCache cache = new VerdictCache(dir);
        Verdict first = cache.check(CHECKER, rule("pass t;\nr: iadd(a, 0) => a;\n", 0));
        assertEquals(Verdict.Kind.SOUND, first.kind());
        Verdict again = cache.check(CHECKER, rule("pass t;\n\n# moved\nr: iadd(a, 0) => a;\n", 0));
        assertEquals(1, cache.checkedNow());
        assertEquals(first.checked(), again.checked());
        assertTrue(again.message().startsWith("rules/t.rules:4: rule r is sound ("), again.message());
        assertEquals(
                first.message().substring(first.message().indexOf(": rule")),
                again.message().substring(again.message().indexOf(": rule")));
    }

    @Test
    void anUnsoundVerdictIsKeptWithItsCounterexample() {
        VerdictCache cache = new VerdictCache(dir);
        CheckedRule wrong = rule("pass t;\nz: fadd(a, 0.0) => a;\n", 0);
        Verdict first = cache.check(CHECKER, wrong);
        Verdict again = cache.check(CHECKER, wrong);
        assertEquals(1, cache.checkedNow());
        assertEquals(Verdict.Kind.UNSOUND, again.kind());
        assertEquals(first.message(), again.message());
        assertEquals(first.counterexample(), again.counterexample());
        // the NIR reading needs the counterexample: it reads the same from the cache
        assertEquals(NirReading.of(wrong, first), NirReading.of(wrong, again));
    }

    @Test
    void theKeyHoldsTheSettingsAndADamagedEntryIsIgnored() throws IOException {
        CheckedRule r = rule("pass t;\nr: iadd(a, 0) => a;\n", 0);
        SoundnessChecker.Settings s = SoundnessChecker.Settings.defaults();
        String key = VerdictCache.key(r, s);
        assertNotEquals(key, VerdictCache.key(r, new SoundnessChecker.Settings(s.samples() + 1, s.seed(), s.sizes())));
        assertNotEquals(key, VerdictCache.key(r, new SoundnessChecker.Settings(s.samples(), s.seed() + 1, s.sizes())));
        assertNotEquals(key, VerdictCache.key(r, new SoundnessChecker.Settings(s.samples(), s.seed(), 8)));
        assertNotEquals(key, VerdictCache.key(rule("pass t;\nr: iadd(a, 0) ~=> a;\n", 0), s));
        VerdictCache cache = new VerdictCache(dir);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(key), "SOUND\t12"); // cut short
        assertNull(cache.get(r, s));
        Files.writeString(dir.resolve(key), "UNSOUND\t1\t32\n"); // no counterexample
        assertNull(cache.get(r, s));
        assertNull(new VerdictCache(null).get(r, s));
    }
}
