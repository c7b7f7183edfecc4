package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Register allocation on the SSA machine program, which also takes it out of SSA.
 *
 * <p>Blocks are visited in program order (dominators first). A block starts with the registers
 * its first visited predecessor ended with, restricted to what is live; its phis take free
 * registers. Every other edge into it gets a parallel copy at the end of the predecessor (the
 * structured IR has no critical edges, so that end belongs to the edge) moving each live value
 * and each phi source to where the block expects it; a back edge gets its copy when the latch
 * is done. Inside a block each result takes free registers (a source dying at the instruction
 * may give up its registers to it); when the free registers are enough in number but not in a
 * row (a pair must start on an even register, a texel needs four in a row), a parallel copy
 * first packs every live value to the bottom of the file. So a program never fails while the
 * registers live across each instruction plus its result fit in 192 (MaxLive ≤ 192); above
 * that it stops with a pressure error: values are never spilled to memory.
 *
 * <p>Parallel copies are sequentialized: a move whose destination no other pending move reads
 * goes first; what remains are cycles, broken through a free register (three-{@code xor} swaps
 * only when every register is taken).
 */
final class RegAlloc {
    static final int REGS = Operand.NUM_REGS;

    private final Function fn;
    private final Map<Block, List<MirInstr>> mir;
    private final int virtualRegisters;
    private Map<Block, BitSet> liveIn, liveOut;
    private Map<Integer, VReg> byId;
    private final Map<Block, Map<VReg, Integer>> entryMaps = new HashMap<>(), exitMaps = new HashMap<>();
    final Map<Block, List<MInstr>> out = new LinkedHashMap<>();
    int maxLive;

    /** The coalescing hints (none without the coalesce pass), and where each hinted set has been put. */
    private final Coalesce.Affinity affinity;
    private final Map<Integer, Integer> setBase = new HashMap<>();

    RegAlloc(Function fn, Map<Block, List<MirInstr>> mir, int virtualRegisters, Coalesce.Affinity affinity) {
        this.fn = fn;
        this.mir = mir;
        this.virtualRegisters = virtualRegisters;
        this.affinity = affinity;
    }

    /** The {@code regalloc} pass. */
    static void allocate(MachineFunction mf) {
        RegAlloc ra = new RegAlloc(mf.fn, mf.mir, mf.virtualRegisters, mf.affinity);
        ra.run();
        mf.allocated = ra.out;
        mf.maxLive = ra.maxLive;
        mf.mir = null;
        mf.form = MachineFunction.Form.ALLOCATED;
    }

    // ---- allocation ----------------------------------------------------------------------------

    /** Where values are in one block as allocation walks it. */
    private final class State {
        final int[] owner = new int[REGS];
        final Map<VReg, Integer> where = new LinkedHashMap<>();

        State() {
            Arrays.fill(owner, -1);
        }

        void place(VReg v, int at) {
            where.put(v, at);
            for (int u = 0; u < v.units; u++) owner[at + u] = v.id;
        }

        void free(VReg v) {
            Integer at = where.remove(v);
            if (at == null) return;
            for (int u = 0; u < v.units; u++) if (owner[at + u] == v.id) owner[at + u] = -1;
        }

        int find(VReg v) {
            for (int at = 0; at + v.units <= REGS; at += v.align) {
                boolean ok = true;
                for (int u = 0; u < v.units && ok; u++) ok = owner[at + u] < 0;
                if (ok) return at;
            }
            return -1;
        }

        /** A free place for v when the registers of {@code ignore} count as free too. */
        int findIgnoring(VReg v, List<VReg> ignore) {
            for (VReg x : ignore) for (int u = 0; u < x.units; u++) owner[where.get(x) + u] = -1;
            int at = find(v);
            for (VReg x : ignore) for (int u = 0; u < x.units; u++) owner[where.get(x) + u] = x.id;
            return at;
        }

        int liveUnits() {
            int n = 0;
            for (VReg v : where.keySet()) n += v.units;
            return n;
        }
    }

    void run() {
        Liveness live = Liveness.of(fn, mir);
        liveIn = live.liveIn;
        liveOut = live.liveOut;
        byId = live.byId;
        for (Block b : MachineFunction.blocks(fn, mir)) allocate(b);
    }

