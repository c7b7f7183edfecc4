package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Cond;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.op.Op;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * 64-bit integer arithmetic on 32-bit pieces (the target has none of its own): each operand
 * is split into its low and high register, the 32-bit instructions compute the pieces with the
 * carries and borrows between them, and the result is collected back into a pair. Register
 * allocation turns the splits and collects into nothing when the pieces can stay in place.
 *
 * <ul>
 *   <li>add/sub: the carry out of the low half is {@code lo < a.lo} (a borrow {@code a.lo < b.lo});
 *   <li>mul: lo·lo (low and high words) plus both cross products in the high word;
 *   <li>shifts by k = s mod 64: below 32 the halves shift and the bits crossing over come from
 *       a shift by 32 − k (zero when k = 0, where the machine would shift by 0, not 32); from 32
 *       on one half moves into the other;
 *   <li>comparisons: the high halves decide (signed for ilt/ige), the low halves (unsigned) on
 *       a tie; min and max compare, then select the pair ({@link #minMax}; the three-source
 *       min, max and median reach selection as two-source ones, by the target's lowering rules).
 * </ul>
 */
final class WideInts {
    private static final Set<Op> OPS = EnumSet.of(
            Op.IADD, Op.ISUB, Op.IAND, Op.IOR, Op.IXOR, Op.INOT, Op.INEG, Op.IMUL, Op.ISHL, Op.USHR, Op.ISHR, Op.IEQ,
            Op.INE, Op.ULT, Op.UGE, Op.ILT, Op.IGE, Op.IMIN, Op.IMAX, Op.UMIN, Op.UMAX);

    private static final MType U = MType.U32;

    private final Isel isel;
    private final AluInstr a;
    private final int c;
    private final VReg dst;

    WideInts(Isel isel, AluInstr a, int c, VReg dst) {
        this.isel = isel;
        this.a = a;
        this.c = c;
        this.dst = dst;
    }

    static boolean handles(Op op) {
        return OPS.contains(op);
    }

    private VReg[] halves(int src) {
        return halves(isel.comp(a.src(src), c));
    }

    private VReg[] halves(VReg p) {
        VReg lo = isel.newReg(32), hi = isel.newReg(32);
        isel.add(MirInstr.split(lo, p, 0));
        isel.add(MirInstr.split(hi, p, 1));
        return new VReg[] {lo, hi};
    }

    private void result(VReg lo, VReg hi) {
        isel.add(MirInstr.collect(dst, lo, hi));
    }

    private VReg op(MOp m, VReg x, VReg y) {
        return isel.bin(m, m == MOp.ASHR_B ? MType.S32 : U, x, y);
    }

    private VReg opImm(MOp m, VReg x, long imm) {
        return isel.binImm(m, m == MOp.ASHR_B ? MType.S32 : U, x, imm, isel.newReg(32));
    }

    /** {@code imm - x}. */
    private VReg immMinus(long imm, VReg x) {
        VReg r = isel.newReg(32);
        isel.emitAlu(MOp.SUB_U, U, null, false, r, new Operand[] {Operand.imm(imm), Operand.reg(0)}, List.of(x));
        return r;
    }

    private VReg cmp(MOp m, Cond cond, VReg x, VReg y) {
        VReg r = isel.newReg(32);
        isel.emitAlu(
                m,
                m == MOp.CMPS_S ? MType.S32 : U,
                cond,
                false,
                r,
                new Operand[] {Operand.reg(0), Operand.reg(0)},
                List.of(x, y));
        return r;
    }

    private VReg cmpImm(MOp m, Cond cond, VReg x, long imm) {
        VReg r = isel.newReg(32);
        isel.emitAlu(m, U, cond, false, r, new Operand[] {Operand.reg(0), Operand.imm(imm)}, List.of(x));
        return r;
    }

    private VReg zero() {
        return isel.materialize(0, 32);
    }

    void run() {
        Op op = a.op();
        switch (op) {
            case IAND, IOR, IXOR -> {
                MOp m = op == Op.IAND ? MOp.AND_B : op == Op.IOR ? MOp.OR_B : MOp.XOR_B;
                VReg[] x = halves(0), y = halves(1);
                result(op(m, x[0], y[0]), op(m, x[1], y[1]));
            }
            case INOT -> {
                VReg[] x = halves(0);
                VReg lo = isel.newReg(32), hi = isel.newReg(32);
                isel.emitAlu(MOp.NOT_B, U, null, false, lo, new Operand[] {Operand.reg(0)}, List.of(x[0]));
                isel.emitAlu(MOp.NOT_B, U, null, false, hi, new Operand[] {Operand.reg(0)}, List.of(x[1]));
                result(lo, hi);
            }
            case IADD -> {
                VReg[] x = halves(0), y = halves(1);
                VReg lo = op(MOp.ADD_U, x[0], y[0]);
                VReg carry = cmp(MOp.CMPS_U, Cond.LT, lo, x[0]);
                result(lo, op(MOp.ADD_U, op(MOp.ADD_U, x[1], y[1]), carry));
            }
            case ISUB -> {
                VReg[] x = halves(0), y = halves(1);
                VReg borrow = cmp(MOp.CMPS_U, Cond.LT, x[0], y[0]);
                result(op(MOp.SUB_U, x[0], y[0]), op(MOp.SUB_U, op(MOp.SUB_U, x[1], y[1]), borrow));
            }
            case INEG -> {
                VReg[] x = halves(0);
                VReg borrow = cmpImm(MOp.CMPS_U, Cond.NE, x[0], 0);
                result(immMinus(0, x[0]), op(MOp.SUB_U, immMinus(0, x[1]), borrow));
            }
            case IMUL -> {
                VReg[] x = halves(0), y = halves(1);
                VReg lo = op(MOp.MUL_U, x[0], y[0]);
                VReg hi = op(MOp.MULH_U, x[0], y[0]);
                hi = op(MOp.ADD_U, hi, op(MOp.MUL_U, x[0], y[1]));
                hi = op(MOp.ADD_U, hi, op(MOp.MUL_U, x[1], y[0]));
                result(lo, hi);
            }
            case ISHL, USHR, ISHR -> shift(op);
            case IEQ, INE -> {
                VReg[] x = halves(0), y = halves(1);
                Cond k = op == Op.IEQ ? Cond.EQ : Cond.NE;
                VReg l = cmp(MOp.CMPS_U, k, x[0], y[0]), h = cmp(MOp.CMPS_U, k, x[1], y[1]);
                isel.bin(op == Op.IEQ ? MOp.AND_B : MOp.OR_B, U, l, h, dst);
            }
            case ULT, UGE, ILT, IGE -> {
                VReg lt = less(op == Op.ILT || op == Op.IGE, 0, 1);
                if (op == Op.ULT || op == Op.ILT) {
                    isel.add(MirInstr.copy(dst, lt));
                } else {
                    isel.binImm(MOp.XOR_B, U, lt, 1, dst);
                }
            }
            case UMIN, UMAX, IMIN, IMAX ->
                minMax(
                        op == Op.IMIN || op == Op.IMAX,
                        op == Op.UMIN || op == Op.IMIN,
                        isel.comp(a.src(0), c),
                        isel.comp(a.src(1), c),
                        dst);
            default -> throw new IllegalStateException("internal error: " + op + " is not a 64-bit lowering");
        }
    }

    /** The smaller (or larger) of the pairs {@code x} and {@code y} into {@code into}: compare, then select the pair. */
    VReg minMax(boolean signed, boolean min, VReg x, VReg y, VReg into) {
        VReg lt = less(signed, halves(x), halves(y));
        return min ? isel.sel(MType.U64, lt, x, y, into) : isel.sel(MType.U64, lt, y, x, into);
    }

    /** 1 when source {@code i} < source {@code j} (64-bit, signed or not), else 0. */
    private VReg less(boolean signed, int i, int j) {
        return less(signed, halves(i), halves(j));
    }

    private VReg less(boolean signed, VReg[] x, VReg[] y) {
        VReg hiLess = cmp(signed ? MOp.CMPS_S : MOp.CMPS_U, Cond.LT, x[1], y[1]);
        VReg hiEq = cmp(MOp.CMPS_U, Cond.EQ, x[1], y[1]);
        VReg loLess = cmp(MOp.CMPS_U, Cond.LT, x[0], y[0]);
        return op(MOp.OR_B, hiLess, op(MOp.AND_B, hiEq, loLess));
    }

    private void shift(Op op) {
        VReg[] x = halves(0);
        VReg k = opImm(MOp.AND_B, isel.comp(a.src(1), c), 63);
        VReg small = cmpImm(MOp.CMPS_U, Cond.LT, k, 32);
        VReg nonzero = cmpImm(MOp.CMPS_U, Cond.NE, k, 0);
        VReg back = immMinus(32, k); // 32 - k, for the bits crossing halves
        VReg lo, hi;
        if (op == Op.ISHL) {
            VReg lowSmall = op(MOp.SHL_B, x[0], k);
            VReg cross = isel.sel(U, nonzero, op(MOp.SHR_B, x[0], back), zero(), isel.newReg(32));
            VReg hiSmall = op(MOp.OR_B, op(MOp.SHL_B, x[1], k), cross);
            VReg hiBig = op(MOp.SHL_B, x[0], k); // the machine shifts by k mod 32 = k - 32
            lo = isel.sel(U, small, lowSmall, zero(), isel.newReg(32));
            hi = isel.sel(U, small, hiSmall, hiBig, isel.newReg(32));
        } else {
            boolean arith = op == Op.ISHR;
            VReg cross = isel.sel(U, nonzero, op(MOp.SHL_B, x[1], back), zero(), isel.newReg(32));
            VReg loSmall = op(MOp.OR_B, op(MOp.SHR_B, x[0], k), cross);
            VReg hiSmall = op(arith ? MOp.ASHR_B : MOp.SHR_B, x[1], k);
            VReg loBig = op(arith ? MOp.ASHR_B : MOp.SHR_B, x[1], k);
            VReg hiBig = arith ? opImm(MOp.ASHR_B, x[1], 31) : zero();
            lo = isel.sel(U, small, loSmall, loBig, isel.newReg(32));
            hi = isel.sel(U, small, hiSmall, hiBig, isel.newReg(32));
        }
        result(lo, hi);
    }
}
