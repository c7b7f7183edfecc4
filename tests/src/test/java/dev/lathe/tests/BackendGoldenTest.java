package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.text.IrParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden tests of the emitted assembly: every {@code backend/*.ir} resource is compiled with the
 * default pipeline, its {@code CHECK} lines must match the {@code .s} text, and the binary must
 * give the interpreter's outputs for the IR it was selected from on 16 random input sets.
 */
class BackendGoldenTest {
    @TestFactory
    Stream<DynamicTest> goldenAssembly() throws IOException {
        Path dir = ExamplesTest.root().resolve("tests/src/test/resources/backend");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".ir")).sorted().toList();
        }
        assertTrue(files.size() >= 4, "backend goldens: " + files);
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            String text = Files.readString(f);
            List<FileCheck.Check> checks = FileCheck.parse(text);
            if (checks.isEmpty()) fail(f + ": no CHECK lines");
            MachineCompiler.Result r = Compiler.compile(IrParser.parse(f.toString(), text), Compiler.Options.verifying()).machine();
            String asm = ProgramText.print(r.program());
            String failure = FileCheck.verify(checks, asm);
            if (failure != null) fail(f + ":" + failure + "\n--- assembly ---\n" + asm);
            for (long seed = 0; seed < 16; seed++) {
                long k = seed;
                assertTrue(BackendEndToEndTest.interpret(r.optimized(), seed).sameAs(BackendEndToEndTest.simulate(r.program(), r.optimized(), seed)),
                        () -> f + ": the binary's outputs differ from the interpreter's on input set " + k + "\n" + asm);
            }
        }));
    }
}
