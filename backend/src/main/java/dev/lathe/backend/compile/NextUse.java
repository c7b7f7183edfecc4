package dev.lathe.backend.compile;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Next-use distances for spilling (Braun &amp; Hack, "Register Spilling and Live-Range Splitting
 * for SSA-Form Programs"): for each value live out of a block, how many instructions lie between
 * the block's end and the value's next read on the nearest path. A read in the same block is at
 * its index; a phi reads its source at the end of the predecessor (distance 0 there). An edge that
 * leaves a loop adds {@link #LOOP_EXIT}, as ir3's spiller does, so that inside a loop the values
 * only read after it are the first to go.
 *
 * <p>A backward data-flow iteration to the fixpoint of the minimum: out(b, v) = min over the
 * successors s of 0 (v is a phi's source for b) or in(s, v) (+ {@link #LOOP_EXIT} when b→s leaves
 * a loop); in(b, v) = the index of v's first read in b, or len(b) + out(b, v). Each block keeps
 * its live-out values as a sorted id array with their distances, so the work is the size of the
 * live sets, not of the register file.
 */
final class NextUse {
    /** The distance an edge out of a loop adds. */
    static final int LOOP_EXIT = 100_000;
    /** No read on any path (never compared as a sum: distances saturate here). */
    static final int FAR = Integer.MAX_VALUE / 2;

    private final Map<Block, int[]> outIds = new HashMap<>(), outDist = new HashMap<>();
    private final Map<Block, Map<Integer, Integer>> firstRead = new HashMap<>();
    private final Map<Block, Integer> length = new HashMap<>();

    private NextUse() {}

    static NextUse of(Function fn, Map<Block, List<MirInstr>> mir, Liveness live) {
        NextUse n = new NextUse();
        n.compute(MachineFunction.blocks(fn, mir), mir, live);
        return n;
    }

    /** From the end of {@code b}, the distance to the next read of value {@code id} (live out of b), or {@link #FAR}. */
    int fromEnd(Block b, int id) {
        int[] ids = outIds.get(b);
        if (ids == null) return FAR;
        int k = Arrays.binarySearch(ids, id);
        return k < 0 ? FAR : outDist.get(b)[k];
    }

    /** From the start of {@code s}, the distance to the next read of {@code id}, which is live into s. */
    private int fromStart(Block s, int id) {
        Integer first = firstRead.get(s).get(id);
        if (first != null) return first;
        return saturate((long) length.get(s) + fromEnd(s, id));
    }

    private static int saturate(long d) {
        return (int) Math.min(FAR, d);
    }

    private void compute(List<Block> blocks, Map<Block, List<MirInstr>> mir, Liveness live) {
        Map<Block, Integer> depth = new HashMap<>();
        // per edge b→s, the values s's phis read from b
        Map<Block, Map<Block, Set<Integer>>> phiReads = new HashMap<>();
        for (Block b : blocks) {
            for (Block s : b.successors()) {
                Set<Integer> reads = new HashSet<>();
                List<MirInstr> sc = mir.get(s);
                if (sc != null) {
                    for (MirInstr m : sc) {
                        if (m.kind != MirInstr.Kind.PHI) break;
                        VReg src = m.phiSrcs.get(b);
                        if (src != null) reads.add(src.id);
                    }
                }
                phiReads.computeIfAbsent(b, x -> new HashMap<>()).put(s, reads);
            }
            List<MirInstr> code = mir.get(b);
            Map<Integer, Integer> first = new HashMap<>();
            for (int i = 0; i < code.size(); i++) {
                MirInstr m = code.get(i);
                if (m.kind == MirInstr.Kind.PHI) continue;
                for (VReg s : m.srcs) if (s != null) first.putIfAbsent(s.id, i);
            }
            firstRead.put(b, first);
            length.put(b, code.size());
            int[] ids = live.liveOut.get(b).stream().toArray();
            int[] dist = new int[ids.length];
            Arrays.fill(dist, FAR);
            outIds.put(b, ids);
            outDist.put(b, dist);
            depth.put(b, Nesting.of(b).loops());
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int k = blocks.size() - 1; k >= 0; k--) {
                Block b = blocks.get(k);
                int[] ids = outIds.get(b), dist = outDist.get(b);
                for (int j = 0; j < ids.length; j++) {
                    int best = FAR;
                    for (Block s : b.successors()) {
                        if (!length.containsKey(s)) continue;
                        best = Math.min(best, edge(b, s, ids[j], phiReads.get(b).get(s), live, depth));
                    }
                    if (best < dist[j]) {
                        dist[j] = best;
                        changed = true;
                    }
                }
            }
        }
    }

    /** The distance from the end of b to the next read of id along the edge b→s. */
    private int edge(Block b, Block s, int id, Set<Integer> phiReads, Liveness live, Map<Block, Integer> depth) {
        if (phiReads.contains(id)) return 0;
        if (!live.liveIn.get(s).get(id)) return FAR;
        long d = fromStart(s, id);
        if (depth.get(s) < depth.get(b)) d += LOOP_EXIT;
        return saturate(d);
    }
}
