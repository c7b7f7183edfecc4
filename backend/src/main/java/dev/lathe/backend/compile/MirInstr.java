package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An instruction of the machine program before register allocation.
 *
 * <ul>
 *   <li>{@code OP}: a machine instruction; {@code proto} holds every field, with placeholder
 *       register operands: {@code def} fills the destination (at unit {@code defUnit}),
 *       {@code srcs[k]} the k-th operand of {@code proto.srcs()} that is a register (at unit
 *       {@code srcUnits[k]}; null where the operand is no register);
 *   <li>{@code COPY}: {@code def} = {@code srcs[0]} (same size);
 *   <li>{@code COLLECT}: {@code def}'s units are {@code srcs} in order (a vector or a 64-bit pair
 *       built from pieces);
 *   <li>{@code SPLIT}: {@code def} = unit {@code srcUnits[0]} of {@code srcs[0]};
 *   <li>{@code PHI}: at a block's start, {@code def} = the value of {@code phiSrcs} for the
 *       predecessor control came from.
 * </ul>
 */
final class MirInstr {
    enum Kind {
        OP,
        COPY,
        COLLECT,
        SPLIT,
        PHI
    }

    final Kind kind;
    final MInstr proto;
    final VReg def;
    final int defUnit;
    final VReg[] srcs;
    final int[] srcUnits;
    final Map<Block, VReg> phiSrcs;
    /**
     * The repeat group this instruction belongs to (0: none) and its lane in it: selection links
     * the instructions computing the components of one vector op (the ir3 rptN merge request of 2024, docs/BACKGROUND.md), so that the
     * scheduler keeps them together and allocation gives them consecutive registers, for the
     * {@code rpt} pass to merge into one {@code (rptN)} instruction. A hint only: nothing depends
     * on it for correctness.
     */
    int group, lane;

    private MirInstr(
            Kind kind, MInstr proto, VReg def, int defUnit, VReg[] srcs, int[] srcUnits, Map<Block, VReg> phiSrcs) {
        this.kind = kind;
        this.proto = proto;
        this.def = def;
        this.defUnit = defUnit;
        this.srcs = srcs;
        this.srcUnits = srcUnits;
        this.phiSrcs = phiSrcs;
    }

    /** A copy keeping this one's repeat group. */
    private MirInstr grouped(MirInstr m) {
        m.group = group;
        m.lane = lane;
        return m;
    }

    static MirInstr op(MInstr proto, VReg def, VReg... srcs) {
        return new MirInstr(Kind.OP, proto, def, 0, srcs, new int[srcs.length], null);
    }

    static MirInstr op(MInstr proto, VReg def, VReg[] srcs, int[] srcUnits) {
        return new MirInstr(Kind.OP, proto, def, 0, srcs, srcUnits, null);
    }

    /** The same instruction with other machine fields (its registers unchanged). */
    MirInstr withProto(MInstr p) {
        return grouped(new MirInstr(kind, p, def, defUnit, srcs, srcUnits, phiSrcs));
    }

    /** The same instruction reading source {@code k} from {@code o} instead of a virtual register. */
    MirInstr withOperand(int k, Operand o) {
        VReg[] s = srcs.clone();
        int[] u = srcUnits.clone();
        s[k] = null;
        u[k] = 0;
        return grouped(new MirInstr(kind, proto.withSrc(k, o), def, defUnit, s, u, phiSrcs));
    }

    /** The same instruction with sources {@code i} and {@code j} exchanged (registers and operands). */
    MirInstr withSourcesSwapped(int i, int j) {
        VReg[] s = srcs.clone();
        int[] u = srcUnits.clone();
        s[i] = srcs[j];
        s[j] = srcs[i];
        u[i] = srcUnits[j];
        u[j] = srcUnits[i];
        return grouped(new MirInstr(kind, proto.withSrcsSwapped(i, j), def, defUnit, s, u, phiSrcs));
    }

    static MirInstr copy(VReg def, VReg src) {
        return new MirInstr(Kind.COPY, null, def, 0, new VReg[] {src}, new int[1], null);
    }

    static MirInstr collect(VReg def, VReg... parts) {
        return new MirInstr(Kind.COLLECT, null, def, 0, parts, new int[parts.length], null);
    }

    static MirInstr split(VReg def, VReg src, int unit) {
        return new MirInstr(Kind.SPLIT, null, def, 0, new VReg[] {src}, new int[] {unit}, null);
    }

    static MirInstr phi(VReg def) {
        return new MirInstr(Kind.PHI, null, def, 0, new VReg[0], new int[0], new LinkedHashMap<>());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(kind.name().toLowerCase()).append(' ');
        if (def != null) sb.append(def).append(" = ");
        if (proto != null) sb.append(Asm.print(proto)).append(" with ");
        for (VReg s : srcs) sb.append(s).append(' ');
        if (phiSrcs != null)
            phiSrcs.forEach((b, v) -> sb.append(b.label()).append(':').append(v).append(' '));
        return sb.toString().trim();
    }
}
