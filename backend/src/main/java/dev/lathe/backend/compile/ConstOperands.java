package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * const_operands: constants and uniforms read as operands, as ir3's copy propagation does
 * ({@code ir3_cp.c}). Instruction selection copies every constant into a register where it is
 * read ({@code mov v, 0x3f000000}) and every uniform out of the constant file
 * ({@code mov v, c1.x}). Here each such register source of an instruction is replaced by the
 * {@code mov}'s own operand when the operand rules allow it ({@link Encoding#validate}, the one
 * statement of them): a uniform by its constant; an immediate by itself when the instruction
 * can encode it, else by a constant-file scalar holding it (one per distinct value, counted in
 * {@code constlen}). A float source's negation and absolute value go into the immediate, or stay
 * on the constant. {@code mad} and {@code fma} exchange their multiplied sources when that lets
 * the second become a constant (cat3 reads its second source from a register). A load or store
 * at a constant address takes it in its offset field, with no address register. The
 * {@code mov}s left unread are removed.
 */
final class ConstOperands {
    private ConstOperands() {}

    /** The {@code const_operands} pass. */
    static void fold(MachineFunction mf) {
        Map<VReg, MirInstr> defs = new HashMap<>();
        for (List<MirInstr> l : mf.mir.values()) {
            for (MirInstr m : l) if (m.def != null) defs.put(m.def, m);
        }
        for (Map.Entry<Block, List<MirInstr>> e : mf.mir.entrySet()) {
            List<MirInstr> code = e.getValue();
            for (int n = 0; n < code.size(); n++) {
                MirInstr m = code.get(n);
                if (m.kind != MirInstr.Kind.OP) continue;
                if (m.proto.op().category() == 6) code.set(n, foldAddress(m, defs));
                if (m.proto.op().category() < 1 || m.proto.op().category() > 3) continue;
                code.set(n, fold(m, defs, mf.layout));
            }
            e.setValue(relative(code, defs));
        }
        Isel.removeDead(mf.mir);
        for (List<MirInstr> code : mf.mir.values()) dropIdleMovas(code);
    }

    /**
     * {@code mov v, c<a0.x + n>} read as the operand of the cat2 and cat3 instructions that use v in the
     * same block, as ir3 reads uniform array elements. a0.x must then hold the same index where
     * the reader is: where another {@code mova} came in between, the index is loaded into a0.x
     * again right before the reader (its register is still live: SSA). Each reader then belongs
     * to the {@code mova} before it, which the scheduler keeps.
     */
    /**
     * Readers in a row at one index that pay for loading a0.x again (its six slots of latency):
     * measured on the bundled shaders, 2 and 3 leave multiview.vert 27 cycles slower than 4;
     * 6 and more give up skinning.vert's folds (20% slower) for multiview's.
     */
    static final int REMAT_READERS = 4;

    private static List<MirInstr> relative(List<MirInstr> code, Map<VReg, MirInstr> defs) {
        Map<VReg, VReg> addressOf = new HashMap<>();
        Set<VReg> foldedDefs = new HashSet<>();
        List<MirInstr> out = new ArrayList<>(code.size());
        VReg a0 = null;
        for (int n = 0; n < code.size(); n++) {
            MirInstr m = code.get(n);
            if (m.kind == MirInstr.Kind.OP && m.proto.op() == MOp.MOVA) {
                a0 = m.srcs[0];
                out.add(m);
                continue;
            }
            if (m.kind == MirInstr.Kind.OP
                    && m.proto.op() == MOp.MOV
                    && m.proto.src(0).kind() == Operand.Kind.RELCONST) {
                addressOf.put(m.def, a0);
                out.add(m);
                continue;
            }
            Folded f = foldRelative(m, addressOf, defs);
            if (f != null && f.address() != a0) {
                // loading a0.x again costs an instruction and its latency: only for a run of
                // readers, and not for one that goes on from what readers at an earlier index
                // computed (a chain through the readers of several indices would wait for
                // a0.x at each step, where copies of the elements are read at once)
                if (readersAhead(code, n + 1, f.address(), addressOf, defs) < REMAT_READERS - 1
                        || readsAny(f.instr(), foldedDefs)) {
                    out.add(m);
                    continue;
                }
                out.add(MirInstr.op(MInstr.mova(Operand.reg(0)), null, f.address()));
                a0 = f.address();
            }
            if (f != null && f.instr().def != null) foldedDefs.add(f.instr().def);
            out.add(f == null ? m : f.instr());
        }
        return out;
    }

