package dev.lathe.backend.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.program.Program;
import dev.lathe.backend.program.ProgramBinary;
import dev.lathe.backend.program.ProgramException;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.interp.Texture;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-written programs: what they compute, and the latency rules the simulator enforces. */
class SimulatorTest {
    static final String HEADER = """
            .shader compute workgroup_size(1, 1, 1)
            .decl uniform vec2 f32 @u location=0
            .decl buffer u32 @out binding=0
            .slot @u 0
            .slot @out 0
            .const 4 0x3f800000
            .local 0
            .private 0
            .loops 0
            .code
            """;

    static Program program(String code) {
        return ProgramText.parse("test.s", HEADER + code);
    }

    static ShaderOutputs run(String code, float a, float b) {
        ShaderInputs in = new ShaderInputs()
                .set("u", Float.floatToRawIntBits(a) & 0xffffffffL, Float.floatToRawIntBits(b) & 0xffffffffL)
                .setBufferWords("out", 0, 0, 0, 0);
        return new Simulator(program(code)).dispatch(in, 1, 1, 1).outputs();
    }

    static float word(ShaderOutputs o, int i) {
        return Float.intBitsToFloat((int) o.bufferWord("out", i));
    }

    static final String ADD_AND_STORE = """
                (nop2)mov.f32f32 r2.x, c0.y
                add.f32 r0.x, c0.x, r2.x
                mov.u32u32 r1.x, 0
                (nop3)nop
                (rpt2)nop
                stg.f32.1 b0[r1.x + 4], r0.x
                end
            """;

    @Test
    void computesAndStores() {
        ShaderOutputs o = run(ADD_AND_STORE, 1.5f, 2.25f);
        assertEquals(3.75f, word(o, 1));
        assertEquals(0, o.bufferWord("out", 0));
    }

    /** The machine-code fuzzer found both: an address below a buffer, and a negative component. */
    @Test
    void addressesBelowABufferReadZeroAndDropWrites() {
        String below = """
                    (nop2)mov.f32f32 r2.x, c0.y
                    add.f32 r0.x, c0.x, r2.x
                    mov.u32u32 r1.x, 0
                    (nop3)nop
                    (rpt2)nop
                    stg.f32.1 b0[r1.x - 16], r0.x
                    ldg.u32.1 r2.x, b0[r1.x - 4]
                    (sy)stg.u32.1 b0[r1.x + 8], r2.x
                    end
                """;
        ShaderOutputs o = run(below, 1.5f, 2.25f);
        for (int w = 0; w < 4; w++) assertEquals(0, o.bufferWord("out", w));
    }

    @Test
    void aMissingNopIsAHazardNamingThePc() {
        String broken = ADD_AND_STORE.replace("    (rpt2)nop\n", "");
        SimulationException e = assertThrows(SimulationException.class, () -> run(broken, 1, 2));
        assertTrue(e.getMessage().startsWith("hazard at pc 4 (stg.f32.1 b0[r1.x + 4], r0.x)"), e.getMessage());
        assertTrue(e.getMessage().contains("needs 6"), e.getMessage());
        String aluBroken = """
                    (nop2)mov.f32f32 r2.x, c0.y
                    add.f32 r0.x, c0.x, r2.x
                    nop
                    mul.f32 r0.y, r0.x, r0.x
                    end
                """;
        SimulationException a = assertThrows(SimulationException.class, () -> run(aluBroken, 1, 2));
        assertTrue(
                a.getMessage().contains("reads r0.x 2 cycles after pc 1 wrote it; an ALU instruction needs 3"),
                a.getMessage());
        run(aluBroken.replace("    nop\n", "    (rpt1)nop\n"), 1, 2); // with one more nop it runs
    }

    @Test
    void sfuResultsNeedSsAndStallsAreCounted() {
        String code = """
                    mov.f32f32 r2.x, c0.x
                    (nop3)nop
                    (nop1)nop
                    rcp.f32 r0.x, r2.x
                    (ss)mul.f32 r0.y, r0.x, c0.y
                    mov.u32u32 r1.x, 0
                    (nop3)nop
                    (nop2)nop
                    stg.f32.1 b0[r1.x], r0.y
                    end
                """;
        ShaderInputs in = new ShaderInputs()
                .set("u", Float.floatToRawIntBits(4f), Float.floatToRawIntBits(3f))
                .setBufferWords("out", 0);
        Simulator.Result r = new Simulator(program(code)).run(in);
        assertEquals(0.75f, Float.intBitsToFloat((int) r.outputs().bufferWord("out", 0)));
        assertEquals(Latency.SFU_CYCLES - 1, r.sstall(), "rcp issued at cycle 7 completes at 17; the mul waits from 8");
        SimulationException e =
                assertThrows(SimulationException.class, () -> run(code.replace("(ss)mul", "mul"), 4, 3));
        assertTrue(e.getMessage().contains("an SFU result of pc 3, without (ss) in between"), e.getMessage());
        String waw = """
                    mov.f32f32 r2.x, c0.x
                    (nop3)nop
                    (nop1)nop
                    rcp.f32 r0.x, r2.x
                    mov.f32f32 r0.x, c0.y
                    end
                """;
        SimulationException w = assertThrows(SimulationException.class, () -> run(waw, 4, 3));
        assertTrue(w.getMessage().contains("writes r0.x while the SFU result of pc 3 is outstanding"), w.getMessage());
    }

