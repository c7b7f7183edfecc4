package dev.lathe.backend.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.Cond;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * An {@code (rptN)} instruction computes what its repetitions ({@link MInstr#repetition}) do one
 * after the other: random repeated ALU instructions of every category that takes a repeat, run
 * in the simulator both ways over the same registers, give the same results bit for bit.
 */
class RepeatTest {
    private record Shape(MOp op, MType type, MType srcType, Cond cond) {}

    private static final List<Shape> SHAPES = List.of(
            new Shape(MOp.MOV, MType.U32, MType.U32, null), new Shape(MOp.COV, MType.S32, MType.F32, null),
            new Shape(MOp.ADD_F, MType.F32, null, null), new Shape(MOp.MUL_F, MType.F32, null, null),
            new Shape(MOp.ADD_F, MType.F64, null, null), new Shape(MOp.MIN_S, MType.S32, null, null),
            new Shape(MOp.SHL_B, MType.U32, null, null), new Shape(MOp.CMPS_F, MType.F32, null, Cond.LT),
            new Shape(MOp.ABSNEG_F, MType.F32, null, null), new Shape(MOp.MAD_F, MType.F32, null, null),
            new Shape(MOp.FMA_F, MType.F64, null, null), new Shape(MOp.SEL_B, MType.U32, null, null),
            new Shape(MOp.SIN, MType.F32, null, null), new Shape(MOp.DIV_U, MType.U32, null, null));

    @TestFactory
    Stream<DynamicTest> aRepeatedInstructionIsItsRepetitionsInTurn() {
        return IntStream.range(0, 300).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed)));
    }

    private static void check(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        MInstr i = null;
        while (i == null) i = attempt(r);
        StringBuilder init = new StringBuilder();
        // r0.x–r9.w hold random words: r0–r7 the sources, r8.x on the results, stored from there
        for (int reg = 0; reg < 40; reg++)
            init.append("    mov.u32u32 ")
                    .append(Operand.scalarName('r', reg))
                    .append(", 0x")
                    .append(Long.toHexString(r.nextLong() & 0xffffffffL))
                    .append('\n');
        init.append("    mov.u32u32 r12.x, 0\n    (nop3)nop\n    (nop3)nop\n");
        StringBuilder repeated =
                new StringBuilder(init).append("    ").append(Asm.print(i)).append('\n');
        StringBuilder expanded = new StringBuilder(init);
        for (int k = 0; k <= i.rpt(); k++)
            expanded.append("    ").append(Asm.print(i.repetition(k))).append('\n');
        String tail =
                "    (ss)(sy)(nop3)nop\n    (nop3)nop\n    stg.u32.4 b0[r12.x], r8.x\n    stg.u32.4 b0[r12.x + 16], r9.x\n    end\n";
        ShaderOutputs a = run(repeated + tail), b = run(expanded + tail);
        for (int w = 0; w < 8; w++)
            assertEquals(b.bufferWord("out", w), a.bufferWord("out", w), Asm.print(i) + ": word " + w);
    }

    private static ShaderOutputs run(String code) {
        ShaderInputs in = new ShaderInputs().set("u", 0, 0).setBufferWords("out", new long[8]);
        return new Simulator(SimulatorTest.program(code)).dispatch(in, 1, 1, 1).outputs();
    }

    private static MInstr attempt(SplittableRandom r) {
        Shape s = SHAPES.get(r.nextInt(SHAPES.size()));
        int rpt = 1 + r.nextInt(3);
        List<Operand> srcs = new ArrayList<>();
        for (int k = 0; k < s.op().numSrcs(); k++) {
            MType t = s.op() == MOp.SEL_B && k == 1 ? MType.U32 : s.srcType() != null ? s.srcType() : s.type();
            int units = t.regs();
            Operand o = switch (r.nextInt(s.op().category() == 2 ? 3 : 2)) {
                case 0, 1 ->
                    Operand.reg(r.nextInt(0, 32 - (rpt + 1) * units) & (units == 2 ? ~1 : ~0))
                            .withRep(r.nextBoolean());
                default -> Operand.imm(r.nextInt(-20, 20));
            };
            if (t.kind() == MType.Kind.FLOAT && o.isReg() && s.op() != MOp.MOV) o = o.withNeg(r.nextBoolean());
            srcs.add(o);
        }
        MInstr i = MInstr.of(
                s.op(),
                s.type(),
                s.srcType(),
                s.cond(),
                rpt,
                false,
                false,
                0,
                false,
                false,
                Operand.reg(32),
                srcs,
                0,
                0,
                0,
                0);
        String problem = Encoding.validate(i);
        if (problem != null) return null; // e.g. two immediates in one cat2 instruction
        assertNull(Encoding.validate(i.repetition(rpt)));
        return i;
    }
}
