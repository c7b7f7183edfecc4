package dev.lathe.backend.compile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * coalesce: which virtual registers would rather share registers, for register allocation to
 * honour where it can — ir3's merge sets ({@code ir3_merge_regs.c}), as hints. A copy and its
 * source, a phi and its sources, a collect and its pieces (each at its offset in the vector),
 * a split and the unit of the vector it takes: each pair sitting in the same place makes a
 * {@code mov} unnecessary.
 *
 * <p>The pairs are joined in a union-find that keeps each member's offset from its set's root;
 * a pair whose members are already in one set, or that would make a set wider than
 * {@link #MAX_SPAN} registers, is left out. Nothing here checks that members are live at the
 * same time: the hints are wishes, and the allocator takes a hinted place only when it is free,
 * so no hint can make code wrong (with the pass switched off the allocator simply has none).
 */
final class Coalesce {
    /** Wider sets would reserve more registers than the copies they save are worth. */
    static final int MAX_SPAN = 8;

    /** Where a virtual register would like to be: at {@code offset} in set {@code set}. */
    record Hint(int set, int offset) {}

    /** The hints, and each set's size in registers. */
    record Affinity(Map<VReg, Hint> hints, int[] span) {
        Hint of(VReg v) {
            return hints.get(v);
        }
    }

    private final Map<VReg, VReg> parent = new HashMap<>();
    /** Offset of a register from its parent (in registers). */
    private final Map<VReg, Integer> offset = new HashMap<>();
    /** For a root: the lowest and highest-plus-one offsets of its members, relative to it. */
    private final Map<VReg, int[]> extent = new HashMap<>();

    private Coalesce() {}

    /** The {@code coalesce} pass. */
    static void coalesce(MachineFunction mf) {
        Coalesce c = new Coalesce();
        for (List<MirInstr> code : mf.mir.values()) {
            for (MirInstr m : code) {
                switch (m.kind) {
                    case COPY -> c.joinSource(m.def, m.srcs[0], 0);
                    case SPLIT -> c.join(m.srcs[0], m.def, m.srcUnits[0] * m.def.units);
                    case COLLECT -> {
                        int off = 0;
                        for (VReg s : m.srcs) {
                            c.joinSource(m.def, s, off);
                            off += s.units;
                        }
                    }
                    case PHI -> m.phiSrcs.values().forEach(s -> c.joinSource(m.def, s, 0));
                    default -> {}
                }
            }
        }
        mf.affinity = c.affinity();
    }

    /** The root of v's set; the path to it is compressed (each member then points at the root, with its whole offset). */
    private VReg root(VReg v) {
        List<VReg> path = new ArrayList<>();
        VReg r = v;
        while (parent.containsKey(r)) {
            path.add(r);
            r = parent.get(r);
        }
        int o = 0;
        for (int k = path.size() - 1; k >= 0; k--) {
            VReg x = path.get(k);
            o += offset.get(x);
            parent.put(x, r);
            offset.put(x, o);
        }
        return r;
    }

    /** The offset of v from its root. */
    private int offsetFromRoot(VReg v) {
        root(v);
        return parent.containsKey(v) ? offset.get(v) : 0;
    }

    private int[] extentOf(VReg root) {
        return extent.computeIfAbsent(root, r -> new int[] {0, r.units});
    }

    private final Set<VReg> sources = new HashSet<>();

    /**
     * Joins a value read by a copy, phi or collect to what reads it, unless it was joined so
     * once already: a value read by two phis of one block (or by two collects) cannot sit in
     * both, which are live together, and the first reader gets it.
     */
    private void joinSource(VReg reader, VReg source, int delta) {
        if (source != null && sources.add(source)) join(reader, source, delta);
    }

    /** Asks for {@code b} to sit {@code delta} registers after {@code a}. */
    private void join(VReg a, VReg b, int delta) {
        if (a == null || b == null) return;
        VReg ra = root(a), rb = root(b);
        if (ra == rb) return;
        int oa = offsetFromRoot(a), ob = offsetFromRoot(b);
        // rb's position relative to ra: pos(b) = pos(a) + delta, pos(b) = pos(rb) + ob, pos(a) = pos(ra) + oa
        int rel = oa + delta - ob;
        int[] ea = extentOf(ra), eb = extentOf(rb);
        int lo = Math.min(ea[0], eb[0] + rel), hi = Math.max(ea[1], eb[1] + rel);
        if (hi - lo > MAX_SPAN) return;
        parent.put(rb, ra);
        offset.put(rb, rel);
        ea[0] = lo;
        ea[1] = hi;
        extent.remove(rb);
    }

    private Affinity affinity() {
        Map<VReg, Integer> setOf = new HashMap<>();
        Map<VReg, Hint> hints = new HashMap<>();
        int[] span = new int[parent.size() + 1];
        for (VReg v : parent.keySet()) {
            VReg r = root(v);
            int set = setOf.computeIfAbsent(r, k -> setOf.size());
            int lo = extentOf(r)[0];
            span[set] = extentOf(r)[1] - lo;
            hints.put(v, new Hint(set, offsetFromRoot(v) - lo));
            hints.put(r, new Hint(set, -lo));
        }
        return new Affinity(Map.copyOf(hints), span);
    }
}
