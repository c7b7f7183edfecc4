package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.op.Op;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The compiler from IR, optimized and lowered to scalar by the driver's pipeline, to machine
 * code: the machine pipeline ({@link MachinePasses}: isel, regalloc, linearize, legalize over a
 * {@link MachineFunction}), then branch offsets and statistics. Like the IR pass manager it can
 * print the program after a pass or after every pass, time the passes, and verify the program
 * after each ({@link MachineVerifier}: tests do). The shader is changed in place;
 * {@link Result#optimized} is the IR instruction selection read.
 */
public final class MachineCompiler {
    private MachineCompiler() {}

    /**
     * The ALU ops instruction selection handles (32-bit and narrower integers; every float
     * size), for tests that generate programs. Conversions between any sizes are included.
     */
    public static final Set<Op> SUPPORTED_OPS;

    static {
        Set<Op> ops = EnumSet.noneOf(Op.class);
        for (String name : ("FADD FMUL FMIN FMAX FDIV FPOW FSUB FFMA FNEG FABS FSAT FFLOOR FCEIL FTRUNC FROUND_EVEN FSIGN FRCP FRSQ "
                + "FSQRT FLOG2 FEXP2 FSIN FCOS FFRACT FLT FGE FEQ FNEU FLTU FGEU FEQU ILT IGE ULT UGE IEQ INE IADD ISUB IMUL "
                + "UMUL_HIGH IMUL_HIGH IMIN IMAX UMIN UMAX IAND IOR IXOR ISHL USHR ISHR UDIV IDIV UMOD IREM IMOD INOT "
                + "BITFIELD_REVERSE BIT_COUNT INEG IABS BCSEL FCSEL MOV VEC2 VEC3 VEC4 VEC8 VEC16 PACK_64_2X32_SPLIT PACK_64_2X32 "
                + "UNPACK_64_2X32_SPLIT_X UNPACK_64_2X32_SPLIT_Y UNPACK_64_2X32 FMIN3 FMAX3 IMIN3 IMAX3 UMIN3 UMAX3 FMED3 IMED3 UMED3 "
                + "FCLAMP_POS FSAT_SIGNED ISIGN FISNAN FLRP F2F16 F2F32 F2F64 F2I8 F2I16 F2I32 F2I64 F2U8 F2U16 F2U32 F2U64 I2F16 "
                + "I2F32 I2F64 U2F16 U2F32 U2F64 I2I8 I2I16 I2I32 I2I64 U2U8 U2U16 U2U32 U2U64 B2F16 B2F32 B2F64 B2I8 B2I16 "
                + "B2I32 B2I64 F2B1 I2B1 UCLZ UFIND_MSB FIND_LSB IFIND_MSB UBITFIELD_EXTRACT IBITFIELD_EXTRACT BITFIELD_INSERT EXTRACT_U8 "
                + "EXTRACT_I8 EXTRACT_U16 EXTRACT_I16 PACK_UNORM_4X8 UNPACK_UNORM_4X8 PACK_64_2X32_SPLIT_X PACK_64_2X32_SPLIT_Y "
                + "PACK_HALF_2X16_SPLIT UNPACK_HALF_2X16_SPLIT_X UNPACK_HALF_2X16_SPLIT_Y PACK_UNORM_2X16 UNPACK_UNORM_2X16 FMOD PACK_SNORM_4X8 UNPACK_SNORM_4X8 PACK_SNORM_2X16 "
                + "UNPACK_SNORM_2X16").split(" ")) {
            ops.add(Op.valueOf(name));
        }
        SUPPORTED_OPS = Collections.unmodifiableSet(ops);
    }

    /** The compiled program, its statistics, the IR it was selected from, and the time per machine pass (when timed). */
    public record Result(Program program, Stats stats, Shader optimized, List<PassManager.Timing> timings) {}

    /**
     * @param passes        the machine pipeline
     * @param verify        run {@link MachineVerifier} after every pass
     * @param printAfterAll print the program after every pass
     * @param printAfter    print it after this pass (or null)
     * @param timePasses    time each pass
     * @param trace         where printing goes (may be null when nothing is printed)
     */
    public record Options(List<String> passes, boolean verify, boolean printAfterAll, String printAfter, boolean timePasses, PrintWriter trace) {
        public static Options defaults() {
            return new Options(MachinePasses.DEFAULT, false, false, null, false, null);
        }

        public Options verifying() {
            return new Options(passes, true, printAfterAll, printAfter, timePasses, trace);
        }
    }

    /** Compiles {@code shader} (scalar IR: the driver's pipeline lowered it) with the default machine pipeline. */
    public static Result compile(Shader shader) {
        return compile(shader, Options.defaults());
    }

    public static Result compile(Shader shader, Options options) {
        List<MachinePass> pipeline = MachinePasses.pipeline(options.passes());
        MachineFunction mf = new MachineFunction(shader);
        List<PassManager.Timing> timings = new ArrayList<>();
        for (MachinePass pass : pipeline) {
            long start = System.nanoTime();
            pass.run(mf);
            long elapsed = System.nanoTime() - start;
            if (options.timePasses()) timings.add(new PassManager.Timing(pass.name(), 1, 1, elapsed));
            if (options.verify()) {
                List<String> problems = MachineVerifier.verify(mf);
                if (!problems.isEmpty()) {
                    throw new IllegalStateException("the machine program is wrong after " + pass.name() + ":\n  " + String.join("\n  ", problems)
                            + "\n" + mf.print());
                }
            }
            if (options.trace() != null && (options.printAfterAll() || pass.name().equals(options.printAfter()))) {
                options.trace().println("// after " + pass.name());
                options.trace().print(mf.print());
                options.trace().flush();
            }
        }
        List<MInstr> code = mf.linear.resolve();
        int loops = countLoops(mf.fn);
        Program p = new Program(shader, mf.layout.slots, mf.layout.constants, mf.layout.localBytes, 0, loops, code);
        return new Result(p, Stats.of(code, mf.layout.nextConst, loops, mf.maxLive), shader, timings);
    }

    static int countLoops(Function fn) {
        int n = 0;
        ArrayDeque<CfNode> work = new ArrayDeque<>();
        fn.body().forEach(work::add);
        while (!work.isEmpty()) {
            CfNode c = work.poll();
            if (c instanceof LoopNode l) {
                n++;
                l.body().forEach(work::add);
            } else if (c instanceof IfNode f) {
                f.thenList().forEach(work::add);
                f.elseList().forEach(work::add);
            }
        }
        return n;
    }
}
