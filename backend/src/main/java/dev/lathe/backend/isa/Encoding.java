package dev.lathe.backend.isa;

import dev.lathe.backend.isa.Operand.Kind;
import dev.lathe.ir.AtomicOp;
import java.util.ArrayList;
import java.util.List;

/**
 * The 64-bit encoding of every category ({@code backend/ISA.md} draws the fields). Every
 * instruction starts with the category in bits 63–61; the fields after it depend on the
 * category. {@link #validate} says what an instruction may hold; {@link #encode} packs a valid
 * one and {@link #decode} unpacks a word, rejecting unknown opcodes, out-of-range fields and
 * set reserved bits, so a corrupt binary is an error, never a different program.
 */
public final class Encoding {
    private Encoding() {}

    public static final int DST_P0 = 252, DST_A0 = 253, DST_NONE = 255;
    public static final int MAX_CONST = 2048, MAX_CONST_CAT3 = 256, MAX_SLOT = 32;
    public static final int IMM_MIN = -1024, IMM_MAX = 1023;
    public static final int OFFSET_BITS = 22;

    /** Thrown for a word that is no valid instruction. */
    public static final class DecodeException extends Exception {
        public DecodeException(String message) {
            super(message);
        }
    }

    // ---- validation ----------------------------------------------------------------------------

    /** What is wrong with an instruction, or null when it can be encoded. */
    public static String validate(MInstr i) {
        MOp op = i.op();
        if (i.rpt() < 0 || i.rpt() > 3) return "(rpt" + i.rpt() + "): the repeat count is 0 to 3";
        if (i.nop() < 0 || i.nop() > 3) return "(nop" + i.nop() + "): the nop count is 0 to 3";
        if (op.isTyped() && i.type() == null) return op.base() + " needs a type";
        if (op.isTyped() && !op.types().allows(i.type()))
            return op.base() + " does not take type " + i.type().suffix();
        if (!op.isTyped() && i.type() != null) return op.base() + " takes no type";
        if (i.sat() && (op.category() < 2 || op.category() > 4 || i.type().kind() != MType.Kind.FLOAT)) {
            return "(sat) is for float ALU instructions";
        }
        if (i.invert() && op != MOp.BR && op != MOp.KILL) return "'!' is for br and kill";
        if ((op == MOp.CMPS_F || op == MOp.CMPS_U || op == MOp.CMPS_S) != (i.cond() != null)) {
            return i.cond() == null ? "cmps needs a condition" : op.base() + " takes no condition";
        }
        if (i.cond() != null && Semantics.compare(op, i.cond()) == null) {
            return "integer comparisons have lt, ge, eq and ne, not " + i.cond().text();
        }
        if (op.category() != 1 && i.srcType() != null) return "only mov and cov have a source type";
        if (i.rpt() > 0 && (op.category() == 0 && op != MOp.NOP || op.category() >= 5)) {
            return "(rpt) is for nop and ALU instructions";
        }
        if (i.rpt() > 0 && (op == MOp.MOVA || op == MOp.RCP)) {
            // as on ir3, whose rcp takes no (rptN) (ir3's vectorization leaves reciprocals scalar)
            return "(rpt) is not for " + op.base();
        }
        return switch (op.category()) {
            case 0 -> validateFlow(i);
            case 1 -> validateMove(i);
            case 2, 4 -> validateAlu(i, false);
            case 3 -> validateAlu(i, true);
            case 5 -> validateTexture(i);
            case 6 -> validateMemory(i);
            default -> i.dst().kind() == Kind.NONE && i.srcs().isEmpty() ? null : "bar takes no operands";
        };
    }

    private static String validateFlow(MInstr i) {
        if (i.op() == MOp.END) {
            // the registers the shader's outputs are in when it ends (the binary keeps them in its header)
            for (Operand o : i.srcs()) {
                if (o.kind() != Kind.REG || o.neg() || o.abs() || o.rep())
                    return "end reads output registers (rN.c) only";
                String e = checkReg(o, MType.U32);
                if (e != null) return e;
            }
        }
        if (i.dst().kind() != Kind.NONE || i.op() != MOp.END && !i.srcs().isEmpty())
            return i.op().base() + " takes no registers";
        if (i.op() != MOp.JUMP && i.op() != MOp.BR && i.offset() != 0) return i.op().base() + " has no target";
        return null;
    }

