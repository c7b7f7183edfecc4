package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rule compiler as the build runs it: problems between files and with the files themselves. */
class RuleCompilerMainTest {

    @TempDir
    Path dir;

    private record Run(int code, String err) {}

    private Run run() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code = RuleCompilerMain.run(
                new String[] {
                    "--rules",
                    dir.resolve("rules").toString(),
                    "--out",
                    dir.resolve("out").toString(),
                    "--cite-from",
                    dir.toString()
                },
                err);
        return new Run(code, bytes.toString(StandardCharsets.UTF_8));
    }

    /** The build's run: with proofs, cached in {@code dir/cache}. */
    private Run runProving() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code = RuleCompilerMain.run(
                new String[] {
                    "--rules",
                    dir.resolve("rules").toString(),
                    "--out",
                    dir.resolve("out").toString(),
                    "--cite-from",
                    dir.toString(),
                    "--prove",
                    "true",
                    "--proof-cache",
                    dir.resolve("cache").toString(),
                    "--proof-timeout-ms",
                    "20000"
                },
                err);
        return new Run(code, bytes.toString(StandardCharsets.UTF_8));
    }

    private void write(String name, byte[] content) throws IOException {
        Files.createDirectories(dir.resolve("rules"));
        Files.write(dir.resolve("rules").resolve(name), content);
    }

    private void write(String name, String content) throws IOException {
        write(name, content.getBytes(StandardCharsets.UTF_8));
    }

    /** javac on a generated class (a path under the output folder) and the index: it must compile. */
    private void compileGenerated(String generated) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createDirectories(dir.resolve("classes"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int code = javac.run(
                null,
                log,
                log,
                "-d",
                classes.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                dir.resolve(generated).toString(),
                dir.resolve("out/dev/lathe/generated/GeneratedRules.java").toString());
        assertEquals(0, code, log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void twoFilesWithOneRuleSetNameAreAnError() throws IOException {
        write("a.rules", "pass opt;\nr: fmul(a, 1.0) => a;\n");
        write("b.rules", "// the same pass again\npass opt;\ns: fadd(a, 0.0) ~=> a;\n");
        write("c.rules", "pass a_b;\nr: fmul(a, 1.0) => a;\n");
        write("d.rules", "pass aB;\nr: fmul(a, 1.0) => a;\n");
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(
                r.err()
                        .contains(
                                "rules/b.rules:2:1: error: the pass 'opt' has the same rule set name as rules/a.rules"),
                r.err());
        assertTrue(
                r.err()
                        .contains(
                                "rules/d.rules:1:1: error: the pass 'aB' has the same rule set name as rules/c.rules (ABRules)"),
                r.err());
        assertFalse(Files.exists(dir.resolve("out")), "nothing is generated");
    }

    @Test
    void aRuleSetNameIsCheckedEvenWhenTheFirstFileHasErrors() throws IOException {
        write("a.rules", "pass opt;\nr: fmull(a, 1.0) => a;\n");
        write("b.rules", "pass opt;\nr: fmul(a, 1.0) => a;\n");
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(r.err().contains("rules/a.rules:2:4: error: unknown op 'fmull'"), r.err());
        assertTrue(
                r.err()
                        .contains(
                                "rules/b.rules:1:1: error: the pass 'opt' has the same rule set name as rules/a.rules"),
                r.err());
    }

    @Test
    void ruleTextWithBackslashesGivesJavaThatCompiles() throws IOException {
        // javac reads a backslash-u escape before it sees the comment the rule text is quoted in.
        write("t.rules", "pass t;\nr: fneg(fneg(a)) // \\u002a/ and C:\\users\n   => a;\n");
        Run r = run();
        assertEquals(0, r.code(), r.err());
        compileGenerated("out/dev/lathe/generated/TRules.java");
    }

    @Test
    void namesLiteralsAndRuleTextAtTheirLimitsGiveJavaThatCompiles() throws IOException {
        String name = "p".repeat(Checker.MAX_NAME);
        String variable = "v".repeat(Checker.MAX_NAME);
        String literal = "0x" + "0".repeat(Checker.MAX_LITERAL - 3) + "1";
        // A long rule: a sum of the pattern variable with itself, within the text limit.
        String head = "r" + name.substring(1) + ": iadd(" + variable + ", " + literal + ") => ";
        StringBuilder sum = new StringBuilder(variable);
        String step = "iadd(" + variable + ", )";
        while (head.length() + sum.length() + step.length() + 1 <= Checker.MAX_RULE_TEXT)
            sum.insert(0, "iadd(" + variable + ", ").append(")");
        assertTrue(head.length() + sum.length() + 1 > Checker.MAX_RULE_TEXT - step.length(), "near the limit");
        write("t.rules", "pass " + name + ";\n" + head + sum + ";\n");
        Run r = run();
        assertEquals(0, r.code(), r.err());
        compileGenerated(
                "out/dev/lathe/generated/" + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Rules.java");
    }

    @Test
    void namesLiteralsAndRuleTextPastTheirLimitsAreLocatedErrors() throws IOException {
        String tooLong = "x".repeat(Checker.MAX_NAME + 1);
        String literal = "0x" + "0".repeat(70_000) + "1";
        write(
                "t.rules",
                "pass " + tooLong + ";\n"
                        + "r: iadd(" + tooLong + ", 0) => " + tooLong + ";\n"
                        + "s: iadd(a, " + literal + ") => a;\n"
                        + "t: iadd(a, " + "b".repeat(200) + ") => " + ("iadd(" + "b".repeat(200) + ", ").repeat(55)
                        + "a"
                        + ")".repeat(55) + ";\n");
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(r.err().contains("rules/t.rules:1:6: error: a pass name may have at most 200 characters"), r.err());
        assertTrue(
                r.err().contains("rules/t.rules:2:9: error: a variable name may have at most 200 characters"), r.err());
        assertEquals(1, r.err().split("a variable name may have", -1).length - 1, "once per name: " + r.err());
        assertTrue(
                r.err()
                        .contains(
                                "rules/t.rules:3:12: error: a literal may have at most 200 characters (this one has 70,003)"),
                r.err());
        assertFalse(
                r.err().contains("rules/t.rules:3:1: error: a rule may have at most"),
                "said by the literal: " + r.err());
        assertTrue(
                r.err().contains("rules/t.rules:4:1: error: a rule may have at most 10,000 characters (this one has"),
                r.err());
        assertFalse(Files.exists(dir.resolve("out")), "nothing is generated");
    }

    @Test
    void manyRulesOnOneOpGiveJavaThatCompiles() throws IOException {
        // more than one root method's share (MatcherGenerator.ROOT_CHUNK): the parts chain
        StringBuilder sb = new StringBuilder("pass many;\n");
        for (int k = 0; k < 1200; k++)
            sb.append("m")
                    .append(k)
                    .append(": fadd(fmul(a, ")
                    .append(k + 2)
                    .append(".0), b) ~=> fmul(b, ")
                    .append(k + 2)
                    .append(".0);\n");
        write("many.rules", sb.toString());
        Run r = run();
        assertEquals(0, r.code(), r.err());
        String java = Files.readString(dir.resolve("out/dev/lathe/generated/ManyRules.java"));
        assertTrue(java.contains("return root_fadd_3(root, rw);"), "the root method is split");
        compileGenerated("out/dev/lathe/generated/ManyRules.java");

        // Run it: a rule in the last part is reached through the chain, and fires.
        RuleSet many = loadRuleSet("dev.lathe.generated.ManyRules");
        assertEquals(1200, many.rules().size());
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input f32 @x location=0
                output f32 @o location=0
                function main {
                    vec1 32 %x = load_input @x
                    vec1 32 %k = load_const (1152.0)
                    vec1 32 %m = fmul %x, %k
                    vec1 32 %y = fadd %m, %x
                    store_output @o, %y
                }
                """);
        RuleStats stats = new RuleStats(many);
        assertTrue(new RewritePass(many, stats).run(s.functions().get(0)));
        assertEquals(1, stats.total(), IrPrinter.print(s));
        assertEquals(1, stats.fired(1150), "m1150 (k + 2 = 1152) fired: " + stats.firedMostFirst());
        String after = IrPrinter.print(s);
        // the stored value is now x * 1152.0 (the dead multiply stays: no dce here)
        assertTrue(
                !after.contains("fadd")
                        && after.matches("(?s).*(%\\d+) = fmul %0, %\\d+\\n\\s*store_output @o, \\1\\n.*"),
                after);
    }

    /** The generated class, compiled by {@link #compileGenerated} into {@code dir/classes}. */
    private RuleSet loadRuleSet(String name) throws IOException {
        try {
            URLClassLoader loader = new URLClassLoader(
                    new URL[] {dir.resolve("classes").toUri().toURL()},
                    getClass().getClassLoader());
            return (RuleSet) loader.loadClass(name).getField("INSTANCE").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the generated class does not load", e);
        }
    }

    /**
     * Horizontal ops and swizzles in generated code: the generated matcher makes exactly the
     * rewrites the rule interpreter makes, on programs that read vectors in order, swizzled, and
     * wider than a rule allows.
     */
    @Test
    void horizontalRulesGenerateTheInterpretersRewrites() throws IOException {
        String rules = """
                pass hz;
                dph: fdph(a, b) => fdot4(vec4(a.x, a.y, a.z, 1.0), b);
                dot2_one: fdot2(a, 1.0) => fadd(a.x, a.y);
                repack: pack_64_2x32_split(unpack_64_2x32(a), unpack_64_2x32(a).y) => a;
                unpack_y: unpack_64_2x32_split_y(pack_64_2x32(a)) => a.y;
                narrow: f2f16(vec2(a@32, b@32)) => vec2(f2f16(a), f2f16(b));
                all2: ball_iequal2(a, b) => iand(ieq(a.x, b.x), ieq(a.y, b.y));
                """;
        write("hz.rules", rules);
        Run r = run();
        assertEquals(0, r.code(), r.err());
        compileGenerated("out/dev/lathe/generated/HzRules.java");
        RuleSet generated = loadRuleSet("dev.lathe.generated.HzRules");
        RuleSet interpreted = new dev.lathe.rules.interp.RuleInterpreter(
                RuleCompiler.compile("rules/hz.rules", rules).file());
        String program = """
                shader fragment
                input vec4 f32 @a location=0
                input vec4 f32 @b location=1
                input vec2 u32 @u location=2 flat
                input vec3 u64 @w location=3 flat
                output f32 @o0 location=0
                output f32 @o1 location=1
                output u64 @o2 location=2
                output u32 @o3 location=3
                output vec2 f16 @o4 location=4
                output vec3 f16 @o5 location=5
                output f16 @o6 location=6
                output u32 @o7 location=7
                function main {
                    vec4 32 %a = load_input @a
                    vec4 32 %b = load_input @b
                    vec2 32 %u = load_input @u
                    vec3 64 %w = load_input @w
                    vec1 32 %d = fdph %a.wzy, %b
                    store_output @o0, %d
                    vec1 32 %one = load_const (0x3f800000)
                    vec1 32 %e = fdot2 %b.zw, %one.xx
                    store_output @o1, %e
                    vec2 32 %s = unpack_64_2x32 %w.z
                    vec1 64 %p = pack_64_2x32_split %s.x, %s.y
                    store_output @o2, %p
                    vec1 64 %q = pack_64_2x32 %u.yx
                    vec1 32 %hi = unpack_64_2x32_split_y %q
                    store_output @o3, %hi
                    vec2 32 %v = vec2 %a.y, %a.x
                    vec2 16 %h = f2f16 %v
                    store_output @o4, %h
                    vec3 32 %v3 = vec3 %a.y, %a.x, %a.z
                    vec3 16 %h3 = f2f16 %v3
                    store_output @o5, %h3
                    vec1 16 %g = f2f16 %v.y
                    store_output @o6, %g
                    vec1 1 %all = ball_iequal2 %u, %u.yx
                    vec1 32 %sel = bcsel %all, %u.x, %u.y
                    store_output @o7, %sel
                }
                """;
        Shader a = IrParser.parse("t.ir", program), b = IrParser.parse("t.ir", program);
        boolean ga = new RewritePass(generated).run(a.entryPoint());
        boolean gb = new RewritePass(interpreted).run(b.entryPoint());
        assertTrue(ga && gb);
        String out = IrPrinter.print(a);
        assertEquals(IrPrinter.print(b), out);
        // every rule fired where it could, and nowhere else (no dce runs: the packs they read stay)
        for (String gone :
                new String[] {"fdph", "fdot2", "pack_64_2x32_split", "unpack_64_2x32_split_y", "ball_iequal2"})
            assertFalse(out.contains(gone), gone + " is left:\n" + out);
        assertTrue(out.contains("vec3 16 %"), "the 3-component f2f16 is not a rule's: it stays\n" + out);
        assertEquals(4, out.split("= f2f16 ", -1).length - 1, out);
    }

    @Test
    void aFileOfMoreRulesThanOneClassHoldsIsALocatedError() throws IOException {
        StringBuilder sb = new StringBuilder("pass many;\n");
        for (int k = 0; k < Checker.MAX_RULES + 1; k++)
            sb.append("m").append(k).append(": iadd(a, ").append(k + 1).append(") => a;\n");
        write("many.rules", sb.toString());
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(
                r.err()
                        .contains("rules/many.rules:" + (Checker.MAX_RULES + 2)
                                + ":1: error: a file may have at most 5,000 rules" + " (this one has 5,001)"),
                r.err().substring(0, Math.min(2000, r.err().length())));
    }

    @Test
    void aFileNameThatIsNotAPassNameNeedsAHeader() throws IOException {
        write("my-rules.rules", "r: fmul(a, 1.0) => a;\n");
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(
                r.err()
                        .contains(
                                "rules/my-rules.rules:1:1: error: the pass name 'my-rules' (from the file name) is not a name"),
                r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void theIndexClassNameIsReserved() throws IOException {
        write("g.rules", "pass generated;\nr: fmul(a, 1.0) => a;\n");
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(r.err().contains("rules/g.rules:1:6: error: the pass name 'generated' is reserved"), r.err());
    }

    @Test
    void aFileThatIsNotUtf8GetsTheLineAndColumn() throws IOException {
        byte[] latin1 = "pass t;\n# caf\u00e9\nr: fmul(a, 1.0) => a;\n".getBytes(StandardCharsets.ISO_8859_1);
        write("t.rules", latin1);
        Run r = run();
        assertEquals(1, r.code());
        assertTrue(r.err().contains("rules/t.rules:2:6: error: not valid UTF-8 here (byte 0xE9)"), r.err());
    }

    @Test
    void validFilesGenerateOneClassEachAndTheIndex() throws IOException {
        write("a.rules", "pass first;\nr: fmul(a, 1.0) => a;\n");
        write("b.rules", "\uFEFFpass second_set;\nr: fadd(a, 0.0) ~=> a;\n");
        Run r = run();
        assertEquals(0, r.code(), r.err());
        Path pkg = dir.resolve("out/dev/lathe/generated");
        assertTrue(Files.exists(pkg.resolve("FirstRules.java")));
        assertTrue(Files.exists(pkg.resolve("SecondSetRules.java")));
        assertTrue(Files.readString(pkg.resolve("GeneratedRules.java"))
                .contains("FirstRules.INSTANCE, SecondSetRules.INSTANCE"));
    }

    @Test
    void aRefutedRuleIsAnErrorWithItsCounterexampleAndNothingIsGenerated() throws IOException {
        // Wrong for a = 0x1d3bbadc only: no sample finds it, the solver does.
        write(
                "opt.rules",
                "pass opt;\nfine: fmul(a, 1.0) => a;\nhidden: ieq(ixor(a@32, 0x1234abcd), 0x0f0f1111) => false;\n");
        Run r = runProving();
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("error: rules/opt.rules:3:1: rule hidden is unsound at 32 bits"), r.err());
        assertTrue(r.err().contains("0x1d3bbadc"), r.err());
        assertTrue(r.err().contains("1 proved, 1 REFUTED") && r.err().contains("1 rule is wrong"), r.err());
        assertFalse(
                Files.exists(dir.resolve("out/dev/lathe/generated/OptRules.java")),
                "a wrong rule must not be generated");
    }

    @Test
    void eachRuleCarriesItsProofAndAnUnchangedRuleIsNotProvedAgain() throws IOException {
        write(
                "opt.rules",
                "pass opt;\nmul_one: fmul(a, 1.0) => a;\nadd_zero: fadd(a, 0.0) ~=> a;\n"
                        + "pow: fpow(a, 1.0) => a;\n");
        Run first = runProving();
        assertEquals(0, first.code(), first.err());
        assertTrue(
                first.err().contains("rule proofs: 1 proved, 0 REFUTED, 0 unknown, 2 tested only; 3 new"), first.err());
        String java = Files.readString(dir.resolve("out/dev/lathe/generated/OptRules.java"));
        assertTrue(
                java.contains("\"mul_one\", \"rules/opt.rules:2\", \"mul_one: fmul(a, 1.0) => a;\", true, \"proved\")"),
                java);
        assertTrue(java.contains("false, \"tested\")"), java);
        compileGenerated("out/dev/lathe/generated/OptRules.java");

        // The same rules, moved down a line and another added: only the new one is proved.
        write(
                "opt.rules",
                "pass opt;\n\nmul_one: fmul(a, 1.0) => a;\nadd_zero: fadd(a, 0.0) ~=> a;\n"
                        + "pow: fpow(a, 1.0) => a;\nineg_ineg: ineg(ineg(a)) => a;\n");
        Run second = runProving();
        assertEquals(0, second.code(), second.err());
        assertTrue(
                second.err().contains("rule proofs: 2 proved, 0 REFUTED, 0 unknown, 2 tested only; 1 new"),
                second.err());
        assertTrue(second.err().contains("3 from " + dir.resolve("cache")), second.err());
        String again = Files.readString(dir.resolve("out/dev/lathe/generated/OptRules.java"));
        assertTrue(again.contains("\"rules/opt.rules:3\", \"mul_one: fmul(a, 1.0) => a;\", true, \"proved\")"), again);
    }

    @Test
    void withoutProofsEveryRuleSaysSo() throws IOException {
        write("opt.rules", "pass opt;\nmul_one: fmul(a, 1.0) => a;\n");
        Run r = run();
        assertEquals(0, r.code(), r.err());
        String java = Files.readString(dir.resolve("out/dev/lathe/generated/OptRules.java"));
        assertTrue(java.contains("true, \"-\")"), java);
    }

    @Test
    void aBadProofBudgetIsAUsageError() throws IOException {
        write("opt.rules", "pass opt;\nmul_one: fmul(a, 1.0) => a;\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = RuleCompilerMain.run(
                new String[] {
                    "--rules",
                    dir.resolve("rules").toString(),
                    "--out",
                    dir.resolve("out").toString(),
                    "--prove",
                    "true",
                    "--proof-timeout-ms",
                    "soon"
                },
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(bytes.toString(StandardCharsets.UTF_8)
                .contains("--proof-timeout-ms needs a positive number, not soon"));
    }

    @Test
    void badSamplingAndProofSwitchesAreUsageErrors() throws IOException {
        write("opt.rules", "pass opt;\nmul_one: fmul(a, 1.0) => a;\n");
        String[][] cases = {
            {"--samples", "0", "--samples needs a positive number, not 0"},
            {"--seed", "x", "--seed needs a number, not x"},
            {"--prove", "ture", "--prove needs true or false, not ture"},
        };
        for (String[] c : cases) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int code = RuleCompilerMain.run(
                    new String[] {
                        "--rules",
                        dir.resolve("rules").toString(),
                        "--out",
                        dir.resolve("out").toString(),
                        "--tests-out",
                        dir.resolve("tests").toString(),
                        c[0],
                        c[1]
                    },
                    new PrintStream(bytes, true, StandardCharsets.UTF_8));
            assertEquals(2, code, c[0]);
            assertTrue(bytes.toString(StandardCharsets.UTF_8).contains(c[2]), bytes.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void theGeneratedTestsCarryTheSamplingSettings() throws IOException {
        write("opt.rules", "pass opt;\nmul_one: fmul(a, 1.0) => a;\n");
        int code = RuleCompilerMain.run(
                new String[] {
                    "--rules",
                    dir.resolve("rules").toString(),
                    "--out",
                    dir.resolve("out").toString(),
                    "--tests-out",
                    dir.resolve("tests").toString(),
                    "--samples",
                    "500",
                    "--seed",
                    "-7",
                    "--prove",
                    "false"
                },
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, code);
        String test = Files.readString(dir.resolve("tests/dev/lathe/generated/OptRulesSoundnessTest.java"));
        assertTrue(test.contains("RuleChecks.of(\".\", -7L, 500, false, "), test);
    }
}
