package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.text.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rule files that cannot carry {@code # expect:} lines (the comment would change what is tested)
 * or that are too big to keep as files: each must give located errors or compile, never throw.
 */
class HostileInputTest {

    private static List<String> errors(String text) {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", text);
        return r.errors().stream()
                .map(d -> d.line() + ":" + d.column() + ": " + d.message())
                .toList();
    }

    @Test
    void byteOrderMarkIsIgnored() {
        assertEquals(List.of(), errors("\uFEFFpass t;\nr: fmul(a, 1.0) => a;\n"));
        assertEquals(
                List.of("1:20: the replacement uses b, which the pattern does not bind"),
                errors("\uFEFFr: fmul(a, 1.0) => b;\n"));
    }

    @Test
    void loneCarriageReturnsEndLines() {
        List<String> e = errors("pass t;\rr: fmul(a, 1.0) => a;\rs: fadd(c, 0.0) => d;\r");
        assertEquals(List.of("3:20: the replacement uses d, which the pattern does not bind"), e);
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\rs: fadd(c, 0.0) => d;\r");
        assertTrue(r.render().contains("\n  s: fadd(c, 0.0) => d;\n"), r.render());
    }

    @Test
    void unterminatedCommentIsReportedWhereItStarts() {
        assertEquals(
                List.of("3:1: unterminated comment: '/*' without a closing '*/'"),
                errors("pass t;\nr: fmul(a, 1.0) => a;\n/* never closed\ns: fmul(b, 1.0) => c;\n"));
        // A closed comment with stars inside is not unterminated.
        assertEquals(List.of(), errors("pass t;\n/** a ** b */ r: fmul(a, 1.0) => a; /***/\n"));
    }

    @Test
    void hugeNestingGivesAnErrorNotAStackOverflow() {
        int n = 200_000;
        String parens = "r: fneg(" + "(".repeat(n) + "a" + ")".repeat(n) + ") => a;\n";
        String unary = "s: fneg(" + "-".repeat(n) + "b@f32) => b;\n";
        String chain = "t: " + "c@f32 - ".repeat(n) + "c@f32 => c;\n";
        String calls = "u: " + "fneg(".repeat(n) + "d" + ")".repeat(n) + " => d;\n";
        List<String> e = errors("pass t;\n" + parens + unary + chain + calls + "v: fmul(x, 1.0) => y;\n");
        assertEquals(5, e.size(), e.toString());
        for (int i = 0; i < 4; i++)
            assertTrue(e.get(i).contains("nested more than " + RuleSyntax.MAX_DEPTH + " levels"), e.get(i));
        assertEquals("6:20: the replacement uses y, which the pattern does not bind", e.get(4));
    }

    @Test
    void nestingUpToTheLimitCompiles() {
        int n = RuleSyntax.MAX_DEPTH;
        String calls = "fneg(".repeat(n) + "a" + ")".repeat(n);
        // Annotations and variables add no level.
        String annotated = "fabs(".repeat(n) + "b@32" + ")@32".repeat(n);
        String parens = "fsat(" + "(".repeat(n - 1) + "c" + ")".repeat(n - 1) + ")";
        String absCalls = "fabs(".repeat(n) + "a" + ")".repeat(n);
        assertEquals(
                List.of(),
                errors("pass t;\nr: " + calls + " => " + absCalls + ";\ns: " + annotated + " => b;\n" + "u: " + parens
                        + " => fsat(fabs(c));\n"));
        String over = "fneg(".repeat(n + 1) + "a" + ")".repeat(n + 1);
        assertEquals(
                List.of("2:" + (8 + 5 * n) + ": the expression is nested more than " + n
                        + " levels deep; rules that deep are not supported"),
                errors("pass t;\nr: " + over + " => a;\n"));
        String chain = "d@f32" + " + d".repeat(n + 1);
        assertEquals(1, errors("pass t;\nv: " + chain + " => d;\n").size());
    }

    @Test
    void aLongLineShowsAWindowAroundTheColumn() {
        String line = "r: fmul(a, 1.0) => a;" + " ".repeat(1_000_000) + "$";
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\n" + line + "\n");
        assertEquals(1, r.errors().size());
        Diagnostic d = r.errors().get(0);
        assertEquals(line.length(), d.column());
        String[] shown = d.render().split("\n");
        assertEquals(3, shown.length);
        assertTrue(shown[1].length() < 200 && shown[1].startsWith("  ...") && shown[1].endsWith("$"), shown[1]);
        assertEquals(shown[1].length() - 1, shown[2].indexOf('^'), "the caret is under the '$'");
    }

    @Test
    void controlCharactersAreNotEchoed() {
        RuleCompiler.Result r = RuleCompiler.compile("t.rules", "pass t;\nr: fmul(a, 1.0) => a;\u001b[2J\n");
        assertTrue(!r.render().contains("\u001b"), r.render());
        assertTrue(r.render().startsWith("t.rules:2:22: error: unexpected character U+001B"), r.render());
    }

    @Test
    void anOrdinaryCommentInsideARuleGetsNoHint() {
        assertEquals(
                List.of("3:22: unexpected 'n'; expected ',' or ')'"),
                errors("pass t;\nr7: fadd(h,    # the first operand\n        k) => fmul(m n);\n"));
        assertTrue(errors("pass t;\nr: imul(a, # c) => a;\ns: fneg(fneg(b)) => b;\n")
                .get(0)
                .endsWith(
                        "(the '#' at 2:12 starts a comment to the end of its line; a constant-only variable is written "
                                + "without a space, as in #c)"));
    }
}