    private static String validateMove(MInstr i) {
        if (i.op() == MOp.MOVA) {
            if (!i.withSync(false, false).withNop(0).equals(MInstr.mova(i.src(0))))
                return "mova is mova a0.x, rN (no type, repeat or saturation)";
            Operand s = i.src(0);
            return s.kind() != Kind.REG || s.neg() || s.abs() || s.rep()
                    ? "mova reads a plain register"
                    : checkReg(s, MType.U32);
        }
        if (i.dst().kind() == Kind.ADDR) return "only mova writes a0.x";
        if (i.srcType() == null) return "mov and cov need a source and a destination type";
        if ((i.op() == MOp.MOV) != (i.srcType() == i.type())) {
            return i.op() == MOp.MOV ? "mov does not convert: use cov" : "cov converts: its types differ";
        }
        String d = checkDst(i, i.dst(), i.type(), i.type() == MType.B1);
        if (d != null) return d;
        if (i.srcs().size() != 1) return i.op().base() + " takes one source";
        Operand s = i.src(0);
        if (s.neg() || s.abs()) return "mov and cov have no source modifiers";
        return switch (s.kind()) {
            case REG -> checkReg(s, i.srcType());
            case CONST ->
                s.value() >= 0 && s.value() + i.srcType().regs() <= MAX_CONST ? null : "no constant " + s.value();
            case IMM ->
                s.rep()
                        ? "(r) is for registers"
                        : s.value() >= 0 && s.value() <= 0xffffffffL
                                ? i.srcType().bits() == 64 ? "a 64-bit value cannot come from an immediate" : null
                                : "the immediate is a 32-bit pattern (0 to 0xffffffff)";
            case SPECIAL ->
                s.rep()
                        ? "(r) is for registers"
                        : SysVal.ofCode(s.index()) == null ? "no system value " + s.value() : null;
            case RELCONST ->
                s.rep() || i.op() != MOp.MOV || i.type().bits() != 32
                        ? "c<a0.x + n> is read by a 32-bit mov"
                        : s.value() >= 0 && s.value() < MAX_CONST
                                ? null
                                : "c<a0.x + " + s.value() + ">: the offset is 0 to " + (MAX_CONST - 1);
            default -> "a " + i.op().base() + " source is a register, constant, immediate or system value";
        };
    }

    private static String validateAlu(MInstr i, boolean cat3) {
        MOp op = i.op();
        boolean cmps = i.cond() != null;
        String d = checkDst(i, i.dst(), cmps ? MType.U32 : i.type(), cmps);
        if (d != null) return d;
        if (i.srcs().size() != op.numSrcs())
            return op.base() + " takes " + op.numSrcs() + " source" + (op.numSrcs() == 1 ? "" : "s");
        if (op == MOp.BARY_F) {
            Operand slot = i.src(0), comp = i.src(1);
            if (i.type() != MType.F32) return "bary reads f32 inputs";
            if (slot.kind() != Kind.IMM
                    || slot.value() < 0
                    || slot.value() >= MAX_SLOT
                    || comp.kind() != Kind.IMM
                    || comp.value() < 0
                    || comp.value() + i.rpt() > 3
                    || slot.neg()
                    || slot.abs()
                    || slot.rep()
                    || comp.neg()
                    || comp.abs()
                    || comp.rep()) {
                return "bary reads inN[c]: input slot 0 to 31, component 0 to 3 (with the repetitions)";
            }
            return null;
        }
        for (int k = 0; k < i.srcs().size(); k++) {
            Operand s = i.src(k);
            boolean cond = op == MOp.SEL_B && k == 1; // sel's condition: a 32-bit register, a constant or p0.x
            MType t = cond ? MType.U32 : i.type();
            String e = switch (s.kind()) {
                case REG -> checkReg(s, t);
                case CONST ->
                    s.value() >= 0 && s.value() + t.regs() <= (cat3 ? MAX_CONST_CAT3 : MAX_CONST)
                            ? null
                            : "no constant " + s.value() + (cat3 ? " in a cat3 instruction (c0.x to c63.w)" : "");
                case IMM ->
                    cat3
                            ? "cat3 instructions take no immediates"
                            : s.value() < IMM_MIN || s.value() > IMM_MAX
                                    ? "immediate " + s.value() + " is outside " + IMM_MIN + " to " + IMM_MAX
                                    : s.rep() ? "(r) is for registers" : null;
                case PRED -> cond ? null : "p0.x is read only by sel, br and kill";
                case RELCONST ->
                    op.category() == 4 || cond || t.regs() != 1
                            ? "c<a0.x + n> is read by mov, cat2 and cat3 instructions (32-bit)"
                            : s.rep()
                                    ? "(r) is for registers"
                                    : s.value() >= 0 && s.value() < (cat3 ? MAX_CONST_CAT3 - 2 : MAX_CONST - 1)
                                            ? null
                                            : "c<a0.x + " + s.value() + ">: the offset is 0 to "
                                                    + (cat3 ? MAX_CONST_CAT3 - 3 : MAX_CONST - 2) + " in "
                                                    + (cat3 ? "a cat3" : "an ALU") + " source";
                default -> "source " + (k + 1) + " of " + op.base() + " is missing";
            };
            if (e != null) return e;
            if (s.kind() == Kind.IMM && (s.neg() || s.abs())) return "immediates have no modifiers";
            if (s.abs() && cat3) return "cat3 sources have no |abs|";
            if ((s.neg() || s.abs()) && (s.kind() == Kind.PRED || cond)) return "the condition takes no modifiers";
            if ((s.neg() || s.abs()) && op != MOp.ABSNEG_S && i.type().kind() != MType.Kind.FLOAT) {
                return "integer sources have no modifiers (absneg.s takes them)";
            }
        }
        return operandRule(i);
    }