    private void allocate(Block b) {
        List<MInstr> code = new ArrayList<>();
        out.put(b, code);
        State st = new State();
        List<MirInstr> mir = this.mir.get(b);
        BitSet in = liveIn.get(b);
        Block first = null;
        for (Block p : b.predecessors()) {
            if (exitMaps.containsKey(p)) {
                first = p;
                break;
            }
        }
        if (first == null && b != fn.entryBlock()) {
            // no way in has been allocated: in program order that means no way in at all (a
            // loop header's entry comes before it). Its code can never run: emit none.
            mir.clear();
            return;
        }
        if (first != null) {
            exitMaps.get(first).forEach((v, at) -> {
                if (in.get(v.id)) st.place(v, at);
            });
        }
        for (int id = in.nextSetBit(0); id >= 0; id = in.nextSetBit(id + 1)) {
            if (!st.where.containsKey(byId.get(id))) {
                throw new IllegalStateException("internal error: v" + id + " is live into b" + b.index() + " but has no register");
            }
        }
        int k = 0;
        for (; k < mir.size() && mir.get(k).kind == MirInstr.Kind.PHI; k++) {
            VReg v = mir.get(k).def;
            int at = preferred(st, v, List.of());
            if (at < 0) at = st.find(v);
            if (at < 0) {
                if (st.liveUnits() + v.units > REGS) throw pressure(b, st.liveUnits() + v.units, "its phis");
                // only this block's entry layout changes: every incoming edge copies into it
                repack(st, null, List.of());
                at = st.find(v);
            }
            st.place(v, at);
            settle(v, at);
            maxLive = Math.max(maxLive, st.liveUnits());
        }
        entryMaps.put(b, new LinkedHashMap<>(st.where));
        for (Block p : b.predecessors()) {
            if (exitMaps.containsKey(p)) edgeCopies(p, b);
        }
        // instructions
        int[] lastUse = lastUses(b, mir);
        splitOnly = splitOnly(b, mir);
        for (int i = k; i < mir.size(); i++) instruction(b, st, mir.get(i), i, lastUse, code);
        Map<VReg, Integer> exit = new LinkedHashMap<>();
        BitSet o = liveOut.get(b);
        st.where.forEach((v, at) -> {
            if (o.get(v.id)) exit.put(v, at);
        });
        for (int id = o.nextSetBit(0); id >= 0; id = o.nextSetBit(id + 1)) {
            if (!exit.containsKey(byId.get(id))) {
                throw new IllegalStateException("internal error: v" + id + " is live out of " + b.label() + " but has no register");
            }
        }
        exitMaps.put(b, exit);
        for (Block s : b.successors()) {
            if (entryMaps.containsKey(s)) edgeCopies(b, s);
        }
    }

    /** Vectors of the block being allocated that only splits read, each unit once (see {@link #coalesce}). */
    private Set<VReg> splitOnly = Set.of();

    /** The values whose every read in {@code b} is a split of a different unit, and which are not live out. */
    private Set<VReg> splitOnly(Block b, List<MirInstr> mir) {
        Map<VReg, BitSet> units = new HashMap<>();
        Set<VReg> other = new HashSet<>();
        for (MirInstr m : mir) {
            if (m.kind == MirInstr.Kind.PHI) continue;
            for (int k = 0; k < m.srcs.length; k++) {
                VReg s = m.srcs[k];
                if (s == null) continue;
                if (m.kind != MirInstr.Kind.SPLIT) {
                    other.add(s);
                    continue;
                }
                BitSet u = units.computeIfAbsent(s, x -> new BitSet());
                if (u.get(m.srcUnits[0])) other.add(s);
                u.set(m.srcUnits[0]);
            }
        }
        Set<VReg> out = new HashSet<>();
        BitSet o = liveOut.get(b);
        for (VReg v : units.keySet()) if (!other.contains(v) && !o.get(v.id)) out.add(v);
        return out;
    }

