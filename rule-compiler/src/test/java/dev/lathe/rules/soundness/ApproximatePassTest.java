package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedRule;
import org.junit.jupiter.api.Test;

/**
 * {@code pass NAME approximate(N ulp);}: a lowering rule set approximate by design (NIR's
 * {@code ffma => fadd(fmul(a, b), c)}), checked against the bound it states rather than called
 * unsound, and firing wherever the target needs it, exact instructions included.
 */
class ApproximatePassTest {
    private static final SoundnessChecker CHECKER = new SoundnessChecker(SoundnessChecker.Settings.defaults());
    private static final RuleProver PROVER = new RuleProver(RuleProver.Settings.defaults());

    private static RuleCompiler.Result compile(String header, String rules) {
        return RuleCompiler.compile("lower.rules", header + "\n" + rules + "\n");
    }

    private static CheckedRule rule(String header, String text) {
        RuleCompiler.Result r = compile(header, text);
        assertTrue(r.ok(), r.render());
        return r.file().rules().get(0);
    }

    @Test
    void theRuleIsCheckedAgainstTheStatedBound() {
        String ffma = "unfuse: ffma(a, b, c) => fadd(fmul(a, b), c);";
        // exact, it is wrong: the product is rounded once more
        assertEquals(
                Verdict.Kind.UNSOUND, CHECKER.check(rule("pass lower;", ffma)).kind());
        CheckedRule two = rule("pass lower approximate(2 ulp);", ffma);
        assertTrue(two.approximate());
        assertEquals(2.0, two.ulpBound());
        Verdict v = CHECKER.check(two);
        assertEquals(Verdict.Kind.SOUND, v.kind(), v.message());
        assertTrue(v.message().contains("sound (within 2 ulps, "), v.message());
        // a bound the lowering does not meet is caught
        assertEquals(
                Verdict.Kind.UNSOUND,
                CHECKER.check(rule("pass lower approximate(0.01 ulp);", ffma)).kind());
        // and an approximate pass does not excuse more than rounding: NIR's lower_fdiv gives a NaN
        // for 0 / b where b's reciprocal overflows (a subnormal b), where the quotient is 0
        Verdict fdiv = CHECKER.check(rule("pass lower approximate(2 ulp);", "f: fdiv(a, b) => fmul(a, frcp(b));"));
        assertEquals(Verdict.Kind.UNSOUND, fdiv.kind());
        assertTrue(fdiv.message().contains("a = +0.0"), fdiv.message());
        Proof p = PROVER.prove(two);
        assertEquals(Proof.Kind.TESTED, p.kind());
        assertTrue(p.message().contains("approximate (within 2 ulps)"), p.message());
    }

    @Test
    void itFiresOnExactInstructionsToo() {
        String program = """
                shader fragment
                input f32 @a location=0
                input f32 @b location=1
                output f32 @o location=0
                function main {
                    vec1 32 %a = load_input @a
                    vec1 32 %b = load_input @b
                    vec1 32 %q = !fdiv %a, %b
                    store_output @o, %q
                }
                """;
        RuleCompiler.Result r = compile("pass lower approximate(2 ulp);", "f: fdiv(a, b) => fmul(a, frcp(b));");
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", program);
        new RewritePass(new RuleInterpreter(r.file())).run(s.entryPoint());
        String out = IrPrinter.print(s);
        // a lowering the target needs cannot wait for permission: the exact fdiv is lowered
        assertFalse(out.contains("fdiv"), out);
        assertTrue(out.contains("frcp"), out);
    }

    @Test
    void aMalformedBoundIsALocatedError() {
        assertTrue(compile("pass lower approximate(2 bits);", "r: fdiv(a, b) => fmul(a, frcp(b));")
                .render()
                .contains("lower.rules:1:26: error: approximate(…) takes a bound in ulp, as in approximate(2 ulp),"
                        + " not bits"));
        assertTrue(compile("pass lower approx(2 ulp);", "r: fdiv(a, b) => fmul(a, frcp(b));")
                .render()
                .contains("unknown pass attribute 'approx' (a pass line takes approximate(N ulp))"));
        assertTrue(compile("pass lower approximate(0 ulp);", "r: fdiv(a, b) => fmul(a, frcp(b));")
                .render()
                .contains("takes a bound above 0 and at most 1e6 ulp, not 0"));
    }
}