    /**
     * Which sources may be constants and immediates, as ir3 has it ({@code backend/ISA.md},
     * "Operands and modifiers"): a cat2 instruction reads at most one constant and at most one
     * immediate; cat3 reads its second source from a register (or, for {@code sel}, p0.x);
     * the SFU (cat4) reads registers only.
     */
    private static String operandRule(MInstr i) {
        int consts = 0, imms = 0;
        for (Operand s : i.srcs()) {
            if (s.kind() == Kind.CONST || s.kind() == Kind.RELCONST) consts++;
            if (s.kind() == Kind.IMM) imms++;
        }
        switch (i.op().category()) {
            case 2 -> {
                if (consts > 1) return "a cat2 instruction reads at most one constant";
                if (imms > 1) return "a cat2 instruction reads at most one immediate";
            }
            case 3 -> {
                Kind k = i.src(1).kind();
                if (k != Kind.REG && k != Kind.PRED) return "the second source of a cat3 instruction is a register";
            }
            case 4 -> {
                if (consts + imms > 0) return "SFU instructions read registers only";
            }
            default -> {}
        }
        return null;
    }

    private static String validateTexture(MInstr i) {
        if (i.dim() < 1 || i.dim() > 4) return "textures have 1 to 3 dimensions (4: a cube array's direction and cube)";
        if (i.dim() == 4 && i.op() == MOp.ISAM) return "isam takes 1 to 3 coordinates (no cube arrays)";
        if (i.count() < 1 || i.count() > 15) return "the write mask picks 1 to 4 of xyzw";
        if (i.index() < 0 || i.index() >= MAX_SLOT) return "texture t" + i.index() + ": there are t0 to t31";
        if (i.bindless() && (i.index() != 0 || i.src(2).kind() != Kind.REG))
            return "a bindless texture is named by a heap index register alone";
        String d = checkDst(i, i.dst(), MType.U32, false);
        if (d != null) return d;
        // the components the mask picks are written packed: dst, dst+1, …
        if (i.dst().index() + Integer.bitCount(i.count()) > Operand.NUM_REGS)
            return "the texel's registers run past r47.w";
        if (i.srcs().size() != 3) return "texture instructions have a coordinate, a lod and a texture index operand";
        Operand c = i.src(0), lod = i.src(1), index = i.src(2);
        if (index.kind() != Kind.REG && index.kind() != Kind.NONE) return "the texture index comes from a register";
        if (i.isPrefetch()) {
            if (c.value() < 0 || c.value() >= 4L * MAX_SLOT || c.value() % 4 + i.dim() > 4)
                return "a prefetch reads the coordinates of input components in0[0] to in31[2]";
            if (i.dim() != 2 || index.kind() != Kind.NONE || i.bindless() || lod.kind() != Kind.NONE)
                return "a prefetch samples a 2D texture tN (no lod, index register or heap)";
            if (i.type() != MType.F32) return "a prefetch samples f32 texels";
            return null;
        }
        if (i.op() == MOp.GETSIZE ? c.kind() != Kind.NONE : c.kind() != Kind.REG) {
            return i.op() == MOp.GETSIZE ? "getsize takes no coordinates" : "coordinates come from registers";
        }
        if (c.kind() == Kind.REG && c.index() + i.dim() > Operand.NUM_REGS) return "the coordinates run past r47.w";
        if ((i.op() == MOp.SAMLOD) != (lod.kind() == Kind.REG))
            return i.op() == MOp.SAMLOD ? "samlod needs a lod register" : "only samlod takes a lod";
        if (lod.kind() != Kind.REG && lod.kind() != Kind.NONE) return "the lod comes from a register";
        for (Operand o : i.srcs()) if (o.neg() || o.abs() || o.rep()) return "texture operands have no modifiers";
        return null;
    }