    /** For each instruction index, the values whose last use in the block it is (not live out): a bit set per index. */
    private int[] lastUses(Block b, List<MirInstr> mir) {
        int[] last = new int[virtualRegisters + 1];
        Arrays.fill(last, -1);
        for (int i = 0; i < mir.size(); i++) {
            MirInstr m = mir.get(i);
            if (m.kind == MirInstr.Kind.PHI) continue;
            for (VReg s : m.srcs) if (s != null) last[s.id] = i;
        }
        BitSet o = liveOut.get(b);
        for (int id = o.nextSetBit(0); id >= 0; id = o.nextSetBit(id + 1)) last[id] = Integer.MAX_VALUE;
        return last;
    }

    private void instruction(Block b, State st, MirInstr m, int index, int[] lastUse, List<MInstr> code) {
        List<VReg> dying = new ArrayList<>();
        for (VReg s : m.srcs) {
            if (s == null) continue;
            if (!st.where.containsKey(s)) throw new IllegalStateException("internal error: " + s + " used in " + b.label() + " without a register: " + m);
            if (lastUse[s.id] == index && !dying.contains(s)) dying.add(s);
        }
        VReg d = m.def;
        int before = st.liveUnits(), dyingUnits = 0;
        for (VReg v : dying) dyingUnits += v.units;
        int after = before - dyingUnits + (d == null ? 0 : d.units);
        maxLive = Math.max(maxLive, Math.max(before, after));
        Integer at = null;
        if (d != null) {
            at = coalesce(st, m, dying);
            if (at == null) {
                int f = preferred(st, d, dying);
                if (f < 0) f = st.findIgnoring(d, dying);
                if (f < 0) {
                    if (after > REGS) throw pressure(b, after, m.toString());
                    // enough registers, not in a row: pack the live values, the dying ones last, and
                    // put the result over the dying ones (the instruction reads them before it writes)
                    repack(st, code, dying);
                    f = st.findIgnoring(d, dying);
                    if (f < 0) throw new IllegalStateException("internal error: no room for " + d + " after packing");
                }
                at = f;
            }
        }
        emit(st, m, d, at, code);
        for (VReg v : dying) st.free(v);
        if (d != null) {
            st.place(d, at);
            settle(d, at);
            if (lastUse[d.id] < 0) st.free(d); // never read: its registers are free again at once
        }
    }

    /**
     * The place {@link Coalesce} hinted for {@code v} when it is free (the registers of
     * {@code dying} counting as free): where its set was put, at v's offset; or, for a set not
     * yet placed, the lowest place where the whole set would fit now. -1 when there is none.
     */
    private int preferred(State st, VReg v, List<VReg> dying) {
        Coalesce.Hint h = affinity == null ? null : affinity.of(v);
        if (h == null) return -1;
        Integer base = setBase.get(h.set());
        if (base != null) {
            int at = base + h.offset();
            return at >= 0 && at % v.align == 0 && free(st, at, v.units, dying) ? at : -1;
        }
        int span = affinity.span()[h.set()];
        for (int b = 0; b + span <= REGS; b++) {
            if ((b + h.offset()) % v.align == 0 && free(st, b, span, dying)) return b + h.offset();
        }
        return -1;
    }

    private static boolean free(State st, int at, int units, List<VReg> dying) {
        if (at + units > REGS) return false;
        for (int u = 0; u < units; u++) {
            int o = st.owner[at + u];
            if (o >= 0 && !isDying(o, dying)) return false;
        }
        return true;
    }

    private static boolean isDying(int id, List<VReg> dying) {
        for (VReg v : dying) if (v.id == id) return true;
        return false;
    }

    /** Records where v's hinted set lies, the first time one of its members is placed. */
    private void settle(VReg v, int at) {
        Coalesce.Hint h = affinity == null ? null : affinity.of(v);
        if (h != null) setBase.putIfAbsent(h.set(), at - h.offset());
    }

    /** Results that can sit where their sources already are, without a copy. */
    private Integer coalesce(State st, MirInstr m, List<VReg> dying) {
        switch (m.kind) {
            case COPY -> {
                VReg s = m.srcs[0];
                if (dying.contains(s)) return st.where.get(s);
            }
            case SPLIT -> {
                VReg s = m.srcs[0];
                int at = st.where.get(s) + m.srcUnits[0] * m.def.units;
                if (dying.contains(s)) return at;
                // a vector only splits read, each unit once: the piece takes its unit over (the
                // vector is never read whole again, nor this unit, so nothing sees the hand-over)
                if (splitOnly.contains(s)) {
                    boolean owned = true;
                    for (int u = 0; u < m.def.units; u++) owned &= st.owner[at + u] == s.id;
                    if (owned && at % m.def.align == 0) return at;
                }
            }
            case COLLECT -> {
                Integer start = null;
                int off = 0;
                for (VReg s : m.srcs) {
                    Integer w = st.where.get(s);
                    if (!dying.contains(s) || w == null) return null;
                    if (start == null) start = w;
                    if (w != start + off) return null;
                    off += s.units;
                }
                if (start != null && start % m.def.align == 0 && distinct(m.srcs)) return start;
                return null;
            }
            default -> { }
        }
        return null;
    }

