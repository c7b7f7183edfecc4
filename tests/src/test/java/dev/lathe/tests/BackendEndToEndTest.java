package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.backend.compile.Allocation;
import dev.lathe.backend.compile.CompileException;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.compile.Schedule;
import dev.lathe.backend.compile.Stats;
import dev.lathe.backend.compile.Target;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.program.Program;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.backend.sim.SimulationException;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.cli.Main;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.interp.Texture;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The backend end to end: every example's documented run cases give the documented outputs
 * when compiled and simulated ({@code lathe sim FILE.ir}), and seeded random programs give the
 * interpreter's outputs bit for bit.
 */
class BackendEndToEndTest {
    static final int PROGRAMS = 1000;

    static String cli(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return code == 0 ? out.toString() : "exit " + code + ": " + err;
    }

    @TestFactory
    Stream<DynamicNode> everyExampleRunsOnTheSimulator() throws IOException {
        List<DynamicNode> nodes = new ArrayList<>();
        for (Path p : ExamplesTest.examples()) {
            String name = p.getFileName().toString();
            List<DynamicNode> tests = new ArrayList<>();
            for (ExamplesTest.RunCase c : ExamplesTest.runCases(p)) {
                tests.add(DynamicTest.dynamicTest("sim at line " + c.line(), () -> {
                    List<String> argv = new ArrayList<>(List.of("sim", p.toString()));
                    argv.addAll(c.args());
                    assertEquals(
                            String.join("\n", c.expected()),
                            cli(argv.toArray(new String[0])).stripTrailing(),
                            p + ":" + c.line());
                }));
            }
            nodes.add(DynamicContainer.dynamicContainer(name, tests));
        }
        return nodes.stream();
    }