    private static String validateMemory(MInstr i) {
        MOp op = i.op();
        if (op.isAtomic()) return validateAtomic(i);
        if (op.isImage()) return validateImage(i);
        if (i.count() < 1 || i.count() > 4) return "memory instructions move 1 to 4 components";
        if (i.index() < 0 || i.index() >= MAX_SLOT) return "index " + i.index() + " is outside 0 to 31";
        if ((op == MOp.LDL
                        || op == MOp.STL
                        || op == MOp.LDP
                        || op == MOp.STP
                        || op == MOp.LDC
                        || op == MOp.STC
                        || op == MOp.LDLW
                        || op == MOp.STLW
                        || op == MOp.LDGA
                        || op == MOp.STGA)
                && i.index() != 0) {
            return op.base() + " has no buffer or slot index";
        }
        long lim = 1L << (OFFSET_BITS - 1);
        if (i.offset() < -lim || i.offset() >= lim)
            return "offset " + i.offset() + " does not fit " + OFFSET_BITS + " bits";
        if (i.srcs().size() != 2) return "memory instructions have an address and a data operand";
        Operand addr = i.src(0), data = i.src(1);
        if (addr.kind() != Kind.REG && addr.kind() != Kind.NONE) return "the address comes from a register";
        if ((op == MOp.LDLV || op == MOp.STO || op == MOp.STC) && addr.kind() != Kind.NONE)
            return op.base() + " takes no address register";
        if (op == MOp.STC && (i.type().bits() != 32 || i.offset() < 0 || i.offset() + i.count() > 2048)) {
            return "stc stores 32-bit values into c0.x to c511.w";
        }
        boolean device = op.space() == MOp.Space.DEVICE;
        if (device && addr.kind() != Kind.REG) return op.base() + " takes its 64-bit address from a register pair";
        int regs = i.count() * i.type().regs();
        if (op.isStore()) {
            if (i.dst().kind() != Kind.NONE) return "stores have no destination";
            if (data.kind() != Kind.REG) return "stores take their data from registers";
            String e = checkRegRun(data, i.type(), regs);
            if (e != null) return e;
        } else {
            if (data.kind() != Kind.NONE) return "loads take no data operand";
            String e = checkDst(i, i.dst(), i.type(), false);
            if (e != null) return e;
            e = checkRegRun(i.dst(), i.type(), regs);
            if (e != null) return e;
        }
        if (addr.kind() == Kind.REG) {
            String e = checkReg(addr, device ? MType.U64 : MType.U32);
            if (e != null) return e;
        }
        for (Operand o : i.srcs()) if (o.neg() || o.abs() || o.rep()) return "memory operands have no modifiers";
        return null;
    }

    /** ldib/stib: four components, no offset; [coordinates, data]. */
    private static String validateImage(MInstr i) {
        if (i.count() != 4) return "image loads and stores move a whole texel (count 4)";
        if (i.offset() != 0) return "image accesses take no offset";
        if (i.dim() < 1 || i.dim() > 3) return "images have 1 to 3 dimensions";
        if (i.index() < 0 || i.index() >= MAX_SLOT) return "index " + i.index() + " is outside 0 to 31";
        if (i.srcs().size() != 2) return "image accesses have a coordinate and a data operand";
        Operand c = i.src(0), data = i.src(1);
        if (c.kind() != Kind.REG) return "coordinates come from registers";
        if (c.index() + i.dim() > Operand.NUM_REGS) return "the coordinates run past r47.w";
        for (Operand o : i.srcs()) if (o.neg() || o.abs() || o.rep()) return "memory operands have no modifiers";
        if (i.op() == MOp.STIB) {
            if (i.dst().kind() != Kind.NONE) return "stores have no destination";
            if (data.kind() != Kind.REG) return "stores take their data from registers";
            return checkRegRun(data, i.type(), 4);
        }
        if (data.kind() != Kind.NONE) return "loads take no data operand";
        String e = checkDst(i, i.dst(), i.type(), false);
        return e != null ? e : checkRegRun(i.dst(), i.type(), 4);
    }

    /** Atomics: one word, no offset; [address, data, compare] with compare only for cmpxchg. */
    private static String validateAtomic(MInstr i) {
        MOp op = i.op();
        if (i.count() != 1) return "atomics work on one word";
        if (i.offset() != 0) return "atomics take no offset";
        if (i.index() < 0 || i.index() >= MAX_SLOT) return "index " + i.index() + " is outside 0 to 31";
        if (op.isSharedAtomic() && i.index() != 0) return "workgroup atomics have no buffer index";
        if (op.isImageAtomic() != (i.dim() != 0))
            return op.isImageAtomic() ? "image atomics have 1 to 3 dimensions" : "only image atomics have dimensions";
        if (i.dim() < 0 || i.dim() > 3) return "images have 1 to 3 dimensions";
        if (op.isImageAtomic() && i.src(0).kind() == Kind.REG && i.src(0).index() + i.dim() > Operand.NUM_REGS)
            return "the coordinates run past r47.w";
        if (i.srcs().size() != 3) return "atomics have an address, a data and a compare operand";
        boolean cmp = op.atomicOp(i.type()) == AtomicOp.COMP_SWAP;
        if (i.src(0).kind() != Kind.REG) return "the address comes from a register";
        if (i.src(1).kind() != Kind.REG) return "the data comes from a register";
        if ((i.src(2).kind() == Kind.REG) != cmp)
            return cmp ? "cmpxchg needs a compare register" : "only cmpxchg takes a compare value";
        String e = checkDst(i, i.dst(), i.type(), false);
        if (e != null) return e;
        for (Operand o : i.srcs()) {
            if (o.kind() == Kind.REG && (e = checkReg(o, MType.U32)) != null) return e;
            if (o.neg() || o.abs() || o.rep()) return "memory operands have no modifiers";
        }
        return null;
    }

