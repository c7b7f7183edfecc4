package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.pass.PassException;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import dev.lathe.rules.interp.RuleInterpreter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What rules mean, run through the rule interpreter on small programs. */
class RuleSemanticsTest {

    /** Runs the rules to a fixpoint, then copy_prop and dce, and prints the result. */
    static String rewrite(String rules, String program) {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\n" + rules);
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", "shader fragment\n" + program);
        new RewritePass(new RuleInterpreter(r.file())).run(s.entryPoint());
        new PassManager(PassRegistry.standard(), PassInstrumentation.Settings.verifying())
                .run(s, Pipeline.parse("copy_prop, dce"));
        assertEquals(List.of(), Validator.validate(s));
        return IrPrinter.print(s);
    }

    private static final String IO = "input vec4 f32 @x\ninput vec4 u32 @u\noutput vec4 f32 @o\noutput vec4 u32 @p\n";

    @Test
    void commutativeOpsMatchBothOrders() {
        String out = rewrite("r: fmul(a, 1.0) => a;", IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec1 32 %one = load_const (1.0)
                  vec4 32 %m = fmul %one.xxxx, %x
                  store_output @o, %m
                }
                """);
        assertTrue(out.contains("store_output @o, %0"), out);
    }

    @Test
    void unnamedRulesAreNamedAfterTheirLine() {
        RuleCompiler.Result r =
                RuleCompiler.compile("t.rules", "pass t;\n\na * 1.0 => a;\nnamed: fadd(a, -0.0) => a;\n");
        assertTrue(r.ok(), r.render());
        assertEquals(
                List.of("line_3", "named"),
                r.file().rules().stream().map(x -> x.name()).toList());
        assertEquals(3, r.file().rules().get(0).line());
        String out = rewrite("a * 1.0 => a;", IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec1 32 %one = load_const (1.0)
                  vec4 32 %m = fmul %x, %one.xxxx
                  store_output @o, %m
                }
                """);
        assertTrue(out.contains("store_output @o, %0"), out);
    }

    @Test
    void aLateRewriteIsSeenByPatternsRootedFurtherUp() {
        // Program order visits m, z, n1, n2 (nothing matches: m has two uses), then k: k folds
        // to 0, m is left with one use, z fuses into an ffma — and n2, two levels above the
        // change, now matches `deep`. The driver must revisit it although n2's operand (n1) is
        // unchanged.
        String out = rewrite("""
                once: fadd(fmul(a, b)@once, c) => ffma(a, b, c);
                deep: fabs(fneg(ffma(a, b, c))) => fabs(ffma(a, b, c));
                self: fsub(a, a) ~=> 0.0;
                """, IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %m = fmul %x, %x.yzwx
                  vec4 32 %z = fadd %m, %x.zwxy
                  vec4 32 %n1 = fneg %z
                  vec4 32 %n2 = fabs %n1
                  vec4 32 %k = fsub %m, %m
                  vec4 32 %s = fadd %n2, %k
                  store_output @o, %s
                }
                """);
        assertTrue(out.contains("ffma") && !out.contains("fneg"), out);
    }

    @Test
    void swizzlesComposeThroughNestedPatterns() {
        String out = rewrite("r: fneg(fneg(a)) => a;", IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %n = fneg %x.wzyx
                  vec4 32 %nn = fneg %n.yxzw
                  store_output @o, %nn
                }
                """);
        // (x.wzyx).yxzw = x.zwyx
        assertTrue(out.contains("mov %0.zwyx") || out.contains("@o, %1") && out.contains("%0.zwyx"), out);
    }

    @Test
    void repeatedVariablesMustBeTheSameValueAndComponents() {
        String rules = "r: isub(a, a) => 0;";
        String same = rewrite(rules, IO + """
                function main {
                  vec4 32 %u = load_input @u
                  vec4 32 %d = isub %u.xyzw, %u
                  store_output @p, %d
                }
                """);
        assertTrue(same.contains("load_const (0x00000000"), same);
        String different = rewrite(rules, IO + """
                function main {
                  vec4 32 %u = load_input @u
                  vec4 32 %d = isub %u, %u.yxzw
                  store_output @p, %d
                }
                """);
        assertTrue(different.contains("isub"), different);
    }

    @Test
    void constantOnlyVariablesAndFolding() {
        String rules = "r: imul(a, #c) => ishl(a, find_lsb(c)) if is_power_of_two(c);";
        String out = rewrite(rules, IO + """
                function main {
                  vec4 32 %u = load_input @u
                  vec4 32 %k = load_const (8, 2, 16, 1)
                  vec4 32 %m = imul %u, %k
                  store_output @p, %m
                }
                """);
        assertTrue(
                out.contains(
                        "load_const (0x00000003 /* 3 */, 0x00000001 /* 1 */, 0x00000004 /* 4 */, 0x00000000 /* 0 */)"),
                out);
        assertTrue(out.contains("ishl"), out);
        String notPow2 = rewrite(rules, IO + """
                function main {
                  vec4 32 %u = load_input @u
                  vec4 32 %k = load_const (8, 3, 16, 1)
                  vec4 32 %m = imul %u, %k
                  store_output @p, %m
                }
                """);
        assertTrue(notPow2.contains("imul"), "3 is not a power of two: " + notPow2);
    }

    @Test
    void onceRequiresASingleUse() {
        String rules = "r: fadd(fmul(a, b)@once, c) ~=> ffma(a, b, c);";
        String single = rewrite(rules, IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %m = fmul %x, %x.yyyy
                  vec4 32 %s = fadd %m, %x.wwww
                  store_output @o, %s
                }
                """);
        assertTrue(single.contains("ffma"), single);
        String shared = rewrite(rules, IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %m = fmul %x, %x.yyyy
                  vec4 32 %s = fadd %m, %x.wwww
                  vec4 32 %t = fadd %s, %m
                  store_output @o, %t
                }
                """);
        assertTrue(!shared.contains("ffma"), shared);
    }

    @Test
    void inexactRulesLeaveExactInstructionsAlone() {
        String rules = "r: fadd(a, 0.0) ~=> a;";
        String exact = rewrite(rules, IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec1 32 %z = load_const (0.0)
                  vec4 32 %s = !fadd %x, %z.xxxx
                  store_output @o, %s
                }
                """);
        assertTrue(exact.contains("!fadd"), exact);
        String plain = rewrite(rules, IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec1 32 %z = load_const (0.0)
                  vec4 32 %s = fadd %x, %z.xxxx
                  store_output @o, %s
                }
                """);
        assertTrue(!plain.contains("fadd"), plain);
    }

    @Test
    void sizeConstraintsAreCheckedAtMatchTime() {
        String rules = "narrow: u2u32(u2u64(a@32)) => a;";
        String at32 = rewrite(rules, "input u32 @a\noutput u32 @o\n" + """
                function main {
                  vec1 32 %a = load_input @a
                  vec1 64 %w = u2u64 %a
                  vec1 32 %n = u2u32 %w
                  store_output @o, %n
                }
                """);
        assertTrue(!at32.contains("u2u64"), at32);
        String at16 = rewrite(rules, "input u16 @a\noutput u32 @o\n" + """
                function main {
                  vec1 16 %a = load_input @a
                  vec1 64 %w = u2u64 %a
                  vec1 32 %n = u2u32 %w
                  store_output @o, %n
                }
                """);
        assertTrue(at16.contains("u2u64"), "a is 16 bits: the rule must not fire\n" + at16);
    }

    @Test
    void literalsThatDoNotFitASizeDoNotMatch() {
        String rules = "r: iand(a, 0xffff) => u2u32(u2u16(a));";
        String at32 = rewrite(rules, "input u32 @a\noutput u32 @o\n" + """
                function main {
                  vec1 32 %a = load_input @a
                  vec1 32 %m = load_const (0xffff)
                  vec1 32 %n = iand %a, %m
                  store_output @o, %n
                }
                """);
        assertTrue(at32.contains("u2u16"), at32);
    }

    @Test
    void aTwoRuleCycleEndsWithAnErrorNamingBothRules() {
        RuleCompiler.Result r = RuleCompiler.compile("rules/cycle.rules", """
                pass cycle;
                double: fmul(a, 2.0) => fadd(a, a);
                halve:  fadd(a, a) => fmul(a, 2.0);
                """);
        assertTrue(r.ok(), r.render());
        Shader s = IrParser.parse("t.ir", "shader fragment\n" + IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %d = fadd %x, %x
                  store_output @o, %d
                }
                """);
        RewritePass pass = new RewritePass(new RuleInterpreter(r.file()));
        PassException e = assertThrows(PassException.class, () -> pass.run(s.entryPoint()));
        assertTrue(e.getMessage().startsWith("pass cycle did not settle after "), e.getMessage());
        assertTrue(
                e.getMessage().contains("rules/cycle.rules:2: double (32×): double: fmul(a, 2.0) => fadd(a, a);"),
                e.getMessage());
        assertTrue(
                e.getMessage().contains("rules/cycle.rules:3: halve (32×): halve: fadd(a, a) => fmul(a, 2.0);"),
                e.getMessage());
    }

    @Test
    void statsCountEachRule() {
        RuleCompiler.Result r =
                RuleCompiler.compile("t.rules", "pass t;\nr1: fneg(fneg(a)) => a;\nr2: fmul(a, 1.0) => a;\n");
        Shader s = IrParser.parse("t.ir", "shader fragment\n" + IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %n = fneg %x
                  vec4 32 %nn = fneg %n
                  vec4 32 %n2 = fneg %nn
                  vec4 32 %nn2 = fneg %n2
                  store_output @o, %nn2
                }
                """);
        RuleInterpreter rules = new RuleInterpreter(r.file());
        RuleStats stats = new RuleStats(rules);
        new RewritePass(rules, stats).run(s.entryPoint());
        assertEquals(2, stats.fired(0));
        assertEquals(0, stats.fired(1));
        assertEquals("r2", stats.neverFired().get(0).name());
    }

    /** The op each rule's pattern root resolved to. */
    private static List<String> roots(String rules) {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\n" + rules);
        assertTrue(r.ok(), r.render());
        return r.file().rules().stream().map(x -> x.pattern().op().opName()).toList();
    }

    @Test
    void signNeutralOpsPassTheirOperandsSignednessOn() {
        // iadd/imul/ixor/inot/ineg give the same bits signed or not: what reads their result is
        // typed by their operands, so the annotations decide as a reader of the rule expects.
        // r7: m and n are read only by sign-blind ops, so they are signed (a replacement's ixor
        // says nothing about signedness, whatever class the op table gives its operands).
        assertEquals(List.of("udiv", "ushr", "ult", "ilt", "ishr", "ushr", "ilt", "ishr"), roots("""
                r1: (a@u32 + b) / 2 => a;
                r2: (c@u32 * d) >> 16 => c;
                r3: e@u32 - #lo < #n => true;
                r4: (f@i32 ^ g@i32) < 0 => true;
                r5: ~h@i32 >> 1 => h;
                r6: -k@u32 >> 1 => k;
                r7: (m ^ n) < 0 => ult(ixor(m, n), 0);
                r8: a@i32 >> b@u32 => a;
                """));
        // Where signedness does not change the op, int and uint operands agree; the bitwise
        // operators and '<<' have one meaning and need no evidence.
        assertEquals(List.of("isub", "iand", "ieq"), roots("""
                r1: isub(e@i32, f@u32) => e + -f;
                r2: iand(a << b@u32, 0) => 0;
                r3: (x & y) == 0 => ieq(iand(y, x), 0) & true;
                """));
    }

    @Test
    void aVariableOnlySignBlindOpsReadIsSignedForItsConditionsUnlessTheConditionSays() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t;
                r1: iand(a@32, 0x7fffffff) => a if is_ge_zero(a);
                r2: ixor(b@32, 0) => b if is_not_zero(b@u32);
                r3: udiv(c, #d) => ushr(c, find_lsb(d)) if is_power_of_two(d);
                """);
        assertTrue(r.ok(), r.render());
        assertEquals(
                List.of(TypeClass.INT, TypeClass.UINT, TypeClass.UINT),
                r.file().rules().stream().map(x -> x.conditions().get(0).type()).toList());
    }

    @Test
    void aTypeAnnotationEveryReaderContradictsIsAnError() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t;
                r1: fmax(b@u32, 0.0) => b;
                r2: fadd(d, e)@i32 => fadd(e, d);
                r3: iand(f@f32, 0x7fffffff) => fabs(f);
                r4: iadd(g@u32, 0) => g;
                """);
        assertEquals(
                List.of(
                        "t.rules:2:11: error: b is annotated as uint, but fmax reads it as a float",
                        "t.rules:3:15: error: fadd computes a float, not an int"),
                r.errors().stream()
                        .map(d -> d.file() + ":" + d.line() + ":" + d.column() + ": error: " + d.message())
                        .toList());
    }

    @Test
    void rewriteLoopsAreWarnedAboutButFoldedConstantsAreNotLoops() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t;
                r1: fadd(a, fneg(#c)) => fadd(a, -c);
                r2: iadd(a, ineg(#c)) => isub(a, c);
                r3: isub(a, #c) => iadd(a, ineg(c));
                r4: fmul(a, b) => fmul(b, fneg(fneg(a)));
                r5: ishl(a, 1) => iadd(a, a);
                r6: iadd(a, a) => ishl(a, 1);
                """);
        assertTrue(r.ok(), r.render());
        assertEquals(
                List.of(
                        "5: rule r4 may rewrite forever: its replacement matches its own pattern",
                        "7: rules r5 (line 6) and r6 may rewrite into each other: each one's replacement matches the other's pattern"),
                r.warnings().stream().map(d -> d.line() + ": " + d.message()).toList());
    }

    @Test
    void aCycleOfThreeRulesIsWarnedAboutOnceAtItsLastRule() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t;
                r1: ishl(a, 1) => iadd(a, a);
                r2: iadd(a, a) => imul(a, 2);
                r3: imul(a, 2) => ishl(a, 1);
                p1: fmul(a, 2.0) => fadd(a, a) if is_finite(a);
                p2: fmul(a, 2.0) => fadd(a, a);
                p3: fadd(a, a) => fmul(a, 2.0);
                """);
        assertTrue(r.ok(), r.render());
        // p1, p2 and p3 form one component, but every loop in it is a pair: no cycle warning.
        assertEquals(
                List.of(
                        "4: rules r1 (line 2), r2 (line 3) and r3 (line 4) may rewrite around a cycle, each one's replacement"
                                + " matching the next one's pattern: r1 -> r2 -> r3 -> r1",
                        "7: rules p1 (line 5) and p3 may rewrite into each other: each one's replacement matches the other's pattern",
                        "7: rules p2 (line 6) and p3 may rewrite into each other: each one's replacement matches the other's pattern"),
                r.warnings().stream().map(d -> d.line() + ": " + d.message()).toList());
    }

    @Test
    void aPatternWithFlagsFiresOnlyOnInstructionsThatCarryThem() {
        String program = IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec1 32 %zero = load_const (0.0)
                  vec4 32 %plain = fadd %x, %zero.xxxx
                  vec4 32 %loose = fadd[nsz,nnan] %x, %zero.xxxx
                  vec4 32 %strict = !fadd[nsz] %x, %zero.xxxx
                  vec4 32 %s = fmul %plain, %loose
                  vec4 32 %t = fmul %s, %strict
                  store_output @o, %t
                }
                """;
        String out = rewrite("r: fadd[nsz](a, 0.0) => a;", program);
        // %plain keeps its fadd; %loose and %strict (exact, but allowed to ignore zero signs) fold
        assertTrue(out.contains("fadd %0, %1.xxxx"), out);
        assertEquals(1, out.split("fadd", -1).length - 1, out);
        assertTrue(out.contains("fmul %2, %0"), out);
    }

    @Test
    void replacementsTakeTheRootsFloatControlsButNotItsWrapFlags() {
        String out = rewrite("r: fsub(a, b) => fadd(a, fneg(b));\ni: isub(a, b) => iadd(a, ineg(b));", IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %u = load_input @u
                  vec4 32 %d = fsub[nsz,reassoc] %x, %x.yxwz
                  vec4 32 %e = isub[nsw] %u, %u.yxwz
                  store_output @o, %d
                  store_output @p, %e
                }
                """);
        assertTrue(out.contains("fneg[nsz,reassoc] %0.yxwz"), out);
        assertTrue(out.contains("fadd[nsz,reassoc] %0, %2"), out);
        assertTrue(out.contains("ineg %1.yxwz") && out.contains("iadd %1, %4"), out);
    }

    @Test
    void aGatedRuleAppliesOnlyWhereTheTargetsOptionsSatisfyItsGates() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t if !option(keep_all);
                lowered: fsat(a) => fmin(fmax(a, 0.0), 1.0) if option(lower_fsat);
                """);
        assertTrue(r.ok(), r.render());
        assertEquals(
                List.of("!keep_all", "lower_fsat"),
                new RuleInterpreter(r.file()).rules().get(0).gates());
        String program = "shader fragment\n" + IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %s = fsat %x
                  store_output @o, %s
                }
                """;
        for (var options : List.of(
                java.util.Set.<String>of(),
                java.util.Set.of("lower_fsat"),
                java.util.Set.of("lower_fsat", "keep_all"))) {
            Shader s = IrParser.parse("t.ir", program);
            RuleInterpreter rules = new RuleInterpreter(r.file());
            new RewritePass(rules, new RuleStats(rules), RewritePass.CACHED, java.util.Set.of(), options)
                    .run(s.entryPoint());
            boolean lowered = !IrPrinter.print(s).contains("fsat");
            assertEquals(options.equals(java.util.Set.of("lower_fsat")), lowered, options + ":\n" + IrPrinter.print(s));
        }
    }

    @Test
    void gatesOnTheStageAndFloatControlsAreDecidedPerShader() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t;
                lowered: fsat(a) => fmin(fmax(a, 0.0), 1.0) if option(lower_fsat) || !stage(fragment), !float_controls(denorm_preserve32);
                """);
        assertTrue(r.ok(), r.render());
        assertEquals(
                List.of("lower_fsat|!stage:fragment", "!float_controls:denorm_preserve32"),
                new RuleInterpreter(r.file()).rules().get(0).gates());
        String body = IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %s = fsat %x
                  store_output @o, %s
                }
                """;
        record Case(String header, java.util.Set<String> options, boolean lowered) {}
        for (Case c : List.of(
                new Case("shader fragment\n", java.util.Set.of(), false),
                new Case("shader fragment\n", java.util.Set.of("lower_fsat"), true),
                new Case("shader vertex\n", java.util.Set.of(), true),
                new Case("shader vertex float_controls(denorm_preserve32)\n", java.util.Set.of(), false),
                new Case("shader fragment float_controls(denorm_preserve16)\n", java.util.Set.of("lower_fsat"), true),
                new Case(
                        "shader fragment float_controls(denorm_preserve32, rounding_mode_rte16)\n",
                        java.util.Set.of("lower_fsat"),
                        false))) {
            Shader s = IrParser.parse("t.ir", c.header() + body);
            RuleInterpreter rules = new RuleInterpreter(r.file());
            // one pass object over shaders of different stages: the gates are decided per shader
            new RewritePass(rules, new RuleStats(rules), RewritePass.CACHED, java.util.Set.of(), c.options())
                    .run(s.entryPoint());
            boolean lowered = !IrPrinter.print(s).contains("fsat");
            assertEquals(c.lowered(), lowered, c + ":\n" + IrPrinter.print(s));
        }
    }

    @Test
    void oneRewritePassDecidesShaderGatesForEachShaderItRuns() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", """
                pass t;
                lowered: fsat(a) => fmin(fmax(a, 0.0), 1.0) if stage(vertex);
                """);
        assertTrue(r.ok(), r.render());
        RuleInterpreter rules = new RuleInterpreter(r.file());
        RewritePass pass = new RewritePass(
                rules, new RuleStats(rules), RewritePass.CACHED, java.util.Set.of(), java.util.Set.of());
        String body = IO + """
                function main {
                  vec4 32 %x = load_input @x
                  vec4 32 %s = fsat %x
                  store_output @o, %s
                }
                """;
        Shader v = IrParser.parse("v.ir", "shader vertex\n" + body);
        Shader f = IrParser.parse("f.ir", "shader fragment\n" + body);
        pass.run(f.entryPoint());
        pass.run(v.entryPoint());
        assertTrue(IrPrinter.print(f).contains("fsat"), IrPrinter.print(f));
        assertFalse(IrPrinter.print(v).contains("fsat"), IrPrinter.print(v));
    }

    @Test
    void anUnsizedConversionStandsForOneRulePerSizeThatFits() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\nr: fabs(u2f(a)) => u2f(a);\n");
        assertTrue(r.ok(), r.render());
        assertEquals(
                List.of("r_u2f16", "r_u2f32", "r_u2f64"),
                new RuleInterpreter(r.file())
                        .rules().stream().map(i -> i.name()).toList());
        String out = rewrite("r: fabs(u2f(a)) => u2f(a);", IO + """
                function main {
                  vec4 32 %u = load_input @u
                  vec4 32 %f = u2f32 %u
                  vec4 32 %a = fabs %f
                  store_output @o, %a
                  vec4 16 %h = u2f16 %u
                  vec4 16 %b = fabs %h
                  vec4 32 %c = f2f32 %b
                  store_output @o, %c
                }
                """);
        assertFalse(out.contains("fabs"), out);
    }
}
