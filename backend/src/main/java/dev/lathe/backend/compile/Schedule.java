package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.isa.MOp;
import dev.lathe.ir.Block;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * sched: list scheduling of each block before register allocation, so that the slots the
 * latencies ask for ({@link Latency}) hold useful instructions instead of nops, as ir3's
 * {@code ir3_sched.c} does.
 *
 * <p>Each block becomes a dependence graph: SSA uses, the order of p0.x's and a0.x's writers and readers,
 * and the order of memory effects (stores, atomics, kill, barriers keep their order; a load
 * stays between the effects around it). The phis stay at the top. Then, slot by slot, the
 * instruction that can issue soonest is taken, the one with the longest latency-weighted path to
 * the end of the block first; copies, collects and splits cost no slot (allocation mostly
 * makes them vanish) and pass their sources' ready times on.
 *
 * <p>Registers are what overlapping work costs: the scheduler counts the 32-bit registers live
 * at each point and, once taking an instruction would pass {@link #PRESSURE_LIMIT} (or the
 * register budget, when {@code --max-regs} makes it smaller), prefers the instructions that free
 * registers. A block whose schedule still peaks higher than the limit and than its own peak in
 * program order is scheduled again, aiming {@value #SOFT_STEP} registers lower each time, and
 * keeps its order when no try fits, so scheduling never makes a program spill more than its
 * selection order would.
 */
public final class Schedule {
    private Schedule() {}

    /** 48 registers = 12 vec4: the most a shader can hold and still run 16 waves ({@link Stats}). */
    public static final int PRESSURE_LIMIT = 48;

    /** How much lower each new try of a block's schedule aims when the one before passed its budget. */
    private static final int SOFT_STEP = 8;

    /** The {@code sched} pass. */
    static void schedule(MachineFunction mf) {
        int limit = Math.min(PRESSURE_LIMIT, mf.allocation.units());
        Liveness live = Liveness.of(mf.fn, mf.mir);
        for (Map.Entry<Block, List<MirInstr>> e : mf.mir.entrySet()) {
            Block b = e.getKey();
            List<MirInstr> code = e.getValue();
            BitSet in = live.liveIn.get(b), out = live.liveOut.get(b);
            if (in == null) continue;
            boolean entry = b == mf.fn.entryBlock();
            List<MirInstr> s =
                    new BlockSchedule(code, in, out, live, m -> entry && Preload.candidate(m, mf), limit).run();
            if (s != code) e.setValue(s);
        }
    }

    /** One node of a block's dependence graph. */
    private static final class Node {
        final int index;
        final MirInstr m;
        /** Costs no slot and no latency: a copy, collect or split, or a preload at the entry. */
        final boolean pseudo;

        final int slots;
        final List<Node> succs = new ArrayList<>();
        final List<Node> preds = new ArrayList<>();
        /** The data predecessors (their results are read here), a subset of {@link #preds}. */
        final List<Node> dataPreds = new ArrayList<>();
        /** The p0.x writer this node reads p0.x from, or null. */
        Node p0Writer;
        /** The mova this node's c<a0.x + n> reads a0.x from, or null. */
        Node a0Writer;
        /** For a mova: the slot from which c<a0.x + n> may read what it wrote. */
        int a0Ready;

        int unscheduledPreds;
        int priority;
        /** When the result is ready for an ALU reader, and for an SFU/texture/memory reader. */
        int readyAlu, readyLate;

        Node(int index, MirInstr m, boolean preload) {
            this.index = index;
            this.m = m;
            this.pseudo = m.kind != MirInstr.Kind.OP || preload;
            this.slots = pseudo ? 0 : 1 + m.proto.rpt();
        }

        boolean readsLate() {
            return m.kind == MirInstr.Kind.OP && Latency.readsLate(m.proto.op());
        }

        /** A texture prefetch: free like any preload, but its texel arrives a load's cycles after the start. */
        boolean prefetch() {
            return m.kind == MirInstr.Kind.OP && m.proto.isPrefetch();
        }

        Latency.Kind kind() {
            return pseudo ? Latency.Kind.ALU : m.proto.op().latency();
        }
    }

    /** Whether {@code m} reads ({@code read}) or writes register {@code r} (p0.x, a0.x: {@link Access}). */
    private static boolean touches(MirInstr m, int r, boolean read) {
        if (m.kind != MirInstr.Kind.OP) return false;
        for (int x : read ? Access.reads(m.proto) : Access.writes(m.proto)) if (x == r) return true;
        return false;
    }

    /**
     * How an instruction is ordered against memory (for both schedulers): 2, an effect whose
     * order is kept (stores, atomics, flow, barriers); 1, a memory load (not across an effect);
     * 0, free to move (constants and inputs are never written while the shader runs).
     */
    static int memoryClass(MOp op) {
        if (op.category() == 0 || op.category() == 7 || op.isStore() || op.isAtomic()) return 2;
        if (op.isLoad() && op != MOp.LDC && op != MOp.LDLV) return 1;
        return 0;
    }

    private static final class BlockSchedule {
        private final List<MirInstr> code;
        private final BitSet liveIn, liveOut;
        private final Liveness liveness;
        private final List<Node> nodes = new ArrayList<>();
        private int head;

        /** Instructions to put first, as the hardware will do them before the start ({@link Preload}). */
        private final Predicate<MirInstr> preload;

        /** The registers the schedule tries to stay within. */
        private final int limit;

        BlockSchedule(
                List<MirInstr> code,
                BitSet liveIn,
                BitSet liveOut,
                Liveness liveness,
                Predicate<MirInstr> preload,
                int limit) {
            this.preload = preload;
            this.limit = limit;
            this.code = code;
            this.liveIn = liveIn;
            this.liveOut = liveOut;
            this.liveness = liveness;
        }

        List<MirInstr> run() {
            while (head < code.size() && code.get(head).kind == MirInstr.Kind.PHI) head++;
            if (code.size() - head < 3) return code;
            build();
            int budget = Math.max(limit, peak(code));
            // A schedule that passes the budget (when no ready instruction frees a register, one
            // that takes some must go) is tried again, aiming lower: a long unrolled block keeps
            // most of its overlap instead of falling back to program order.
            for (int soft = limit; soft > 0; soft -= SOFT_STEP) {
                List<MirInstr> order = new ArrayList<>(code.subList(0, head));
                for (Node n : list(soft)) order.add(n.m);
                if (peak(order) <= budget) return order;
            }
            return code;
        }

        private void build() {
            Map<VReg, Node> defs = new HashMap<>();
            Node lastP0 = null, lastP0Writer = null, lastEffect = null, lastA0Writer = null;
            List<Node> p0ReadersSinceWrite = new ArrayList<>(),
                    loadsSinceEffect = new ArrayList<>(),
                    a0ReadersSinceWrite = new ArrayList<>();
            for (int i = head; i < code.size(); i++) {
                MirInstr m = code.get(i);
                Node n = new Node(i, m, preload.test(m));
                nodes.add(n);
                for (VReg s : m.srcs) {
                    Node d = s == null ? null : defs.get(s);
                    if (d != null && !n.dataPreds.contains(d)) {
                        n.dataPreds.add(d);
                        edge(d, n);
                    }
                }
                if (m.def != null) defs.put(m.def, n);
                boolean r = touches(m, Access.P0, true), w = touches(m, Access.P0, false);
                if (r) {
                    n.p0Writer = lastP0Writer;
                    if (lastP0Writer != null) edge(lastP0Writer, n);
                    p0ReadersSinceWrite.add(n);
                }
                if (w) {
                    if (lastP0 != null) edge(lastP0, n);
                    for (Node x : p0ReadersSinceWrite) edge(x, n);
                    p0ReadersSinceWrite.clear();
                    lastP0Writer = n;
                }
                if (r || w) lastP0 = n;
                // a0.x as p0.x: each reader after its mova, the next mova after them
                if (touches(m, Access.A0, true)) {
                    n.a0Writer = lastA0Writer;
                    if (lastA0Writer != null) edge(lastA0Writer, n);
                    a0ReadersSinceWrite.add(n);
                }
                if (touches(m, Access.A0, false)) {
                    if (lastA0Writer != null) edge(lastA0Writer, n);
                    for (Node x : a0ReadersSinceWrite) edge(x, n);
                    a0ReadersSinceWrite.clear();
                    lastA0Writer = n;
                }
                int mem = m.kind == MirInstr.Kind.OP ? memoryClass(m.proto.op()) : 0;
                if (mem == 1) {
                    if (lastEffect != null) edge(lastEffect, n);
                    loadsSinceEffect.add(n);
                } else if (mem == 2) {
                    if (lastEffect != null) edge(lastEffect, n);
                    for (Node x : loadsSinceEffect) edge(x, n);
                    loadsSinceEffect.clear();
                    lastEffect = n;
                }
            }
            // the longest latency-weighted path to the block's end, from the last node up
            for (int k = nodes.size() - 1; k >= 0; k--) {
                Node n = nodes.get(k);
                int p = n.slots;
                for (Node s : n.succs) {
                    int lat = n.pseudo
                            ? (n.prefetch() ? Latency.LOAD_CYCLES : 0)
                            : s.dataPreds.contains(n)
                                    ? Latency.readyAfter(n.kind(), s.readsLate())
                                    : s.p0Writer == n
                                            ? Latency.ALU_TO_ALU
                                            : s.a0Writer == n ? Latency.ADDRESS_DELAY : 1;
                    p = Math.max(p, lat + s.priority);
                }
                n.priority = p;
            }
        }

        private static void edge(Node from, Node to) {
            if (from.succs.contains(to)) return;
            from.succs.add(to);
            to.preds.add(from);
            to.unscheduledPreds++;
        }

        /**
         * The list schedule: slot by slot, the node that can issue soonest, longest path first, registers permitting
         * (past {@code limit} registers, the node that frees the most).
         */
        private List<Node> list(int limit) {
            Map<VReg, Integer> usesLeft = new HashMap<>();
            for (Node n : nodes) {
                for (VReg s : distinctSources(n.m)) usesLeft.merge(s, 1, Integer::sum);
            }
            int live = startingPressure();
            List<Node> ready = new ArrayList<>(), out = new ArrayList<>();
            for (Node n : nodes) {
                n.unscheduledPreds = n.preds.size();
                if (n.unscheduledPreds == 0) ready.add(n);
            }
            int time = 0;
            Node lastOp = null;
            while (!ready.isEmpty()) {
                Node best = null;
                long bestKey = Long.MAX_VALUE;
                for (Node n : ready) {
                    int delta = pressureDelta(n, usesLeft);
                    if (n.pseudo && (delta <= 0 || live + delta <= limit)) {
                        best = n; // free: taken first, in program order (unless it passes the limit: a collect)
                        break;
                    }
                    boolean over = delta > 0 && live + delta > limit;
                    int start = Math.max(time, earliest(n));
                    // over the budget: only registers freed count; otherwise the soonest, then the longest path
                    long key = over
                            ? (1L << 60) + ((long) (delta + 1024) << 40) + ((long) start << 20) + (1 << 19) - n.priority
                            : ((long) start << 20) + (1 << 19) - n.priority;
                    if (key < bestKey) {
                        bestKey = key;
                        best = n;
                    }
                }
                if (!best.pseudo) best = keepGroup(best, lastOp, ready, time, live, usesLeft, limit);
                ready.remove(best);
                if (!best.pseudo) lastOp = best;
                int start = best.pseudo ? time : Math.max(time, earliest(best));
                live += pressureDelta(best, usesLeft);
                for (VReg s : distinctSources(best.m)) usesLeft.merge(s, -1, Integer::sum);
                if (best.pseudo) {
                    best.readyAlu = start;
                    best.readyLate = start;
                    for (Node d : best.dataPreds) {
                        best.readyAlu = Math.max(best.readyAlu, d.readyAlu);
                        best.readyLate = Math.max(best.readyLate, d.readyLate);
                    }
                    if (best.prefetch()) {
                        best.readyAlu = start + Latency.LOAD_CYCLES;
                        best.readyLate = start + Latency.LOAD_CYCLES;
                    }
                } else {
                    best.readyAlu = start + Latency.readyAfter(best.kind(), false);
                    best.readyLate = start + Latency.readyAfter(best.kind(), true);
                    best.a0Ready = start + Latency.ADDRESS_DELAY;
                }
                time = start + best.slots;
                out.add(best);
                for (Node s : best.succs) if (--s.unscheduledPreds == 0) ready.add(s);
            }
            if (out.size() != nodes.size()) throw new IllegalStateException("sched: dependence cycle in a block");
            return out;
        }

        /**
         * A repeat group's members kept together where it costs nothing (the ir3 rptN merge request of 2024, docs/BACKGROUND.md): instead of
         * {@code best}, the next lane of the group the last instruction belongs to, or the lowest
         * lane of {@code best}'s own group, when it can issue as soon as {@code best}, its path to the
         * block's end is as long, and it does not pass the register limit.
         */
        private Node keepGroup(
                Node best, Node last, List<Node> ready, int time, int live, Map<VReg, Integer> usesLeft, int limit) {
            Node pick = last != null && last.m.group != 0 ? lowestLane(ready, last.m.group, last.m.lane) : null;
            if (pick == null && best.m.group != 0) pick = lowestLane(ready, best.m.group, -1);
            if (pick == null || pick == best) return best;
            int delta = pressureDelta(pick, usesLeft);
            boolean over = delta > 0 && live + delta > limit;
            // costs nothing: issues as soon, and no shorter a path to the block's end hangs on best
            return !over
                            && Math.max(time, earliest(pick)) <= Math.max(time, earliest(best))
                            && pick.priority >= best.priority
                    ? pick
                    : best;
        }

        /** The ready member of {@code group} with the lowest lane above {@code after}, or null. */
        private static Node lowestLane(List<Node> ready, int group, int after) {
            Node pick = null;
            for (Node n : ready) {
                if (!n.pseudo && n.m.group == group && n.m.lane > after && (pick == null || n.m.lane < pick.m.lane))
                    pick = n;
            }
            return pick;
        }

        private static int earliest(Node n) {
            int e = 0;
            for (Node d : n.dataPreds) e = Math.max(e, n.readsLate() ? d.readyLate : d.readyAlu);
            if (n.p0Writer != null) e = Math.max(e, n.p0Writer.readyAlu);
            if (n.a0Writer != null) e = Math.max(e, n.a0Writer.a0Ready);
            return e;
        }

        /** Registers taken minus registers freed if {@code n} were scheduled now. */
        private int pressureDelta(Node n, Map<VReg, Integer> usesLeft) {
            int d = n.m.def == null || usesLeft.getOrDefault(n.m.def, 0) == 0 && !liveOut.get(n.m.def.id)
                    ? 0
                    : n.m.def.units;
            for (VReg s : distinctSources(n.m)) {
                if (usesLeft.get(s) == 1 && !liveOut.get(s.id)) d -= s.units;
            }
            return d;
        }

        private int startingPressure = -1;

        /** The registers live at the top of the body: what comes in and the phis' results. */
        private int startingPressure() {
            if (startingPressure >= 0) return startingPressure;
            int live = liveness.units(liveIn);
            for (int i = 0; i < head; i++) live += code.get(i).def.units;
            startingPressure = live;
            return live;
        }

        /** The most 32-bit registers live at once in {@code order} (a result counted with what is live across its instruction). */
        private int peak(List<MirInstr> order) {
            Map<VReg, Integer> last = new HashMap<>();
            for (int i = head; i < order.size(); i++) for (VReg s : distinctSources(order.get(i))) last.put(s, i);
            int live = startingPressure(), peak = live;
            for (int i = head; i < order.size(); i++) {
                MirInstr m = order.get(i);
                int dying = 0;
                for (VReg s : distinctSources(m)) if (last.get(s) == i && !liveOut.get(s.id)) dying += s.units;
                int def = m.def == null ? 0 : m.def.units;
                peak = Math.max(peak, live - dying + def);
                live += def - dying;
                if (m.def != null && !last.containsKey(m.def) && !liveOut.get(m.def.id)) live -= def; // never read
            }
            return peak;
        }

        /** Each instruction's sources, each once (asked for again and again by the ready-list scan). */
        private final Map<MirInstr, List<VReg>> sources = new IdentityHashMap<>();

        private List<VReg> distinctSources(MirInstr m) {
            return sources.computeIfAbsent(m, x -> {
                List<VReg> out = new ArrayList<>(x.srcs.length);
                for (VReg s : x.srcs) if (s != null && !out.contains(s)) out.add(s);
                return out;
            });
        }
    }
}
