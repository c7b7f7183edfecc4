package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.interp.RuleInterpreter;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * RuleFiring against the rule interpreter as the matcher: the sound fixtures all fire and keep
 * their meaning; a matcher that builds another replacement, a condition no shape can show, and an
 * analysis that grants a condition which does not hold are each caught, with the program.
 */
class RuleFiringTest {
    static CheckedRule rule(String text) {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\n" + text + "\n");
        assertTrue(r.ok(), r.render());
        return r.file().rules().get(0);
    }

    static RuleInterpreter matcher(String text) {
        RuleCompiler.Result r = RuleCompiler.compile("m.rules", "pass t;\n" + text + "\n");
        assertTrue(r.ok(), r.render());
        return new RuleInterpreter(r.file());
    }

    @TestFactory
    Stream<DynamicTest> soundFixturesFire() throws Exception {
        CheckedFile file = SoundnessFixturesTest.load("sound.rules");
        RuleInterpreter rules = new RuleInterpreter(file);
        return file.rules().stream()
                .map(rule -> DynamicTest.dynamicTest(rule.name(), () -> {
                    RuleFiring.Result r = RuleFiring.exercise(rules, rule);
                    assertTrue(r.ok(), r.message());
                    assertTrue(r.message().contains("fired on its own pattern at "), r.message());
                }));
    }

    @Test
    void conditionsAreShownThroughShapesTheAnalysisUnderstands() {
        String text = "r: imax(a, 0) => a if is_ge_zero(a);";
        RuleFiring.Result r = RuleFiring.exercise(matcher(text), rule(text));
        assertTrue(r.ok(), r.message());
        assertTrue(r.message().contains("(a = imax(u_a, 0))"), r.message());
        String f = "f: fsat(a) => a if is_in_unit_interval(a);";
        RuleFiring.Result rf = RuleFiring.exercise(matcher(f), rule(f));
        assertTrue(rf.ok(), rf.message());
        assertTrue(rf.message().contains("at 16, 32, 64 bits (a = fsat(u_a))"), rf.message());
    }

    @Test
    void aMatcherBuildingAnotherReplacementFails() {
        RuleFiring.Result r = RuleFiring.exercise(matcher("r: iadd(a, 0) => ineg(a);"), rule("r: iadd(a, 0) => a;"));
        assertFalse(r.ok());
        assertTrue(
                r.message().startsWith("t.rules:2:1: rule r at 8 bits: the rewritten program computes "), r.message());
        assertTrue(r.message().contains("the matcher did not build what the rule says"), r.message());
        assertTrue(r.message().contains("ineg"), r.message()); // the program after the rewrite
    }

    @Test
    void aConditionNoShapeShowsIsReported() {
        String text = "r: iadd(a, b) => b if is_zero(a);";
        RuleFiring.Result r = RuleFiring.exercise(matcher(text), rule(text));
        assertFalse(r.ok());
        assertTrue(
                r.message()
                        .startsWith("t.rules:2:1: rule r at 8 bits does not fire on a program made from its pattern "
                                + "(nor with [a] read through any shape whose range satisfies is_zero(a)):"),
                r.message());
        assertTrue(r.message().contains("iadd"), r.message());
    }

    @Test
    void aConditionGrantedWithoutHoldingIsReported() {
        // The matcher ignores the condition, as an analysis that answered wrongly would let it.
        RuleFiring.Result r =
                RuleFiring.exercise(matcher("r: imax(a, 0) => a;"), rule("r: imax(a, 0) => a if is_ge_zero(a);"));
        assertFalse(r.ok());
        assertTrue(r.message().contains("fired, but is_ge_zero(a) is false on uniforms {a="), r.message());
        assertTrue(r.message().contains("the range analysis granted a condition that does not hold"), r.message());
    }

    @Test
    void aRuleTheSetLacksIsReported() {
        RuleFiring.Result r = RuleFiring.exercise(matcher("q: iadd(a, 0) => a;"), rule("r: iadd(a, 0) => a;"));
        assertFalse(r.ok());
        assertTrue(r.message().contains("the rule set t has no rule r"), r.message());
    }

    @Test
    void rulesWithConstantsTakeValuesThatSatisfyTheirConditions() {
        String text = "r: udiv(a, #c) => ushr(a, find_lsb(c)) if is_power_of_two(c);";
        RuleFiring.Result r = RuleFiring.exercise(matcher(text), rule(text));
        assertTrue(r.ok(), r.message());
    }
}