    private static String checkDst(MInstr i, Operand d, MType t, boolean predOk) {
        if (d.kind() == Kind.PRED) {
            if (!predOk) return "p0.x is written only by cmps and mov.b1b1";
            return i.rpt() == 0 ? null : "p0.x cannot be the destination of a repeated instruction";
        }
        if (d.kind() != Kind.REG) return i.op().base() + " needs a destination register";
        if (d.neg() || d.abs()) return "destinations have no modifiers";
        String e = checkReg(d.withRep(false), t);
        if (e != null) return e;
        int last = d.index() + (i.rpt() + 1) * t.regs() - 1;
        return last < Operand.NUM_REGS ? null : "the repeated destination runs past r47.w";
    }

    private static String checkReg(Operand r, MType t) {
        if (r.value() < 0 || r.value() >= Operand.NUM_REGS) return "no register " + r.value() + " (r0.x to r47.w)";
        if (t.regs() == 2 && r.value() % 2 != 0)
            return "a 64-bit value is in an aligned pair: " + Operand.scalarName('r', r.index()) + " is odd";
        if (r.value() + t.regs() > Operand.NUM_REGS) return "the pair runs past r47.w";
        return null;
    }

    private static String checkRegRun(Operand r, MType t, int regs) {
        String e = checkReg(r, t);
        if (e != null) return e;
        return r.value() + regs <= Operand.NUM_REGS ? null : "the registers run past r47.w";
    }

    // ---- encoding ------------------------------------------------------------------------------

    /** Packs a valid instruction; an invalid one is a programming error. */
    public static long encode(MInstr i) {
        String problem = validate(i);
        if (problem != null) throw new IllegalArgumentException(problem + ": " + i);
        MOp op = i.op();
        long w = (long) op.category() << 61;
        return switch (op.category()) {
            case 0 ->
                w
                        | (long) op.code() << 55
                        | (long) i.rpt() << 53
                        | sync(i, 52)
                        | (long) i.nop() << 49
                        | (i.invert() ? 1L << 48 : 0)
                        | (i.offset() & 0xffffffffL);
            case 1 ->
                op == MOp.MOVA
                        ? w
                                | (long) op.code() << 58
                                | (i.ss() ? 1L << 55 : 0)
                                | (i.sy() ? 1L << 54 : 0)
                                | (long) i.nop() << 52
                                | (long) DST_A0 << 36
                                | moveSrc(i.src(0))
                        : w
                                | (long) op.code() << 58
                                | (long) i.rpt() << 56
                                | (i.ss() ? 1L << 55 : 0)
                                | (i.sy() ? 1L << 54 : 0)
                                | (long) i.nop() << 52
                                | (long) i.srcType().code() << 48
                                | (long) i.type().code() << 44
                                | (long) dst(i.dst()) << 36
                                | moveSrc(i.src(0));
            case 2, 4 ->
                w
                        | (long) op.code() << 55
                        | (long) i.rpt() << 53
                        | sync(i, 52)
                        | (long) i.nop() << 49
                        | (i.sat() ? 1L << 48 : 0)
                        | (long) (i.cond() == null ? 0 : i.cond().code()) << 45
                        | (long) i.type().code() << 41
                        | (long) dst(i.dst()) << 33
                        | (long) aluSrc(i.src(0)) << 16
                        | (i.srcs().size() > 1 ? aluSrc(i.src(1)) : noneSrc());
            case 3 ->
                w
                        | (long) op.code() << 55
                        | (long) i.rpt() << 53
                        | sync(i, 52)
                        | (long) i.nop() << 49
                        | (i.sat() ? 1L << 48 : 0)
                        | (long) i.type().code() << 44
                        | (long) dst(i.dst()) << 36
                        | (long) cat3Src(i.src(0)) << 24
                        | (long) cat3Src(i.src(1)) << 12
                        | cat3Src(i.src(2));
            case 5 ->
                w
                        | (long) op.code() << 55
                        | sync(i, 52)
                        | (long) i.nop() << 49
                        | (long) i.type().code() << 45
                        | (long) i.count() << 41
                        | (long) dst(i.dst()) << 33
                        | (long) (i.isPrefetch() ? i.src(0).value() : regOrNone(i.src(0))) << 25
                        | (long) regOrNone(i.src(1)) << 17
                        | (long) i.index() << 12
                        | (long) (i.dim() & 3) << 10 // 0: four coordinates
                        | (long) regOrNone(i.src(2)) << 2
                        | (i.bindless() ? 1L : 0L) << 1
                        | (i.isPrefetch() ? 1L : 0L);
            case 6 ->
                op.isImage()
                        ? w
                                | (long) op.code() << 55
                                | sync(i, 52)
                                | (long) i.nop() << 49
                                | (long) i.type().code() << 45
                                | 3L << 43
                                | (long)
                                                (op == MOp.STIB
                                                        ? i.src(1).index()
                                                        : i.dst().index())
                                        << 35
                                | (long) i.src(0).index() << 27
                                | (long) i.index() << 22
                                | (long) i.dim() << 20
                        : op.isAtomic()
                                ? w
                                        | (long) op.code() << 55
                                        | sync(i, 52)
                                        | (long) i.nop() << 49
                                        | (long) i.type().code() << 45
                                        | (long) i.dst().index() << 35
                                        | (long) i.src(0).index() << 27
                                        | (long) i.index() << 22
                                        | (long) i.src(1).index() << 14
                                        | (long) regOrNone(i.src(2)) << 6
                                        | (long) i.dim() << 4
                                : w
                                        | (long) op.code() << 55
                                        | sync(i, 52)
                                        | (long) i.nop() << 49
                                        | (long) i.type().code() << 45
                                        | (long) (i.count() - 1) << 43
                                        | (long)
                                                        (i.op().isStore()
                                                                ? i.src(1).index()
                                                                : i.dst().index())
                                                << 35
                                        | (long) regOrNone(i.src(0)) << 27
                                        | (long) i.index() << 22
                                        | (i.offset() & ((1L << OFFSET_BITS) - 1));
            default -> w | (long) op.code() << 55 | sync(i, 52) | (long) i.nop() << 49;
        };
    }