    private static boolean distinct(VReg[] vs) {
        for (int i = 0; i < vs.length; i++) for (int j = i + 1; j < vs.length; j++) if (vs[i] == vs[j]) return false;
        return true;
    }

    private CompileException pressure(Block b, int units, String what) {
        return new CompileException("register pressure: " + units + " registers would be live in block b" + b.index() + " at " + what
                + "; the target has " + REGS + " (r0.x to r47.w), and this compiler does not spill registers to memory");
    }

    /**
     * Moves every value to the bottom of the file, 64-bit ones first (aligned), the values in
     * {@code last} at the end, emitting the copies into {@code code} (none when null).
     */
    private void repack(State st, List<MInstr> code, List<VReg> last) {
        List<VReg> vs = new ArrayList<>();
        for (VReg v : st.where.keySet()) if (!last.contains(v)) vs.add(v);
        vs.sort((x, y) -> y.align != x.align ? y.align - x.align : y.units - x.units);
        vs.addAll(last);
        Map<VReg, Integer> old = new LinkedHashMap<>(st.where);
        for (VReg v : vs) st.free(v);
        int at = 0;
        List<int[]> moves = new ArrayList<>();
        for (VReg v : vs) {
            at = (at + v.align - 1) / v.align * v.align;
            st.place(v, at);
            for (int u = 0; u < v.units; u++) moves.add(new int[] {old.get(v) + u, at + u});
            at += v.units;
        }
        if (code != null) parallelCopy(moves, code, live(st));
    }

    private void emit(State st, MirInstr m, VReg d, Integer at, List<MInstr> code) {
        switch (m.kind) {
            case COPY, SPLIT -> {
                int from = st.where.get(m.srcs[0]) + m.srcUnits[0] * (m.kind == MirInstr.Kind.SPLIT ? d.units : 0);
                List<int[]> moves = new ArrayList<>();
                for (int u = 0; u < d.units; u++) moves.add(new int[] {from + u, at + u});
                parallelCopy(moves, code, live(st));
            }
            case COLLECT -> {
                List<int[]> moves = new ArrayList<>();
                int off = 0;
                for (VReg s : m.srcs) {
                    int from = st.where.get(s);
                    for (int u = 0; u < s.units; u++) moves.add(new int[] {from + u, at + off + u});
                    off += s.units;
                }
                parallelCopy(moves, code, live(st));
            }
            case OP -> {
                MInstr p = m.proto;
                if (p.op() == MOp.END) {
                    // the output registers, one operand per 32-bit register (a 64-bit output takes two)
                    List<Operand> regs = new ArrayList<>();
                    for (VReg v : m.srcs) for (int u = 0; u < v.units; u++) regs.add(Operand.reg(st.where.get(v) + u));
                    code.add(MInstr.end(regs));
                    return;
                }
                Operand dst = p.dst();
                if (d != null) dst = new Operand(Operand.Kind.REG, at + m.defUnit, false, false, false);
                List<Operand> srcs = new ArrayList<>(p.srcs());
                for (int s = 0; s < m.srcs.length; s++) {
                    VReg v = m.srcs[s];
                    if (v == null) continue;
                    Operand o = srcs.get(s);
                    srcs.set(s, new Operand(Operand.Kind.REG, st.where.get(v) + m.srcUnits[s], o.neg(), o.abs(), o.rep()));
                }
                code.add(new MInstr(p.op(), p.type(), p.srcType(), p.cond(), p.rpt(), p.ss(), p.sy(), p.nop(), p.sat(), p.invert(), dst,
                        srcs, p.index(), p.offset(), p.count(), p.dim()));
            }
            default -> throw new IllegalStateException("internal error: unexpected " + m);
        }
    }

