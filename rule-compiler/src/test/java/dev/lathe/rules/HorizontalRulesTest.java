package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.soundness.Proof;
import dev.lathe.rules.soundness.RuleProver;
import dev.lathe.rules.soundness.SoundnessChecker;
import dev.lathe.rules.soundness.Verdict;
import org.junit.jupiter.api.Test;

/**
 * Horizontal ops and swizzles in rules, written as NIR writes them: {@code fdot3(a, b)},
 * {@code vec4(a.x, a.y, a.z, 1.0)}, {@code unpack_64_2x32(a).y}. Each value is read at a
 * component count (the rule's width, or a horizontal op's fixed one); the checker gives a vector
 * variable one input per component; the matcher binds a vector variable with its swizzle.
 */
class HorizontalRulesTest {
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

    private static String errors(String text) {
        RuleCompiler.Result r = compile(text);
        assertFalse(r.ok(), "expected an error: " + text);
        return r.render();
    }

    @Test
    void countsAreTypedAndSwizzlesChecked() {
        CheckedRule dph = rule("dph: fdph(a, b) => fdot4(vec4(a.x, a.y, a.z, 1.0), b);");
        // fdph's result has one component: the root's count is fixed; a has 3, b 4
        assertEquals(1, dph.pattern().components());
        assertEquals(3, dph.pattern().srcs().get(0).components());
        assertEquals(4, dph.pattern().srcs().get(1).components());
        assertTrue(dph.usesVectors());
        // read at the rule's width, a vec2 bounds the root to 2 components
        CheckedRule narrow = rule("n: f2f16(vec2(a@32, b@32)) => vec2(f2f16(a), f2f16(b));");
        assertEquals(0, narrow.pattern().components());
        assertEquals(2, narrow.maxWidth());
        // NIR's implicit prefix is a swizzle in Lathe: the variable's count must agree
        assertTrue(errors("r: fdot4(vec4(a, 0.0, 0.0, 0.0), b) => fmul(a, b);")
                .contains("b is read at 1 component here and at 4 components at column 34; a part of it is a"
                        + " swizzle, as in b.x"));
        assertTrue(errors("r: fdot2(a, b) => fadd(a.x, a.z);")
                .contains("a has 2 components; the swizzle reads component 2"));
        assertTrue(errors("r: fmul(a, b) => fadd(a.x, b);").contains("here the value is read at the rule's width"));
        assertTrue(errors("r: fdot2(a, b) => fmul(a.xy, b.x);")
                .contains("this swizzle names 2 components, but the value" + " is read at 1 here"));
        assertTrue(errors("r: fdot2(fneg(a).x, b) => a;").contains("fneg works per component: swizzle its operands"));
        assertTrue(errors("r: fdot2(vec2(a.x, a.y), b) => b.x;").contains("a pattern binds variables whole"));
        assertTrue(errors("r: fdot2(a, b) => fadd(a.q, a.x);").contains("'q' in .q names no component"));
        assertTrue(errors("r: fdot2(a, b) => fdot3(a, b);").contains("a is read at 3 components here and at 2"));
    }

