package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Function;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The fixture files: every rule of {@code unsound.rules} is reported UNSOUND with a
 * counterexample that really fails — rebuilt as IR (the pattern over constants), rewritten by
 * the rule through the rewrite driver, and run in the interpreter before and after — and every
 * rule of {@code sound.rules} is reported sound.
 */
class SoundnessFixturesTest {

    static CheckedFile load(String name) throws IOException {
        try (InputStream in = SoundnessFixturesTest.class.getResourceAsStream("/soundness/" + name)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            RuleCompiler.Result r = RuleCompiler.compile("soundness/" + name, text);
            assertTrue(r.ok(), r.render());
            return r.file();
        }
    }

    private static final SoundnessChecker CHECKER = new SoundnessChecker(SoundnessChecker.Settings.defaults());

    @Test
    void fixtureSizes() throws IOException {
        assertTrue(load("unsound.rules").rules().size() >= 15);
        assertTrue(load("sound.rules").rules().size() >= 25);
    }

    @TestFactory
    Stream<DynamicTest> unsoundRulesHaveRealCounterexamples() throws IOException {
        CheckedFile file = load("unsound.rules");
        List<DynamicTest> tests = new ArrayList<>();
        for (CheckedRule rule : file.rules()) {
            tests.add(DynamicTest.dynamicTest(rule.name(), () -> {
                Verdict v = CHECKER.check(rule);
                assertEquals(Verdict.Kind.UNSOUND, v.kind(), v.message());
                assertTrue(
                        v.message()
                                .startsWith(rule.file() + ":" + rule.line() + ":1: rule " + rule.name()
                                        + " is unsound at "),
                        v.message());
                replay(file, rule, v.counterexample());
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> soundRulesPass() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (CheckedRule rule : load("sound.rules").rules()) {
            tests.add(DynamicTest.dynamicTest(rule.name(), () -> {
                Verdict v = CHECKER.check(rule);
                assertEquals(Verdict.Kind.SOUND, v.kind(), v.message());
            }));
        }
        return tests.stream();
    }

    /**
     * Builds the pattern over the counterexample's values as constants, lets the rule rewrite
     * it, and checks that the interpreter computes the reported values before and after.
     */
    static void replay(CheckedFile file, CheckedRule rule, Verdict.Counterexample cx) {
        Shader s = new Shader(Stage.FRAGMENT);
        int bits = cx.bits();
        Variable o = s.addVariable(Variable.output("o", RuleFiring.scalar(bits), 0));
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Map<String, Value> vars = new HashMap<>();
        for (String v : rule.variables())
            vars.put(v, b.constant(cx.inputBits().get(v), cx.inputs().get(v)));
        Value root = RuleFiring.build(b, rule.pattern(), vars, cx.classSizes()::get);
        b.storeOutput(o, root);
        String before = IrPrinter.print(s);
        long patternValue = new Interpreter(s).run(new ShaderInputs()).output("o")[0];
        assertEquals(cx.pattern(), patternValue, "the pattern does not compute what the report says\n" + before);

        CheckedFile single = new CheckedFile(file.file(), file.passName(), List.of(rule));
        RuleInterpreter rules = new RuleInterpreter(single);
        RuleStats stats = new RuleStats(rules);
        new RewritePass(rules, stats).run(fn);
        assertTrue(stats.fired(0) >= 1, "the rule does not fire on its own counterexample\n" + before);
        long replacementValue = new Interpreter(s).run(new ShaderInputs()).output("o")[0];
        assertEquals(
                cx.replacement(),
                replacementValue,
                "the replacement does not compute what the report says\n" + IrPrinter.print(s));
        if (cx.opensNaN()) {
            // the NaN contract: the replacement makes a NaN of open bits where the pattern kept exact ones
            assertTrue(
                    FloatBits.isNaN(patternValue, bits) && FloatBits.isNaN(replacementValue, bits),
                    "a counterexample of the NaN contract compares two NaNs");
        } else {
            assertNotEquals(patternValue, replacementValue, "the counterexample does not fail");
        }
    }
}
