package dev.lathe.backend.compile;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Next-use distances for spilling (Braun &amp; Hack, "Register Spilling and Live-Range Splitting
 * for SSA-Form Programs"): from the end of a block, how many instructions lie before a value is
 * read again on the nearest path. An edge that leaves a loop adds {@link #LOOP_EXIT}, as ir3's
 * spiller does, so that inside a loop the values only read after it are the first to go.
 *
 * <p>Braun &amp; Hack compute the distances by data flow over every block's live-out set; on a
 * program whose live sets grow with its size that is quadratic (a 100,000-instruction random
 * program keeps about 4,000 values live). The structured control flow gives them from program
 * order instead: every instruction has a position, every value the sorted positions of its reads
 * (a phi reads its source at the end of the predecessor), and the nearest read after a block is
 * the first read after its end, skipping the {@code else} side of every {@code if} whose
 * {@code then} side the block is in (control jumps over it) and counting {@link #LOOP_EXIT} for
 * each loop it leaves; or, around the back edge of a loop holding the block, the first read from
 * the loop's top, after the rest of the loop. A query is a few binary searches (one per loop or
 * {@code if} around the block); all the tables are as large as the program. Jumps ({@code break},
 * {@code continue}) are read as falling through, a good enough guess for a heuristic.
 */
final class NextUse {
    /** The distance an edge out of a loop adds. */
    static final int LOOP_EXIT = 100_000;
    /** No read on any path. */
    static final int FAR = Integer.MAX_VALUE / 2;

    /** Positions are doubled, so that a phi's read at the end of a predecessor sits just before the end. */
    private final int[] start, end;
    /** The sorted positions of each value's reads, by id (null: never read). */
    private final int[][] reads;
    /** Per block index, the ranges of the loops around it (innermost first) and the else sides it jumps over. */
    private final Context[] contexts;

    private record Context(int[] loopStart, int[] loopEnd, int[] skipStart, int[] skipEnd) {}

    private NextUse(int blocks, int values) {
        start = new int[blocks];
        end = new int[blocks];
        reads = new int[values][];
        contexts = new Context[blocks];
    }

    static NextUse of(Function fn, Map<Block, List<MirInstr>> mir, int values) {
        List<Block> blocks = MachineFunction.blocks(fn, mir);
        int maxIndex = 0;
        for (Block b : blocks) maxIndex = Math.max(maxIndex, b.index());
        NextUse n = new NextUse(maxIndex + 1, values);
        n.compute(blocks, mir);
        return n;
    }

    private void compute(List<Block> blocks, Map<Block, List<MirInstr>> mir) {
        int pos = 0;
        for (Block b : blocks) {
            start[b.index()] = 2 * pos;
            pos += mir.get(b).size();
            end[b.index()] = 2 * pos;
        }
        int[] count = new int[reads.length];
        for (int pass = 0; pass < 2; pass++) {
            for (Block b : blocks) {
                List<MirInstr> code = mir.get(b);
                for (int i = 0; i < code.size(); i++) {
                    MirInstr m = code.get(i);
                    if (m.kind == MirInstr.Kind.PHI) {
                        for (Map.Entry<Block, VReg> e : m.phiSrcs.entrySet())
                            note(pass, count, e.getValue(), end[e.getKey().index()] - 1);
                    } else {
                        for (VReg s : m.srcs) if (s != null) note(pass, count, s, start[b.index()] + 2 * i);
                    }
                }
            }
            if (pass == 0) {
                for (int id = 0; id < count.length; id++) if (count[id] > 0) reads[id] = new int[count[id]];
                Arrays.fill(count, 0);
            }
        }
        for (int[] r : reads) if (r != null) Arrays.sort(r);
    }

    private void note(int pass, int[] count, VReg v, int position) {
        if (pass == 1) reads[v.id][count[v.id]] = position;
        count[v.id]++;
    }

    /** From the end of {@code b}, the distance to the next read of value {@code id} (live out of b), or {@link #FAR}. */
    int fromEnd(Block b, int id) {
        int[] r = id < reads.length ? reads[id] : null;
        if (r == null || b.index() >= contexts.length) return FAR;
        Context c = context(b);
        int e = end[b.index()];
        long best = FAR;
        // forward (from the reads of the successors' phis at b's own end), over the else sides control jumps
        int k = lowerBound(r, e - 1);
        long skipped = 0;
        while (k < r.length) {
            int u = r[k], s = skipping(c, u);
            if (s < 0) {
                long d = Math.max(0, u - e - skipped);
                for (int l = 0; l < c.loopEnd.length; l++) if (u >= c.loopEnd[l]) d += 2L * LOOP_EXIT;
                best = d;
                break;
            }
            skipped += c.skipEnd[s] - Math.max(c.skipStart[s], e);
            k = lowerBound(r, c.skipEnd[s]);
        }
        // around the back edge of each loop holding b, leaving the loops inside it
        for (int l = 0; l < c.loopStart.length; l++) {
            int k2 = lowerBound(r, c.loopStart[l]);
            if (k2 < r.length && r[k2] < e - 1) {
                best = Math.min(best, (long) c.loopEnd[l] - e + r[k2] - c.loopStart[l] + 2L * LOOP_EXIT * l);
            }
        }
        return (int) Math.min(FAR, best / 2);
    }

    /** The skip range of c holding position u, or -1. */
    private static int skipping(Context c, int u) {
        for (int s = 0; s < c.skipStart.length; s++) if (u >= c.skipStart[s] && u < c.skipEnd[s]) return s;
        return -1;
    }

    private static int lowerBound(int[] a, int x) {
        int lo = 0, hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    private Context context(Block b) {
        Context c = contexts[b.index()];
        if (c != null) return c;
        List<int[]> loops = new ArrayList<>(), skips = new ArrayList<>();
        CfList l = b.parent();
        while (l != null && l.owner() != null) {
            CfNode owner = l.owner();
            if (owner instanceof LoopNode loop) loops.add(range(loop.body()));
            else if (owner instanceof IfNode f && l == f.thenList()) skips.add(range(f.elseList()));
            l = owner.parent();
        }
        c = new Context(
                loops.stream().mapToInt(x -> x[0]).toArray(),
                loops.stream().mapToInt(x -> x[1]).toArray(),
                skips.stream().mapToInt(x -> x[0]).toArray(),
                skips.stream().mapToInt(x -> x[1]).toArray());
        contexts[b.index()] = c;
        return c;
    }

    /** The positions a list's blocks take (they are consecutive in program order). */
    private int[] range(CfList list) {
        return new int[] {start[list.firstBlock().index()], end[list.lastBlock().index()]};
    }
}