    @Test
    void loadsNeedSy() {
        String code = """
                    mov.u32u32 r1.x, 0
                    (nop3)nop
                    (nop1)nop
                    ldg.u32.1 r0.x, b0[r1.x + 8]
                    %s add.u32 r0.y, r0.x, 1
                    (nop2)nop
                    (nop3)nop
                    stg.u32.1 b0[r1.x], r0.y
                    end
                """;
        ShaderInputs in = new ShaderInputs().setBufferWords("out", 0, 0, 41);
        ShaderOutputs o =
                new Simulator(program(code.replace("%s ", "(sy)"))).run(in).outputs();
        assertEquals(42, o.bufferWord("out", 0));
        SimulationException e = assertThrows(
                SimulationException.class,
                () -> new Simulator(program(code.replace("%s ", "")))
                        .run(new ShaderInputs().setBufferWords("out", 0, 0, 41)));
        assertTrue(e.getMessage().contains("a load result of pc 3, without (sy) in between"), e.getMessage());
    }

    @Test
    void repeatsAdvanceRegistersAndBranchesLoop() {
        // r0.x = 0 (i), r0.y = 0 (sum); loop: sum += i; i += 1; until i == 10
        String code = """
                    mov.u32u32 r0.x, 0
                    mov.u32u32 r0.y, 0
                    mov.u32u32 r1.x, 0
                    (nop2)nop
                    add.u32 r0.y, r0.y, r0.x
                    add.u32 r0.x, r0.x, 1
                    (nop2)nop
                    cmps.u32.lt p0.x, r0.x, 10
                    (nop2)nop
                    br p0.x, #-5
                    (rpt1)mov.u32u32 r2.x, (r)r0.x
                    (nop3)nop
                    (nop2)nop
                    stg.u32.2 b0[r1.x], r2.x
                    end
                """;
        ShaderOutputs o = new Simulator(program(code))
                .run(new ShaderInputs().setBufferWords("out", 0, 0))
                .outputs();
        assertEquals(10, o.bufferWord("out", 0));
        assertEquals(45, o.bufferWord("out", 1));
    }

    @Test
    void readingAnUnwrittenRegisterIsAnError() {
        SimulationException e =
                assertThrows(SimulationException.class, () -> run("    add.f32 r0.x, r5.y, c0.x\n    end\n", 1, 2));
        assertTrue(e.getMessage().contains("reads r5.y before anything wrote it"), e.getMessage());
        SimulationException off = assertThrows(SimulationException.class, () -> run("    nop\n", 1, 2));
        assertTrue(off.getMessage().contains("execution left the program"), off.getMessage());
        SimulationException loop = assertThrows(
                SimulationException.class,
                () -> new Simulator(program("    jump #+0\n")).stepLimit(1000).run(new ShaderInputs()));
        assertTrue(loop.getMessage().contains("endless loop"), loop.getMessage());
    }

    @Test
    void binariesRoundTripAndCorruptionIsReported() {
        Program p = program(ADD_AND_STORE);
        byte[] bin = ProgramBinary.write(p);
        Program back = ProgramBinary.read("x.bin", bin);
        assertEquals(ProgramText.print(p), ProgramText.print(back));
        assertEquals(p.code(), back.code());

        byte[] badMagic = bin.clone();
        badMagic[0] = 'X';
        assertMessage(badMagic, "x.bin: byte 0: not a Lathe binary");
        assertMessage(Arrays.copyOf(bin, bin.length - 3), "instructions need");
        byte[] badWord = bin.clone();
        int last = bin.length - 8;
        badWord[last + 7] = (byte) 0xff; // category 7 with an unknown opcode
        assertMessage(badWord, "instruction 6");
        byte[] hugeHeader = bin.clone();
        hugeHeader[12] = (byte) 0xff;
        hugeHeader[15] = (byte) 0x7f;
        assertMessage(hugeHeader, "byte 12: header length");
    }

