package dev.lathe.backend.isa;

import dev.lathe.backend.isa.Operand.Kind;
import dev.lathe.ir.AtomicOp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded random valid instructions of every opcode, for round-trip tests. */
final class RandomInstructions {
    private RandomInstructions() {}

    /** A valid instruction of {@code op} (tries until the validator accepts one). */
    static MInstr of(MOp op, SplittableRandom r) {
        for (int attempt = 0; attempt < 10_000; attempt++) {
            MInstr i = attempt(op, r);
            if (Encoding.validate(i) == null) return i;
        }
        throw new AssertionError("no valid " + op + " generated");
    }

    private static MType type(MOp op, SplittableRandom r) {
        if (!op.isTyped()) return null;
        MType[] all = MType.values();
        while (true) {
            MType t = all[r.nextInt(all.length)];
            if (op.types().allows(t)) return t;
        }
    }

    private static Operand reg(SplittableRandom r, MType t) {
        int i = r.nextInt(Operand.NUM_REGS - 8);
        if (t != null && t.regs() == 2) i &= ~1;
        return Operand.reg(i);
    }

    private static Operand aluSrc(SplittableRandom r, MType t, boolean cat3) {
        Operand o = switch (r.nextInt(cat3 ? 2 : 3)) {
            case 0 -> reg(r, t).withRep(r.nextBoolean());
            case 1 ->
                t.regs() == 1 && r.nextInt(4) == 0
                        ? Operand.relConst(r.nextInt(cat3 ? 254 : 2046))
                        : Operand.constant(r.nextInt(cat3 ? 254 : 2046) & (t.regs() == 2 ? ~1 : ~0))
                                .withRep(r.nextBoolean());
            default -> Operand.imm(r.nextInt(Encoding.IMM_MIN, Encoding.IMM_MAX + 1));
        };
        if (o.kind() != Kind.IMM && t.kind() == MType.Kind.FLOAT) {
            o = o.withNeg(r.nextBoolean());
            if (!cat3) o = o.withAbs(r.nextBoolean());
        }
        return o;
    }

