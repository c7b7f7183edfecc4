package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lathe.cli.Main;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example, optimized with the default pipeline (validated after each pass), still prints
 * exactly its documented outputs for every {@code // run:} case.
 */
class OptimizedExamplesTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> optimizedExamplesKeepTheirOutputs() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path p : ExamplesTest.examples()) {
            tests.add(DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
                String text = Files.readString(p);
                Shader s = IrParser.parse(p.toString(), text);
                new PassManager(OptimizeFiles.registry(), PassInstrumentation.Settings.verifying())
                        .run(s, Pipelines.OPTIMIZE);
                Path opt = tmp.resolve(p.getFileName());
                Files.writeString(opt, IrPrinter.print(s));
                for (ExamplesTest.RunCase c : ExamplesTest.runCases(p)) {
                    List<String> argv = new ArrayList<>(List.of("run", opt.toString()));
                    argv.addAll(c.args());
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), argv.toArray(new String[0]));
                    assertEquals(0, code, err.toString());
                    assertEquals(
                            String.join("\n", c.expected()),
                            out.toString().stripTrailing(),
                            p + ":" + c.line() + " after optimization");
                }
            }));
        }
        return tests.stream();
    }
}
