package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.compile.Allocation;
import dev.lathe.backend.compile.CompileException;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.compile.Stats;
import dev.lathe.backend.compile.Target;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.shaderdb.DifferentialCheck;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Register allocation with spilling ({@code RegAlloc}, the reload elision review of 2015, docs/BACKGROUND.md): at small register budgets
 * every shader of the corpus and every random program still gives the interpreter's outputs;
 * nothing spills where MaxLive fits the budget; reload elision saves reloads.
 */
class SpillingTest {
    /**
     * The budgets the corpus and the random programs are checked at, in vec4 registers (the file
     * has 48). Below 4 some shaders cannot compile at all: their {@code end} reads more output
     * registers at once (a clear error); the small random programs still do at 2.
     */
    static final int[] CORPUS_BUDGETS = {4, 8, 24}, RANDOM_BUDGETS = {2, 8, 24};

    /** Every example shader (SPIR-V and IR) as IR text, with its name. */
    /** Examples whose outputs alone (kept in registers until the end) need more than the smallest budget: f16_f64.ir's four vec4s, one of doubles, take 20 registers. */
    static final Set<String> OUTPUTS_WIDER_THAN_THE_BUDGETS = Set.of("f16_f64.ir");

    static List<String[]> corpus() throws IOException {
        List<String[]> out = new ArrayList<>();
        for (Path f : ShaderCorpusTest.binaries()) {
            out.add(new String[] {
                f.getFileName().toString(), IrPrinter.print(SpirvFrontend.read(f.toString(), Files.readAllBytes(f)))
            });
        }
        for (Path f : ExamplesTest.examples()) {
            if (OUTPUTS_WIDER_THAN_THE_BUDGETS.contains(f.getFileName().toString())) continue;
            out.add(new String[] {f.getFileName().toString(), Files.readString(f)});
        }
        return out;
    }

    static Compiler.Options budget(int vec4) {
        return Compiler.Options.defaults().withAllocation(Allocation.DEFAULT.withMaxRegs(vec4));
    }

    @TestFactory
    Stream<DynamicTest> theCorpusAgreesWithTheInterpreterAtSmallBudgets() throws IOException {
        List<String[]> shaders = corpus();
        List<DynamicTest> tests = new ArrayList<>();
        for (int regs : CORPUS_BUDGETS) {
            tests.add(DynamicTest.dynamicTest("--max-regs " + regs, () -> {
                int spilled = 0;
                for (String[] s : shaders) {
                    DifferentialCheck.Outcome o = DifferentialCheck.run(
                            IrParser.parse(s[0], s[1]), budget(regs), 2, Interpreter.DEFAULT_ITERATION_LIMIT);
                    assertNull(o.difference(), () -> s[0] + " at --max-regs " + regs + ": " + o.difference());
                    Stats st = Compiler.compile(IrParser.parse(s[0], s[1]), budget(regs))
                            .machine()
                            .stats();
                    assertTrue(
                            st.full() <= regs, s[0] + " uses " + st.full() + " vec4 registers at --max-regs " + regs);
                    assertNoSpillWhereMaxLiveFits(st, regs, s[0]);
                    if (st.spills() + st.fills() > 0) spilled++;
                }
                // the budget is small enough to matter
                assertTrue(regs > 16 || spilled >= 3, spilled + " shaders spilled at --max-regs " + regs);
            }));
        }
        return tests.stream();
    }

    /**
     * Spill code only where the values live at once do not fit. (The converse need not hold: a
     * vector whose pieces took its registers over counts twice in MaxLive, and rematerialized
     * constants spill nothing.)
     */
    static void assertNoSpillWhereMaxLiveFits(Stats st, int regs, String what) {
        if (st.maxLive() <= 4 * regs) {
            assertEquals(
                    0,
                    st.spills() + st.fills() + st.stp() + st.ldp(),
                    what + ": spill code with MaxLive " + st.maxLive() + " <= " + 4 * regs);
        }
    }