    /** A vertex shader whose input and vertex index are preloaded: read at pc 0 with no wait, and kept through text and binary. */
    @Test
    void preloadsAreInRegistersBeforeTheFirstInstruction() {
        String text = """
                .shader vertex
                .decl input vec2 f32 @p location=0
                .decl output f32 @o location=0
                .slot @p 0
                .slot @o 0
                .local 0
                .private 0
                .loops 0
                .preload ldlv.u32.1 r0.y, in0[1]
                .preload mov.u32u32 r0.z, sv.vertex_id
                .code
                    (nop2)mul.f32 r0.x, r0.y, r0.y
                    end r0.x
                """;
        Program p = ProgramText.parse("v.s", text);
        assertEquals(2, p.preloads().size());
        ShaderInputs in = new ShaderInputs().set("p", 0, Float.floatToRawIntBits(2.5f) & 0xffffffffL);
        Simulator.Result r = new Simulator(p).run(in);
        assertEquals(6.25f, Float.intBitsToFloat((int) r.outputs().output("o")[0]));
        assertEquals(2, r.instructions(), "preloads are not instructions");
        String printed = ProgramText.print(p);
        assertTrue(
                printed.contains(".preload ldlv.u32.1 r0.y, in0[1]\n.preload mov.u32u32 r0.z, sv.vertex_id\n.code\n"),
                printed);
        Program back = ProgramBinary.read("v.bin", ProgramBinary.write(p));
        assertEquals(printed, ProgramText.print(back));
        assertEquals(p.preloads(), back.preloads());
        // only system values and (in vertex shaders) inputs can be preloaded, and the error says where
        ProgramException e = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("v.s", text.replace("ldlv.u32.1 r0.y, in0[1]", "add.f32 r0.y, r0.x, r0.x")));
        assertTrue(e.getMessage().startsWith("v.s:9:1: error: a preload is a mov of a system value"), e.getMessage());
        ProgramException f = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("f.s", text.replace(".shader vertex", ".shader fragment")));
        assertTrue(
                f.getMessage()
                        .startsWith("f.s:9:1: error: a preload is a mov of a system value, in a vertex shader an ldlv"),
                f.getMessage());
    }

    /** The registers end names are read once the ALU pipeline drains (as ir3's ir3_delay.c has it); loads still need (sy). */
    @Test
    void endReadsAluResultsAtOnceButWaitsForLoads() {
        String text = """
                .shader vertex
                .decl input f32 @p location=0
                .decl output f32 @o location=0
                .slot @p 0
                .slot @o 0
                .local 0
                .private 0
                .loops 0
                .preload ldlv.u32.1 r0.y, in0[0]
                .code
                    mul.f32 r0.x, r0.y, r0.y
                    end r0.x
                """;
        ShaderInputs in = new ShaderInputs().set("p", Float.floatToRawIntBits(3f) & 0xffffffffL);
        Simulator.Result r = new Simulator(ProgramText.parse("v.s", text)).run(in);
        assertEquals(9f, Float.intBitsToFloat((int) r.outputs().output("o")[0]));
        String load = text.replace("mul.f32 r0.x, r0.y, r0.y", "ldlv.u32.1 r0.x, in0[0]");
        SimulationException e =
                assertThrows(SimulationException.class, () -> new Simulator(ProgramText.parse("v.s", load)).run(in));
        assertTrue(e.getMessage().contains("without (sy) in between"), e.getMessage());
        Simulator.Result waited =
                new Simulator(ProgramText.parse("v.s", load.replace("    end", "    (sy)end"))).run(in);
        assertEquals(3f, Float.intBitsToFloat((int) waited.outputs().output("o")[0]));
    }

    /**
     * A texture prefetch samples at an input's coordinates before the first instruction; the code
     * waits for it with (sy), it survives the binary, and it is refused in code, outside fragment
     * shaders and beyond four.
     */
    @Test
    void texturePrefetchesSampleBeforeTheStartAndAreWaitedForWithSy() {
        String text = """
                .shader fragment
                .decl input vec2 f32 @uv location=0
                .decl texture 2d f32 @t binding=1
                .decl output vec4 f32 @o location=0
                .slot @uv 0
                .slot @t 1
                .slot @o 0
                .local 0
                .private 0
                .loops 0
                .preload sam.f32.2d.xyzw r0.x, in0[0], t1
                .code
                    (sy)end r0.x, r0.y, r0.z, r0.w
                """;
        Program p = ProgramText.parse("f.s", text);
        assertTrue(p.preloads().get(0).isPrefetch());
        assertEquals(0, p.preloads().get(0).prefetchInput());
        ShaderInputs in = new ShaderInputs()
                .set("uv", Float.floatToRawIntBits(0.75f) & 0xffffffffL, Float.floatToRawIntBits(0.25f) & 0xffffffffL)
                .setTexture(
                        "t", new Texture(2, 2, 1, new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
        Simulator.Result r = new Simulator(p).run(in);
        // (0.75, 0.25) in a 2x2 texture is texel (1, 0)
        assertEquals(
                List.of(5L, 6L, 7L, 8L),
                Arrays.stream(r.outputs().output("o")).boxed().toList());
        assertEquals(1, r.instructions(), "a prefetch is not an instruction");
        assertEquals(Latency.LOAD_CYCLES, r.systall(), "the texel arrives a load's cycles after the start");
        Program back = ProgramBinary.read("f.bin", ProgramBinary.write(p));
        assertEquals(p.preloads(), back.preloads());
        SimulationException noSy = assertThrows(
                SimulationException.class,
                () -> new Simulator(ProgramText.parse("f.s", text.replace("(sy)end", "end"))).run(in));
        assertTrue(noSy.getMessage().contains("a load result of a texture prefetch, without (sy)"), noSy.getMessage());
        ProgramException inCode = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse(
                        "f.s",
                        text.replace(
                                ".preload sam.f32.2d.xyzw r0.x, in0[0], t1\n.code\n",
                                ".code\n    sam.f32.2d.xyzw r0.x, in0[0], t1\n")));
        assertTrue(
                inCode.getMessage()
                        .contains("f.s:12:5: error: a texture prefetch (sam from an input) is only ever a preload"),
                inCode.getMessage());
        ProgramException vertex = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("v.s", text.replace(".shader fragment", ".shader vertex")));
        assertTrue(vertex.getMessage().startsWith("v.s:11:1: error: a preload is"), vertex.getMessage());
        String five = text.replace(
                ".preload sam.f32.2d.xyzw r0.x, in0[0], t1\n", ".preload sam.f32.2d.xyzw r0.x, in0[0], t1\n".repeat(5));
        ProgramException many = assertThrows(ProgramException.class, () -> ProgramText.parse("f.s", five));
        assertTrue(
                many.getMessage().contains("5 texture prefetches; the target prefetches at most 4"), many.getMessage());
    }

    /** A preamble computes from uniforms once and hands the result over in the constant file; its cycles are not the shader's. */
    @Test
    void thePreambleRunsFirstAndLeavesItsResultsInConstants() {
        String text = HEADER.replace(".code\n", """
                .preamble (nop2)mov.u32u32 r0.y, c0.y
                .preamble mul.f32 r0.x, c0.x, r0.y
                .preamble (rpt3)(nop1)nop
                .preamble stc.u32.1 c[8], r0.x
                .preamble end
                .code
                """) + """
                    mov.u32u32 r1.x, 0
                    mov.f32f32 r1.y, c2.x
                    (rpt3)(nop1)nop
                    stg.f32.1 b0[r1.x], r1.y
                    end
                """;
        Program p = ProgramText.parse("p.s", text);
        assertEquals(5, p.preamble().size());
        ShaderInputs in = new ShaderInputs()
                .set("u", Float.floatToRawIntBits(3f) & 0xffffffffL, Float.floatToRawIntBits(0.5f) & 0xffffffffL)
                .setBufferWords("out", 0, 0, 0, 0);
        Simulator.Result r = new Simulator(p).run(in);
        assertEquals(1.5f, word(r.outputs(), 0));
        assertEquals(8, r.cycles(), "the shader's own slots only (two movs, five nop slots, stg), not the preamble's");
        Program back = ProgramBinary.read("p.bin", ProgramBinary.write(p));
        assertEquals(p.preamble(), back.preamble());
        // the preamble's hazards are checked like the shader's, and named as its own
        Program fast = ProgramText.parse("p.s", text.replace("(nop2)mov", "mov"));
        SimulationException h = assertThrows(SimulationException.class, () -> new Simulator(fast).run(in));
        assertTrue(h.getMessage().startsWith("hazard at preamble pc 1"), h.getMessage());
        // what a preamble may hold, and that only a preamble stores constants, with the line
        ProgramException e = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse(
                        "p.s", text.replace(".preamble (rpt3)(nop1)nop", ".preamble bary.f32 r0.z, in0[0]")));
        assertTrue(
                e.getMessage().startsWith("p.s:12:1: error: a preamble holds ALU and SFU instructions"),
                e.getMessage());
        ProgramException f = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("p.s", text.replace("    end\n", "    stc.u32.1 c[9], r1.x\n    end\n")));
        assertTrue(f.getMessage().contains("error: stc is for the preamble"), f.getMessage());
    }

    /** c<a0.x + n> reads the constant file at a0.x + n, six slots after the mova; too soon is a hazard, none before a mova an error. */
    @Test
    void theAddressRegisterIndexesTheConstantFile() {
        String code = """
                    mov.u32u32 r0.x, 1
                    mov.f32f32 r2.x, c0.x
                    (nop1)mov.u32u32 r1.x, 0
                    mova a0.x, r0.x
                    (rpt3)(nop1)nop
                    mul.f32 r0.y, c<a0.x>, r2.x
                    (nop2)mov.u32u32 r0.z, c<a0.x + 3>
                    add.f32 r0.y, r0.y, r0.z
                    (rpt2)(nop2)nop
                    stg.f32.1 b0[r1.x], r0.y
                    end
                """;
        // a0.x = 1: c<a0.x> is c0.y = 0.5 (u.y), times c0.x = 3 (u.x), plus c<a0.x + 3> = c1.x = 1.0 (the .const)
        ShaderOutputs o = run(code, 3f, 0.5f);
        assertEquals(2.5f, word(o, 0));
        Program p = program(code);
        assertEquals(
                p.code(), ProgramBinary.read("a.bin", ProgramBinary.write(p)).code());
        SimulationException soon = assertThrows(
                SimulationException.class, () -> run(code.replace("(rpt3)(nop1)nop", "(rpt3)nop"), 3f, 0.5f));
        assertTrue(
                soon.getMessage().startsWith("hazard at pc 5")
                        && soon.getMessage().contains("a0.x 5 cycles after the mova of pc 3"),
                soon.getMessage());
        SimulationException none =
                assertThrows(SimulationException.class, () -> run(code.replace("mova a0.x, r0.x", "nop"), 3f, 0.5f));
        assertTrue(none.getMessage().contains("before any mova wrote a0.x"), none.getMessage());
        ProgramException notMov = assertThrows(
                ProgramException.class,
                () -> program(code.replace("    end", "    rcp.f32 r0.w, c<a0.x + 1>\n    end")));
        assertTrue(
                notMov.getMessage().contains("c<a0.x + n> is read by mov, cat2 and cat3 instructions"),
                notMov.getMessage());
    }

    private static void assertMessage(byte[] bytes, String part) {
        ProgramException e = assertThrows(ProgramException.class, () -> ProgramBinary.read("x.bin", bytes));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    @Test
    void textErrorsAreLocated() {
        ProgramException e = assertThrows(
                ProgramException.class, () -> ProgramText.parse("t.s", HEADER + "    add.f32 r0.x, r1.x\n"));
        assertTrue(e.getMessage().startsWith("t.s:11:"), e.getMessage());
        ProgramException d = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse(
                        "t.s", HEADER.replace(".decl buffer u32 @out binding=0", ".decl buffer q32 @out binding=0")));
        assertTrue(d.getMessage().startsWith("t.s:3:"), d.getMessage());
        ProgramException s = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("t.s", HEADER.replace(".slot @out 0", ".slot @nope 0")));
        assertTrue(s.getMessage().startsWith("t.s:5:1: error: .slot names @nope"), s.getMessage());
        ProgramException z = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("t.s", HEADER.replace(".slot @out 0", ".slot @u.size 9")));
        assertTrue(
                z.getMessage().startsWith("t.s:5:1: error: .slot @u.size needs a buffer or an image declared as @u"),
                z.getMessage());
        ProgramException t = assertThrows(
                ProgramException.class,
                () -> ProgramText.parse("t.s", HEADER.replace(".slot @out 0", ".slot @out.tex 3")));
        assertTrue(
                t.getMessage().startsWith("t.s:5:1: error: .slot @out.tex needs an image declared as @out"),
                t.getMessage());
    }

    /** A buffer's size comes from the constant slot the driver writes (the bound buffer's length). */
    @Test
    void bufferSizeSlotsHoldTheBoundLength() {
        Program p = ProgramText.parse("t.s", HEADER.replace(".slot @out 0", ".slot @out 0\n.slot @out.size 9") + """
                    mov.u32u32 r0.x, c2.y
                    mov.u32u32 r0.y, 0
                    (nop3)nop
                    (nop3)nop
                    stg.u32.1 b0[r0.y], r0.x
                    end
                """);
        ShaderInputs in = new ShaderInputs().setBufferWords("out", 0, 0, 0);
        assertEquals(12, new Simulator(p).run(in).outputs().bufferWord("out", 0));
    }
}
