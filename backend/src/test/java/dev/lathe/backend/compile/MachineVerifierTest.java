package dev.lathe.backend.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import dev.lathe.ir.text.IrParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The machine pipeline's checks: a pipeline in the wrong order is refused before it runs, the
 * verifier finds nothing wrong in what the passes make, and it names each kind of breakage when
 * a program is broken on purpose.
 */
class MachineVerifierTest {
    static final String SHADER = """
            shader compute workgroup_size(1, 1, 1)
            buffer f32 @x binding=0
            function main {
                vec1 32 %z = load_const (0)
                vec1 32 %four = load_const (4)
                vec1 32 %a = load_buffer @x, %z
                vec1 32 %b = load_buffer @x, %four
                vec1 32 %m = fmul %a, %b
                vec1 32 %s = fadd %m, %a
                vec1 1 %c = flt %s, %b
                if %c {
                    store_buffer @x, %z, %s
                }
            }
            """;

    static MachineFunction after(String... passes) {
        MachineFunction mf = new MachineFunction(IrParser.parse("verify.ir", SHADER));
        for (String p : passes) {
            MachinePass pass = MachinePasses.create(p);
            pass.run(mf);
            assertEquals(List.of(), MachineVerifier.verify(mf), () -> "after " + p + ":\n" + mf.print());
            assertEquals(MachinePasses.entry(p).gives(), mf.form(), p);
        }
        return mf;
    }

    @Test
    void aPipelineOutOfOrderIsRefusedBeforeItRuns() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> MachinePasses.pipeline(List.of("isel", "linearize", "regalloc", "legalize")));
        assertEquals("machine pass linearize takes the allocated form, but comes after virtual code", e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> MachinePasses.pipeline(List.of("isel", "regalloc", "linearize")));
        assertEquals("the machine pipeline must end with legalize", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MachinePasses.pipeline(List.of("isel", "schedule")));
        assertTrue(e.getMessage().startsWith("unknown machine pass 'schedule' (known: isel, "), e.getMessage());
        assertEquals(
                MachinePasses.DEFAULT.size(),
                MachinePasses.pipeline(MachinePasses.DEFAULT).size());
    }

    @Test
    void aReadOfNothingAndASecondDefinitionAreFound() {
        MachineFunction mf = after("isel");
        Block b0 = mf.fn.blocks().get(0);
        List<MirInstr> code = mf.mir.get(b0);
        MirInstr first = code.get(0);
        VReg ghost = new VReg(mf.virtualRegisters + 7, 1, 1);
        code.add(MirInstr.copy(new VReg(mf.virtualRegisters + 8, 1, 1), ghost));
        code.add(MirInstr.copy(first.def, first.def));
        List<String> problems = MachineVerifier.verify(mf);
        assertTrue(
                problems.stream().anyMatch(p -> p.contains("reads v" + ghost.id + ", which nothing defines")),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("is defined twice (not SSA)")), problems.toString());
    }

    @Test
    void aRegisterTheEncodingCannotHoldIsFound() {
        MachineFunction mf = after("isel", "regalloc");
        List<MInstr> code = mf.allocated.get(mf.fn.blocks().get(0));
        code.add(MInstr.alu(MOp.ADD_F, MType.F32, Operand.reg(4 * 64), Operand.reg(0), Operand.reg(1)));
        List<String> problems = MachineVerifier.verify(mf);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("b0: add.f32"), problems.get(0));
    }

    @Test
    void aMissingNopIsALatencyHazard() {
        MachineFunction mf = after("isel", "regalloc", "linearize", "legalize");
        int at = -1;
        for (int k = 0; k < mf.linear.items.size() && at < 0; k++) {
            Linear.Item it = mf.linear.items.get(k);
            if (!it.isLabel() && it.instr().nop() > 0) at = k;
        }
        assertTrue(at >= 0, "the legalized program has a nop to take out:\n" + mf.print());
        Linear.Item it = mf.linear.items.get(at);
        mf.linear.items.set(at, new Linear.Item(it.instr().withNop(0), it.target(), it.label()));
        assertEquals(
                List.of("legalized code still has latency hazards: legalizing it again changes it"),
                MachineVerifier.verify(mf));
    }

    @Test
    void aBranchToNoLabelIsFound() {
        MachineFunction mf = after("isel", "regalloc", "linearize");
        int at = -1;
        for (int k = 0; k < mf.linear.items.size() && at < 0; k++)
            if (mf.linear.items.get(k).target() >= 0) at = k;
        assertTrue(at >= 0, "the program branches:\n" + mf.print());
        Linear.Item it = mf.linear.items.get(at);
        mf.linear.items.set(at, Linear.Item.jump(it.instr(), 999));
        List<String> problems = MachineVerifier.verify(mf);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).endsWith("branches to L999, which is nowhere"), problems.get(0));
    }

    @Test
    void everyFormPrints() {
        MachineFunction mf = new MachineFunction(IrParser.parse("verify.ir", SHADER));
        assertTrue(mf.print().contains("= fmul %2, %3"), mf.print());
        MachinePasses.create("isel").run(mf);
        assertTrue(
                mf.print().startsWith("b0:\n") && mf.print().matches("(?s).*mad\\.f32 v\\d+, v\\d+, v\\d+, v\\d+.*"),
                mf.print());
        MachinePasses.create("regalloc").run(mf);
        assertTrue(
                mf.print().startsWith("b0:\n") && mf.print().matches("(?s).*mad\\.f32 r\\d\\.[xyzw], r.*"), mf.print());
        MachinePasses.create("linearize").run(mf);
        assertTrue(mf.print().matches("(?s).*-> L\\d+\n.*L\\d+:\n.*end\n"), mf.print());
        MachinePasses.create("legalize").run(mf);
        assertTrue(mf.print().contains("(nop") || mf.print().contains("(sy)"), mf.print());
    }
}
