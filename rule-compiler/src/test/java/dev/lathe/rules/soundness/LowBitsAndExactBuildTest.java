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

/** {@code @low8}/{@code @low16} (only the low bits of the root are used) and {@code op[exact]} in a replacement. */
class LowBitsAndExactBuildTest {
    private static final SoundnessChecker CHECKER = new SoundnessChecker(SoundnessChecker.Settings.defaults());
    private static final RuleProver PROVER = new RuleProver(RuleProver.Settings.defaults());

    private static RuleCompiler.Result compile(String text) {
        return RuleCompiler.compile("t.rules", "pass t;\n" + text + "\n");
    }

    private static CheckedRule rule(String text) {
        RuleCompiler.Result r = compile(text);
        assertTrue(r.ok(), r.render());
        return r.file().rules().get(0);
    }

    @Test
    void onlyTheLowBitsMustAgree() {
        CheckedRule low = rule("r: ior(a, 0x100)@low8 => a;");
        assertEquals(8, low.usedBits());
        assertEquals(Verdict.Kind.SOUND, CHECKER.check(low).kind());
        assertEquals(
                Proof.Kind.PROVED, PROVER.prove(low).kind(), PROVER.prove(low).message());
        // the same rule reading every bit is wrong, and so is one that changes a low bit
        assertEquals(
                Verdict.Kind.UNSOUND,
                CHECKER.check(rule("r: ior(a, 0x100) => a;")).kind());
        CheckedRule wrong = rule("r: ior(a, 0x80)@low8 => a;");
        assertEquals(Verdict.Kind.UNSOUND, CHECKER.check(wrong).kind());
        assertEquals(Proof.Kind.REFUTED, PROVER.prove(wrong).kind());
    }

    @Test
    void lowBitsAreOnTheRootsIntegerResultOnly() {
        RuleCompiler.Result r = compile("r1: iadd(ior(a, 0x100)@low8, b) => iadd(a, b);\nr2: fadd(a, 1.0)@low8 => a;");
        assertTrue(r.render().contains("@low8 goes on the pattern's root"), r.render());
        assertTrue(r.render().contains("@low8 is for integer results, not floats"), r.render());
    }

    @Test
    void theRuleFiresOnlyWhereEveryUseReadsTheLowBits() {
        String program = """
                shader fragment
                input u32 @x
                output u32 @o
                output u32 @p
                function main {
                  vec1 32 %x = load_input @x
                  vec1 32 %m = load_const (0x100)
                  vec1 32 %a = ior %x, %m
                  vec1 8 %a8 = u2u8 %a
                  vec1 32 %a32 = u2u32 %a8
                  vec1 32 %b = ior %x, %m
                  store_output @o, %a32
                  store_output @p, %b
                }
                """;
        RuleCompiler.Result r = compile("r: ior(a, 0x100)@low8 => a;");
        Shader s = IrParser.parse("t.ir", program);
        RuleInterpreter rules = new RuleInterpreter(r.file());
        new RewritePass(rules).run(s.entryPoint());
        String out = IrPrinter.print(s);
        // %a is read only through u2u8: it folds; %b is stored whole: it stays
        assertTrue(out.contains("u2u8 %0"), out);
        assertTrue(out.contains("store_output @p, %"), out);
        assertEquals(1, out.split(" = ior ", -1).length - 1, out);
    }

    @Test
    void aReplacementOpMayBeBuiltExact() {
        RuleCompiler.Result r = compile("r: fsub(a, b) => fadd[exact](a, fneg(b));");
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input f32 @x
                output f32 @o
                function main {
                  vec1 32 %x = load_input @x
                  vec1 32 %d = fsub %x, %x
                  store_output @o, %d
                }
                """);
        RuleInterpreter rules = new RuleInterpreter(r.file());
        new RewritePass(rules).run(s.entryPoint());
        String out = IrPrinter.print(s);
        assertTrue(out.contains("= !fadd %0"), out);
        assertTrue(out.contains("= fneg %0"), out);
        assertTrue(compile("r: fadd[exact](a, 0.0) => a;").render().contains("[exact] goes on replacement ops"));
    }

    @Test
    void aUseConditionDecidesWhereTheRuleFires() {
        RuleCompiler.Result r = compile("r: fmul(a, 2.0)@only_used_by_fadd => fadd(a, a);");
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input f32 @x
                output f32 @o
                output f32 @p
                function main {
                  vec1 32 %x = load_input @x
                  vec1 32 %two = load_const (2.0)
                  vec1 32 %m = fmul %x, %two
                  vec1 32 %n = fneg %m
                  vec1 32 %s = fadd %n, %x
                  vec1 32 %k = fmul %x, %two
                  vec1 32 %t = fadd %k, %x
                  vec1 32 %u = fsat %k
                  vec1 32 %v = fmul %t, %u
                  store_output @o, %s
                  store_output @p, %v
                }
                """);
        RuleInterpreter rules = new RuleInterpreter(r.file());
        new RewritePass(rules).run(s.entryPoint());
        String out = IrPrinter.print(s);
        // %m is used by an fneg only used by an fadd: it fires; %k is also read by fsat: it does not
        assertEquals(1, out.split(" = fmul %0, %1", -1).length - 1, out);
        assertTrue(out.contains("fadd %0, %0"), out);
        assertTrue(compile("r: fmul(a, 2.0) => fadd(a, a)@only_used_by_fadd;")
                .render()
                .contains("means nothing in a replacement"));
    }
}
