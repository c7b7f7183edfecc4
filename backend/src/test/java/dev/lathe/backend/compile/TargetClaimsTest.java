package dev.lathe.backend.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.isa.Cond;
import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Semantics;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.backend.sim.SimulationException;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * What the target claims, checked op by op: every IR op in {@link Target#selectedOps}
 * is selected at each bit size the IR allows it (or refused with a "not supported by the target"
 * message, at exactly the sizes listed in {@link #REFUSED}), and the selected code, simulated on
 * random and special operands, gives the interpreter's result under the NaN contract.
 */
class TargetClaimsTest {
    static final int SETS = 24;

    /** The op/size pairs the target refuses: what the hardware lacks (64-bit integer division, fp64 floor or rcp, …). */
    static final List<String> REFUSED =
            Target.IR3_LIKE.refused64().stream().map(op -> op.opName() + "@64").toList();

    @TestFactory
    Stream<DynamicTest> everyClaimedOpIsSelectedAndComputesWhatTheInterpreterDoes() {
        List<DynamicTest> tests = new ArrayList<>();
        TreeSet<String> refused = new TreeSet<>();
        for (Op op : Target.IR3_LIKE.selectedOps()) {
            List<Integer> sizes = op.hasUnsizedOperands() ? op.legalBitSizeList() : List.of(32);
            for (int bits : sizes) {
                if (!Target.IR3_LIKE.selectsAt(op, bits)) continue; // lowered before selection (EveryOpOnTheTargetTest)
                String name = op.opName() + "@" + bits;
                tests.add(DynamicTest.dynamicTest(name, () -> check(op, bits, name, refused)));
            }
        }
        tests.add(DynamicTest.dynamicTest("the refusals are the listed ones", () -> {
            assertEquals(new TreeSet<>(REFUSED), refused);
        }));
        return tests.stream();
    }

    private static void check(Op op, int bits, String name, TreeSet<String> refused) {
        String text = shader(op, bits);
        MachineCompiler.Result r;
        try {
            r = MachineCompiler.compileVerifying(IrParser.parse(name + ".ir", text));
        } catch (CompileException e) {
            assertTrue(
                    e.getMessage().contains("not supported by the target: " + op.opName() + " on "),
                    name + ": " + e.getMessage());
            synchronized (refused) {
                refused.add(name);
            }
            return;
        }
        Shader reference = IrParser.parse(name + ".ir", text);
        int decided = 0;
        for (long seed = 0; seed < SETS; seed++) {
            ShaderInputs in =
                    new ShaderInputs().setBufferWords("in", operands(seed)).setBufferWords("out", new long[64]);
            ShaderOutputs want = new Interpreter(reference).trackNans().dispatch(in, 1, 1, 1);
            ShaderOutputs got;
            try {
                got = new Simulator(r.program()).dispatch(in, 1, 1, 1).outputs();
            } catch (SimulationException e) {
                throw new AssertionError(
                        name + ", input set " + seed + ": " + e.getMessage() + "\n" + ProgramText.print(r.program()),
                        e);
            }
            ShaderOutputs.Comparison c = want.compareUnderNanContract(got);
            long s = seed;
            assertNotEquals(
                    ShaderOutputs.Comparison.Kind.BROKEN,
                    c.kind(),
                    () -> name + ", input set " + s + ": " + c.detail() + "\n" + text + "\n"
                            + ProgramText.print(r.program()));
            if (c.kind() == ShaderOutputs.Comparison.Kind.KEPT) decided++;
        }
        assertTrue(decided * 2 >= SETS, name + ": only " + decided + " of " + SETS + " input sets decided");
    }

    /**
     * A compute shader applying {@code op} once: each source loaded from buffer {@code in} (64
     * bytes apart; booleans as a word compared with zero), each result component stored to
     * {@code out} 8 bytes apart (booleans as 0 or 1).
     */
    static String shader(Op op, int bits) {
        StringBuilder sb = new StringBuilder(
                "shader compute workgroup_size(1, 1, 1)\nbuffer u32 @in binding=0\nbuffer u32 @out binding=1\nfunction main {\n");
        int dest = op.isHorizontal() ? op.output().components() : 1;
        List<String> srcs = new ArrayList<>();
        for (int i = 0; i < op.numInputs(); i++) {
            int comps = op.inputComponents(i, dest), b = op.inputBits(i, bits);
            sb.append("  vec1 32 %off")
                    .append(i)
                    .append(" = load_const (")
                    .append(64 * i)
                    .append(")\n");
            if (b == 1) {
                sb.append("  vec")
                        .append(comps)
                        .append(" 32 %w")
                        .append(i)
                        .append(" = load_buffer @in, %off")
                        .append(i)
                        .append('\n');
                sb.append("  vec")
                        .append(comps)
                        .append(" 32 %z")
                        .append(i)
                        .append(" = load_const (")
                        .append(String.join(", ", "0".repeat(comps).split("")))
                        .append(")\n");
                sb.append("  vec")
                        .append(comps)
                        .append(" 1 %s")
                        .append(i)
                        .append(" = ine %w")
                        .append(i)
                        .append(", %z")
                        .append(i)
                        .append('\n');
            } else {
                sb.append("  vec")
                        .append(comps)
                        .append(' ')
                        .append(b)
                        .append(" %s")
                        .append(i)
                        .append(" = load_buffer @in, %off")
                        .append(i)
                        .append('\n');
            }
            srcs.add("%s" + i);
        }
        int outBits = op.outputBits(bits);
        sb.append("  vec")
                .append(dest)
                .append(' ')
                .append(outBits)
                .append(" %r = ")
                .append(op.opName())
                .append(' ')
                .append(String.join(", ", srcs))
                .append('\n');
        for (int k = 0; k < dest; k++) {
            String comp = dest <= 4 ? String.valueOf("xyzw".charAt(k)) : String.valueOf((char) ('a' + k));
            sb.append("  vec1 ")
                    .append(outBits)
                    .append(" %c")
                    .append(k)
                    .append(" = mov %r.")
                    .append(comp)
                    .append('\n');
            String stored = "%c" + k;
            if (outBits == 1) {
                sb.append("  vec1 32 %b")
                        .append(k)
                        .append(" = b2i32 %c")
                        .append(k)
                        .append('\n');
                stored = "%b" + k;
            }
            sb.append("  vec1 32 %o")
                    .append(k)
                    .append(" = load_const (")
                    .append(8 * k)
                    .append(")\n");
            sb.append("  store_buffer @out, %o")
                    .append(k)
                    .append(", ")
                    .append(stored)
                    .append('\n');
        }
        return sb.append("}\n").toString();
    }

    /** 16 words per source: random bits, and often a value floats and integers treat specially at some size. */
    static long[] operands(long seed) {
        long[] special = {
            0,
            0x80000000L,
            0x7f800000L,
            0xff800000L,
            0x7fc00000L,
            0x3f800000L,
            0x00000001L,
            0xffffffffL,
            0x7fffffffL,
            0x3c003c00L,
            0x7c00fc00L,
            0x7e000001L,
            0x00007ff0L,
            0xfff00000L,
            0x40490fdbL,
            0x0000ffffL
        };
        SplittableRandom rnd = new SplittableRandom(seed * 7919 + 17);
        long[] words = new long[16 * 4];
        for (int i = 0; i < words.length; i++)
            words[i] = rnd.nextInt(3) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextLong(1L << 32);
        return words;
    }

    @Test
    void selectionReadsTheTablesBackwards() {
        for (Op op : MOp.implemented()) assertEquals(op, MOp.implementing(op).semantics());
        for (MOp m : MOp.values()) {
            if (m.semantics() != null) assertEquals(m, MOp.implementing(m.semantics()));
        }
        for (Op op : Semantics.comparisons()) {
            Semantics.Compare k = Semantics.compareFor(op, 32);
            assertEquals(op, Semantics.compare(k.op(), k.cond()), op.opName());
        }
        assertNull(Semantics.compare(MOp.CMPS_U, Cond.LTU));
        for (Op op : Semantics.conversions()) {
            for (int bits : new int[] {1, 8, 16, 32, 64}) {
                MType[] pair = Semantics.conversionFor(op, bits);
                if (pair != null) assertEquals(op, Semantics.convert(pair[0], pair[1]), op.opName() + "@" + bits);
            }
        }
        assertNotNull(Semantics.conversionFor(Op.F2I32, 64));
        assertNull(Semantics.conversionFor(Op.FADD, 32));
    }

    @Test
    void everyOpHasOneWayOfBecomingReady() {
        for (MOp m : MOp.values()) {
            Latency.Kind k = m.latency();
            switch (m.category()) {
                case 4 -> assertEquals(Latency.Kind.SFU, k, m.name());
                case 5 -> assertEquals(Latency.Kind.LOAD, k, m.name());
                case 6 -> assertEquals(m.isStore() ? Latency.Kind.ALU : Latency.Kind.LOAD, k, m.name());
                default -> assertEquals(Latency.Kind.ALU, k, m.name());
            }
        }
        assertEquals(Latency.ALU_TO_OTHER, Latency.aluDelay(MOp.RCP, false));
        assertEquals(Latency.ALU_TO_ALU, Latency.aluDelay(MOp.RCP, true));
        assertEquals(Latency.ALU_TO_ALU, Latency.aluDelay(MOp.ADD_F, false));
        assertEquals(Latency.ALU_TO_OTHER, Latency.aluDelay(MOp.STG, false));
    }
}
