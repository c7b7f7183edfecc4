package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.Arrays;

/**
 * Subgroup builtins and OpGroupNonUniform* instructions. Lathe's interpreter and simulator run
 * one invocation at a time, so the target reports a subgroup size of 1 — a size Vulkan allows —
 * and every subgroup operation has its one-invocation meaning: a reduction or inclusive scan
 * is the value itself, an exclusive scan the operation's identity, a ballot the predicate in
 * bit 0, elect true, broadcasts and shuffles the value. Quad operations need four invocations
 * and stop with a clear error.
 */
final class Subgroups {
    private Subgroups() {}

    static final int SUBGROUP_SIZE = 36, NUM_SUBGROUPS = 38, SUBGROUP_ID = 40, SUBGROUP_LOCAL_INVOCATION_ID = 41;
    static final int EQ_MASK = 4416, GE_MASK = 4417, GT_MASK = 4418, LE_MASK = 4419, LT_MASK = 4420;

    static boolean isBuiltin(int builtin) {
        return builtin == SUBGROUP_SIZE
                || builtin == NUM_SUBGROUPS
                || builtin == SUBGROUP_ID
                || builtin == SUBGROUP_LOCAL_INVOCATION_ID
                || (builtin >= EQ_MASK && builtin <= LT_MASK);
    }

    /** A subgroup builtin's value in an invocation; {@code type} is the variable's (ARB masks are 64-bit). */
    static Value builtin(IrBuilder b, int builtin, boolean compute, SpirvType type) {
        if (builtin >= EQ_MASK && type instanceof SpirvType.Int i && i.width() == 64) {
            return b.constant(64, builtin == EQ_MASK || builtin == GE_MASK || builtin == LE_MASK ? 1 : 0);
        }
        return switch (builtin) {
            case SUBGROUP_SIZE -> b.i32(1);
            case SUBGROUP_LOCAL_INVOCATION_ID -> b.i32(0);
            // one subgroup per invocation of the workgroup
            case NUM_SUBGROUPS -> {
                if (!compute) yield b.i32(1);
                Value s = b.sysval(Intrinsic.LOAD_WORKGROUP_SIZE);
                yield b.alu(Op.IMUL, b.alu(Op.IMUL, b.channel(s, 0), b.channel(s, 1)), b.channel(s, 2));
            }
            case SUBGROUP_ID -> compute ? b.sysval(Intrinsic.LOAD_LOCAL_INVOCATION_INDEX) : b.i32(0);
            // the masks of invocation 0 of a one-invocation subgroup
            case EQ_MASK, GE_MASK, LE_MASK -> b.i32(1, 0, 0, 0);
            default -> b.i32(0, 0, 0, 0);
        };
    }

