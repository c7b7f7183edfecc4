package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedRule;
import org.junit.jupiter.api.Test;

/** Reassociation rules ({@code ~~>}): checked over the real numbers, fired only where every float op may reassociate. */
class ReassociationTest {
    private static final SoundnessChecker CHECKER = new SoundnessChecker(SoundnessChecker.Settings.defaults());

    private static CheckedRule rule(String text) {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\n" + text + "\n");
        assertTrue(r.ok(), r.render());
        return r.file().rules().get(0);
    }

    @Test
    void anIdentityOverTheRealsIsSoundThoughFloatsRoundItDifferently() {
        // (a + b) - a is b over the reals; in floats it is not (1e30 + 1 - 1e30 is 0)
        Verdict v = CHECKER.check(rule("r: fsub(fadd(a, b), a) ~~> b;"));
        assertEquals(Verdict.Kind.SOUND, v.kind(), v.message());
        assertEquals(
                Verdict.Kind.UNSOUND,
                CHECKER.check(rule("r: fsub(fadd(a, b), a) => b;")).kind(),
                "the same rule as an exact one");
    }

    @Test
    void aWrongIdentityGetsItsRealCounterexample() {
        Verdict v = CHECKER.check(rule("r: fadd(fmul(a, b), c) ~~> fmul(a, fadd(b, c));"));
        assertEquals(Verdict.Kind.UNSOUND, v.kind(), v.message());
        assertTrue(v.message().contains("is wrong over the real numbers at"), v.message());
        assertTrue(v.message().contains("(computed exactly)"), v.message());
    }

    @Test
    void divisionsAndDoublePrecisionTranscendentalsDoNotMakeAnIdentityWrong() {
        // NIR's rules: a reciprocal of a reciprocal (divisions rounded at 100 digits), and
        // logarithms of exponentials near 1 (double precision), are identities over the reals
        for (String r : new String[] {
            "r: frcp(frcp(a)) ~~> a;",
            "r: fmul(frcp(a), a) ~~> 1.0;",
            "r: flog2(fexp2(a)) ~~> a;",
            "r: flog2(fsqrt(a)) ~~> fmul(0.5, flog2(a));",
            "r: frcp(fexp2(a)) ~~> fexp2(fneg(a));"
        }) {
            Verdict v = CHECKER.check(rule(r));
            assertEquals(Verdict.Kind.SOUND, v.kind(), v.message());
        }
        // NIR's gamma round trip is not one: 2.2 * 0.454545 is not 1
        Verdict gamma = CHECKER.check(rule("r: fpow(fpow(a, 2.2), 0.454545) ~~> a;"));
        assertEquals(Verdict.Kind.UNSOUND, gamma.kind(), gamma.message());
    }

    @Test
    void whereThePatternIsUndefinedNothingIsDecided() {
        // flog2 of a number that is not positive has no real value: those inputs are skipped
        assertEquals(
                Verdict.Kind.SOUND,
                CHECKER.check(rule("r: fexp2(flog2(a)) ~~> a;")).kind());
        // but a replacement undefined where the pattern is defined is wrong
        Verdict v = CHECKER.check(rule("r: fmul(a, 0.0) ~~> fmul(fdiv(a, a), 0.0);"));
        assertEquals(Verdict.Kind.UNSOUND, v.kind(), v.message());
        assertTrue(v.message().contains("division by zero"), v.message());
    }

    @Test
    void anOpWithoutARealMeaningLeavesTheRuleUnchecked() {
        Verdict v = CHECKER.check(rule("r: fadd(u2f32(a), 0.0) ~~> u2f32(a);"));
        assertEquals(Verdict.Kind.UNCHECKED, v.kind(), v.message());
        assertTrue(v.message().contains("has no meaning"), v.message());
    }

    @Test
    void theRuleFiresOnlyWhereEveryFloatInstructionMatchedMayReassociate() {
        String program = """
                shader fragment
                input vec4 f32 @x
                output vec4 f32 @o
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %a = fadd[reassoc] %x, %x.yzwx
                  vec4 32 %b = fsub[reassoc] %a, %x
                  vec4 32 %c = fadd %x, %x.zwxy
                  vec4 32 %d = fsub[reassoc] %c, %x
                  vec4 32 %e = fadd[reassoc] %x, %x.wxyz
                  vec4 32 %f = !fsub %e, %x
                  vec4 32 %s = fmul %b, %d
                  vec4 32 %t = fmul %s, %f
                  store_output @o, %t
                }
                """;
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\nr: fsub(fadd(a, b), a) ~~> b;\n");
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", program);
        RuleInterpreter rules = new RuleInterpreter(r.file());
        new RewritePass(rules).run(s.entryPoint());
        String out = IrPrinter.print(s);
        // only %b folds: %c lacks reassoc, %f is exact
        assertTrue(!out.contains("fsub[reassoc] %1, %0"), out);
        assertTrue(out.contains("fsub[reassoc] %3, %0"), out);
        assertTrue(out.contains("!fsub %5, %0"), out);
    }

    @Test
    void theProverDecidesIdentitiesOverTheReals() {
        RuleProver prover = new RuleProver(RuleProver.Settings.defaults());
        Proof right = prover.prove(rule("r: fdiv(fmul(a, b), b) ~~> a if is_not_zero(b);"));
        assertEquals(Proof.Kind.PROVED, right.kind(), right.message());
        Proof wrong = prover.prove(rule("r: fadd(fmul(a, b), c) ~~> fmul(a, fadd(b, c));"));
        assertEquals(Proof.Kind.REFUTED, wrong.kind(), wrong.message());
        assertTrue(wrong.message().contains("refuted over the reals"), wrong.message());
        // without the condition, b = 0 leaves the pattern undefined: still proved (nothing to compare there)
        Proof undefinedWhereZero = prover.prove(rule("r: fdiv(fmul(a, b), b) ~~> a;"));
        assertEquals(Proof.Kind.PROVED, undefinedWhereZero.kind(), undefinedWhereZero.message());
        Proof transcendental = prover.prove(rule("r: fexp2(flog2(a)) ~~> a;"));
        assertEquals(Proof.Kind.TESTED, transcendental.kind(), transcendental.message());
    }
}
