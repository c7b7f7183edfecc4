package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.Block;
import dev.lathe.ir.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * prefetch: a fragment shader's first texture samples, taken at an input's interpolated
 * coordinates, become texture prefetches, which the hardware starts before the shader does
 * (ir3's {@code ir3_nir_lower_tex_prefetch}; {@code backend/ISA.md}, "Texture prefetch"). The
 * code loses the {@code bary.f} of the coordinates, the six slots a texture instruction waits for
 * them, and the {@code sam} itself; it still waits for the texel with {@code (sy)}.
 *
 * <p>Eligible, as on ir3: a {@code sam} in the entry block (straight-line code every invocation
 * runs first, so the prefetch does the work the shader would have done anyway) of a 2D texture
 * named by its slot (no index register, not bindless), with no lod, whose coordinates are two
 * consecutive components of one interpolated input, each read by a {@code bary.f}. Prefetches
 * hold their registers from the start, so small shaders get fewer, by ir3's heuristic over the
 * shader's instructions: fewer than 50, two; fewer than 70, three; else four
 * ({@link Program#MAX_PREFETCHES}). The {@code bary.f}s and the collect nothing else reads go.
 * The scheduler then puts the prefetches first in the entry block (they are preloads,
 * {@link Preload}), and the {@code preload} pass moves them into the program's header.
 */
final class Prefetch {
    private Prefetch() {}

    /** The {@code prefetch} pass. */
    static void prefetch(MachineFunction mf) {
        if (mf.shader.stage() != Stage.FRAGMENT) return;
        Block entry = mf.fn.entryBlock();
        List<MirInstr> code = mf.mir.get(entry);
        if (code == null) return;
        int limit = limit(mf);
        Map<VReg, MirInstr> defs = new HashMap<>();
        for (MirInstr m : code) if (m.def != null) defs.put(m.def, m);
        List<MirInstr> made = new ArrayList<>();
        for (int k = 0; k < code.size() && made.size() < limit; k++) {
            MirInstr m = code.get(k);
            int[] at = input(m, defs);
            if (at == null) continue;
            MInstr p = m.proto;
            made.add(MirInstr.op(MInstr.prefetch(p.type(), p.count(), p.dst(), at[0], at[1], p.index()), m.def));
            code.remove(k--);
        }
        if (made.isEmpty()) return;
        // first in the block, where they are whichever passes run next (the scheduler keeps
        // preloads first; without it, or when its order is over the register budget, the block
        // keeps this order), so that the preload pass finds them in the block's prefix
        code.addAll(0, made);
        removeUnread(mf, code);
    }

    /** How many prefetches a shader of this size gets (ir3's {@code prefetch_limit}). */
    static int limit(MachineFunction mf) {
        int n = 0;
        for (List<MirInstr> b : mf.mir.values()) for (MirInstr m : b) if (m.kind == MirInstr.Kind.OP) n++;
        return n < 50 ? 2 : n < 70 ? 3 : Program.MAX_PREFETCHES;
    }

    /** The input slot and first component {@code m} samples at, when it can be a prefetch; else null. */
    private static int[] input(MirInstr m, Map<VReg, MirInstr> defs) {
        if (m.kind != MirInstr.Kind.OP) return null;
        MInstr p = m.proto;
        if (p.op() != MOp.SAM || p.dim() != 2 || p.bindless() || p.type() != MType.F32) return null;
        if (p.src(1).kind() != Operand.Kind.NONE || p.src(2).kind() != Operand.Kind.NONE) return null;
        if (m.srcs.length == 0 || m.srcs[0] == null || m.srcUnits[0] != 0) return null;
        MirInstr coord = defs.get(m.srcs[0]);
        if (coord == null || coord.kind != MirInstr.Kind.COLLECT || coord.srcs.length != 2) return null;
        int slot = -1, first = -1;
        for (int c = 0; c < 2; c++) {
            MirInstr b = defs.get(coord.srcs[c]);
            if (b == null || b.kind != MirInstr.Kind.OP || b.proto.op() != MOp.BARY_F || b.proto.rpt() != 0)
                return null;
            int s = (int) b.proto.src(0).value(), comp = (int) b.proto.src(1).value();
            if (c == 0) {
                slot = s;
                first = comp;
            } else if (s != slot || comp != first + 1) {
                return null;
            }
        }
        return first + 2 <= 4 ? new int[] {slot, first} : null;
    }

    /** Removes the collects and {@code bary.f}s of the entry block that nothing reads any more. */
    private static void removeUnread(MachineFunction mf, List<MirInstr> code) {
        boolean removed = true;
        while (removed) {
            Map<VReg, Integer> reads = new HashMap<>();
            for (List<MirInstr> b : mf.mir.values()) {
                for (MirInstr m : b) {
                    for (VReg s : m.srcs) if (s != null) reads.merge(s, 1, Integer::sum);
                    if (m.phiSrcs != null) for (VReg s : m.phiSrcs.values()) reads.merge(s, 1, Integer::sum);
                }
            }
            removed = code.removeIf(m -> m.def != null
                    && !reads.containsKey(m.def)
                    && (m.kind == MirInstr.Kind.COLLECT || m.kind == MirInstr.Kind.OP && m.proto.op() == MOp.BARY_F));
        }
    }
}
