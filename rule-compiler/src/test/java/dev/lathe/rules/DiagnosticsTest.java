package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.text.Diagnostic;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every file in {@code diagnostics/} states its expected errors as {@code # expect: LINE:COL:
 * message} comments (or {@code # expect: nothing} for a valid file), and its expected warnings
 * as {@code # expect warning: LINE:COL: message}. Compiling the file must give exactly those
 * errors and warnings — one per expectation, at that position, with that message — all in one
 * run.
 */
class DiagnosticsTest {

    static Path dir() throws URISyntaxException {
        return Path.of(DiagnosticsTest.class.getResource("/diagnostics").toURI());
    }

    static List<Path> files() throws IOException, URISyntaxException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.toString().endsWith(".rules")).sorted().toList();
        }
    }

    @Test
    void atLeastThirtyBadFiles() throws Exception {
        long bad = 0;
        for (Path f : files()) {
            if (!Files.readString(f).contains("# expect: nothing")) bad++;
        }
        assertTrue(bad >= 30, "bad rule files: " + bad);
    }

    @TestFactory
    Stream<DynamicTest> eachFileGetsItsDiagnostics() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : files()) {
            tests.add(DynamicTest.dynamicTest(f.getFileName().toString(), () -> check(f)));
        }
        return tests.stream();
    }

    private static void check(Path f) throws IOException {
        String text = Files.readString(f);
        List<String> expects = new ArrayList<>();
        List<String> expectedWarnings = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# expect: ") && !line.startsWith("# expect: nothing"))
                expects.add(line.substring(10).trim());
            if (line.startsWith("# expect warning: "))
                expectedWarnings.add(line.substring(18).trim());
        }
        String name = "diag/" + f.getFileName();
        RuleCompiler.Result r = RuleCompiler.compile(name, text);
        compare(name, "error", expects, r.errors());
        compare(name, "warning", expectedWarnings, r.warnings());
    }

    private static void compare(String name, String severity, List<String> expects, List<Diagnostic> got) {
        List<String> actual = new ArrayList<>();
        for (Diagnostic d : got) actual.add(d.line() + ":" + d.column() + ": " + d.message());
        assertEquals(
                expects.size(),
                actual.size(),
                name + ": expected " + severity + "s " + expects + "\nbut got " + actual);
        for (String e : expects) {
            boolean found = actual.stream().anyMatch(a -> e.matches("\\d+:\\d+: .*") ? a.startsWith(e) : a.contains(e));
            assertTrue(found, name + ": no " + severity + " like '" + e + "' in " + actual);
        }
        for (Diagnostic d : got) {
            assertTrue(
                    d.render().startsWith(name + ":" + d.line() + ":" + d.column() + ": " + severity + ": "),
                    d.render());
            assertTrue(
                    d.render().contains("\n  ") && d.render().endsWith("^"), "no source line and caret: " + d.render());
        }
    }
}