    private static MInstr attempt(MOp op, SplittableRandom r) {
        MType t = type(op, r);
        int rpt = op.category() >= 1 && op.category() <= 4 ? r.nextInt(4) : 0;
        boolean ss = r.nextBoolean(), sy = r.nextBoolean();
        int nop = r.nextInt(4);
        MInstr base = switch (op.category()) {
            case 0 ->
                op == MOp.NOP
                        ? MInstr.nop(1 + r.nextInt(4))
                        : MInstr.flow(
                                op,
                                (op == MOp.BR || op == MOp.KILL) && r.nextBoolean(),
                                op == MOp.JUMP || op == MOp.BR ? r.nextInt(-100_000, 100_000) : 0);
            case 1 -> {
                if (op == MOp.MOVA) yield MInstr.mova(Operand.reg(r.nextInt(Operand.NUM_REGS)));
                MType from = op == MOp.MOV ? t : type(op, r);
                Operand src = op == MOp.MOV && t.bits() == 32 && r.nextInt(5) == 0
                        ? Operand.relConst(r.nextInt(2048))
                        : switch (r.nextInt(4)) {
                            case 0 -> reg(r, from).withRep(r.nextBoolean());
                            case 1 -> Operand.constant(r.nextInt(2040) & ~1).withRep(r.nextBoolean());
                            case 2 -> Operand.imm(r.nextLong(0, 1L << 32));
                            default -> Operand.special(SysVal.values()[r.nextInt(SysVal.values().length)]);
                        };
                Operand dst = t == MType.B1 && r.nextInt(4) == 0 ? Operand.P0 : reg(r, t);
                yield MInstr.of(op, t, from, null, 0, false, false, 0, false, false, dst, List.of(src), 0, 0, 0, 0);
            }
            case 2, 3, 4 -> {
                Cond cond = null;
                if (op == MOp.CMPS_F || op == MOp.CMPS_U || op == MOp.CMPS_S) {
                    Cond[] cs = Cond.values();
                    cond = cs[r.nextInt(op == MOp.CMPS_F ? cs.length : 4)];
                }
                List<Operand> srcs = new ArrayList<>();
                if (op == MOp.BARY_F) {
                    srcs.add(Operand.imm(r.nextInt(32)));
                    srcs.add(Operand.imm(r.nextInt(4)));
                } else {
                    for (int k = 0; k < op.numSrcs(); k++) {
                        srcs.add(
                                op == MOp.SEL_B && k == 1 && r.nextInt(3) == 0
                                        ? Operand.P0
                                        : aluSrc(r, op == MOp.SEL_B && k == 1 ? MType.U32 : t, op.category() == 3));
                    }
                }
                Operand dst = cond != null && r.nextBoolean() ? Operand.P0 : reg(r, cond != null ? MType.U32 : t);
                boolean sat = t.kind() == MType.Kind.FLOAT && r.nextBoolean();
                yield MInstr.of(op, t, null, cond, 0, false, false, 0, sat, false, dst, srcs, 0, 0, 0, 0);
            }
            case 5 ->
                r.nextInt(4) == 0
                        ? MInstr.bindlessTexture(
                                op,
                                t,
                                1 + r.nextInt(3),
                                1 + r.nextInt(15),
                                Operand.reg(r.nextInt(188)),
                                op == MOp.GETSIZE ? Operand.NONE : Operand.reg(r.nextInt(188)),
                                op == MOp.SAMLOD ? Operand.reg(r.nextInt(191)) : Operand.NONE,
                                Operand.reg(r.nextInt(Operand.NUM_REGS)))
                        : MInstr.texture(
                                op,
                                t,
                                1 + r.nextInt(3),
                                1 + r.nextInt(15),
                                Operand.reg(r.nextInt(188)),
                                op == MOp.GETSIZE ? Operand.NONE : Operand.reg(r.nextInt(188)),
                                op == MOp.SAMLOD ? Operand.reg(r.nextInt(191)) : Operand.NONE,
                                r.nextInt(32),
                                r.nextBoolean() ? Operand.reg(r.nextInt(Operand.NUM_REGS)) : Operand.NONE);
            case 6 -> {
                if (op.isImage()) {
                    int dim = 1 + r.nextInt(3);
                    Operand coord = Operand.reg(r.nextInt(Operand.NUM_REGS - 3));
                    Operand texel = Operand.reg(r.nextInt(Operand.NUM_REGS - 4));
                    yield MInstr.image(
                            op,
                            t,
                            dim,
                            op == MOp.STIB ? Operand.NONE : texel,
                            coord,
                            op == MOp.STIB ? texel : Operand.NONE,
                            r.nextInt(32));
                }
                if (op.isAtomic()) {
                    boolean cmp = op.atomicOp(t) == AtomicOp.COMP_SWAP;
                    int dim = op.isImageAtomic() ? 1 + r.nextInt(3) : 0;
                    Operand address = op.isImageAtomic() ? Operand.reg(r.nextInt(Operand.NUM_REGS - 3)) : reg(r, t);
                    yield MInstr.atomic(
                            op,
                            t,
                            reg(r, t),
                            address,
                            reg(r, t),
                            cmp ? reg(r, t) : Operand.NONE,
                            op.isSharedAtomic() ? 0 : r.nextInt(32),
                            dim);
                }
                int count = 1 + r.nextInt(4);
                if (op == MOp.STC) {
                    // 32-bit registers into constant scalars 0 to 2047
                    yield MInstr.memory(
                            op,
                            r.nextBoolean() ? MType.U32 : MType.F32,
                            count,
                            Operand.NONE,
                            Operand.NONE,
                            Operand.reg(r.nextInt(Operand.NUM_REGS - 4)),
                            0,
                            r.nextInt(2048 - count));
                }
                boolean indexed = op == MOp.LDG || op == MOp.STG || op == MOp.LDLV || op == MOp.STO;
                Operand addr = op == MOp.LDGA || op == MOp.STGA
                        ? Operand.reg(2 * r.nextInt(95))
                        : op == MOp.LDLV || op == MOp.STO || r.nextInt(3) == 0
                                ? Operand.NONE
                                : Operand.reg(r.nextInt(190));
                Operand data = reg(r, t);
                yield MInstr.memory(
                        op,
                        t,
                        count,
                        op.isStore() ? Operand.NONE : data,
                        addr,
                        op.isStore() ? data : Operand.NONE,
                        indexed ? r.nextInt(32) : 0,
                        r.nextInt(-(1 << 21), 1 << 21));
            }
            default -> MInstr.bar();
        };
        return MInstr.of(
                base.op(),
                base.type(),
                base.srcType(),
                base.cond(),
                op == MOp.NOP ? base.rpt() : rpt,
                ss,
                sy,
                nop,
                base.sat(),
                base.invert(),
                base.dst(),
                base.srcs(),
                base.index(),
                base.offset(),
                base.count(),
                base.dim());
    }
}