    static Val translate(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        int op = i.opcode();
        switch (op) {
            case OpGroupNonUniformElect, OpGroupNonUniformAllEqual -> { // Elect, AllEqual
                return new Val.Simple(b.bool(true));
            }
            case OpGroupNonUniformAll,
                    OpGroupNonUniformAny,
                    OpGroupNonUniformBroadcast,
                    OpGroupNonUniformBroadcastFirst,
                    OpGroupNonUniformShuffle,
                    OpGroupNonUniformShuffleXor,
                    OpGroupNonUniformShuffleUp,
                    OpGroupNonUniformShuffleDown -> { // All, Any, Broadcast(First), Shuffle*: the value
                return t.val(i, m.id(i, 3));
            }
            case OpGroupNonUniformBallot -> { // Ballot: the predicate in bit 0
                Value p = t.simple(i, t.val(i, m.id(i, 3)));
                Value bit = b.alu(Op.BCSEL, p, b.i32(1), b.i32(0));
                return new Val.Simple(b.vec(bit, b.i32(0), b.i32(0), b.i32(0)));
            }
            case OpGroupNonUniformInverseBallot -> { // InverseBallot
                Value v = t.simple(i, t.val(i, m.id(i, 3)));
                return new Val.Simple(b.alu(Op.INE, b.alu(Op.IAND, b.channel(v, 0), b.i32(1)), b.i32(0)));
            }
            case OpGroupNonUniformBallotBitExtract -> { // BallotBitExtract: bit `index` of the 128-bit value
                Value v = t.simple(i, t.val(i, m.id(i, 3)));
                Value idx = t.simple(i, t.val(i, m.id(i, 4)));
                if (idx.bitSize() != 32) idx = b.alu(Op.U2U32, idx);
                Value word = t.extract(v, b.alu(Op.USHR, idx, b.i32(5)));
                Value bit = b.alu(Op.IAND, b.alu(Op.USHR, word, b.alu(Op.IAND, idx, b.i32(31))), b.i32(1));
                return new Val.Simple(b.alu(Op.INE, bit, b.i32(0)));
            }
            case OpGroupNonUniformBallotBitCount -> { // BallotBitCount: the bits of the subgroup's one invocation
                int group = m.arg(i, 3);
                Value v = t.simple(i, t.val(i, m.id(i, 4)));
                if (group == 2) return new Val.Simple(b.i32(0));
                if (group != 0 && group != 1)
                    throw m.module.error(
                            i,
                            "unsupported " + SpirvNames.opcode(op) + " (" + SpirvNames.of("GroupOperation", group)
                                    + ")");
                return new Val.Simple(b.alu(Op.IAND, b.channel(v, 0), b.i32(1)));
            }
            case OpGroupNonUniformBallotFindLSB,
                    OpGroupNonUniformBallotFindMSB -> { // BallotFindLSB/MSB: 0 when bit 0 is set, else none (-1)
                Value v = t.simple(i, t.val(i, m.id(i, 3)));
                Value set = b.alu(Op.INE, b.alu(Op.IAND, b.channel(v, 0), b.i32(1)), b.i32(0));
                return new Val.Simple(b.alu(Op.BCSEL, set, b.i32(0), b.i32(-1)));
            }
            case OpSubgroupBallotKHR -> { // OpSubgroupBallotKHR (no scope operand)
                Value p = t.simple(i, t.val(i, m.id(i, 2)));
                Value bit = b.alu(Op.BCSEL, p, b.i32(1), b.i32(0));
                return new Val.Simple(b.vec(bit, b.i32(0), b.i32(0), b.i32(0)));
            }
            case OpSubgroupFirstInvocationKHR,
                    OpSubgroupAllKHR,
                    OpSubgroupAnyKHR,
                    OpSubgroupReadInvocationKHR -> { // FirstInvocation, All, Any, ReadInvocation (KHR): the value
                return t.val(i, m.id(i, 2));
            }
            case OpSubgroupAllEqualKHR -> { // AllEqualKHR
                return new Val.Simple(b.bool(true));
            }
            case OpGroupNonUniformQuadBroadcast, OpGroupNonUniformQuadSwap ->
                throw m.module.error(
                        i,
                        "unsupported " + SpirvNames.opcode(op)
                                + " (quad operations need four invocations; subgroups have one)");
            default -> {
                if (op < OpGroupNonUniformIAdd || op > OpGroupNonUniformLogicalXor)
                    throw m.module.error(i, "unsupported " + SpirvNames.opcode(op));
                int group = m.arg(i, 3);
                Value v = t.simple(i, t.val(i, m.id(i, 4)));
                return switch (group) {
                    case 0, 1, 3 -> new Val.Simple(v); // reduce, inclusive scan, clustered reduce
                    case 2 -> new Val.Simple(identity(b, op, v)); // exclusive scan
                    default ->
                        throw m.module.error(
                                i,
                                "unsupported " + SpirvNames.opcode(op) + " (" + SpirvNames.of("GroupOperation", group)
                                        + ")");
                };
            }
        }
    }

    /** The identity of a group arithmetic operation, shaped like {@code v}. */
    private static Value identity(IrBuilder b, int op, Value v) {
        int bits = v.bitSize();
        long mask = bits == 64 ? -1L : (1L << bits) - 1;
        long x = switch (op) {
            case OpGroupNonUniformIAdd,
                    OpGroupNonUniformBitwiseOr,
                    OpGroupNonUniformBitwiseXor,
                    OpGroupNonUniformLogicalOr,
                    OpGroupNonUniformLogicalXor -> 0; // IAdd, BitwiseOr, BitwiseXor, LogicalOr, LogicalXor
            case OpGroupNonUniformFAdd -> FloatBits.fromDouble(0.0, bits); // FAdd
            case OpGroupNonUniformIMul -> 1; // IMul
            case OpGroupNonUniformFMul -> FloatBits.fromDouble(1.0, bits); // FMul
            case OpGroupNonUniformSMin -> mask >>> 1; // SMin: the largest signed value
            case OpGroupNonUniformUMin, OpGroupNonUniformBitwiseAnd, OpGroupNonUniformLogicalAnd ->
                mask; // UMin, BitwiseAnd, LogicalAnd
            case OpGroupNonUniformFMin -> FloatBits.fromDouble(Double.POSITIVE_INFINITY, bits); // FMin
            case OpGroupNonUniformSMax -> (mask >>> 1) + 1 & mask; // SMax: the smallest signed value
            case OpGroupNonUniformUMax -> 0; // UMax
            default -> FloatBits.fromDouble(Double.NEGATIVE_INFINITY, bits); // FMax
        };
        long[] c = new long[v.numComponents()];
        Arrays.fill(c, x & mask);
        return b.constant(bits, c);
    }
}
