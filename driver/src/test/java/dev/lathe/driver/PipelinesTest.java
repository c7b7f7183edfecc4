package dev.lathe.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.compile.MachinePasses;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.pass.ProgramForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pipeline as data: every pass exists, the order rules hold, and breaking one is caught. */
class PipelinesTest {
    @Test
    void everyPassOfThePipelineIsRegistered() {
        PassRegistry registry = new Passes().registry();
        assertNull(Pipelines.OPTIMIZE.unknownPass(registry));
        assertNull(Pipelines.LOWER.unknownPass(registry));
        assertEquals(
                MachinePasses.DEFAULT.size(),
                MachinePasses.pipeline(Pipelines.MACHINE).size());
        assertEquals(Pipelines.OPTIMIZE, Pipeline.parse(Pipelines.DEFAULT, registry));
    }

    /** One registry holds every pass, IR, rule and machine pass alike, each once, with the forms it takes and gives. */
    @Test
    void oneRegistryHoldsEveryPassWithItsForms() {
        PassRegistry registry = new Passes().registry();
        for (String p : Pipelines.whole()) assertTrue(registry.names().contains(p), p);
        for (String p : MachinePasses.names()) {
            assertTrue(!registry.entry(p).isIrPass(), p);
            assertTrue(!registry.irNames().contains(p), p);
        }
        assertEquals(ProgramForm.IR, registry.entry("isel").takes());
        assertEquals(ProgramForm.VIRTUAL, registry.entry("isel").gives());
        assertEquals(ProgramForm.ALLOCATED, registry.entry("regalloc").gives());
        assertTrue(registry.entry("algebraic").isIrPass());
        assertTrue(registry.create("algebraic") != null && registry.create("isel") == null);
    }

    /** Both pipelines report through one instrumentation: one table, IR then machine passes in the order they ran. */
    @Test
    void oneTableTimesTheIrAndTheMachinePasses() {
        var shader = dev.lathe.ir.text.IrParser.parse("t.ir", """
                shader fragment
                input vec2 f32 @ab location=0
                output f32 @o location=0
                function main {
                  vec2 32 %ab = load_input @ab
                  vec1 32 %p = fmul %ab.x, %ab.y
                  store_output @o, %p
                }
                """);
        var timings = Compiler.compile(shader, Compiler.Options.defaults().withTrace(false, null, true, null))
                .timings();
        List<String> names = timings.stream().map(t -> t.pass()).toList();
        assertTrue(names.indexOf("vars_to_ssa") < names.indexOf("lower"), names.toString());
        assertTrue(names.indexOf("lower") < names.indexOf("isel"), names.toString());
        assertTrue(names.indexOf("isel") < names.indexOf("legalize"), names.toString());
        assertEquals(1, timings.get(names.indexOf("regalloc")).runs());
        assertEquals(names.size(), new java.util.HashSet<>(names).size(), "each pass has one row");
    }

    @Test
    void theOrderRulesNamePassesThatRunAndHold() {
        List<String> whole = Pipelines.whole();
        for (Pipelines.Order o : Pipelines.ORDER) {
            assertTrue(whole.contains(o.first()) && whole.contains(o.then()), o.toString());
        }
        assertNull(Pipelines.orderProblem(whole));
    }

    @Test
    void aPassOutOfOrderIsNamedWithTheReason() {
        List<String> broken = new ArrayList<>(Pipelines.whole());
        broken.add(broken.indexOf("vars_to_ssa"), "late");
        assertEquals(
                "algebraic must run before late: the late rules undo what the algebraic rules do (fused multiply-add): they run "
                        + "once, after the loop",
                Pipelines.orderProblem(broken));
    }

    /** A pipeline a user gives is held to the order too, with the lowering and the machine passes after it. */
    @Test
    void aUserPipelineOutOfOrderIsRefused() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> Compiler.checkPipeline(Compiler.Options.defaults().withPipeline("late, algebraic")));
        assertTrue(e.getMessage().contains("algebraic must run before late"), e.getMessage());
        // in order, or with either left out, it runs
        Compiler.checkPipeline(Compiler.Options.defaults().withPipeline("algebraic, late"));
        Compiler.checkPipeline(Compiler.Options.defaults().withPipeline("late"));
    }

    /** The diagram in docs/ARCHITECTURE.md spells the pipelines as they are, so it cannot drift from them. */
    @Test
    void theArchitectureDiagramIsThePipelines() throws java.io.IOException {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "ARCHITECTURE.md"));
        for (String line : List.of(
                "▼  Pipelines.OPTIMIZE: " + Pipelines.DEFAULT,
                "▼  Pipelines.LOWER: " + Pipelines.LOWER,
                "▼  Pipelines.MACHINE: " + String.join(" → ", Pipelines.MACHINE))) {
            assertTrue(
                    doc.contains(line + "\n"), "docs/ARCHITECTURE.md's diagram should have the line\n        " + line);
        }
    }

    @Test
    void theTextIsWhatTheCommandLineSpells() {
        assertEquals(
                "lower_outputs, vars_to_ssa, loop(algebraic, opt_minmax, constant_fold, copy_prop, phi_simplify, dead_cf, opt_if, loop_unroll, vars_to_ssa, cse, dce, lower_doubles, "
                        + "lower_int64), opt_large_constants, late, "
                        + "dce, sink_constants",
                Pipelines.DEFAULT);
        assertEquals(
                "lower_outputs, vars_to_ssa, loop(opt_minmax, constant_fold, copy_prop, phi_simplify, dead_cf, opt_if, loop_unroll, vars_to_ssa, cse, dce, lower_doubles, "
                        + "lower_int64), opt_large_constants, dce, sink_constants",
                Pipelines.OPTIMIZE.without(Set.of("algebraic", "late")).toString());
    }

    @Test
    void everySwitchTurnsOffPassesOfOnePipeline() {
        for (var e : Pipelines.SWITCHES.entrySet()) {
            List<String> passes = e.getValue().passes();
            boolean machine = Pipelines.MACHINE.containsAll(passes);
            assertTrue(machine || Pipelines.OPTIMIZE.passNames().containsAll(passes), e.toString());
            Compiler.Options o = Compiler.Options.defaults().withSwitchesOff(Set.of(e.getKey()));
            for (String p : passes) {
                assertTrue(!o.machine().contains(p), e.getKey());
                assertTrue(!o.pipeline().passNames().contains(p), e.getKey());
            }
            assertEquals(machine, !o.machine().equals(Pipelines.MACHINE), e.getKey());
            MachinePasses.pipeline(o.machine()); // still a machine pipeline
            Compiler.checkPipeline(o);
        }
        assertThrows(IllegalArgumentException.class, () -> Pipelines.machine(Set.of("schedule")));
    }

    @Test
    void compilerOptionsAreCheckedBeforeAnythingRuns() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Compiler.checkPrintAfter(Compiler.Options.defaults().withTrace(false, "schedule", false, null)));
        assertTrue(
                e.getMessage().startsWith("unknown pass 'schedule' (IR passes: ")
                        && e.getMessage().contains("machine passes: isel"),
                e.getMessage());
        Compiler.checkPrintAfter(Compiler.Options.defaults().withTrace(false, "regalloc", false, null));
        Compiler.checkPrintAfter(Compiler.Options.defaults().withTrace(false, "cse", false, null));
        Compiler.checkPrintAfter(Compiler.Options.defaults().withTrace(false, null, false, null));
        assertThrows(
                IllegalArgumentException.class,
                () -> Compiler.checkPipeline(Compiler.Options.defaults().withPipeline("cse, loop(dce")));
    }
}