    /** The copies on the edge p -> s: live values and phi sources to where s expects them. */
    private void edgeCopies(Block p, Block s) {
        Map<VReg, Integer> from = exitMaps.get(p), to = entryMaps.get(s);
        List<int[]> moves = new ArrayList<>();
        for (var e : to.entrySet()) {
            VReg v = e.getKey();
            VReg src = v;
            for (MirInstr m : mir.get(s)) {
                if (m.kind != MirInstr.Kind.PHI) break;
                if (m.def == v) src = m.phiSrcs.get(p);
            }
            Integer at = from.get(src);
            if (at == null) {
                throw new IllegalStateException("internal error: " + src + " (for " + v + ") has no register at the end of " + p.label());
            }
            for (int u = 0; u < v.units; u++) moves.add(new int[] {at + u, e.getValue() + u});
        }
        List<MInstr> code = out.get(p);
        List<MInstr> copies = new ArrayList<>();
        // on the edge only what s expects is live (values staying in place too): any other register may serve as a scratch
        BitSet live = new BitSet(REGS);
        for (int[] m : moves) live.set(m[1]);
        parallelCopy(moves, copies, live);
        if (copies.isEmpty()) return;
        if (p.successors().size() != 1) {
            throw new IllegalStateException("internal error: copies needed on an edge out of " + p.label() + ", which has "
                    + p.successors().size() + " successors");
        }
        code.addAll(copies);
    }

    /** The registers holding live values in {@code st}. */
    private static BitSet live(State st) {
        BitSet b = new BitSet(REGS);
        for (int r = 0; r < REGS; r++) if (st.owner[r] >= 0) b.set(r);
        return b;
    }

    /**
     * Emits 32-bit moves doing {@code moves} (from, to) all at once. A move goes as soon as no
     * pending move still reads its destination; what then remains are cycles: one value is
     * parked in a register that is neither {@code live} nor read or written by the copy (one
     * extra {@code mov} a cycle), and only when there is none is a swap made of three
     * {@code xor}s.
     */
    static void parallelCopy(List<int[]> moves, List<MInstr> code, BitSet live) {
        List<int[]> pending = new ArrayList<>();
        for (int[] m : moves) if (m[0] != m[1]) pending.add(m.clone());
        while (!pending.isEmpty()) {
            boolean progress = false;
            for (int i = 0; i < pending.size(); i++) {
                int[] m = pending.get(i);
                boolean read = false;
                for (int[] o : pending) if (o != m && o[0] == m[1]) read = true;
                if (!read) {
                    code.add(mov(m[1], m[0]));
                    pending.remove(i);
                    progress = true;
                    break;
                }
            }
            if (progress) continue;
            int scratch = scratch(pending, live);
            if (scratch >= 0) {
                // only cycles left: park the first move's source, and let its readers read it there
                int a = pending.get(0)[0];
                code.add(mov(scratch, a));
                for (int[] o : pending) if (o[0] == a) o[0] = scratch;
                continue;
            }
            // only cycles left and no register to spare: swap the first move's two registers
            int[] m = pending.remove(0);
            int a = m[0], d = m[1];
            code.add(xor(a, a, d));
            code.add(xor(d, a, d));
            code.add(xor(a, a, d));
            // d now holds the old a (this move is done); a holds the old d
            for (int[] o : pending) if (o[0] == d) o[0] = a;
            pending.removeIf(o -> o[0] == o[1]);
        }
    }

    /** A register no pending move reads or writes and no live value holds, or -1. */
    private static int scratch(List<int[]> pending, BitSet live) {
        BitSet busy = (BitSet) live.clone();
        for (int[] m : pending) {
            busy.set(m[0]);
            busy.set(m[1]);
        }
        int r = busy.nextClearBit(0);
        return r < REGS ? r : -1;
    }

    private static MInstr mov(int to, int from) {
        return MInstr.mov(MType.U32, MType.U32, Operand.reg(to), Operand.reg(from));
    }

    private static MInstr xor(int to, int a, int b) {
        return MInstr.alu(MOp.XOR_B, MType.U32, Operand.reg(to), Operand.reg(a), Operand.reg(b));
    }
}
