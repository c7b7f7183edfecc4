package dev.lathe.backend.compile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Register allocation's parallel copies, run on a register file: after the emitted moves every
 * destination holds what its source held before, and no live register outside the copy changes.
 */
class ParallelCopyTest {

    /**
     * The copy that broke SaschaWillems' {@code debugshadowmap.frag} (a texture coordinate
     * collected into r0.x–z from r0.z, r0.w, r0.x): the swap of x and z was parked in r0.y,
     * which the copy had already filled with r0.w.
     */
    @Test
    void aScratchIsNeverADestinationAlreadyFilled() {
        List<int[]> moves = List.of(new int[] {2, 0}, new int[] {3, 1}, new int[] {0, 2});
        BitSet live = new BitSet(); // r0.y is free until the copy fills it
        live.set(0);
        live.set(2, 4);
        int[] after = run(moves, live, 48, new int[] {10, 11, 12, 13, 0, 0, 0, 0});
        assertArrayEquals(new int[] {12, 13, 10}, new int[] {after[0], after[1], after[2]});
    }

    @Test
    void randomCopiesMoveEveryValueAndKeepEveryLiveRegister() {
        Random random = new Random(20261127);
        for (int trial = 0; trial < 5000; trial++) {
            int limit = 2 + random.nextInt(10);
            int n = 1 + random.nextInt(limit);
            // distinct destinations; sources anywhere (fan-out and cycles both happen)
            List<Integer> regs = new ArrayList<>();
            for (int r = 0; r < limit; r++) regs.add(r);
            java.util.Collections.shuffle(regs, random);
            List<int[]> moves = new ArrayList<>();
            for (int i = 0; i < n; i++) moves.add(new int[] {random.nextInt(limit), regs.get(i)});
            BitSet live = new BitSet();
            for (int r = 0; r < limit; r++) if (random.nextInt(3) == 0) live.set(r);
            int[] before = new int[limit];
            for (int r = 0; r < limit; r++) before[r] = 100 + r;
            int[] after = run(moves, live, limit, before);
            BitSet written = new BitSet();
            for (int[] m : moves) {
                assertEquals(before[m[0]], after[m[1]], () -> "trial with moves " + text(moves) + ": r" + m[1]);
                written.set(m[1]);
            }
            for (int r = live.nextSetBit(0); r >= 0; r = live.nextSetBit(r + 1)) {
                if (!written.get(r)) assertEquals(before[r], after[r], "live r" + r + " after " + text(moves));
            }
        }
    }

    private static int[] run(List<int[]> moves, BitSet live, int limit, int[] regs) {
        List<MInstr> code = new ArrayList<>();
        RegAlloc.parallelCopy(moves, code, live, limit);
        int[] r = regs.clone();
        for (MInstr i : code) {
            int d = i.dst().index();
            if (i.op() == MOp.XOR_B) r[d] = r[i.src(0).index()] ^ r[i.src(1).index()];
            else r[d] = r[i.src(0).index()];
        }
        return r;
    }

    private static String text(List<int[]> moves) {
        StringBuilder b = new StringBuilder();
        for (int[] m : moves) b.append(" r").append(m[1]).append("<-r").append(m[0]);
        return b.toString();
    }
}
