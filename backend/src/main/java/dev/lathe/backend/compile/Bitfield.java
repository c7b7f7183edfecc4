package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Cond;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.op.Op;
import java.util.List;

/**
 * Bitfield extract and insert with shifts and masks, exactly as the op table defines them: a
 * field of {@code count} bits at {@code offset} (both read as unsigned 32-bit), cut to the
 * value's size; no field at all (count 0, or offset at or past the size) extracts 0 and inserts
 * nothing. The mask of w bits (1 ≤ w ≤ 32) is {@code 0xffffffff >> (32 − w)}, which never asks
 * the machine for a shift by 32.
 */
final class Bitfield {
    private static final MType U = MType.U32;

    private final Isel isel;
    private final AluInstr a;
    private final int c;
    private final VReg dst;
    private final int bits;

    Bitfield(Isel isel, AluInstr a, int c, VReg dst, int bits) {
        this.isel = isel;
        this.a = a;
        this.c = c;
        this.dst = dst;
        this.bits = bits;
    }

    private VReg src(int i) {
        return isel.comp(a.src(i), c);
    }

    private VReg alu(MOp m, MType t, Operand x, Operand y, List<VReg> regs) {
        VReg r = isel.newReg(32);
        isel.emitAlu(m, t, m == MOp.CMPS_U ? cond : null, false, r, new Operand[] {x, y}, regs);
        return r;
    }

    private Cond cond;

    private VReg cmp(Cond k, VReg x, long imm) {
        cond = k;
        return alu(MOp.CMPS_U, U, Operand.reg(0), Operand.imm(imm), List.of(x));
    }

    private VReg sel(VReg cnd, VReg x, VReg y, VReg into) {
        isel.emitAlu(
                MOp.SEL_B,
                U,
                null,
                false,
                into,
                new Operand[] {Operand.reg(0), Operand.reg(0), Operand.reg(0)},
                List.of(x, cnd, y));
        return into;
    }

    void run() {
        boolean insert = a.op() == Op.BITFIELD_INSERT;
        VReg base = src(0);
        VReg offset = src(insert ? 2 : 1), count = src(insert ? 3 : 2);
        // a field exists: count != 0 and offset < bits
        VReg ok = isel.bin(MOp.AND_B, U, cmp(Cond.NE, count, 0), cmp(Cond.LT, offset, bits));
        // its width: min(count, bits - offset), and its mask of that many low bits
        VReg room = alu(MOp.SUB_U, U, Operand.imm(bits), Operand.reg(0), List.of(offset));
        VReg width = isel.bin(MOp.MIN_U, U, count, room);
        VReg unused = alu(MOp.SUB_U, U, Operand.imm(32), Operand.reg(0), List.of(width));
        VReg ones = isel.materialize(0xffffffffL, 32);
        VReg mask = isel.bin(MOp.SHR_B, U, ones, unused);
        VReg zero = isel.materialize(0, 32);
        if (!insert) {
            VReg down = isel.bin(MOp.SHR_B, U, base, offset);
            VReg field = isel.bin(MOp.AND_B, U, down, mask);
            if (a.op() == Op.IBITFIELD_EXTRACT) {
                // sign-extend from the field's top bit: up by 32 - width, arithmetic down again
                VReg up = isel.bin(MOp.SHL_B, U, field, unused);
                field = isel.bin(MOp.ASHR_B, MType.S32, up, unused);
            }
            VReg r = sel(ok, field, zero, isel.newReg(32));
            MType t = bits == 32 ? U : bits == 16 ? MType.U16 : MType.U8;
            isel.add(MirInstr.op(MInstr.mov(t, t, Operand.reg(0), Operand.reg(0)), dst, r));
            return;
        }
        VReg placedMask = isel.bin(MOp.SHL_B, U, mask, offset);
        VReg keep = isel.newReg(32);
        isel.emitAlu(MOp.NOT_B, U, null, false, keep, new Operand[] {Operand.reg(0)}, List.of(placedMask));
        VReg kept = isel.bin(MOp.AND_B, U, base, keep);
        VReg moved = isel.bin(MOp.AND_B, U, isel.bin(MOp.SHL_B, U, src(1), offset), placedMask);
        VReg merged = isel.bin(MOp.OR_B, U, kept, moved);
        VReg r = sel(ok, merged, base, isel.newReg(32));
        MType t = bits == 32 ? U : bits == 16 ? MType.U16 : MType.U8;
        isel.add(MirInstr.op(MInstr.mov(t, t, Operand.reg(0), Operand.reg(0)), dst, r));
    }
}
