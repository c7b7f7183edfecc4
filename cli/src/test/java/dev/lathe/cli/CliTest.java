package dev.lathe.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest {

    record Result(int code, String out, String err) {}

    static Result lathe(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static final String SHADER = """
            shader fragment
            input vec2 f32 @v
            output f32 @o
            function main {
              vec2 32 %v = load_input @v
              vec1 32 %s = fadd %v.x, %v.y
              store_output @o, %s
            }
            """;

    private static void noStackTrace(Result r) {
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception in thread"), "stack trace in: " + r.err());
    }

    /**
     * A driver that crashes costs one shader a verdict, not the run: the worker handed
     * {@code a_crash.frag.spv} calls native address 0 (the test hook {@code lathe.vulkan.crash-on}),
     * as a SIGSEGV in a driver would; the shader after it runs in a new worker and agrees.
     */
    @Test
    void aDriverCrashCostsOneShader() throws IOException {
        Result r = withWorkerHook(VulkanWorker.CRASH_ON, "a_crash");
        assertTrue(
                r.out().contains("CRASHED vulkan ")
                        && r.out().contains("a_crash.frag.spv: crashed the driver: the oracle's process ended with "),
                r.out());
        assertTrue(
                r.out()
                        .contains(
                                "vulkan: 1 agree, 0 disagree, 0 with too few decided input sets, 0 not run, 1 crashed the driver"),
                r.out());
    }

    /** A driver that hangs is killed after --vulkan-timeout, and costs one shader too (the test hook {@code lathe.vulkan.hang-on}). */
    @Test
    void aHungDriverCostsOneShader() throws IOException {
        Result r = withWorkerHook(VulkanWorker.HANG_ON, "a_hang", "--vulkan-timeout", "3");
        assertTrue(
                r.out().contains("a_hang.frag.spv: crashed the driver: no answer in 3 s (--vulkan-timeout)"), r.out());
        Result bad = lathe("shaderdb", dir.toString(), "--check-vulkan", "2", "--vulkan-timeout", "0");
        assertTrue(bad.code() != 0 && bad.err().contains("--vulkan-timeout must be at least 1"), bad.err());
        noStackTrace(bad);
    }

    /**
     * {@code lathe shaderdb --check-vulkan 2} on lambert.frag as {@code NAME.frag.spv} and then as
     * {@code b_lambert.frag.spv}, the worker's test hook {@code property} set to NAME: the run
     * exits 1, and the second shader, in a new worker, agrees.
     */
    private Result withWorkerHook(String property, String name, String... more) throws IOException {
        Path shaders = Path.of(System.getProperty("lathe.root", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("examples/shaders");
        Path corpus = Files.createTempDirectory(dir, "worker"); // not named NAME: the hook matches the path
        Files.copy(shaders.resolve("lambert.frag.spv"), corpus.resolve(name + ".frag.spv"));
        Files.copy(shaders.resolve("lambert.frag.spv"), corpus.resolve("b_lambert.frag.spv"));
        List<String> args =
                new java.util.ArrayList<>(List.of("shaderdb", corpus.toString(), "--check-vulkan", "2", "--no-times"));
        args.addAll(List.of(more));
        System.setProperty(property, name);
        Result r;
        try {
            r = lathe(args.toArray(String[]::new));
        } finally {
            System.clearProperty(property);
        }
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("b_lambert.frag.spv: agree (2 decided sets of "), r.out());
        noStackTrace(r);
        return r;
    }

    /**
     * --check-vulkan runs SPIR-V on lavapipe (the CI installs it), skips textual IR, and exits 1 when
     * a shader disagrees: here cube_array.frag, which meets lavapipe's cube array layer deviation
     * (vulkan/README.md), beside lambert.frag, which agrees.
     */
    @Test
    void shaderdbChecksOnVulkan() throws IOException {
        Path shaders = Path.of(System.getProperty("lathe.root", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("examples/shaders");
        Path corpus = Files.createDirectory(dir.resolve("corpus"));
        Files.copy(shaders.resolve("lambert.frag.spv"), corpus.resolve("lambert.frag.spv"));
        Files.writeString(corpus.resolve("x.ir"), SHADER);
        Result agree = lathe("shaderdb", corpus.toString(), "--check-vulkan", "4", "--no-times");
        assertEquals(0, agree.code(), agree.out() + agree.err());
        assertTrue(agree.out().contains("lambert.frag.spv: agree (4 decided sets of "), agree.out());
        assertTrue(
                agree.out()
                        .contains(
                                "vulkan: 1 agree, 0 disagree, 0 with too few decided input sets, 0 not run, 1 textual IR skipped"),
                agree.out());
        Files.copy(shaders.resolve("cube_array.frag.spv"), corpus.resolve("cube_array.frag.spv"));
        // the deviation needs a layer near -2^31, which about one input set in twenty draws
        Result disagree = lathe("shaderdb", corpus.toString(), "--check-vulkan", "32", "--no-times");
        assertEquals(1, disagree.code(), disagree.out());
        assertTrue(
                disagree.out().contains("DISAGREES vulkan ")
                        && disagree.out().contains("cube_array.frag.spv: input set "),
                disagree.out());
        Result devices = lathe("vulkan-devices");
        assertEquals(0, devices.code(), devices.err());
        assertTrue(devices.out().matches("(?s)0: .*, driver .*"), devices.out());
        Result named = lathe(
                "shaderdb",
                corpus.resolve("lambert.frag.spv").toString(),
                "--check-vulkan",
                "1",
                "--vulkan-device",
                "llvmpipe");
        assertEquals(0, named.code(), named.out() + named.err());
        assertTrue(named.out().contains("vulkan: llvmpipe") && named.out().contains(", driver "), named.out());
        Result none = lathe("shaderdb", corpus.toString(), "--check-vulkan", "1", "--vulkan-device", "no such gpu");
        assertTrue(
                none.code() != 0
                        && none.err().contains("no Vulkan device 'no such gpu'; the loader sees:")
                        && none.err().contains("0: "),
                none.err());
        noStackTrace(none);
        Result alone = lathe("shaderdb", corpus.toString(), "--vulkan-device", "0");
        assertTrue(alone.code() != 0 && alone.err().contains("--vulkan-device needs --check-vulkan N"), alone.err());
        Result bad = lathe("shaderdb", corpus.toString(), "--check-vulkan", "-1");
        assertTrue(
                bad.code() != 0 && bad.err().contains("lathe shaderdb: --check-vulkan must be 0 or more"), bad.err());
        noStackTrace(bad);
    }

    @Test
    void opsListsOneOpPerLine() {
        Result r = lathe("ops");
        assertEquals(0, r.code());
        String[] lines = r.out().split("\n");
        assertTrue(lines.length >= 150, "ops: " + lines.length);
        assertTrue(r.out().contains("\nfadd "), r.out());
        assertTrue(r.out().contains("pack_64_2x32_split_y"), r.out());
    }

    @Test
    void printIsCanonicalAndStable() throws IOException {
        Path p = file("a.ir", SHADER);
        Result first = lathe("print", p.toString());
        assertEquals(0, first.code(), first.err());
        assertTrue(first.out().contains("vec1 32 %1 = fadd %0.x, %0.y"), first.out());
        Path q = file("b.ir", first.out());
        assertEquals(first.out(), lathe("print", q.toString()).out());
    }

    @Test
    void runPrintsOutputs() throws IOException {
        Path p = file("a.ir", SHADER);
        Result r = lathe("run", p.toString(), "--input", "v=1.5,2.25");
        assertEquals(0, r.code(), r.err());
        assertEquals("@o = f32 (3.75)\n", r.out());
        Result hex = lathe("run", p.toString(), "--input", "@v=1,2", "--hex");
        assertEquals("@o = f32 (3.0) [0x40400000]\n", hex.out());
    }

    @Test
    void validateReportsOkAndErrors() throws IOException {
        Path good = file("good.ir", SHADER);
        Path bad = file("bad.ir", SHADER.replace("fadd %v.x, %v.y", "fadd %v.x, %v.q"));
        Path broken = file("broken.ir", SHADER.replace("vec1 32 %s = fadd %v.x, %v.y", "vec1 32 %s = fadd %v.x, %w.y"));
        Path sizes = file("sizes.ir", SHADER.replace("vec1 32 %s = fadd", "vec1 16 %s = fadd"));
        assertEquals(0, lathe("validate", good.toString()).code());
        Result r1 = lathe("validate", bad.toString());
        assertEquals(1, r1.code());
        assertEquals(
                bad + ":6:30: error: 'q' is not a swizzle (use xyzw, or a–p beyond 4 components)",
                r1.err().split("\n")[0]);
        Result r2 = lathe("validate", broken.toString());
        assertEquals(1, r2.code());
        assertTrue(r2.err().startsWith(broken + ":6:27: error: undefined value %w"), r2.err());
        Result r3 = lathe("validate", sizes.toString());
        assertEquals(1, r3.code());
        assertTrue(r3.err().startsWith(sizes + ":6:3: error: source 1 of fadd has 32 bits, expected 16"), r3.err());
        noStackTrace(r1);
        noStackTrace(r2);
        noStackTrace(r3);
    }

    @Test
    void brokenSsaIsALocatedOneLineError() throws IOException {
        Path p = file("ssa.ir", """
                shader fragment
                output f32 @o
                function main {
                  vec1 32 %a = fneg %b
                  vec1 32 %b = load_const (1.0)
                  store_output @o, %a
                }
                """);
        Result r = lathe("run", p.toString());
        assertEquals(1, r.code());
        assertEquals(
                p + ":4:3: error: uses a value whose definition 'vec1 32 %1 = load_const (0x3f800000 /* 1.0 */)'"
                        + " does not dominate it [ssa-dominance]\n",
                r.err());
    }

    @Test
    void badArgumentsGiveMessagesAndNonZeroExits() throws IOException {
        Path p = file("a.ir", SHADER);
        Result unknownInput = lathe("run", p.toString(), "--input", "nope=1");
        assertEquals(1, unknownInput.code());
        assertEquals("lathe run: --input nope: the shader has no input or uniform @nope\n", unknownInput.err());
        Result count = lathe("run", p.toString(), "--input", "v=1");
        assertEquals("lathe run: --input v (vec2 f32): expected 2 value(s), got 1\n", count.err());
        Result value = lathe("run", p.toString(), "--input", "v=1,abc");
        assertEquals("lathe run: --input v (vec2 f32): value 2: 'abc' is not a number\n", value.err());
        Result missing = lathe("print", dir.resolve("missing.ir").toString());
        assertEquals(1, missing.code());
        assertEquals(dir.resolve("missing.ir") + ": no such file\n", missing.err());
        Path latin1 = dir.resolve("latin1.ir");
        Files.write(latin1, "shader compute\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Result notUtf8 = lathe("print", latin1.toString());
        assertEquals(1, notUtf8.code());
        assertTrue(notUtf8.err().startsWith(latin1 + ":2:6: error: not valid UTF-8 here (byte 0xE9)"), notUtf8.err());
        assertTrue(notUtf8.err().contains("\n       ^"), "the caret is under the bad byte: " + notUtf8.err());
        Result ext = lathe("print", file("x.txt", "hi").toString());
        assertTrue(ext.err().contains("unsupported input (expected .ir, .spv, .vert, .frag or .comp)"), ext.err());
        Result option = lathe("run", p.toString(), "--bogus");
        assertEquals(2, option.code());
        assertTrue(option.err().startsWith("lathe: Unknown option: '--bogus'"), option.err());
        Result noCommand = lathe();
        assertEquals(2, noCommand.code());
        Result compute = lathe("run", p.toString(), "--invocation", "0,0,0");
        assertEquals("lathe run: --invocation, --workgroup and --dispatch are for compute shaders\n", compute.err());
        for (Result r : new Result[] {unknownInput, count, value, missing, ext, option, noCommand, compute})
            noStackTrace(r);
    }

    @Test
    void loopLimitIsAnErrorNotAHang() throws IOException {
        Path p = file("spin.ir", """
                shader fragment
                function main {
                  loop {
                  }
                }
                """);
        Result r = lathe("run", p.toString(), "--iteration-limit", "1000");
        assertEquals(1, r.code());
        assertEquals(p + ": loop iteration limit of 1000 reached (loop at " + p + ":3:3)\n", r.err());
    }

    @Test
    void everyCommandHasHelp() {
        for (String c : new String[] {"ops", "print", "validate", "run"}) {
            Result r = lathe(c, "--help");
            assertEquals(0, r.code(), c);
            assertTrue(r.out().startsWith("Usage: lathe " + c), r.out());
        }
        assertEquals(0, lathe("--help").code());
    }

    @Test
    void computeDispatchAndBuffers() throws IOException {
        Path p = file("c.ir", """
                shader compute workgroup_size(2, 1, 1)
                buffer i32 @data binding=0
                function main {
                  vec3 32 %g = load_global_invocation_id
                  vec1 32 %x = mov %g.x
                  vec1 32 %four = load_const (4)
                  vec1 32 %off = imul %x, %four
                  vec1 32 %v = load_buffer @data, %off
                  vec1 32 %n = ineg %v
                  store_buffer @data, %off, %n
                }
                """);
        Result r = lathe("run", p.toString(), "--buffer", "data=1,-2,3,4", "--dispatch", "2");
        assertEquals(0, r.code(), r.err());
        assertEquals("@data = i32[4] (-1, 2, -3, -4)\n", r.out());
    }

    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("examples/asm/sum_loop.s"))) p = p.getParent();
        return p;
    }

    @Test
    void asmDisasmAndSimRoundTrip() throws IOException {
        Path src = repoRoot().resolve("examples/asm/sum_loop.s");
        Path bin = dir.resolve("sum.bin");
        Result a = lathe("asm", src.toString(), "-o", bin.toString());
        assertEquals(0, a.code(), a.err());
        Result d = lathe("disasm", bin.toString());
        assertEquals(0, d.code(), d.err());
        Path again = file("again.s", d.out());
        Path bin2 = dir.resolve("again.bin");
        assertEquals(0, lathe("asm", again.toString(), "-o", bin2.toString()).code());
        assertArrayEquals(Files.readAllBytes(bin), Files.readAllBytes(bin2));
        for (String f : new String[] {src.toString(), bin.toString()}) {
            Result r = lathe("sim", f, "--input", "n=10", "--buffer-size", "out=8");
            assertEquals(0, r.code(), r.err());
            assertEquals("@out = u32[2] (45, 1036831949)\n", r.out());
        }
    }

    @Test
    void simReportsHazardsAndBadFilesWithoutStackTraces() throws IOException {
        String text = Files.readString(repoRoot().resolve("examples/asm/sum_loop.s"));
        Path broken = file("broken.s", text.replace("    (nop2)nop\n    br !p0.x", "    br !p0.x"));
        Result r = lathe("sim", broken.toString(), "--input", "n=3", "--buffer-size", "out=8");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("hazard at pc 4 (br !p0.x, #+7): reads p0.x 1 cycle after pc 3 wrote it"), r.err());
        noStackTrace(r);
        Path bad = file("bad.s", text.replace("add.u32 r0.y, r0.y, r0.x", "add.u32 r0.y, r0.y"));
        Result b = lathe("asm", bad.toString());
        assertEquals(1, b.code());
        assertTrue(b.err().contains("bad.s:22:"), b.err());
        noStackTrace(b);
        Path junk = file("junk.bin", "not a binary at all");
        Result j = lathe("disasm", junk.toString());
        assertTrue(j.err().contains("not a Lathe binary"), j.err());
        Path x = file("x.ir", SHADER);
        Result sim = lathe("sim", x.toString(), "--input", "v=1.5,2");
        assertEquals(0, sim.code(), sim.err());
        assertEquals(lathe("run", x.toString(), "--input", "v=1.5,2").out(), sim.out());
        Result stats = lathe("compile", x.toString(), "--emit", "stats");
        assertTrue(
                stats.out().startsWith("x.ir: ")
                        && stats.out().contains(" inst, ")
                        && stats.out().contains(" waves, "),
                stats.out());
        Result unsupported = lathe(
                "compile",
                file("y.ir", SHADER.replace("fadd %v.x, %v.y", "frem %v.x, %v.y"))
                        .toString());
        assertEquals(1, unsupported.code());
        assertTrue(unsupported.err().contains("not supported by the target: frem"), unsupported.err());
        noStackTrace(unsupported);
    }

    @Test
    void compilePrintsTimesAndVerifiesBothPipelines() throws IOException {
        Path x = file("x.ir", SHADER);
        Result r = lathe("compile", x.toString(), "--print-after", "regalloc", "--time-passes", "--verify-each");
        assertEquals(0, r.code(), r.err());
        int after = r.out().indexOf("// after regalloc\nb0:\n"), fin = r.out().indexOf("// final\n.shader fragment");
        assertTrue(after >= 0 && fin > after, r.out());
        assertFalse(
                r.out().substring(after, fin).matches("(?s).*\\bv\\d.*"),
                "virtual registers left after regalloc:\n" + r.out());
        for (String pass :
                new String[] {"algebraic", "lower_alu_to_scalar", "isel", "regalloc", "linearize", "legalize", "total"
                }) {
            assertTrue(r.err().contains("\n" + pass + " "), pass + " in:\n" + r.err());
        }
        Result isel = lathe("compile", x.toString(), "--print-after", "isel");
        assertTrue(isel.out().matches("(?s)// after isel\nb0:\n.*add\\.f32 v\\d+, v\\d+, v\\d+\n.*"), isel.out());
        Result all = lathe("compile", x.toString(), "--print-after-all");
        for (String pass : new String[] {"vars_to_ssa", "sink_constants", "dce", "isel", "legalize"}) {
            assertTrue(all.out().contains("// after " + pass), pass + " in:\n" + all.out());
        }
        Result unknown = lathe("compile", x.toString(), "--print-after", "schedule");
        assertEquals(1, unknown.code());
        assertTrue(
                unknown.err().startsWith("--print-after: unknown pass 'schedule' (IR passes: ")
                        && unknown.err().contains("machine passes: isel, "),
                unknown.err());
        noStackTrace(unknown);
    }

    @Test
    void machineSwitchesTurnOffTheirPassAndCheckCountsSimulatedCycles() throws IOException {
        Path x = file("u.ir", """
                shader fragment
                input f32 @v
                uniform f32 @u
                output f32 @o
                function main {
                  vec1 32 %v = load_input @v
                  vec1 32 %u = load_uniform @u
                  vec1 32 %s = fmul %v, %u
                  store_output @o, %s
                }
                """);
        Result on = lathe("compile", x.toString());
        // copyprop would fold the copy of c0.x too: both are off
        Result off = lathe("compile", x.toString(), "--no-const-operands", "--no-copyprop");
        assertEquals(0, off.code(), off.err());
        assertTrue(on.out().contains("mul.f32 r0.x, r0.x, c0.x") && !on.out().contains(", c0.x\n    (nop"), on.out());
        assertTrue(
                off.out().contains("mov.f32f32 r0.y, c0.x") || off.out().contains("mov.u32u32 r0.y, c0.x"), off.out());
        Path csv = dir.resolve("sim.csv");
        Result db = lathe("shaderdb", x.toString(), "--check", "2", "--no-times", "-o", csv.toString());
        assertEquals(0, db.code(), db.err());
        assertTrue(
                db.out().contains("simulated cycles (mean over the input sets, summed over the shaders): "), db.out());
        String[] rows = Files.readString(csv).split("\n");
        assertTrue(rows[0].contains(",cycles,preamble,spills,fills,spill-cost,sim-cycles,compile-ms,error"), rows[0]);
        assertTrue(rows[1].matches(".*,[0-9]+,[0-9]+,[1-9][0-9]*,,$"), rows[1]);
    }

    /** {@code --max-regs} shrinks the register file: what does not fit is spilled, and the program says how much private memory it needs. */
    @Test
    void maxRegsSpillsAndBadBudgetsAreClearErrors() throws IOException {
        StringBuilder sb =
                new StringBuilder("shader compute workgroup_size(1, 1, 1)\nbuffer u32 @b binding=0\nfunction main {\n");
        for (int i = 0; i < 12; i++)
            sb.append("  vec1 32 %o")
                    .append(i)
                    .append(" = load_const (")
                    .append(i * 4)
                    .append(")\n  vec1 32 %v")
                    .append(i)
                    .append(" = load_buffer @b, %o")
                    .append(i)
                    .append("\n");
        sb.append("  vec1 32 %s0 = imul %v0, %v11\n");
        for (int i = 1; i < 12; i++)
            sb.append("  vec1 32 %s")
                    .append(i)
                    .append(" = imul %s")
                    .append(i - 1)
                    .append(", %v")
                    .append(11 - i)
                    .append("\n");
        sb.append("  vec1 32 %z = load_const (0)\n  store_buffer @b, %z, %s11\n}\n");
        Path x = dir.resolve("wide.ir");
        Files.writeString(x, sb.toString());
        Result asm = lathe("compile", x.toString(), "--max-regs", "1", "--no-sched");
        assertEquals(0, asm.code(), asm.err());
        assertTrue(
                asm.out().matches("(?s).*\\.private [1-9][0-9]*\n.*")
                        && asm.out().contains("stp.u32.1 p[")
                        && asm.out().contains("ldp.u32.1 r"),
                asm.out());
        Result stats = lathe("compile", x.toString(), "--max-regs", "1", "--no-sched", "--emit", "stats");
        assertTrue(stats.out().matches("(?s).* [1-9][0-9]* spills, [1-9][0-9]* fills, .*"), stats.out());
        Result none = lathe("compile", x.toString(), "--emit", "stats");
        assertTrue(
                none.out().contains(" 0 stp, 0 ldp, ") && none.out().contains(" 0 spills, 0 fills, 0 spill-cost"),
                none.out());
        Result zero = lathe("compile", x.toString(), "--max-regs", "0");
        assertTrue(
                zero.code() != 0
                        && zero.err()
                                .contains(
                                        "lathe compile: --max-regs: the register budget must be 1 to 48 vec4 registers, not 0"),
                zero.err());
        Result choice = lathe("shaderdb", x.toString(), "--spill-choice", "random");
        assertTrue(
                choice.code() != 0
                        && choice.err()
                                .contains(
                                        "lathe shaderdb: --spill-choice: unknown spill choice 'random' (known: next-use, cost)"),
                choice.err());
    }

    /** The CSV without its compile-time column, the one thing that may differ between runs. */
    private static String withoutTimes(String csv) {
        StringBuilder sb = new StringBuilder();
        for (String line : csv.split("\n"))
            sb.append(line.replaceAll(",[0-9.]+,([^,]*)$", ",T,$1")).append('\n');
        return sb.toString();
    }

    @Test
    void shaderdbIsDeterministicAcrossThreadsAndReportCompares() throws IOException {
        Path examples = repoRoot().resolve("examples/ir");
        Path one = dir.resolve("one.csv"), two = dir.resolve("two.csv"), nolate = dir.resolve("nolate.csv");
        Path failing = dir.resolve("failing");
        Files.createDirectories(failing);
        Files.writeString(failing.resolve("frem.ir"), SHADER.replace("fadd %v.x, %v.y", "frem %v.x, %v.y"));
        Result r1 = lathe("shaderdb", examples.toString(), failing.toString(), "-o", one.toString(), "--jobs", "1");
        assertEquals(0, r1.code(), r1.err());
        assertTrue(r1.out().matches("(?s)\\d+ shaders: \\d+ compiled, 1 failed\n.*"), r1.out());
        assertTrue(
                r1.out().contains("FAILED ") && r1.out().contains("not supported by the target: frem"),
                "frem.ir fails with its cause: " + r1.out());
        assertEquals(
                0,
                lathe("shaderdb", examples.toString(), failing.toString(), "-o", two.toString(), "--jobs", "2")
                        .code());
        assertEquals(withoutTimes(Files.readString(one)), withoutTimes(Files.readString(two)));
        // --no-times: byte-identical files
        Path a = dir.resolve("a.csv"), b = dir.resolve("b.csv");
        assertEquals(
                0,
                lathe("shaderdb", examples.toString(), "-o", a.toString(), "--jobs", "1", "--no-times")
                        .code());
        assertEquals(
                0,
                lathe("shaderdb", examples.toString(), "-o", b.toString(), "--jobs", "2", "--no-times")
                        .code());
        Assertions.assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertTrue(
                Files.readString(a).lines().skip(1).allMatch(l -> l.matches(".*,,[^,]*$") || l.contains("\"")),
                Files.readString(a));
        String noLate =
                "vars_to_ssa, loop(algebraic, opt_minmax, constant_fold, copy_prop, phi_simplify, dead_cf, opt_if, cse, dce), dce";
        assertEquals(
                0,
                lathe("shaderdb", examples.toString(), "-o", nolate.toString(), "--passes", noLate)
                        .code());
        Result rep = lathe("report", nolate.toString(), one.toString(), "--summary-only", "-m", "instructions,cycles");
        assertEquals(0, rep.code(), rep.err());
        assertTrue(rep.out().startsWith("total instructions in shared programs: "), rep.out());
        assertTrue(rep.out().contains("\ntotal cycles in shared programs: "), rep.out());
        Result bad = lathe("report", one.toString(), file("x.csv", "nope\n").toString());
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("x.csv:1: not a lathe shaderdb results file"), bad.err());
        noStackTrace(bad);
        Result unknown = lathe("report", one.toString(), two.toString(), "-m", "bogus");
        assertTrue(unknown.err().contains("unknown measurement 'bogus'"), unknown.err());
    }

    @Test
    void ruleStatsListTheRuleSetsThePipelineRan() throws IOException {
        Path p = file("m.ir", """
                shader fragment
                input f32 @x
                output f32 @o
                function main {
                  vec1 32 %x = load_input @x
                  vec1 32 %one = load_const (1.0)
                  vec1 32 %m = fmul %x, %one
                  store_output @o, %m
                }
                """);
        Result r = lathe("opt", "--passes", "algebraic", "--rule-stats", p.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().startsWith("rules of pass algebraic: 1 rewrite\n"), r.err());
        assertTrue(r.err().contains("rules/algebraic.rules:"), "each rule cites its line: " + r.err());
        // the build proved mul_one (generated/pom.xml runs the prover), and the statistics say so
        assertTrue(r.err().matches("(?s).*\\n +1  mul_one +proved +rules/algebraic\\.rules:\\d+\\n.*"), r.err());
        assertTrue(r.err().contains("never fired ("), r.err());
        assertFalse(r.err().contains("rules of pass late"), "late did not run: " + r.err());
        Result outOfOrder = lathe("opt", "--passes", "late,algebraic", p.toString());
        assertEquals(1, outOfOrder.code(), outOfOrder.err());
        assertTrue(outOfOrder.err().contains("algebraic must run before late: "), outOfOrder.err());
        Result none = lathe("opt", "--passes", "dce", "--rule-stats", p.toString());
        assertEquals("", none.err());
        // lathe compile too: the default pipeline's rule passes and the lowering's
        Result compiled = lathe("compile", "--rule-stats", p.toString());
        assertEquals(0, compiled.code(), compiled.err());
        assertTrue(
                compiled.err().contains("rules of pass algebraic: ")
                        && compiled.err().contains("  mul_one "),
                compiled.err());
        assertTrue(compiled.err().contains("rules of pass lower: "), compiled.err());
        // --disable-rules: the multiply by one stays, and an unknown name is a located error
        Result off = lathe("opt", "--passes", "algebraic", "--rule-stats", "--disable-rules", "mul_one", p.toString());
        assertEquals(0, off.code(), off.err());
        assertTrue(off.out().contains("fmul"), off.out());
        assertTrue(off.err().startsWith("rules of pass algebraic: 0 rewrites"), off.err());
        Result unknown = lathe("compile", p.toString(), "--disable-rules", "mul_one,nope");
        assertEquals(1, unknown.code());
        assertTrue(unknown.err().contains("lathe compile: --disable-rules: no rule named 'nope'"), unknown.err());
        noStackTrace(unknown);
    }

    @Test
    void rulesCheckReportsSoundnessAndFileProblems() throws IOException {
        Path good = file("good.rules", "pass mine;\nr: fmul(a, 1.0) => a;\n");
        Result ok = lathe("rules", "check", "--no-proof-cache", "--bits", "16", good.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("1 rule: 1 sound, 0 UNSOUND, 0 unchecked"), ok.out());
        Result none = lathe("rules", "check", "--no-proof-cache", "--bits", "1", good.toString());
        assertEquals(2, none.code(), "nothing checked is not a pass: " + none.err());
        assertTrue(none.out().contains("1 rule: 0 sound, 0 UNSOUND, 1 unchecked"), none.out());
        assertTrue(
                none.err().contains("lathe rules check: no rule could be checked at the requested sizes"), none.err());
        Path warned = file("warned.rules", "pass w;\nr: imul(a, 2) ~=> ishl(a, 1);\n");
        Result w = lathe("rules", "check", "--no-proof-cache", "--bits", "32", warned.toString());
        assertEquals(0, w.code(), w.err());
        assertTrue(
                w.err().startsWith(warned + ":2:1: warning: rule r is marked inexact (~=>) but has no float operation"),
                w.err());
        assertTrue(w.out().contains("1 rule: 1 sound"), w.out());
        Path bad = file("bad.rules", "pass other;\nr: fadd(a, 0.0) => a;\n");
        Result unsound = lathe("rules", "check", "--no-proof-cache", "--bits", "16", bad.toString());
        assertEquals(1, unsound.code());
        assertTrue(unsound.out().contains("UNSOUND"), unsound.out());
        Path same = file("same.rules", "pass mine;\ns: fadd(a, -0.0) => a;\n");
        Result dup = lathe("rules", "check", "--no-proof-cache", good.toString(), same.toString());
        assertEquals(1, dup.code());
        assertTrue(
                dup.err().contains(same + ":1:1: error: the pass 'mine' has the same rule set name as " + good),
                dup.err());
        Result broken = lathe(
                "rules",
                "check",
                "--no-proof-cache",
                file("broken.rules", "r: fmul(a, 1.0 => a;\n").toString());
        assertEquals(1, broken.code());
        assertTrue(
                broken.err().contains("broken.rules:1:16: error: unexpected '=>'; expected ',' or ')'"), broken.err());
    }

    @Test
    void rulesCheckSaysWhichRulesAreProvedAndKeepsTheProofs() throws IOException {
        Path rules = file(
                "mixed.rules",
                "pass mixed;\nr: iadd(a, 0) => a;\ns: fadd(a, 0.0) ~=> a;\n"
                        + "t: ieq(ixor(a@32, 0x1234abcd), 0x0f0f1111) => false;\n");
        Path cache = dir.resolve("proofs");
        Result first = lathe("rules", "check", "--proof-cache", cache.toString(), rules.toString());
        assertEquals(
                1,
                first.code(),
                "a rule the solver refutes fails the check even when sampling calls it sound: " + first.out());
        assertTrue(first.out().contains("sound     proved    " + rules + ":2"), first.out());
        assertTrue(first.out().contains("sound     tested    " + rules + ":3"), first.out());
        assertTrue(first.out().contains("sound     REFUTED   " + rules + ":4"), first.out());
        assertTrue(
                first.out()
                        .contains("REFUTED   " + rules
                                + ":4:1: rule t is unsound at 32 bits: a = 490453724 (0x1d3bbadc)"),
                first.out());
        assertTrue(
                first.out()
                        .contains(
                                "proofs: 1 proved, 1 REFUTED, 0 unknown, 1 tested only (10000 ms per rule and size; 3 new, 0 from "
                                        + cache + ")"),
                first.out());
        Result again = lathe("rules", "check", "--proof-cache", cache.toString(), rules.toString());
        assertTrue(
                again.out().contains("0 new, 3 from " + cache),
                "every answer is kept, the refutation with its counterexample: " + again.out());
        assertEquals(1, again.code(), "and the refuted rule still fails the check");
        assertTrue(
                again.out()
                        .contains("REFUTED   " + rules
                                + ":4:1: rule t is unsound at 32 bits: a = 490453724 (0x1d3bbadc)"),
                again.out());
        assertTrue(again.out().contains("3 verdicts from " + cache), again.out());
        Result sampled = lathe("rules", "check", "--no-prove", rules.toString());
        assertEquals(0, sampled.code(), sampled.out());
        assertTrue(sampled.out().contains("sound     -         " + rules + ":2"), sampled.out());
        assertFalse(sampled.out().contains("proofs:"), sampled.out());
    }

    @Test
    void rulesProveProvesRefutesAndSaysWhatIsOnlyTested() throws IOException {
        Path good = file("proved.rules", "pass p;\nr: iadd(a, 0) => a;\ns: fadd(a, 0.0) ~=> a;\n");
        Result ok = lathe("rules", "prove", "--no-proof-cache", "--bits", "8,32", good.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("proved    " + good + ":2:1: rule r is proved at 8, 32 bits"), ok.out());
        assertTrue(
                ok.out().contains("tested    " + good + ":3:1: rule s is tested, not proved: an inexact rule"),
                ok.out());
        assertTrue(ok.out().contains("2 rules: 1 proved, 0 REFUTED, 0 unknown, 1 tested only"), ok.out());
        // wrong on one 32-bit value: sampling misses it, the solver does not
        Path bad = file("refuted.rules", "pass q;\nr: ieq(ixor(a@32, 0x1234abcd), 0x0f0f1111) => false;\n");
        Result refuted = lathe("rules", "prove", "--no-proof-cache", bad.toString());
        assertEquals(1, refuted.code(), refuted.err());
        assertTrue(
                refuted.out()
                        .contains(
                                "REFUTED   " + bad + ":2:1: rule r is unsound at 32 bits: a = 490453724 (0x1d3bbadc)"),
                refuted.out());
        Result badOption = lathe("rules", "prove", "--no-proof-cache", "--timeout-ms", "0", good.toString());
        assertEquals(1, badOption.code());
        assertTrue(badOption.err().contains("lathe rules prove: --timeout-ms must be positive"), badOption.err());
        Result badBits = lathe("rules", "prove", "--no-proof-cache", "--bits", "12", good.toString());
        assertTrue(badBits.err().contains("lathe rules prove: --bits: 12 is not a bit size"), badBits.err());
    }

    @Test
    void theCommandTableNamesEachCommandAsItsAnnotationDoes() {
        for (var e : Main.COMMANDS.entrySet()) {
            assertEquals(e.getKey(), new picocli.CommandLine(e.getValue().get()).getCommandName());
        }
        // a command line naming one command builds only that one, under its full name
        Result help = lathe("compile", "--help");
        assertTrue(help.out().startsWith("Usage: lathe compile "), help.out());
        Result all = lathe("--help");
        for (String name : Main.COMMANDS.keySet())
            assertTrue(all.out().contains("\n  " + name + " "), name + " in " + all.out());
        Result typo = lathe("compil", "x.ir");
        assertEquals(2, typo.code());
        assertTrue(typo.err().contains("(see: lathe --help)"), typo.err());
    }

    @Test
    void compileTakesSeveralFiles() throws IOException {
        Path a = file("a.ir", SHADER);
        Path b = file("b.ir", SHADER.replace("fadd %v.x, %v.y", "fmul %v.x, %v.y"));
        Result stats = lathe("compile", a.toString(), b.toString(), "--emit", "stats");
        assertEquals(0, stats.code(), stats.err());
        String[] lines = stats.out().split("\n");
        assertEquals(2, lines.length, stats.out());
        assertTrue(lines[0].startsWith("a.ir: ") && lines[1].startsWith("b.ir: "), stats.out());
        assertEquals(
                lathe("compile", a.toString(), "--emit", "stats").out(),
                lines[0] + "\n",
                "the same line as one file alone");

        Path out = dir.resolve("out");
        Result asm = lathe("compile", a.toString(), b.toString(), "-o", out.toString());
        assertEquals(0, asm.code(), asm.err());
        assertEquals(lathe("compile", a.toString()).out(), Files.readString(out.resolve("a.s")));
        assertTrue(Files.readString(out.resolve("b.s")).contains("mul.f"), "b.s holds b's code");

        Result noDir = lathe("compile", a.toString(), b.toString());
        assertEquals(1, noDir.code());
        assertTrue(noDir.err().contains("needs -o DIR"), noDir.err());
        Result clash = lathe("compile", a.toString(), a.toString(), "-o", out.toString());
        assertTrue(clash.code() != 0 && clash.err().contains("would both write"), clash.err());

        // one bad file is reported with its location; the others are still compiled
        Path bad = file("bad.ir", SHADER.replace("fadd %v.x, %v.y", "fadd %v.x, %nope"));
        Result some = lathe("compile", a.toString(), bad.toString(), b.toString(), "--emit", "stats");
        assertEquals(1, some.code());
        assertTrue(some.out().startsWith("a.ir: ") && some.out().contains("\nb.ir: "), some.out());
        assertTrue(some.err().contains("bad.ir:") && some.err().contains("1 of 3 files failed"), some.err());
        noStackTrace(some);

        // a wrong option is one error, said once, not once per file
        Result wrongPass = lathe("compile", a.toString(), b.toString(), "--emit", "stats", "--passes", "no_such_pass");
        assertEquals(1, wrongPass.code());
        assertEquals(1, wrongPass.err().split("--passes: ", -1).length - 1, wrongPass.err());
        assertFalse(wrongPass.err().contains("files failed"), wrongPass.err());
    }
}