    /** The interpreter's run, tracking NaNs of open bits so that it can be compared under the NaN contract. */
    static ShaderOutputs interpret(Shader s, long seed) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed);
        Interpreter it = new Interpreter(s).trackNans();
        return s.stage() == Stage.COMPUTE ? it.dispatch(in, 2, 1, 1) : it.run(in);
    }

    static ShaderOutputs simulate(Program p, Shader declarations, long seed) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(declarations, seed);
        Simulator sim = new Simulator(p);
        return (p.shader().stage() == Stage.COMPUTE ? sim.dispatch(in, 2, 1, 1) : sim.run(in)).outputs();
    }

    /**
     * Random programs of the ops the target selects (loops, ifs, locals, vectors, integer and
     * float math), every one compared under the NaN contract (bit for bit, but a NaN a float
     * operation made may be any NaN): the simulated binary against the interpreter on the IR it
     * was selected from; and, compiled with every instruction exact (no {@code ~=>} rule fires),
     * against the interpreter on the unoptimized program. A reference run that reads the bits of
     * a NaN of open bits must match bit for bit or decides nothing; nearly all must decide.
     */
    @Test
    void randomProgramsAgreeWithTheInterpreter() {
        int decided = 0;
        for (long seed = 0; seed < PROGRAMS; seed++) {
            Options o = Options.mixed(seed).withWideSizes(false).withRandomOps(Target.IR3_LIKE.selectedOps());
            if (check(seed, o, true)) decided++;
        }
        assertTrue(decided * 100 >= PROGRAMS * 98, decided + " of " + PROGRAMS + " programs decided");
    }

    /**
     * The same random programs with {@code (rptN)} wherever the registers allow one ({@code rpt_all}
     * for {@code rpt}: no run refused because a member would wait), so that every merge the
     * encoding and the legalizer take is run in the simulator; the code is smaller than with the
     * default's timed merging.
     */
    @Test
    void randomProgramsWithEveryLegalRepeatAgree() {
        List<String> machine = new ArrayList<>(Pipelines.MACHINE);
        machine.set(machine.indexOf("rpt"), "rpt_all");
        Compiler.Options all = Compiler.Options.verifying().withMachine(machine);
        int decided = 0, repeated = 0;
        long dwordsAll = 0, dwordsTimed = 0;
        for (long seed = 0; seed < PROGRAMS; seed++) {
            Options o = Options.mixed(seed).withWideSizes(false).withRandomOps(Target.IR3_LIKE.selectedOps());
            Checked c = check(seed, o, true, all);
            if (c.decided()) decided++;
            dwordsAll += c.stats().dwords();
            dwordsTimed += Compiler.compile(RandomProgramGenerator.generate(seed, o), Compiler.Options.defaults())
                    .machine()
                    .stats()
                    .dwords();
            for (MInstr i : c.program().code()) if (i.rpt() > 0 && i.op() != MOp.NOP) repeated++;
        }
        assertTrue(decided * 100 >= PROGRAMS * 98, decided + " of " + PROGRAMS + " programs decided");
        assertTrue(repeated > PROGRAMS, repeated + " repeated ALU instructions in " + PROGRAMS + " programs");
        assertTrue(
                dwordsAll <= dwordsTimed,
                dwordsAll + " dwords with every repeat, " + dwordsTimed + " with the timed ones");
    }

    /**
     * With 8- to 64-bit values: 64-bit integer arithmetic runs on 32-bit pieces. What the target
     * does not lower yet (64-bit division and bit ops) must fail with the clear message, and
     * stay rare.
     */
    @Test
    void randomProgramsWithWideValuesAgreeOrSayWhatIsMissing() {
        int unsupported = 0;
        for (long seed = 0; seed < PROGRAMS / 2; seed++) {
            Options o = Options.mixed(seed).withRandomOps(Target.IR3_LIKE.selectedOps());
            try {
                check(seed, o, false);
            } catch (CompileException e) {
                assertTrue(
                        e.getMessage().contains("not supported by the target: "),
                        "seed " + seed + ": " + e.getMessage());
                unsupported++;
            }
        }
        assertTrue(unsupported * 10 <= PROGRAMS / 2, unsupported + " of " + PROGRAMS / 2 + " programs did not compile");
    }

    /**
     * Compiles and runs one program: the binary must keep the NaN contract against the IR it was
     * selected from, and, compiled with every instruction exact, against the unoptimized
     * program. Returns whether both comparisons decided.
     */
    static boolean check(long seed, Options o, boolean wrapErrors) {
        return check(seed, o, wrapErrors, Compiler.Options.verifying()).decided();
    }

    /** What {@link #check} found: whether both comparisons decided, and the statistics of the usual compile. */
    record Checked(boolean decided, Stats stats, Program program) {}

    /** {@link #check(long, Options, boolean)} with register allocation working as {@code allocation} says. */
    static Checked check(long seed, Options o, boolean wrapErrors, Allocation allocation) {
        return check(seed, o, wrapErrors, Compiler.Options.verifying().withAllocation(allocation));
    }

    /** {@link #check(long, Options, boolean)} compiled with {@code options}. */
    static Checked check(long seed, Options o, boolean wrapErrors, Compiler.Options options) {
        Shader s = RandomProgramGenerator.generate(seed, o);
        String before = IrPrinter.print(s);
        ShaderOutputs original = interpret(IrParser.parse("before.ir", before), seed);
        MachineCompiler.Result r = compile(s, seed, before, wrapErrors, options);
        boolean decided = compare(
                interpret(r.optimized(), seed), r, seed, "the IR it was compiled from", IrPrinter.print(r.optimized()));
        Shader exact = IrParser.parse("exact.ir", before);
        for (Instr i : exact.entryPoint().instructions()) {
            if (i instanceof AluInstr alu) alu.setExact(true);
        }
        MachineCompiler.Result strict = compile(exact, seed, before, wrapErrors, options);
        decided &=
                compare(original, strict, seed, "the unoptimized IR (compiled with every instruction exact)", before);
        return new Checked(decided, r.stats(), r.program());
    }

    private static MachineCompiler.Result compile(
            Shader s, long seed, String before, boolean wrapErrors, Compiler.Options options) {
        try {
            return Compiler.compile(s, options).machine();
        } catch (CompileException e) {
            if (!wrapErrors) throw e;
            throw new AssertionError("seed " + seed + ": " + e.getMessage() + "\n" + before, e);
        } catch (RuntimeException e) {
            throw new AssertionError("seed " + seed + ": " + e + "\n" + before, e);
        }
    }

    /** The binary against a reference run under the NaN contract; whether the comparison decided. */
    private static boolean compare(
            ShaderOutputs reference, MachineCompiler.Result r, long seed, String what, String referenceIr) {
        ShaderOutputs machine;
        try {
            machine = simulate(r.program(), r.optimized(), seed);
        } catch (SimulationException e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage() + "\n" + ProgramText.print(r.program()), e);
        }
        ShaderOutputs.Comparison c = reference.compareUnderNanContract(machine);
        assertTrue(
                c.kind() != ShaderOutputs.Comparison.Kind.BROKEN,
                () -> "seed " + seed + ": the binary disagrees with " + what + " (" + c.detail() + ")\n" + referenceIr
                        + "\n" + ProgramText.print(r.program()));
        return c.kind() == ShaderOutputs.Comparison.Kind.KEPT;
    }

    /**
     * Every atomic on a buffer, on shared memory and on an image texel, two workgroups of eight invocations hitting
     * the same words with random data (some addresses out of range): the simulated binary gives
     * the interpreter's outputs, returned words and final memory both.
     */
    @TestFactory
    Stream<DynamicTest> everyAtomicAgreesWithTheInterpreter() {
        List<DynamicTest> tests = new ArrayList<>();
        for (AtomicOp op : AtomicOp.values()) {
            String name = op.name().toLowerCase(Locale.ROOT);
            String cmp = op.hasCompare() ? "%c, " : "";
            Shader s = IrParser.parse(name + ".ir", """
                    shader compute workgroup_size(8, 1, 1)
                    buffer u32 @in binding=0
                    buffer u32 @b binding=1
                    buffer u32 @out binding=2
                    shared u32 @s[4]
                    function main {
                      vec3 32 %gid = load_global_invocation_id
                      vec1 32 %g = mov %gid.x
                      vec3 32 %lid = load_local_invocation_id
                      vec1 32 %l = mov %lid.x
                      vec1 32 %four = load_const (4)
                      vec1 32 %three = load_const (3)
                      vec1 32 %seven = load_const (7)
                      vec1 32 %goff = imul %g, %four
                      vec1 32 %x = load_buffer @in, %goff
                      vec1 32 %k4 = load_const (4)
                      vec1 32 %xs = ushr %x, %k4
                      vec1 32 %c = iand %xs, %three
                      vec1 32 %k29 = load_const (29)
                      vec1 32 %hi = ushr %x, %k29
                      vec1 32 %idx = iand %hi, %seven
                      vec1 32 %boff = imul %idx, %four
                      vec1 32 %old = buffer_atomic_OP @b, %boff, CMP%x
                      store_buffer @out, %goff, %old
                      vec1 32 %sold = shared_atomic_OP @s, %idx, CMP%x
                      barrier
                      vec1 32 %li = iand %l, %three
                      vec1 32 %v = load_shared @s, %li
                      vec1 32 %k16 = load_const (16)
                      vec1 32 %o2 = iadd %g, %k16
                      vec1 32 %o2b = imul %o2, %four
                      store_buffer @out, %o2b, %sold
                      vec1 32 %k32 = load_const (32)
                      vec1 32 %o3 = iadd %g, %k32
                      vec1 32 %o3b = imul %o3, %four
                      store_buffer @out, %o3b, %v
                    }
                    """.replace("OP", name).replace("CMP", cmp));
            tests.add(DynamicTest.dynamicTest(name, () -> {
                MachineCompiler.Result r = Compiler.compile(s);
                for (long seed = 0; seed < 20; seed++) {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    long[] in = new long[16], b = new long[6];
                    for (int i = 0; i < in.length; i++) in[i] = rnd.nextLong(1L << 32);
                    for (int i = 0; i < b.length; i++) b[i] = rnd.nextInt(4);
                    ShaderInputs inputs = new ShaderInputs()
                            .setBufferWords("in", in)
                            .setBufferWords("b", b)
                            .setBufferWords("out", new long[48]);
                    ShaderOutputs want = new Interpreter(s).dispatch(inputs, 2, 1, 1);
                    ShaderOutputs got =
                            new Simulator(r.program()).dispatch(inputs, 2, 1, 1).outputs();
                    long finalSeed = seed;
                    assertTrue(want.sameAs(got), () -> name + " seed " + finalSeed + ":\n" + want + "\n" + got);
                }
            }));
            // on an r32ui image: texel (x mod 3, 0) of a 2x1 image, so some invocations fall outside
            Shader img = IrParser.parse(
                    "image_" + name + ".ir", """
                    shader compute workgroup_size(8, 1, 1)
                    buffer u32 @in binding=0
                    buffer u32 @out binding=1
                    image 2d u32 @img binding=0 r32ui
                    function main {
                      vec3 32 %gid = load_global_invocation_id
                      vec1 32 %g = mov %gid.x
                      vec1 32 %four = load_const (4)
                      vec1 32 %three = load_const (3)
                      vec1 32 %goff = imul %g, %four
                      vec1 32 %x = load_buffer @in, %goff
                      vec1 32 %c = iand %x, %three
                      vec1 32 %cx = umod %g, %three
                      vec1 32 %zero = load_const (0)
                      vec2 32 %xy = vec2 %cx, %zero
                      vec1 32 %old = image_atomic_OP @img, %xy, CMP%x
                      store_buffer @out, %goff, %old
                    }
                    """.replace("OP", name).replace("CMP", cmp));
            tests.add(DynamicTest.dynamicTest("image_" + name, () -> {
                MachineCompiler.Result r = Compiler.compile(img);
                for (long seed = 0; seed < 20; seed++) {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    long[] in = new long[16], texels = new long[8];
                    for (int i = 0; i < in.length; i++)
                        in[i] = rnd.nextInt(3) == 0 ? rnd.nextInt(4) : rnd.nextLong(1L << 32);
                    for (int i = 0; i < texels.length; i++) texels[i] = rnd.nextInt(4);
                    ShaderInputs inputs = new ShaderInputs()
                            .setBufferWords("in", in)
                            .setBufferWords("out", new long[16])
                            .setTexture("img", new Texture(2, 1, 1, texels));
                    ShaderOutputs want = new Interpreter(img).dispatch(inputs, 2, 1, 1);
                    ShaderOutputs got =
                            new Simulator(r.program()).dispatch(inputs, 2, 1, 1).outputs();
                    long finalSeed = seed;
                    assertTrue(
                            want.sameAs(got),
                            () -> "image " + name + " seed " + finalSeed + ": " + want.firstDifference(got));
                }
            }));
        }
        return tests.stream();
    }

    /**
     * Uniforms beyond the 2048-scalar constant file: the largest arrays move to uniform memory
     * (read with ldc from c2048 on), at constant and run-time indices, and the program text keeps
     * their slots; the binary gives the interpreter's outputs.
     */
    @Test
    void uniformsBeyondTheConstantFileComeFromUniformMemory() throws Exception {
        Shader s = IrParser.parse("big.ir", """
                shader compute workgroup_size(4, 1, 1)
                uniform vec4 f32 @bones[400] location=0
                uniform vec4 f32 @more[200] location=400
                uniform f32 @scale location=600
                buffer f32 @out binding=0
                function main {
                  vec3 32 %gid = load_global_invocation_id
                  vec1 32 %g = mov %gid.x
                  vec1 32 %k7 = load_const (7)
                  vec1 32 %i = imul %g, %k7
                  vec4 32 %a = load_uniform @bones, %i
                  vec1 32 %c399 = load_const (399)
                  vec4 32 %b = load_uniform @bones, %c399
                  vec4 32 %m = load_uniform @more, %g
                  vec1 32 %sc = load_uniform @scale
                  vec1 32 %x = fadd %a.x, %b.w
                  vec1 32 %y = fmul %x, %sc
                  vec1 32 %z = fadd %y, %m.z
                  vec1 32 %four = load_const (4)
                  vec1 32 %off = imul %g, %four
                  store_buffer @out, %off, %z
                }
                """);
        MachineCompiler.Result r = Compiler.compile(s);
        assertTrue(r.program().slots().get("bones") >= 2048, r.program().slots().toString());
        assertTrue(r.stats().constlen() <= 512, "constlen " + r.stats().constlen());
        Program reread = ProgramText.parse("big.s", ProgramText.print(r.program()));
        assertEquals(r.program().slots(), reread.slots());
        for (long seed = 0; seed < 10; seed++) {
            ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed).setBufferWords("out", new long[8]);
            ShaderOutputs want = new Interpreter(s).dispatch(in, 2, 1, 1);
            ShaderOutputs got = new Simulator(reread).dispatch(in, 2, 1, 1).outputs();
            long finalSeed = seed;
            assertTrue(want.sameAs(got), () -> "seed " + finalSeed + ": " + want.firstDifference(got));
        }
    }

    @Test
    void removingALegalizationNopIsCaughtBySimulation() throws IOException {
        Shader s = IrParser.parse(
                "lambert.ir", Files.readString(ExamplesTest.root().resolve("examples/ir/lambert.ir")));
        Program p = Compiler.compile(s).program();
        List<MInstr> code = new ArrayList<>(p.code());
        int at = -1;
        for (int i = 0; i < code.size() && at < 0; i++) if (code.get(i).nop() > 0) at = i;
        assertTrue(at >= 0, "lambert compiles to code with a (nopN)");
        code.set(at, code.get(at).withNop(0));
        Program broken =
                new Program(p.shader(), p.slots(), p.constants(), p.localBytes(), p.privateBytes(), p.loops(), code);
        ShaderInputs in =
                new ShaderInputs().set("normal", 0, 0, 0x3f800000L).set("light_dir", 0, 0x3f19999aL, 0x3f4ccccdL);
        SimulationException e = assertThrows(SimulationException.class, () -> new Simulator(broken).run(in));
        assertTrue(e.getMessage().startsWith("hazard at pc "), e.getMessage());
        new Simulator(p).run(in); // the real one runs
    }

    /** Register allocation on the selected order: the scheduler would take the pressure down first. */
    private static final Compiler.Options UNSCHEDULED =
            Compiler.Options.defaults().withMachine(Pipelines.machine(Set.of("sched")));

    @Test
    void pressureAboveTheRegisterFileSpills() {
        // n values all live at once: below 192 nothing spills, above it values go to private memory and come back
        MachineCompiler.Result fits = Compiler.compile(wide(180), UNSCHEDULED).machine();
        assertEquals(
                0, fits.stats().spills() + fits.stats().fills(), fits.stats().line("wide(180)"));
        MachineCompiler.Result r = Compiler.compile(wide(200), UNSCHEDULED).machine();
        assertTrue(
                r.stats().maxLive() > 192
                        && r.stats().spills() > 0
                        && r.stats().stp() > 0
                        && r.stats().ldp() > 0,
                r.stats().line("wide(200)"));
        assertTrue(
                r.program().privateBytes() >= 4 * r.stats().spills(),
                ".private " + r.program().privateBytes());
        for (long seed = 0; seed < 2; seed++) {
            assertTrue(
                    interpret(r.optimized(), seed).sameAs(simulate(r.program(), r.optimized(), seed)),
                    "input set " + seed);
        }
    }

    @Test
    void theSchedulerTakesPressureDownBeforeAllocation() {
        // selection loads all 200 words first; the scheduler moves each load next to its use
        MachineCompiler.Result r = Compiler.compile(wide(200));
        assertTrue(
                r.stats().maxLive() <= Schedule.PRESSURE_LIMIT,
                "MaxLive " + r.stats().maxLive());
        for (long seed = 0; seed < 2; seed++) {
            assertTrue(
                    interpret(r.optimized(), seed).sameAs(simulate(r.program(), r.optimized(), seed)),
                    "input set " + seed);
        }
    }

    /** A compute shader loading n buffer words, then summing them in an order that keeps all live. */
    private static Shader wide(int n) {
        StringBuilder sb =
                new StringBuilder("shader compute workgroup_size(1, 1, 1)\nbuffer u32 @b binding=0\nfunction main {\n");
        for (int i = 0; i < n; i++) {
            sb.append("  vec1 32 %o")
                    .append(i)
                    .append(" = load_const (")
                    .append(i * 4)
                    .append(")\n");
            sb.append("  vec1 32 %v")
                    .append(i)
                    .append(" = load_buffer @b, %o")
                    .append(i)
                    .append("\n");
        }
        sb.append("  vec1 32 %s0 = imul %v0, %v").append(n - 1).append("\n");
        for (int i = 1; i < n; i++)
            sb.append("  vec1 32 %s")
                    .append(i)
                    .append(" = imul %s")
                    .append(i - 1)
                    .append(", %v")
                    .append(n - 1 - i)
                    .append("\n");
        sb.append("  vec1 32 %z = load_const (0)\n  store_buffer @b, %z, %s")
                .append(n - 1)
                .append("\n}\n");
        return IrParser.parse("wide.ir", sb.toString());
    }

    /**
     * Around the register file's size, with 64-bit pairs (aligned), scalars and texels (four in a
     * row) live together so free registers fragment: every program compiles and gives the
     * interpreter's outputs, and spills exactly when its MaxLive does not fit 192.
     */
    @Test
    void fragmentedPressureSpillsOnlyPastTheFile() {
        int fit = 0, spilled = 0;
        for (int n = 40; n <= 76; n += 3) {
            Shader s = mixed(n);
            String text = IrPrinter.print(s);
            MachineCompiler.Result r = Compiler.compile(s, UNSCHEDULED).machine();
            Stats st = r.stats();
            if (st.maxLive() <= 192) {
                assertEquals(0, st.spills() + st.fills(), "n " + n + ": " + st.line("mixed"));
                fit++;
            } else {
                assertTrue(st.spills() > 0, "n " + n + ": " + st.line("mixed"));
                spilled++;
            }
            for (long seed = 0; seed < 3; seed++) {
                long k = seed;
                int nn = n;
                assertTrue(
                        interpret(r.optimized(), seed).sameAs(simulate(r.program(), r.optimized(), seed)),
                        () -> "n " + nn + ", input set " + k + ": the binary disagrees\n" + text);
            }
        }
        assertTrue(
                fit >= 3 && spilled >= 3, "the sweep should cross the limit: " + fit + " fit, " + spilled + " spilled");
    }

    /** n 64-bit words and n 32-bit words loaded, a texel fetched, then all folded together (all live at once). */
    private static Shader mixed(int n) {
        StringBuilder sb = new StringBuilder("shader compute workgroup_size(1, 1, 1)\ntexture 2d f32 @t binding=1\n"
                + "buffer u32 @b binding=0\nbuffer u64 @w binding=2\nfunction main {\n");
        for (int i = 0; i < n; i++) {
            sb.append("  vec1 32 %o")
                    .append(i)
                    .append(" = load_const (")
                    .append(i * 8)
                    .append(")\n");
            sb.append("  vec1 64 %p")
                    .append(i)
                    .append(" = load_buffer @w, %o")
                    .append(i)
                    .append("\n");
            sb.append("  vec1 32 %v")
                    .append(i)
                    .append(" = load_buffer @b, %o")
                    .append(i)
                    .append("\n");
        }
        sb.append("  vec2 32 %uv = load_const (0.5, 0.5)\n  vec4 32 %tx = tex @t, %uv\n");
        sb.append("  vec1 32 %f0 = iadd %tx.x, %tx.w\n");
        sb.append("  vec1 64 %q0 = ixor %p0, %p").append(n - 1).append("\n");
        for (int i = 1; i < n; i++) {
            sb.append("  vec1 64 %q")
                    .append(i)
                    .append(" = ixor %q")
                    .append(i - 1)
                    .append(", %p")
                    .append(n - 1 - i)
                    .append("\n");
            sb.append("  vec1 32 %f")
                    .append(i)
                    .append(" = iadd %f")
                    .append(i - 1)
                    .append(", %v")
                    .append(n - 1 - i)
                    .append("\n");
        }
        sb.append("  vec1 32 %lo = unpack_64_2x32_split_x %q").append(n - 1).append("\n");
        sb.append("  vec1 32 %sum = iadd %lo, %f").append(n - 1).append("\n");
        sb.append("  vec1 32 %z = load_const (0)\n  store_buffer @b, %z, %sum\n}\n");
        return IrParser.parse("mixed.ir", sb.toString());
    }
}
