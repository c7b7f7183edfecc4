package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassException;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The compiler from optimized IR to machine code (the driver runs the IR optimization pipeline
 * first). In order:
 *
 * <ol>
 *   <li>{@code lower_alu_to_scalar, copy_prop, dce}: the target is scalar;
 *   <li>{@link Layout}: where variables live (constant file, slots, bindings, local memory);
 *   <li>{@link Isel}: machine instructions over virtual registers, SSA, blocks kept; dead
 *       instructions removed;
 *   <li>{@link RegAlloc}: registers, out of SSA (edge copies, phis), pressure check;
 *   <li>{@link Linearize}: structured control flow to branches;
 *   <li>{@link Legalize}: nops, (ss), (sy);
 *   <li>branch offsets resolved; {@link Stats}.
 * </ol>
 *
 * The shader is changed in place by the IR steps; {@link Result#optimized} is it.
 */
public final class MachineCompiler {
    private MachineCompiler() {}

    /**
     * The ALU ops instruction selection handles (32-bit and narrower integers; every float
     * size), for tests that generate programs. Conversions between any sizes are included.
     */
    public static final java.util.Set<dev.lathe.ir.op.Op> SUPPORTED_OPS;

    static {
        java.util.Set<dev.lathe.ir.op.Op> ops = java.util.EnumSet.noneOf(dev.lathe.ir.op.Op.class);
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
            ops.add(dev.lathe.ir.op.Op.valueOf(name));
        }
        SUPPORTED_OPS = java.util.Collections.unmodifiableSet(ops);
    }

    /** The compiled program, its statistics and the IR it was selected from. */
    public record Result(Program program, Stats stats, Shader optimized) {}

    /** Compiles {@code shader}, whose IR is already optimized, changing it in place. */
    public static Result compile(Shader shader) {
        PassRegistry registry = PassRegistry.standard();
        try {
            new PassManager(PassManager.Options.defaults(), null).run(shader, Pipeline.parse("lower_alu_to_scalar, copy_prop, dce", registry));
        } catch (PassException e) {
            throw new CompileException(e.getMessage());
        }
        if (shader.functions().size() != 1) throw new CompileException("the target compiles one function (the entry point); found " + shader.functions().size());
        Function fn = shader.entryPoint();
        Layout layout = new Layout(shader);
        Isel isel = new Isel(shader, fn, layout);
        isel.run();
        isel.removeDead();
        RegAlloc ra = new RegAlloc(fn, isel);
        ra.run();
        Linear linear = new Linearize(ra.out).run(fn);
        List<MInstr> code = Legalize.run(linear).resolve();
        int loops = countLoops(fn);
        Program p = new Program(shader, layout.slots, layout.constants, layout.localBytes, 0, loops, code);
        return new Result(p, Stats.of(code, layout.nextConst, loops, ra.maxLive), shader);
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
