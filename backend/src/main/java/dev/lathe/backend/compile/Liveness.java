package dev.lathe.backend.compile;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which virtual registers are live into and out of each block of the SSA machine program
 * (bit = {@link VReg#id}), by the usual backward data-flow iteration over the blocks in reverse
 * program order. A phi's source counts as live out of the predecessor it comes from, not into
 * the phi's block; the phi's result is defined at the top of its block.
 */
final class Liveness {
    final Map<Block, BitSet> liveIn = new HashMap<>(), liveOut = new HashMap<>();
    /** Every virtual register the program mentions, by id (null where none has that id; the array may be longer). */
    VReg[] byId = new VReg[64];

    private Liveness() {}

    static Liveness of(Function fn, Map<Block, List<MirInstr>> mir) {
        Liveness l = new Liveness();
        l.compute(fn, mir);
        return l;
    }

    /** The values of more than one unit, by id. */
    private final BitSet wide = new BitSet();

    /**
     * The 32-bit registers the values of {@code set} take: its size plus the extra units of its
     * wide values, counted a word of bits at a time (live sets run into the thousands).
     */
    int units(BitSet set) {
        int n = set.cardinality();
        BitSet w = (BitSet) wide.clone();
        w.and(set);
        for (int id = w.nextSetBit(0); id >= 0; id = w.nextSetBit(id + 1)) n += byId[id].units - 1;
        return n;
    }

    private void note(VReg v) {
        if (v == null) return;
        if (v.id >= byId.length) byId = Arrays.copyOf(byId, Math.max(2 * byId.length, v.id + 1));
        byId[v.id] = v;
        if (v.units > 1) wide.set(v.id);
    }

    /** What is live along an edge: ORs into {@code out} what {@code b} must keep live for its successor {@code s}. */
    @FunctionalInterface
    interface Edge {
        void addTo(BitSet out, Block b, Block s);
    }

    /**
     * The backward data-flow iteration itself, for any register numbering: {@code in} and
     * {@code out} (one entry per block) are filled to the fixpoint of out(b) = the union over
     * b's successors s of {@code edge(b, s)}, in(b) = use(b) ∪ (out(b) − def(b)). {@code edge}
     * reads {@code in}. A block's sets are replaced only when its out set grew (in follows from
     * out, use and def), and the union is built in one scratch set: live sets run into the
     * thousands of registers over thousands of blocks, and copying them every round was most of
     * the time of a large program's allocation.
     */
    static void solve(
            List<Block> blocks,
            Map<Block, BitSet> use,
            Map<Block, BitSet> def,
            Edge edge,
            Map<Block, BitSet> in,
            Map<Block, BitSet> out) {
        for (Block b : blocks) {
            in.put(b, (BitSet) use.get(b).clone());
            out.put(b, new BitSet());
        }
        BitSet scratch = new BitSet();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int k = blocks.size() - 1; k >= 0; k--) {
                Block b = blocks.get(k);
                scratch.clear();
                for (Block s : b.successors()) edge.addTo(scratch, b, s);
                if (scratch.equals(out.get(b))) continue;
                BitSet o = (BitSet) scratch.clone();
                BitSet i = (BitSet) scratch.clone();
                i.andNot(def.get(b));
                i.or(use.get(b));
                out.put(b, o);
                in.put(b, i);
                changed = true;
            }
        }
    }

    private void compute(Function fn, Map<Block, List<MirInstr>> mir) {
        List<Block> blocks = MachineFunction.blocks(fn, mir);
        Map<Block, BitSet> use = new HashMap<>(), def = new HashMap<>();
        for (Block b : blocks) {
            BitSet u = new BitSet(), d = new BitSet();
            for (MirInstr m : mir.get(b)) {
                if (m.kind != MirInstr.Kind.PHI) {
                    for (VReg s : m.srcs) {
                        note(s);
                        if (s != null && !d.get(s.id)) u.set(s.id);
                    }
                } else {
                    m.phiSrcs.values().forEach(this::note);
                }
                note(m.def);
                if (m.def != null) d.set(m.def.id);
            }
            use.put(b, u);
            def.put(b, d);
        }
        solve(
                blocks,
                use,
                def,
                (out, b, s) -> {
                    BitSet in = liveIn.get(s);
                    if (in == null) return; // the function's end block holds no code
                    // live into s, which never holds s's own phis (they are in def(s) and read nowhere
                    // before it), and the phi sources that come from b (a phi may read another phi of s:
                    // a, b = b, a + b)
                    out.or(in);
                    for (MirInstr m : mir.get(s)) {
                        if (m.kind != MirInstr.Kind.PHI) break;
                        VReg src = m.phiSrcs.get(b);
                        if (src != null) out.set(src.id);
                    }
                },
                liveIn,
                liveOut);
    }
}
