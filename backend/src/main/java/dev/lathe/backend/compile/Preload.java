package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.program.Program;
import java.util.List;

/**
 * preload: what the hardware can put in registers before the shader starts is not code. ir3's
 * vertex fetch writes the vertex attributes into registers, and the system values (frag coord,
 * vertex and instance index, invocation ids) arrive in registers as well; the statistics count
 * none of it. The scheduler puts the {@code ldlv}s of vertex inputs and the {@code mov}s of
 * system values at the top of the entry block ({@link Schedule}); after register allocation
 * this pass moves that prefix out of the code into the program's preloads
 * ({@link Program#preloads}), which the simulator performs before the first instruction, their
 * results ready at once. Executing a prefix first is what the code did anyway; only the waiting
 * for it is gone. A fragment shader's texture prefetches ({@link Prefetch}) go the same way; the
 * code still waits for their texels with (sy).
 */
final class Preload {
    private Preload() {}

    /** The {@code preload} pass. */
    static void extract(MachineFunction mf) {
        List<MInstr> entry = mf.allocated.get(mf.fn.entryBlock());
        if (entry == null) return;
        int n = 0;
        while (n < entry.size() && Program.checkPreload(entry.get(n), mf.shader.stage()) == null) n++;
        mf.preloads.addAll(entry.subList(0, n));
        entry.subList(0, n).clear();
        for (List<MInstr> block : mf.allocated.values()) {
            for (MInstr i : block) {
                if (i.isPrefetch())
                    throw new IllegalStateException(
                            "internal error: a texture prefetch is not at the start of the entry block: " + i);
            }
        }
    }

    /** Whether the scheduler should put {@code m} first in the entry block: an instruction the hardware could do before the start. */
    static boolean candidate(MirInstr m, MachineFunction mf) {
        return m.kind == MirInstr.Kind.OP && Program.checkPreload(m.proto, mf.shader.stage()) == null;
    }
}