    private static long sync(MInstr i, int ssBit) {
        return (i.ss() ? 1L << ssBit : 0) | (i.sy() ? 1L << (ssBit - 1) : 0);
    }

    private static int dst(Operand d) {
        return switch (d.kind()) {
            case REG -> d.index();
            case PRED -> DST_P0;
            case ADDR -> DST_A0;
            default -> DST_NONE;
        };
    }

    private static int regOrNone(Operand o) {
        return o.kind() == Kind.REG ? o.index() : DST_NONE;
    }

    private static long moveSrc(Operand s) {
        return switch (s.kind()) {
            case REG -> (s.rep() ? 1L << 31 : 0) | s.value();
            case CONST -> 1L << 34 | (s.rep() ? 1L << 31 : 0) | s.value();
            case RELCONST -> 1L << 34 | 1L << 33 | s.value();
            case IMM -> 2L << 34 | (s.value() & 0xffffffffL);
            default -> 3L << 34 | s.value();
        };
    }

    private static int aluSrc(Operand s) {
        int flags = (s.neg() ? 1 << 13 : 0) | (s.abs() ? 1 << 12 : 0) | (s.rep() ? 1 << 11 : 0);
        return flags
                | switch (s.kind()) {
                    case REG -> s.index();
                    case CONST -> 1 << 14 | s.index();
                    case IMM -> 2 << 14 | (int) (s.value() & 0x7ff);
                    case RELCONST -> 3 << 14 | (s.index() + 1); // "none" with a value: c<a0.x + value - 1>
                    default -> noneSrc();
                };
    }

    private static int noneSrc() {
        return 3 << 14;
    }

    private static int cat3Src(Operand s) {
        int flags = (s.neg() ? 1 << 9 : 0) | (s.rep() ? 1 << 8 : 0);
        return flags
                | switch (s.kind()) {
                    case REG -> s.index();
                    case CONST -> 1 << 10 | s.index();
                    case RELCONST -> 3 << 10 | (s.index() + 2); // c<a0.x + value - 2>
                    default -> 3 << 10 | 1; // p0.x
                };
    }

    // ---- decoding ------------------------------------------------------------------------------

    private static long bits(long w, int hi, int lo) {
        return (w >>> lo) & ((1L << (hi - lo + 1)) - 1);
    }

    private static boolean bit(long w, int b) {
        return ((w >>> b) & 1) != 0;
    }

    /** Unpacks one word; an invalid word says what is wrong with it. */
    public static MInstr decode(long w) throws DecodeException {
        int cat = (int) bits(w, 63, 61);
        MInstr i = switch (cat) {
            case 0 -> decodeFlow(w);
            case 1 -> decodeMove(w);
            case 2, 4 -> decodeAlu(w, cat);
            case 3 -> decodeCat3(w);
            case 5 -> decodeTexture(w);
            case 6 -> decodeMemory(w);
            default -> decodeBarrier(w);
        };
        String problem = validate(i);
        if (problem != null) throw new DecodeException(problem);
        if (encode(i) != w) throw new DecodeException("reserved bits are set");
        return i;
    }

