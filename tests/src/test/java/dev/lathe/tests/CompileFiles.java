package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.backend.compile.Allocation;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.text.IrParser;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code // test compile [SWITCHES]} file tests ({@link FileTests}; they live in
 * {@code filetests/compile/}): the program is compiled with the default pipelines (or with the
 * switches after the header, spelled as for {@code lathe compile}: {@code --no-NAME}, {@code --max-regs N}, {@code --no-reload-elision}), its
 * {@code CHECK} lines must match the {@code .s} text, the whole text must be the one kept after the
 * file's {@code // PRECISE-OUTPUT:} line ({@link PreciseOutput}; {@code -Dlathe.bless} rewrites
 * it), and the binary must give the interpreter's outputs for the IR it was selected from on 16
 * random input sets.
 */
final class CompileFiles {
    private CompileFiles() {}

    /** A {@code // test compile SWITCHES} file ({@link FileTests}), compiled with {@code switches}. */
    static void check(Path f, String text, String switches) throws IOException {
        List<FileCheck.Check> checks = FileCheck.parse(text);
        if (checks.isEmpty()) fail(f + ": no CHECK lines");
        MachineCompiler.Result r = Compiler.compile(IrParser.parse(f.toString(), text), options(switches))
                .machine();
        String asm = ProgramText.print(r.program());
        String failure = FileCheck.verify(checks, asm);
        if (failure != null) fail(f + ":" + failure + "\n--- assembly ---\n" + asm);
        String precise = PreciseOutput.check(f, text, asm);
        if (precise != null) fail(f + ":" + precise + "\n--- assembly ---\n" + asm);
        for (long seed = 0; seed < 16; seed++) {
            long k = seed;
            assertTrue(
                    BackendEndToEndTest.interpret(r.optimized(), seed)
                            .sameAs(BackendEndToEndTest.simulate(r.program(), r.optimized(), seed)),
                    () -> f + ": the binary's outputs differ from the interpreter's on input set " + k + "\n" + asm);
        }
    }

    /** The options {@code switches} (a {@code // test compile} line's rest) ask for, verifying after every pass. */
    static Compiler.Options options(String switches) {
        Set<String> off = new TreeSet<>();
        Allocation a = Allocation.DEFAULT;
        List<String> words =
                switches.isBlank() ? List.of() : List.of(switches.trim().split("\\s+"));
        for (int k = 0; k < words.size(); k++) {
            String w = words.get(k);
            if (w.equals("--max-regs")) a = a.withMaxRegs(Integer.parseInt(words.get(++k)));
            else if (w.equals("--no-reload-elision")) a = a.withReloadElision(false);
            else if (w.startsWith("--no-") && Pipelines.SWITCHES.containsKey(w.substring(5))) off.add(w.substring(5));
            else throw new IllegalArgumentException("unknown switch in a file test: " + w);
        }
        return Compiler.Options.verifying().withSwitchesOff(off).withAllocation(a);
    }
}
