package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.text.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Seeded files of random rule-language tokens (mostly almost-rules with a token changed,
 * dropped or doubled): the compiler must return, never throw, and locate every error inside
 * the file. This is how the error-recovery loops were found; a hang here fails the build.
 */
class TokenSoupTest {

    private static final String[] TOKENS = {
        "r",
        "s1",
        "a",
        "b",
        "#c",
        "fmul",
        "fadd",
        "fneg",
        "iadd",
        "bcsel",
        "ishl",
        "(",
        ")",
        ",",
        ";",
        ":",
        "=>",
        "~=>",
        "if",
        "is_zero",
        "ult_const",
        "1.0",
        "0",
        "2",
        "0x7f",
        "1e",
        "0x",
        "inf",
        "true",
        "@",
        "@32",
        "@f32",
        "@once",
        "+",
        "-",
        "*",
        "<<",
        "<",
        "==",
        "!",
        "~",
        "pass",
        "$",
        "\n",
        "# note\n",
        "/*",
        "*/",
        "\u2212",
    };

    private static final String[] RULES = {
        "r: fmul(a, 1.0) => a;", "s: fadd(a, 0.0) ~=> a;", "t: iadd(a, #c) => a if is_zero(c);",
        "a * 1.0 => a;", "u: ishl(a@32, 0) => a;", "v: bcsel(true, a, b) => a;",
    };

    private static String soup(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        StringBuilder sb = new StringBuilder(rnd.nextInt(3) == 0 ? "pass t;\n" : "");
        int rules = 1 + rnd.nextInt(5);
        for (int i = 0; i < rules; i++) {
            List<String> toks =
                    new ArrayList<>(List.of(RULES[rnd.nextInt(RULES.length)].split("(?<=[(),;:])|(?=[(),;:])| ")));
            int edits = rnd.nextInt(4);
            for (int e = 0; e < edits && !toks.isEmpty(); e++) {
                int at = rnd.nextInt(toks.size());
                switch (rnd.nextInt(3)) {
                    case 0 -> toks.remove(at);
                    case 1 -> toks.add(at, TOKENS[rnd.nextInt(TOKENS.length)]);
                    default -> toks.set(at, TOKENS[rnd.nextInt(TOKENS.length)]);
                }
            }
            sb.append(String.join(" ", toks)).append(rnd.nextInt(4) == 0 ? " " : "\n");
        }
        return sb.toString();
    }

    @TestFactory
    Stream<DynamicTest> randomTokenFilesGetLocatedErrors() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int batch = 0; batch < 10; batch++) {
            int first = batch * 300;
            tests.add(DynamicTest.dynamicTest("seeds " + first + "-" + (first + 299), () -> {
                for (long seed = first; seed < first + 300; seed++) check(seed);
            }));
        }
        return tests.stream();
    }

    private static void check(long seed) {
        String text = soup(seed);
        RuleCompiler.Result r;
        try {
            r = RuleCompiler.compile("soup.rules", text);
        } catch (RuntimeException | StackOverflowError e) {
            fail("seed " + seed + ": " + e + "\n" + text);
            return;
        }
        int lines = text.split("\n", -1).length;
        for (Diagnostic d : r.errors()) {
            assertTrue(
                    d.line() >= 1 && d.line() <= lines && d.column() >= 1,
                    "seed " + seed + ": " + d.render() + "\n" + text);
            assertTrue(d.render().endsWith("^"), "seed " + seed + ": no caret: " + d.render());
        }
    }
}