    private static boolean readsAny(MirInstr m, Set<VReg> regs) {
        for (VReg v : m.srcs) if (v != null && regs.contains(v)) return true;
        return false;
    }

    /** An instruction with elements read as c<a0.x + n>, and the index a0.x must hold for it. */
    private record Folded(MirInstr instr, VReg address) {}

    /** {@code m} reading the elements it can as relative constants (all at one index), or null. */
    private static Folded foldRelative(MirInstr m, Map<VReg, VReg> addressOf, Map<VReg, MirInstr> defs) {
        int cat = m.kind == MirInstr.Kind.OP ? m.proto.op().category() : 0;
        if (cat != 2 && cat != 3) return null;
        MOp op = m.proto.op();
        // cat3 reads its second source from a register: a multiplied element goes first
        if ((op == MOp.MAD_F || op == MOp.FMA_F)
                && m.srcs[0] != null
                && m.srcs[1] != null
                && addressOf.containsKey(m.srcs[1])
                && !addressOf.containsKey(m.srcs[0])) {
            m = m.withSourcesSwapped(0, 1);
        }
        VReg needs = null;
        for (int k = 0; k < m.srcs.length; k++) {
            VReg v = m.srcs[k];
            VReg addr = v == null || m.srcUnits[k] != 0 ? null : addressOf.get(v);
            if (addr == null || needs != null && needs != addr) continue;
            Operand here = m.proto.src(k);
            Operand rel =
                    new Operand(Operand.Kind.RELCONST, defs.get(v).proto.src(0).value(), here.neg(), here.abs(), false);
            MirInstr folded = m.withOperand(k, rel);
            if (Encoding.validate(folded.proto) != null) continue;
            m = folded;
            needs = addr;
        }
        return needs == null ? null : new Folded(m, needs);
    }

    /** How many instructions from {@code from} on would read elements at {@code address} before one needs another index. */
    private static int readersAhead(
            List<MirInstr> code, int from, VReg address, Map<VReg, VReg> addressOf, Map<VReg, MirInstr> defs) {
        int count = 0;
        for (int n = from; n < code.size(); n++) {
            MirInstr m = code.get(n);
            if (m.kind == MirInstr.Kind.OP && m.proto.op() == MOp.MOVA) break;
            Folded f = foldRelative(m, addressOf, defs);
            if (f == null) continue;
            if (f.address() != address) break;
            count++;
        }
        return count;
    }

    /** Removes each {@code mova} no instruction reads a0.x after, before the next one or the block's end. */
    static void dropIdleMovas(List<MirInstr> code) {
        int pending = -1;
        List<Integer> idle = new ArrayList<>();
        for (int n = 0; n < code.size(); n++) {
            MirInstr m = code.get(n);
            if (m.kind != MirInstr.Kind.OP) continue;
            if (m.proto.op() == MOp.MOVA) {
                if (pending >= 0) idle.add(pending);
                pending = n;
            } else if (m.proto.srcs().stream().anyMatch(o -> o.kind() == Operand.Kind.RELCONST)) {
                pending = -1;
            }
        }
        if (pending >= 0) idle.add(pending);
        for (int k = idle.size() - 1; k >= 0; k--) code.remove((int) idle.get(k));
    }

    /**
     * A load or store at a constant address: no address register, the constant in the offset
     * field (ir3's {@code ldg}/{@code ldc} take an immediate offset the same way).
     */
    private static MirInstr foldAddress(MirInstr m, Map<VReg, MirInstr> defs) {
        MOp op = m.proto.op();
        if (op.isAtomic()
                || op.isImage()
                || op == MOp.LDGA
                || op == MOp.STGA
                || m.srcs.length == 0
                || m.srcs[0] == null) return m;
        MirInstr d = defs.get(m.srcs[0]);
        if (d == null
                || d.kind != MirInstr.Kind.OP
                || d.proto.op() != MOp.MOV
                || d.proto.sat()
                || d.proto.rpt() != 0
                || d.proto.type().bits() != 32
                || d.proto.src(0).kind() != Operand.Kind.IMM) {
            return m;
        }
        long address = d.proto.src(0).value() & 0xffffffffL;
        long offset = address + m.proto.offset();
        if (address >= 1 << 20 || offset < 0 || offset >= 1 << 20) return m;
        MirInstr folded = m.withOperand(0, Operand.NONE);
        folded = folded.withProto(folded.proto.withOffset((int) offset));
        return Encoding.validate(folded.proto) == null ? folded : m;
    }

