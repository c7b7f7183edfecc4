package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AluOperand;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Swizzled;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * What the 64-bit lowerings build with: ALU instructions before the instruction being lowered,
 * each marked exact (the lowered code computes a correctly rounded or bit-exact result step by
 * step, so no inexact rule may reassociate or fuse its steps), scalar constants that the builder
 * broadcasts to the width of the other sources, and the 32-bit halves of 64-bit values.
 *
 * <p>A new high word is written {@code pack_64_2x32_split(unpack_64_2x32_split_x(x), h)}, the
 * form NIR's lowering writes: the {@code pack_hi} rule turns it into
 * {@code pack_64_2x32_split_y(x, h)}, so the low word never has to be live on its own (the pack_double_2x32_split_y discussion of 2016, docs/BACKGROUND.md).
 */
final class LoweringBuilder {
    final IrBuilder b;

    /**
     * Replaces every instruction of {@code ops} on 64-bit operands with what {@code lowering}
     * builds before it; whether there was one (the two lowering passes' whole walk).
     */
    static boolean replace64(Function fn, Set<Op> ops, BiFunction<LoweringBuilder, AluInstr, Value> lowering) {
        List<AluInstr> work = new ArrayList<>();
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (i instanceof AluInstr a && ops.contains(a.op()) && a.unsizedBitSize() == 64) work.add(a);
            }
        }
        for (AluInstr a : work) {
            Value r = lowering.apply(new LoweringBuilder(fn, a), a);
            a.def().replaceAllUsesWith(r);
            a.remove();
        }
        return !work.isEmpty();
    }

    /** The ops of {@code asked} that a pass lowering {@code lowerable} lowers. */
    static Set<Op> within(Set<Op> asked, Set<Op> lowerable) {
        Set<Op> s = EnumSet.noneOf(Op.class);
        for (Op op : asked) if (lowerable.contains(op)) s.add(op);
        return s;
    }

    LoweringBuilder(Function fn, AluInstr at) {
        this.b = new IrBuilder(fn).before(at);
    }

    /** Source {@code i} of {@code alu}, read as its own value (a mov through the swizzle; copy_prop removes it). */
    Value src(AluInstr alu, int i) {
        int n = alu.def().numComponents();
        byte[] swz = new byte[n];
        for (int c = 0; c < n; c++) swz[c] = (byte) alu.src(i).component(c);
        return op(Op.MOV, new Swizzled(alu.src(i).value(), swz));
    }

    Value op(Op op, AluOperand... srcs) {
        Value v = b.alu(op, srcs);
        ((AluInstr) v.parent()).setExact(true);
        return v;
    }

    Value u32(long v) {
        return b.constant(32, v & 0xffffffffL);
    }

    Value u64(long v) {
        return b.constant(64, v);
    }

    Value f64(double v) {
        return b.f64(v);
    }

    Value f32(float v) {
        return b.f32(v);
    }

    Value hi(Value x) {
        return op(Op.UNPACK_64_2X32_SPLIT_Y, x);
    }

    Value lo(Value x) {
        return op(Op.UNPACK_64_2X32_SPLIT_X, x);
    }

    Value pack(Value lo, Value hi) {
        return op(Op.PACK_64_2X32_SPLIT, lo, hi);
    }

    /** {@code x} with its high word replaced by {@code h}, written as NIR writes it (see the class comment). */
    Value withHi(Value x, Value h) {
        return pack(lo(x), h);
    }

    /**
     * 1/d for a double d within the 32-bit float range, about 2^-52 relative: the 32-bit
     * {@code frcp} of d refined by two Newton–Raphson steps {@code y + y·(1 − d·y)} with
     * {@code ffma} (23 bits, 46, then the double's own precision). Faithful, not correctly rounded.
     */
    Value reciprocal(Value d) {
        Value negD = op(Op.FNEG, d);
        Value y = op(Op.F2F64, op(Op.FRCP, op(Op.F2F32, d)));
        for (int k = 0; k < 2; k++) y = op(Op.FFMA, op(Op.FFMA, negD, y, f64(1.0)), y, y);
        return y;
    }

    Value sel(Value c, Value a, Value b) {
        return op(Op.BCSEL, c, a, b);
    }

    Value and(Value a, Value b) {
        return op(Op.IAND, a, b);
    }

    Value or(Value a, Value b) {
        return op(Op.IOR, a, b);
    }
}
