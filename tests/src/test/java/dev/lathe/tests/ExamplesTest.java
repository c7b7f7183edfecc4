package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.cli.Main;
import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every program in {@code examples/ir}: it validates, prints canonically (printing the printed
 * text gives the same text), and each {@code // run: ARGS} case in its header, run through
 * {@code lathe run FILE ARGS}, prints exactly the {@code // expect:} lines that follow it.
 */
class ExamplesTest {

    static Path root() {
        return Path.of(System.getProperty("lathe.root", "..")).toAbsolutePath().normalize();
    }

    static List<Path> examples() throws IOException {
        try (Stream<Path> s = Files.list(root().resolve("examples/ir"))) {
            return s.filter(p -> p.toString().endsWith(".ir")).sorted().toList();
        }
    }

    record RunCase(int line, List<String> args, List<String> expected) {}

    /** The file's {@code // run:} lines and their {@code // expect:} lines, read as the run file tests read them. */
    static List<RunCase> runCases(Path file) throws IOException {
        return RunFiles.cases(file, Files.readString(file)).stream()
                .map(c -> new RunCase(c.line(), c.args(), c.expected()))
                .toList();
    }

    @Test
    void thereAreAtLeastTwelveExamples() throws IOException {
        assertTrue(examples().size() >= 12, "examples: " + examples());
    }

    @TestFactory
    Stream<DynamicNode> everyExample() throws IOException {
        List<DynamicNode> nodes = new ArrayList<>();
        for (Path p : examples()) {
            List<DynamicNode> tests = new ArrayList<>();
            String text = Files.readString(p);
            tests.add(DynamicTest.dynamicTest("validates and round-trips", () -> {
                Shader s = IrParser.parse(p.toString(), text);
                assertEquals(List.of(), Validator.validate(s));
                String printed = IrPrinter.print(s);
                assertEquals(printed, IrPrinter.print(IrParser.parse("printed", printed)));
            }));
            List<RunCase> cases = runCases(p);
            tests.add(DynamicTest.dynamicTest(
                    "has a run case", () -> assertTrue(!cases.isEmpty(), p + " has no // run: line")));
            for (RunCase c : cases) {
                tests.add(DynamicTest.dynamicTest("run at line " + c.line() + " " + String.join(" ", c.args()), () -> {
                    List<String> argv = new ArrayList<>();
                    argv.add("run");
                    argv.add(p.toString());
                    argv.addAll(c.args());
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), argv.toArray(new String[0]));
                    assertEquals(0, code, err.toString());
                    assertEquals(String.join("\n", c.expected()), out.toString().stripTrailing(), p + ":" + c.line());
                }));
            }
            nodes.add(DynamicContainer.dynamicContainer(p.getFileName().toString(), tests));
        }
        return nodes.stream();
    }
}