    private static MirInstr fold(MirInstr m, Map<VReg, MirInstr> defs, Layout layout) {
        MOp op = m.proto.op();
        if (op == MOp.MAD_F || op == MOp.FMA_F) {
            MirInstr swapped = m.withSourcesSwapped(0, 1);
            if (candidate(swapped, 0, defs, null) != null && candidate(m, 0, defs, null) == null) m = swapped;
        }
        for (int k = 0; k < m.srcs.length; k++) {
            Operand o = candidate(m, k, defs, layout);
            if (o == null) continue;
            MirInstr folded = m.withOperand(k, o);
            if (Encoding.validate(folded.proto) == null) m = folded;
        }
        return m;
    }

    /**
     * The operand that could stand for register source {@code k} of {@code m}, or null; with
     * {@code layout} null only whether there is one (a constant-file scalar is not taken).
     */
    private static Operand candidate(MirInstr m, int k, Map<VReg, MirInstr> defs, Layout layout) {
        VReg v = m.srcs[k];
        if (v == null || m.srcUnits[k] != 0) return null;
        MirInstr d = defs.get(v);
        if (d == null || d.kind != MirInstr.Kind.OP || d.proto.op() != MOp.MOV || d.proto.sat() || d.proto.rpt() != 0)
            return null;
        Operand src = d.proto.src(0), here = m.proto.src(k);
        MType from = d.proto.type(), read = readType(m.proto, k);
        if (read == null || from == MType.B1 || read == MType.B1) return null;
        boolean wide = read.bits() == 64;
        if (wide != (from.bits() == 64) || !wide && from.bits() < read.bits()) return null;
        if (src.kind() == Operand.Kind.CONST)
            return new Operand(Operand.Kind.CONST, src.value(), here.neg(), here.abs(), false);
        if (src.kind() != Operand.Kind.IMM || wide) return null;
        long bits = src.value() & 0xffffffffL;
        if (read.kind() == MType.Kind.FLOAT && (here.neg() || here.abs())) {
            long sign = FloatBits.signBit(read.bits());
            if (here.abs()) bits &= ~sign;
            if (here.neg()) bits ^= sign;
        } else if (here.neg() || here.abs()) {
            return null; // absneg.s: the integer modifiers stay on a register
        }
        Long imm = Isel.immediate(bits & Bits.mask(read.bits()), read);
        if (imm != null
                && m.proto.op().category() == 2
                && Encoding.validate(m.withOperand(k, Operand.imm(imm)).proto) == null) {
            return Operand.imm(imm);
        }
        if (m.proto.op().category() == 1) return Operand.imm(bits);
        boolean keepMods = read.kind() == MType.Kind.FLOAT;
        Operand c = new Operand(Operand.Kind.CONST, 0, keepMods && here.neg(), keepMods && here.abs(), false);
        // a scalar of the constant file is taken only for a fold the rules allow (c0.x stands in while asking)
        if (Encoding.validate(m.withOperand(k, c).proto) != null) return null;
        if (layout == null) return c;
        int at = layout.constant32(src.value());
        return at < 0 ? null : new Operand(Operand.Kind.CONST, at, c.neg(), c.abs(), false);
    }

    /** The type source {@code k} of an ALU instruction is read at, or null when it is not a value of one. */
    static MType readType(MInstr i, int k) {
        MOp op = i.op();
        if (op == MOp.SEL_B && k == 1) return MType.U32;
        if ((op == MOp.SHL_B || op == MOp.SHR_B || op == MOp.ASHR_B) && k == 1) return MType.U32;
        if (op.category() == 1) return i.srcType();
        return i.type();
    }
}