    private static MOp opcode(int cat, int code) throws DecodeException {
        MOp op = MOp.of(cat, code);
        if (op == null) throw new DecodeException("no cat" + cat + " instruction has opcode " + code);
        return op;
    }

    private static MType type(long code) throws DecodeException {
        MType t = MType.ofCode((int) code);
        if (t == null) throw new DecodeException("no type has code " + code);
        return t;
    }

    private static Operand dstOf(long v) throws DecodeException {
        if (v == DST_P0) return Operand.P0;
        if (v == DST_A0) return Operand.A0;
        if (v == DST_NONE) return Operand.NONE;
        if (v >= Operand.NUM_REGS) throw new DecodeException("no register " + v);
        return Operand.reg((int) v);
    }

    private static MInstr decodeFlow(long w) throws DecodeException {
        MOp op = opcode(0, (int) bits(w, 60, 55));
        return MInstr.of(
                op,
                null,
                null,
                null,
                (int) bits(w, 54, 53),
                bit(w, 52),
                bit(w, 51),
                (int) bits(w, 50, 49),
                false,
                bit(w, 48),
                Operand.NONE,
                List.of(),
                0,
                (int) bits(w, 31, 0),
                0,
                0);
    }

    private static MInstr decodeMove(long w) throws DecodeException {
        MOp op = opcode(1, (int) bits(w, 60, 58));
        int kind = (int) bits(w, 35, 34);
        long v = bits(w, 31, 0);
        if (op == MOp.MOVA) {
            return MInstr.mova(Operand.reg((int) (v & 0x7fffffff)).withRep(bit(v, 31)))
                    .withSync(bit(w, 55), bit(w, 54))
                    .withNop((int) bits(w, 53, 52));
        }
        MType from = type(bits(w, 51, 48)), to = type(bits(w, 47, 44));
        Operand src = switch (kind) {
            case 0 -> Operand.reg((int) (v & 0x7fffffff)).withRep(bit(v, 31));
            case 1 ->
                bit(w, 33)
                        ? Operand.relConst((int) (v & 0x7fffffff))
                        : Operand.constant((int) (v & 0x7fffffff)).withRep(bit(v, 31));
            case 2 -> Operand.imm(v);
            default -> new Operand(Kind.SPECIAL, v, false, false, false);
        };
        return MInstr.of(
                op,
                to,
                from,
                null,
                (int) bits(w, 57, 56),
                bit(w, 55),
                bit(w, 54),
                (int) bits(w, 53, 52),
                false,
                false,
                dstOf(bits(w, 43, 36)),
                List.of(src),
                0,
                0,
                0,
                0);
    }

    private static Operand aluSrcOf(long v) {
        int kind = (int) bits(v, 15, 14);
        long value = bits(v, 10, 0);
        Kind k = switch (kind) {
            case 0 -> Kind.REG;
            case 1 -> Kind.CONST;
            case 2 -> Kind.IMM;
            default -> Kind.NONE;
        };
        if (k == Kind.IMM) value = value >= 1024 ? value - 2048 : value;
        if (k == Kind.NONE && value != 0) {
            k = Kind.RELCONST;
            value--;
        }
        return new Operand(k, value, bit(v, 13), bit(v, 12), bit(v, 11));
    }

    private static MInstr decodeAlu(long w, int cat) throws DecodeException {
        MOp op = opcode(cat, (int) bits(w, 60, 55));
        MType t = type(bits(w, 44, 41));
        boolean cmps = op == MOp.CMPS_F || op == MOp.CMPS_U || op == MOp.CMPS_S;
        Cond c = Cond.ofCode((int) bits(w, 47, 45));
        if (cmps && c == null) throw new DecodeException("no condition has code " + bits(w, 47, 45));
        if (!cmps && bits(w, 47, 45) != 0) throw new DecodeException("reserved bits are set");
        List<Operand> srcs = new ArrayList<>();
        srcs.add(aluSrcOf(bits(w, 31, 16)));
        if (op.numSrcs() > 1) srcs.add(aluSrcOf(bits(w, 15, 0)));
        return MInstr.of(
                op,
                t,
                null,
                cmps ? c : null,
                (int) bits(w, 54, 53),
                bit(w, 52),
                bit(w, 51),
                (int) bits(w, 50, 49),
                bit(w, 48),
                false,
                dstOf(bits(w, 40, 33)),
                srcs,
                0,
                0,
                0,
                0);
    }

    private static Operand cat3SrcOf(long v) {
        int kind = (int) bits(v, 11, 10);
        long value = bits(v, 7, 0);
        if (kind == 3 && value >= 2 && !bit(v, 8))
            return new Operand(Kind.RELCONST, value - 2, bit(v, 9), false, false);
        if (kind == 3)
            return value == 1 && !bit(v, 9) && !bit(v, 8) ? Operand.P0 : new Operand(Kind.NONE, 0, false, false, false);
        return new Operand(kind == 0 ? Kind.REG : Kind.CONST, kind <= 1 ? value : -1, bit(v, 9), false, bit(v, 8));
    }