    @Test
    void theCheckerComparesEveryComponent() {
        assertEquals(
                Verdict.Kind.SOUND,
                CHECKER.check(rule("dph: fdph(a, b) => fdot4(vec4(a.x, a.y, a.z, 1.0), b);"))
                        .kind());
        assertEquals(
                Verdict.Kind.SOUND,
                CHECKER.check(rule("d: fdot2(a, 1.0) => fadd(a.x, a.y);")).kind());
        assertEquals(
                Verdict.Kind.SOUND,
                CHECKER.check(rule("r: pack_64_2x32_split(unpack_64_2x32(a), unpack_64_2x32(a).y) => a;"))
                        .kind());
        assertEquals(
                Verdict.Kind.SOUND,
                CHECKER.check(rule("r: unpack_64_2x32(pack_64_2x32_split(a, b)) => vec2(a, b);"))
                        .kind());
        // NIR's fdot4(a, 0.0) => 0.0: an infinite component makes the dot product NaN
        Verdict zero = CHECKER.check(rule("z: fdot4(a, 0.0) => 0.0;"));
        assertEquals(Verdict.Kind.UNSOUND, zero.kind());
        assertTrue(zero.message().contains("inf"), zero.message());
        // the components swapped: caught at the first component
        Verdict swap = CHECKER.check(rule("s: unpack_64_2x32(pack_64_2x32_split(a, b)) => vec2(b, a);"));
        assertEquals(Verdict.Kind.UNSOUND, swap.kind());
        assertTrue(swap.message().contains("at component x"), swap.message());
        // .y read where .x was meant
        Verdict half = CHECKER.check(rule("h: unpack_64_2x32_split_y(pack_64_2x32(a)) => a.x;"));
        assertEquals(Verdict.Kind.UNSOUND, half.kind());
        // NIR's replicated dot products: the dot product in each of 4 components, read in order
        assertEquals(
                Verdict.Kind.SOUND,
                CHECKER.check(rule("r: fdot3(a, b) => fdot3_replicated(a, b);")).kind());
        // NIR's distribute_src_mods moves the fneg in: -(x + w) is -0.0 where (-x) + (-w) is +0.0
        Verdict dph = CHECKER.check(rule("r: fneg(fdph_replicated(a, b)@once) => fdph_replicated(a, fneg(b));"));
        assertEquals(Verdict.Kind.UNSOUND, dph.kind());
        assertTrue(dph.message().contains("pattern gives -0.0"), dph.message());
        assertEquals(
                4,
                rule("r: fneg(fdot2_replicated(a, b)@once) => fdot2_replicated(fneg(a), b);")
                        .maxWidth());
        Proof p = PROVER.prove(rule("d: fdot2(a, 1.0) => fadd(a.x, a.y);"));
        assertEquals(Proof.Kind.TESTED, p.kind());
        assertTrue(p.message().contains("vectors (horizontal ops, swizzles) have no SMT encoding yet"), p.message());
    }

    private static String rewrite(String rules, String program) {
        RuleCompiler.Result r = compile(rules);
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", program);
        new RewritePass(new RuleInterpreter(r.file())).run(s.entryPoint());
        return IrPrinter.print(s);
    }

    @Test
    void theMatcherBindsVectorsAndBuildsWithTheirCounts() {
        String program = """
                shader fragment
                input vec4 f32 @a location=0
                input vec4 f32 @b location=1
                output f32 @o location=0
                function main {
                    vec4 32 %a = load_input @a
                    vec4 32 %b = load_input @b
                    vec1 32 %d = fdph %a.wzy, %b
                    store_output @o, %d
                }
                """;
        String out = rewrite("dph: fdph(a, b) => fdot4(vec4(a.x, a.y, a.z, 1.0), b);", program);
        // a is bound through its swizzle: a.x of the rule is %a.w of the program
        assertTrue(out.matches("(?s).*vec4 32 %\\d+ = vec4 %0\\.w, %0\\.z, %0\\.y, %\\d+.*"), out);
        assertTrue(out.contains("= fdot4 "), out);
        assertFalse(out.contains("fdph"), out);
        Shader before = IrParser.parse("t.ir", program), after = IrParser.parse("t.ir", out);
        ShaderInputs in = new ShaderInputs()
                .set("a", 0x3f800000L, 0x40000000L, 0x40400000L, 0x40800000L) // 1, 2, 3, 4
                .set("b", 0x40a00000L, 0x40c00000L, 0x40e00000L, 0x41000000L); // 5, 6, 7, 8
        long was = new Interpreter(before).run(in).outputs().get("o")[0];
        long is = new Interpreter(after).run(in).outputs().get("o")[0];
        // fdph(a.wzy, b) = 4 * 5 + 3 * 6 + 2 * 7 + 8 = 60
        assertEquals(Float.floatToRawIntBits(60f), was);
        assertEquals(was, is, "the rewrite keeps the value");
    }

