package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.ir.Block;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the machine program between passes, by its form (tests run it after every pass, as the
 * IR validator runs after every IR pass):
 *
 * <ul>
 *   <li>virtual registers: SSA (each defined once), every register read is defined, units within
 *       each register's size, a destination wide enough for what the instruction writes, phi
 *       sources for predecessors only;
 *   <li>registers: every instruction is one the encoding takes (registers in range, 64-bit values
 *       in aligned pairs, operand kinds, fields), its registers within the allocation's budget
 *       ({@code --max-regs}), its spill slots within the private memory;
 *   <li>straight-line code: the same, every branch to a label that exists, and once legalized no
 *       latency hazard left (legalizing it again changes nothing).
 * </ul>
 */
public final class MachineVerifier {
    private MachineVerifier() {}

    /** What is wrong with the program in its current form; empty when nothing is. */
    public static List<String> verify(MachineFunction mf) {
        List<String> out = new ArrayList<>();
        switch (mf.form) {
            case IR -> {}
            case VIRTUAL -> virtual(mf, out);
            case ALLOCATED -> {
                for (Map.Entry<Block, List<MInstr>> e : mf.allocated.entrySet()) {
                    for (MInstr i : e.getValue())
                        encodable(mf, i, "b" + e.getKey().index(), out);
                }
            }
            case LINEAR -> linear(mf, out);
        }
        return out;
    }

    private static void virtual(MachineFunction mf, List<String> out) {
        Set<VReg> defined = new HashSet<>();
        for (List<MirInstr> l : mf.mir.values()) {
            for (MirInstr m : l) {
                if (m.def != null && !defined.add(m.def))
                    out.add(m.def + " is defined twice (not SSA): " + MachineFunction.virtual(m));
            }
        }
        for (Map.Entry<Block, List<MirInstr>> e : mf.mir.entrySet()) {
            Block b = e.getKey();
            for (MirInstr m : e.getValue()) {
                String where = "b" + b.index() + ": " + MachineFunction.virtual(m);
                for (int k = 0; k < m.srcs.length; k++) {
                    VReg s = m.srcs[k];
                    if (s == null) continue;
                    if (!defined.contains(s)) out.add(where + ": reads " + s + ", which nothing defines");
                    if (m.srcUnits[k] < 0 || m.srcUnits[k] >= s.units)
                        out.add(where + ": reads unit " + m.srcUnits[k] + " of " + s + ", which has " + s.units);
                }
                if (m.phiSrcs != null) {
                    for (Map.Entry<Block, VReg> ps : m.phiSrcs.entrySet()) {
                        if (!b.predecessors().contains(ps.getKey()))
                            out.add(where + ": a source for b" + ps.getKey().index() + ", no predecessor");
                        if (!defined.contains(ps.getValue()))
                            out.add(where + ": reads " + ps.getValue() + ", which nothing defines");
                    }
                }
                if (m.kind == MirInstr.Kind.OP && m.def != null) {
                    int writes = Access.writes(m.proto).length;
                    if (m.defUnit + writes > m.def.units) {
                        out.add(where + ": writes " + writes + " registers into " + m.def + " from unit " + m.defUnit
                                + ", which has " + m.def.units);
                    }
                }
            }
        }
    }

    private static void linear(MachineFunction mf, List<String> out) {
        Set<Integer> labels = new HashSet<>();
        for (Linear.Item it : mf.linear.items) if (it.isLabel()) labels.add(it.label());
        int n = 0;
        for (Linear.Item it : mf.linear.items) {
            if (it.isLabel()) continue;
            n++;
            encodable(mf, it.instr(), "instruction " + n, out);
            if (it.target() >= 0 && !labels.contains(it.target()))
                out.add("instruction " + n + " branches to L" + it.target() + ", which is nowhere");
        }
        if (mf.legalized && out.isEmpty()) {
            Linear again = Legalize.run(mf.linear, Legalize.entryState(mf));
            if (!again.resolve().equals(mf.linear.resolve()))
                out.add("legalized code still has latency hazards: legalizing it again changes it");
        }
    }

    /** An instruction the encoding takes, within the register budget, and (spill code) within the private memory. */
    private static void encodable(MachineFunction mf, MInstr i, String where, List<String> out) {
        String problem = Encoding.validate(i);
        if (problem != null) {
            out.add(where + ": " + Asm.print(i) + ": " + problem);
            return;
        }
        int limit = mf.allocation.units();
        for (int r : Access.reads(i))
            if (r < Access.P0 && r >= limit)
                out.add(where + ": " + Asm.print(i) + ": reads past the register budget of " + limit);
        for (int r : Access.writes(i))
            if (r < Access.P0 && r >= limit)
                out.add(where + ": " + Asm.print(i) + ": writes past the register budget of " + limit);
        if (i.op().space() == MOp.Space.PRIVATE && (i.offset() < 0 || i.offset() + 4 * i.count() > mf.privateBytes)) {
            out.add(where + ": " + Asm.print(i) + ": outside the " + mf.privateBytes + " bytes of private memory");
        }
    }
}
