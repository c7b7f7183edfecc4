package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedRule;
import org.junit.jupiter.api.Test;

/**
 * A counterexample re-run under NIR's semantics ({@link NirReading}): wrong in NIR too, or wrong
 * only under Lathe's reading, and which part of it.
 */
class NirReadingTest {
    private static final SoundnessChecker CHECKER = new SoundnessChecker(SoundnessChecker.Settings.defaults());

    private static NirReading read(String text) {
        RuleCompiler.Result r = RuleCompiler.compile("nir.rules", "pass nir;\n" + text + "\n");
        assertTrue(r.ok(), r.renderAll());
        CheckedRule rule = r.file().rules().get(0);
        Verdict v = CHECKER.check(rule);
        assertEquals(Verdict.Kind.UNSOUND, v.kind(), v.message());
        return NirReading.of(rule, v);
    }

    @Test
    void aRuleWrongUnderNirsOwnSemanticsIsWrongInNir() {
        // NIR masks a 64-bit shift's count by 63 too: -32 shifts by 32
        NirReading shift = read("s: ishl(a@64, -32) => a;");
        assertEquals(NirReading.Kind.WRONG_IN_NIR, shift.kind());
        assertTrue(shift.detail().startsWith("a value (a = "), shift.detail());
        assertTrue(shift.detail().contains("NIR's pattern gives 4294967296"), shift.detail());
        NirReading zero = read("z: fadd(a, 0.0) => a;");
        assertEquals(NirReading.Kind.WRONG_IN_NIR, zero.kind());
        assertTrue(zero.detail().startsWith("the sign of a zero"), zero.detail());
        assertTrue(zero.text().startsWith("wrong in NIR: "), zero.text());
    }

    @Test
    void aRuleWrongOnlyUnderLathesReadingSaysWhichPart() {
        // fcsel selects as a float op: its NaN is one a float operation makes, whose bits are open
        NirReading nan = read("n: bcsel(flt(0.0, a@32), b@32, c@32) => fcsel_gt(a, b, c);");
        assertEquals(NirReading.Kind.DIFFERS_FROM_LATHE, nan.kind());
        assertTrue(nan.detail().startsWith("a NaN's bits"), nan.detail());
        NirReading field = read("f: ubitfield_extract(a@32, 31, 2) => 0;");
        assertEquals(NirReading.Kind.DIFFERS_FROM_LATHE, field.kind());
        assertTrue(
                field.detail()
                        .startsWith("the pattern reads ubitfield_extract of a field that is negative or passes"
                                + " the top bit (GLSL leaves it undefined)"),
                field.detail());
        NirReading wide = read("w: ubitfield_extract(a@64, 63, 2) => 0;");
        assertEquals(NirReading.Kind.DIFFERS_FROM_LATHE, wide.kind());
        assertTrue(wide.detail().startsWith("NIR has no ubitfield_extract@64"), wide.detail());
        NirReading pairs = read("p: fdot4(a, b) => fadd(fadd(fmul(a.w, b.w), fmul(a.z, b.z)),"
                + " fadd(fmul(a.y, b.y), fmul(a.x, b.x)));");
        assertEquals(NirReading.Kind.DIFFERS_FROM_LATHE, pairs.kind());
        assertTrue(pairs.detail().startsWith("NIR's fdot4 adds its products in pairs"), pairs.detail());
    }

    @Test
    void onlyExactRulesAreRead() {
        RuleCompiler.Result r = RuleCompiler.compile("nir.rules", "pass nir;\nr: fadd(fadd(a, b), c) ~=> a;\n");
        CheckedRule rule = r.file().rules().get(0);
        assertNull(NirReading.of(rule, CHECKER.check(rule)));
        assertNull(NirReading.of(rule, null));
    }
}