    @Test
    void aHorizontalOpIsMatchedReadInOrderOnly() {
        String rules = "r: unpack_64_2x32_split_y(pack_64_2x32(a)) => a.y;";
        String program = """
                shader fragment
                input vec2 u32 @a location=0 flat
                output u32 @o location=0
                output u32 @p location=1
                function main {
                    vec2 32 %a = load_input @a
                    vec1 64 %v = pack_64_2x32 %a.yx
                    vec1 32 %hi = unpack_64_2x32_split_y %v
                    store_output @o, %hi
                    vec2 64 %w = vec2 %v, %v
                    vec1 32 %h2 = unpack_64_2x32_split_y %w.y
                    store_output @p, %h2
                }
                """;
        String out = rewrite(rules, program);
        // %hi is %a.x (the pack read %a swizzled); %h2 reads the vec2's second component: not a pack
        assertFalse(out.contains("unpack_64_2x32_split_y %1\n"), out);
        assertTrue(out.contains("store_output @o, %0.x") || out.matches("(?s).*mov %0\\.x.*"), out);
        assertEquals(1, out.split("unpack_64_2x32_split_y", -1).length - 1, out);
    }

    @Test
    void theRootsWidthIsBoundedByAHorizontalOpReadAtIt() {
        String rules = "n: f2f16(vec2(a@32, b@32)) => vec2(f2f16(a), f2f16(b));";
        String program = """
                shader fragment
                input vec2 f32 @a location=0
                output vec2 f16 @o location=0
                output f16 @p location=1
                function main {
                    vec2 32 %a = load_input @a
                    vec2 32 %v = vec2 %a.y, %a.x
                    vec2 16 %h = f2f16 %v
                    store_output @o, %h
                    vec1 16 %g = f2f16 %v.y
                    store_output @p, %g
                }
                """;
        String out = rewrite(rules, program);
        // %h reads the vec2 in order: it becomes a vec2 of two conversions; %g reads .y: it stays
        assertEquals(3, out.split("= f2f16 ", -1).length - 1, out);
        assertTrue(out.contains("f2f16 %1.y"), out);
    }

    @Test
    void aRuleOnOneComponentShadowsOnlyRulesOnOne() {
        // e's replacement reads a 1-component fdot2 at the root's width: e fires on 1-component
        // roots only, so it does not shadow l on wider ones
        String two = "e: fadd(a, b) => fadd(a, fdot2(vec2(b, 0.0), vec2(1.0, 1.0)));\nl: fadd(a, 0.0) => a;";
        RuleCompiler.Result r = compile(two);
        assertTrue(r.ok(), r.render());
        assertEquals(1, r.file().rules().get(0).maxRootComponents());
        // against a rule on one component too, it does
        RuleCompiler.Result s = compile(two.replace("l: fadd(a, 0.0) => a;", "l: fadd(a, fdot2(b, c)) => a;"));
        assertTrue(s.render().contains("rule l can never fire: rule e (line 2) comes first"), s.render());
    }

    @Test
    void isAnyCompNanAsksSomeComponent() {
        String text = "n: fdot3(#a, b) => nan if is_any_comp_nan(a);";
        assertEquals(Verdict.Kind.SOUND, CHECKER.check(rule(text)).kind());
        // every component of a NaN is a stronger condition; none at all is wrong
        assertEquals(
                Verdict.Kind.UNSOUND,
                CHECKER.check(rule("n: fdot3(#a, b) => nan;")).kind());
        String program = """
                shader fragment
                input vec3 f32 @b location=0
                output f32 @o location=0
                output f32 @p location=1
                function main {
                    vec3 32 %b = load_input @b
                    vec3 32 %k = load_const (0x3f800000, 0x7fc00000, 0x40000000)
                    vec3 32 %j = load_const (0x3f800000, 0x40400000, 0x40000000)
                    vec1 32 %d = fdot3 %k, %b
                    vec1 32 %e = fdot3 %j, %b
                    store_output @o, %d
                    store_output @p, %e
                }
                """;
        String out = rewrite(text, program);
        // the constant with a NaN in .y folds the first; the second stays
        assertEquals(1, out.split("= fdot3 ", -1).length - 1, out);
        assertTrue(out.contains("fdot3 %2, %0"), out);
    }
}
