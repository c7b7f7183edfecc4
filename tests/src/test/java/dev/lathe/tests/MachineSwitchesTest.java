package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.compile.Stats;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Pipelines;
import dev.lathe.driver.shaderdb.DifferentialCheck;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Each switch of the machine pipeline ({@link Pipelines#SWITCHES}) over the example shaders:
 * with the part switched off every shader still compiles and agrees with the interpreter, and
 * switched on the part pays for itself — fewer instructions in total, no shader with fewer
 * waves, fewer simulated cycles in total; a part that makes the code smaller
 * ({@link Pipelines.Pays#SIZE}): fewer dwords in total, and at most 1% more simulated cycles in
 * total (docs/RESULTS.md has the shaders it makes slower); a part that trades size for speed
 * ({@link Pipelines.Pays#CYCLES}, loop unrolling): fewer simulated cycles in total.
 */
class MachineSwitchesTest {
    private record Measured(int instructions, int dwords, int waves, long simCycles) {}

    @TestFactory
    Stream<DynamicTest> everySwitchIsCorrectOffAndPaysOn() throws IOException {
        List<String> names = new ArrayList<>(), shaders = new ArrayList<>();
        for (Path f : ShaderCorpusTest.binaries()) {
            names.add(f.getFileName().toString());
            shaders.add(IrPrinter.print(SpirvFrontend.read(f.toString(), Files.readAllBytes(f))));
        }
        List<Measured> on = measure(shaders, Compiler.Options.defaults());
        return Pipelines.SWITCHES.keySet().stream()
                .map(sw -> DynamicTest.dynamicTest("--no-" + sw, () -> {
                    List<Measured> off =
                            measure(shaders, Compiler.Options.defaults().withSwitchesOff(Set.of(sw)));
                    Pipelines.Pays pays = Pipelines.SWITCHES.get(sw).pays();
                    boolean size = pays == Pipelines.Pays.SIZE;
                    int instrOn = 0, instrOff = 0, dwordsOn = 0, dwordsOff = 0;
                    long cyclesOn = 0, cyclesOff = 0;
                    for (int k = 0; k < shaders.size(); k++) {
                        instrOn += on.get(k).instructions();
                        instrOff += off.get(k).instructions();
                        dwordsOn += on.get(k).dwords();
                        dwordsOff += off.get(k).dwords();
                        cyclesOn += on.get(k).simCycles();
                        cyclesOff += off.get(k).simCycles();
                        assertTrue(on.get(k).waves() >= off.get(k).waves(), sw + " costs waves on " + names.get(k));
                    }
                    if (size) {
                        assertTrue(dwordsOn < dwordsOff, sw + ": " + dwordsOff + " dwords off, " + dwordsOn + " on");
                        assertTrue(
                                cyclesOn * 100 <= cyclesOff * 101,
                                sw + ": " + cyclesOff + " simulated cycles off, " + cyclesOn + " on");
                        return;
                    }
                    if (pays == Pipelines.Pays.SPEED)
                        assertTrue(instrOn < instrOff, sw + ": " + instrOff + " instructions off, " + instrOn + " on");
                    assertTrue(
                            cyclesOn < cyclesOff, sw + ": " + cyclesOff + " simulated cycles off, " + cyclesOn + " on");
                }));
    }

    /** Each shader (IR text) checked against the interpreter on two input sets, and measured. */
    private static List<Measured> measure(List<String> shaders, Compiler.Options options) {
        List<Measured> out = new ArrayList<>();
        for (String text : shaders) {
            DifferentialCheck.Outcome o = DifferentialCheck.run(
                    IrParser.parse("shader", text), options, 2, Interpreter.DEFAULT_ITERATION_LIMIT);
            assertNull(o.difference(), () -> text.lines().findFirst().orElse("") + ": " + o.difference());
            Stats st = Compiler.compile(IrParser.parse("shader", text), options)
                    .machine()
                    .stats();
            out.add(new Measured(st.instructions(), st.dwords(), st.waves(), o.simulatedCycles()));
        }
        return out;
    }
}