    /** The backend's differential test (random programs, operands from every value made) at small budgets. */
    @TestFactory
    Stream<DynamicTest> randomProgramsAgreeWithTheInterpreterAtSmallBudgets() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int regs : RANDOM_BUDGETS) {
            tests.add(DynamicTest.dynamicTest("--max-regs " + regs, () -> {
                int decided = 0, spilled = 0;
                for (long seed = 0; seed < BackendEndToEndTest.PROGRAMS; seed++) {
                    Options o = Options.mixed(seed).withWideSizes(false).withRandomOps(Target.IR3_LIKE.selectedOps());
                    BackendEndToEndTest.Checked c =
                            BackendEndToEndTest.check(seed, o, true, Allocation.DEFAULT.withMaxRegs(regs));
                    if (c.decided()) decided++;
                    assertNoSpillWhereMaxLiveFits(c.stats(), regs, "seed " + seed);
                    if (c.stats().spills() + c.stats().fills() > 0) spilled++;
                }
                int total = BackendEndToEndTest.PROGRAMS;
                assertTrue(decided * 100 >= total * 98, decided + " of " + total + " programs decided");
                assertTrue(
                        regs > 2 || spilled * 4 >= total,
                        spilled + " of " + total + " programs spilled at --max-regs " + regs);
            }));
        }
        return tests.stream();
    }

    /**
     * With 8- to 64-bit values (64-bit pairs aligned, spilled and reloaded as two registers) at
     * small budgets: what compiles agrees; what the target lacks says so, as on the whole file.
     */
    @TestFactory
    Stream<DynamicTest> randomProgramsWithWideValuesAgreeAtSmallBudgets() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int regs : new int[] {2, 8}) {
            tests.add(DynamicTest.dynamicTest("--max-regs " + regs, () -> {
                int spilled = 0, unsupported = 0, total = BackendEndToEndTest.PROGRAMS / 2;
                for (long seed = 0; seed < total; seed++) {
                    Options o = Options.mixed(seed).withRandomOps(Target.IR3_LIKE.selectedOps());
                    try {
                        BackendEndToEndTest.Checked c =
                                BackendEndToEndTest.check(seed, o, false, Allocation.DEFAULT.withMaxRegs(regs));
                        assertNoSpillWhereMaxLiveFits(c.stats(), regs, "seed " + seed);
                        if (c.stats().spills() + c.stats().fills() > 0) spilled++;
                    } catch (CompileException e) {
                        assertTrue(
                                e.getMessage().contains("not supported by the target: "),
                                "seed " + seed + ": " + e.getMessage());
                        unsupported++;
                    }
                }
                assertTrue(unsupported * 10 <= total, unsupported + " of " + total + " programs did not compile");
                assertTrue(
                        regs > 2 || spilled * 4 >= total,
                        spilled + " of " + total + " programs spilled at --max-regs " + regs);
            }));
        }
        return tests.stream();
    }

    /**
     * Large random programs with operands drawn from every value made (no window): MaxLive runs
     * into the hundreds, past the whole register file, and the programs compile and agree.
     */
    @Test
    void largeProgramsPastTheRegisterFileSpillAndAgree() {
        for (long seed = 0; seed < 2; seed++) {
            Options o = Options.large(10_000).withWideSizes(false).withRandomOps(Target.IR3_LIKE.selectedOps());
            BackendEndToEndTest.Checked c = BackendEndToEndTest.check(seed, o, true, Allocation.DEFAULT);
            assertTrue(
                    c.stats().maxLive() > 192 && c.stats().spills() > 0,
                    "seed " + seed + ": " + c.stats().line("large"));
        }
    }

    /** Reload elision (the reload elision review of 2015, docs/BACKGROUND.md) over the corpus at a budget where it spills: fewer reloads, the same results. */
    @Test
    void reloadElisionSavesReloads() throws IOException {
        int with = 0, without = 0;
        for (String[] s : corpus()) {
            with += Compiler.compile(IrParser.parse(s[0], s[1]), budget(4))
                    .machine()
                    .stats()
                    .fills();
            Compiler.Options off = Compiler.Options.defaults()
                    .withAllocation(Allocation.DEFAULT.withMaxRegs(4).withReloadElision(false));
            DifferentialCheck.Outcome o =
                    DifferentialCheck.run(IrParser.parse(s[0], s[1]), off, 2, Interpreter.DEFAULT_ITERATION_LIMIT);
            assertNull(o.difference(), () -> s[0] + " without reload elision: " + o.difference());
            without += Compiler.compile(IrParser.parse(s[0], s[1]), off)
                    .machine()
                    .stats()
                    .fills();
        }
        assertTrue(with > 0 && with < without, with + " reloads with elision, " + without + " without");
    }

    /** Both spill choices give correct code; the statistics count what the code holds. */
    @Test
    void theStatisticsCountTheSpillCode() throws IOException {
        for (Allocation.SpillChoice choice : Allocation.SpillChoice.values()) {
            for (String[] s : corpus()) {
                Compiler.Options o = Compiler.Options.defaults()
                        .withAllocation(Allocation.DEFAULT.withMaxRegs(4).withSpillChoice(choice));
                DifferentialCheck.Outcome out =
                        DifferentialCheck.run(IrParser.parse(s[0], s[1]), o, 1, Interpreter.DEFAULT_ITERATION_LIMIT);
                assertNull(
                        out.difference(),
                        () -> s[0] + " with --spill-choice " + choice.spelling() + ": " + out.difference());
                MachineCompiler.Result r =
                        Compiler.compile(IrParser.parse(s[0], s[1]), o).machine();
                Stats st = r.stats();
                int stp = 0, ldp = 0;
                for (MInstr i : r.program().code()) {
                    if (i.op() == MOp.STP) stp++;
                    if (i.op() == MOp.LDP) ldp++;
                }
                assertEquals(stp, st.stp(), s[0]);
                assertEquals(ldp, st.ldp(), s[0]);
                assertTrue(st.spills() <= stp && (stp > 0) == (st.spills() > 0), s[0] + ": " + st.line(s[0]));
                assertEquals(
                        st.spills() > 0,
                        r.program().privateBytes() > 0,
                        s[0] + ": .private " + r.program().privateBytes());
            }
        }
    }
}