    private static MInstr decodeCat3(long w) throws DecodeException {
        MOp op = opcode(3, (int) bits(w, 60, 55));
        return MInstr.of(
                op,
                type(bits(w, 47, 44)),
                null,
                null,
                (int) bits(w, 54, 53),
                bit(w, 52),
                bit(w, 51),
                (int) bits(w, 50, 49),
                bit(w, 48),
                false,
                dstOf(bits(w, 43, 36)),
                List.of(cat3SrcOf(bits(w, 35, 24)), cat3SrcOf(bits(w, 23, 12)), cat3SrcOf(bits(w, 11, 0))),
                0,
                0,
                0,
                0);
    }

    private static Operand regOrNoneOf(long v) throws DecodeException {
        if (v == DST_NONE) return Operand.NONE;
        if (v >= Operand.NUM_REGS) throw new DecodeException("no register " + v);
        return Operand.reg((int) v);
    }

    private static MInstr decodeTexture(long w) throws DecodeException {
        MOp op = opcode(5, (int) bits(w, 60, 55));
        MInstr.Sample fields = new MInstr.Sample(
                (int) bits(w, 16, 12),
                (int) bits(w, 44, 41),
                bits(w, 11, 10) == 0 ? 4 : (int) bits(w, 11, 10),
                bit(w, 1));
        return new MInstr(
                op,
                type(bits(w, 48, 45)),
                0,
                bit(w, 52),
                bit(w, 51),
                (int) bits(w, 50, 49),
                dstOf(bits(w, 40, 33)),
                List.of(
                        // bit 0: a prefetch, whose coordinate field is an input component (slot * 4 + c)
                        bit(w, 0) ? Operand.imm(bits(w, 32, 25)) : regOrNoneOf(bits(w, 32, 25)),
                        regOrNoneOf(bits(w, 24, 17)),
                        regOrNoneOf(bits(w, 9, 2))),
                fields);
    }

    private static MInstr decodeMemory(long w) throws DecodeException {
        MOp op = opcode(6, (int) bits(w, 60, 55));
        if (op.isImage()) {
            Operand reg = regOrNoneOf(bits(w, 42, 35));
            return MInstr.of(
                    op,
                    type(bits(w, 48, 45)),
                    null,
                    null,
                    0,
                    bit(w, 52),
                    bit(w, 51),
                    (int) bits(w, 50, 49),
                    false,
                    false,
                    op == MOp.STIB ? Operand.NONE : reg,
                    List.of(regOrNoneOf(bits(w, 34, 27)), op == MOp.STIB ? reg : Operand.NONE),
                    (int) bits(w, 26, 22),
                    0,
                    (int) bits(w, 44, 43) + 1,
                    (int) bits(w, 21, 20));
        }
        if (op.isAtomic()) {
            return MInstr.of(
                    op,
                    type(bits(w, 48, 45)),
                    null,
                    null,
                    0,
                    bit(w, 52),
                    bit(w, 51),
                    (int) bits(w, 50, 49),
                    false,
                    false,
                    regOrNoneOf(bits(w, 42, 35)),
                    List.of(regOrNoneOf(bits(w, 34, 27)), regOrNoneOf(bits(w, 21, 14)), regOrNoneOf(bits(w, 13, 6))),
                    (int) bits(w, 26, 22),
                    0,
                    1,
                    (int) bits(w, 5, 4));
        }
        long reg = bits(w, 42, 35);
        if (reg >= Operand.NUM_REGS) throw new DecodeException("no register " + reg);
        Operand data = op.isStore() ? Operand.reg((int) reg) : Operand.NONE;
        Operand dst = op.isStore() ? Operand.NONE : Operand.reg((int) reg);
        long off = bits(w, OFFSET_BITS - 1, 0);
        if (off >= 1L << (OFFSET_BITS - 1)) off -= 1L << OFFSET_BITS;
        return MInstr.of(
                op,
                type(bits(w, 48, 45)),
                null,
                null,
                0,
                bit(w, 52),
                bit(w, 51),
                (int) bits(w, 50, 49),
                false,
                false,
                dst,
                List.of(regOrNoneOf(bits(w, 34, 27)), data),
                (int) bits(w, 26, 22),
                (int) off,
                (int) bits(w, 44, 43) + 1,
                0);
    }

    private static MInstr decodeBarrier(long w) throws DecodeException {
        MOp op = opcode(7, (int) bits(w, 60, 55));
        return MInstr.of(
                op,
                null,
                null,
                null,
                0,
                bit(w, 52),
                bit(w, 51),
                (int) bits(w, 50, 49),
                false,
                false,
                Operand.NONE,
                List.of(),
                0,
                0,
                0,
                0);
    }
}
