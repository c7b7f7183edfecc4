package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * copyprop: copy propagation over the registers, after allocation. The copies left are the
 * ones allocation could not coalesce away — parallel copies on edges, constants materialized
 * for a phi, values moved into a row for a texture's coordinates — and some of them only pass
 * a value on: {@code mov r1.y, 0} then {@code mov r2.z, r1.y}.
 *
 * <p>Forward through each block, each register remembers what a plain 32-bit {@code mov} last
 * put in it (another register, an immediate, a constant-file scalar) until either is written
 * again; an ALU source reading such a register reads the original instead where the operand
 * rules allow ({@link Encoding#validate}), and a {@code mov} that would put back what a register
 * already holds is dropped. Then backward through each block, with the registers live out of it
 * (a backward data-flow over physical registers, p0.x and a0.x), an ALU instruction or
 * {@code mov} whose every result is dead goes. Only what was written in the same block is
 * propagated, so no live range grows past a block boundary, and registers are never renamed:
 * register pressure cannot grow.
 */
final class CopyProp {
    private CopyProp() {}

    private static final int REGS = Operand.NUM_REGS;

    /** The {@code copyprop} pass. */
    static void propagate(MachineFunction mf) {
        for (Map.Entry<Block, List<MInstr>> e : mf.allocated.entrySet()) e.setValue(forward(e.getValue()));
        Map<Block, BitSet> liveOut = liveOut(mf);
        for (Map.Entry<Block, List<MInstr>> e : mf.allocated.entrySet())
            e.setValue(dropDead(e.getValue(), liveOut.get(e.getKey())));
    }

    /** A plain copy of 32 bits: what its destination holds afterwards is exactly its source. */
    private static boolean isCopy(MInstr i) {
        if (i.op() != MOp.MOV || i.type() != i.srcType() || i.type().bits() != 32 || i.rpt() != 0 || i.sat())
            return false;
        if (!i.dst().isReg()) return false;
        Operand s = i.src(0);
        boolean plain = !s.neg() && !s.abs() && !s.rep();
        return plain
                && (s.kind() == Operand.Kind.REG || s.kind() == Operand.Kind.IMM || s.kind() == Operand.Kind.CONST);
    }

    private static List<MInstr> forward(List<MInstr> code) {
        Operand[] known = new Operand[REGS];
        List<MInstr> out = new ArrayList<>(code.size());
        for (MInstr i : code) {
            i = substitute(i, known);
            if (isCopy(i)) {
                Operand s = i.src(0);
                int d = i.dst().index();
                if (s.isReg() && s.index() == d || s.equals(known[d])) continue; // it already holds that
            }
            for (int w : Access.writes(i)) {
                if (w >= REGS) continue;
                known[w] = null;
                for (int r = 0; r < REGS; r++)
                    if (known[r] != null && known[r].isReg() && known[r].index() == w) known[r] = null;
            }
            if (isCopy(i)) {
                Operand s = i.src(0);
                // a register that is itself a copy was resolved by substitute: chains point at the first holder
                if (!(s.isReg() && s.index() == i.dst().index())) known[i.dst().index()] = s;
            }
            out.add(i);
        }
        return out;
    }

    /** {@code i} with each single-register ALU source that holds a known copy reading the original, where that is legal. */
    private static MInstr substitute(MInstr i, Operand[] known) {
        int cat = i.category();
        if (cat < 1 || cat > 4 || i.rpt() != 0 || i.op() == MOp.BARY_F) return i;
        for (int s = 0; s < i.srcs().size(); s++) {
            Operand o = i.src(s);
            if (!o.isReg() || o.rep() || Access.units(i, s) != 1) continue;
            Operand k = known[o.index()];
            if (k == null) continue;
            Operand n = switch (k.kind()) {
                case REG, CONST -> new Operand(k.kind(), k.value(), o.neg(), o.abs(), false);
                // an immediate means the same only where it is a raw 32-bit pattern: a mov's source
                case IMM -> isCopy(i) && !o.neg() && !o.abs() ? k : null;
                default -> null;
            };
            if (n == null) continue;
            MType read = ConstOperands.readType(i, s);
            // a half read of a constant is not a half read of a register
            if (n.kind() == Operand.Kind.CONST && (read == null || read.bits() != 32)) continue;
            MInstr candidate = i.withSrc(s, n);
            if (Encoding.validate(candidate) == null) i = candidate;
        }
        return i;
    }

    /** Whether removing {@code i} changes nothing but the registers it writes. */
    private static boolean pure(MInstr i) {
        return i.category() >= 1 && i.category() <= 4;
    }

    private static List<MInstr> dropDead(List<MInstr> code, BitSet liveOut) {
        BitSet live = (BitSet) liveOut.clone();
        boolean[] keep = new boolean[code.size()];
        for (int k = code.size() - 1; k >= 0; k--) {
            MInstr i = code.get(k);
            int[] w = Access.writes(i);
            boolean used = !pure(i) || w.length == 0;
            for (int r : w) used |= live.get(r);
            keep[k] = used;
            if (!used) continue;
            for (int r : w) live.clear(r);
            for (int r : Access.reads(i)) live.set(r);
        }
        List<MInstr> out = new ArrayList<>(code.size());
        for (int k = 0; k < code.size(); k++) if (keep[k]) out.add(code.get(k));
        return out;
    }

    /**
     * The registers live out of each block. A block with two successors ends in the cmps its
     * branch reads (linearize adds the branch), so p0.x is live out of it; the end block's
     * {@code end} reads the output registers.
     */
    private static Map<Block, BitSet> liveOut(MachineFunction mf) {
        List<Block> blocks = MachineFunction.blocks(mf.fn, mf.allocated);
        Map<Block, BitSet> use = new HashMap<>(), def = new HashMap<>(), in = new HashMap<>(), out = new HashMap<>();
        for (Block b : blocks) {
            BitSet u = new BitSet(), d = new BitSet();
            for (MInstr i : mf.allocated.get(b)) {
                for (int r : Access.reads(i)) if (!d.get(r)) u.set(r);
                for (int r : Access.writes(i)) d.set(r);
            }
            use.put(b, u);
            def.put(b, d);
        }
        Liveness.solve(
                blocks,
                use,
                def,
                (o, b, s) -> {
                    BitSet e = in.get(s);
                    if (e != null) o.or(e);
                    if (b.successors().size() > 1) o.set(Access.P0);
                },
                in,
                out);
        return out;
    }
}
