package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.ir.Block;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * postsched: list scheduling again after register allocation, over the registers themselves,
 * to fill the slots that allocation's copies and the pre-RA scheduler's register budget left
 * empty (ir3 schedules before and after allocation too, {@code ir3_postsched.c}).
 *
 * <p>Each block's instructions become a dependence graph over physical registers, p0.x and
 * a0.x ({@link Access}): a read after the write it reads (with the latency {@link Latency} gives),
 * a write after the reads and the write before it, and the order of memory effects as
 * {@code sched} keeps it. {@code end} stays last. Then the same greedy choice as {@code sched}:
 * the instruction that can issue soonest, the longest latency-weighted path first; the new
 * order replaces the block's only when, issued as early as the latencies allow, it ends
 * sooner. Registers are not renamed, so no value moves and pressure cannot change.
 */
final class PostSchedule {
    private PostSchedule() {}

    /** The {@code postsched} pass. */
    static void schedule(MachineFunction mf) {
        // the texels of texture prefetches are outstanding loads at the entry block's start
        Set<Integer> prefetched = mf.prefetchedRegisters();
        for (Map.Entry<Block, List<MInstr>> e : mf.allocated.entrySet()) {
            List<MInstr> code = e.getValue();
            boolean entry = e.getKey() == mf.fn.entryBlock();
            if (code.size() >= 3) e.setValue(schedule(code, entry ? prefetched : Set.of()));
        }
    }

    private static final class Node {
        final MInstr i;
        final int slots;
        final List<Node> succs = new ArrayList<>();
        /** Predecessors with the slots this node must issue after them. */
        final Map<Node, Integer> preds = new HashMap<>();

        int unscheduled, priority, start;
        /** Reads a result that (ss) or (sy) waits for: SFU, load. */
        boolean waitsSfu, waitsLoad;
        /** The earliest slot its scheduled predecessors allow (final once it is ready). */
        int earliest;

        Node(MInstr i) {
            this.i = i;
            this.slots = 1 + i.rpt();
        }
    }

    /** How many slots after {@code writer} an instruction reading {@code r} may issue. */
    private static int readDelay(MInstr writer, MInstr reader, int r) {
        if (r == Access.A0) return Latency.ADDRESS_DELAY;
        return Latency.readyAfter(writer.op().latency(), reader.op(), r == Access.P0);
    }

    private static void edge(Node from, Node to, int delay) {
        Integer had = to.preds.get(from);
        if (had == null) {
            from.succs.add(to);
            to.unscheduled++;
        }
        to.preds.put(from, Math.max(delay, had == null ? 0 : had));
    }

    private static List<MInstr> schedule(List<MInstr> code, Set<Integer> prefetched) {
        List<Node> nodes = new ArrayList<>();
        Map<Integer, Node> lastWriter = new HashMap<>();
        Map<Integer, List<Node>> readersSince = new HashMap<>();
        Node lastEffect = null;
        List<Node> loadsSinceEffect = new ArrayList<>();
        for (MInstr i : code) {
            Node n = new Node(i);
            for (int r : Access.reads(i)) {
                Node w = lastWriter.get(r);
                if (w == null && prefetched.contains(r)) {
                    n.earliest = Latency.LOAD_CYCLES;
                    n.waitsLoad = true;
                }
                if (w != null) {
                    edge(w, n, readDelay(w.i, i, r));
                    if (r != Access.A0 && w.i.op().latency() == Latency.Kind.SFU) n.waitsSfu = true;
                    if (r != Access.A0 && w.i.op().latency() == Latency.Kind.LOAD) n.waitsLoad = true;
                }
                readersSince.computeIfAbsent(r, k -> new ArrayList<>()).add(n);
            }
            for (int r : Access.writes(i)) {
                Node w = lastWriter.get(r);
                if (w == null && prefetched.contains(r)) {
                    n.earliest = Latency.LOAD_CYCLES;
                    n.waitsLoad = true;
                }
                if (w != null && w != n) edge(w, n, 1);
                // after the reader's last repetition has read it
                for (Node x : readersSince.getOrDefault(r, List.of())) if (x != n) edge(x, n, x.slots);
                readersSince.remove(r);
                lastWriter.put(r, n);
            }
            int mem = Schedule.memoryClass(i.op());
            if (mem == 1) {
                if (lastEffect != null) edge(lastEffect, n, 1);
                loadsSinceEffect.add(n);
            } else if (mem == 2) {
                if (lastEffect != null) edge(lastEffect, n, 1);
                for (Node x : loadsSinceEffect) edge(x, n, 1);
                loadsSinceEffect.clear();
                lastEffect = n;
            }
            if (i.op() == MOp.END) for (Node m : nodes) edge(m, n, 1);
            nodes.add(n);
        }
        for (int k = nodes.size() - 1; k >= 0; k--) {
            Node n = nodes.get(k);
            int p = n.slots;
            for (Node s : n.succs) p = Math.max(p, s.preds.get(n) + s.priority);
            n.priority = p;
        }
        int loadsAtStart = prefetched.isEmpty() ? 0 : Latency.LOAD_CYCLES;
        long[] before = cost(nodes, loadsAtStart);
        List<Node> ready = new ArrayList<>();
        for (Node n : nodes) if (n.unscheduled == 0) ready.add(n);
        List<Node> order = new ArrayList<>(code.size());
        int time = 0;
        while (!ready.isEmpty()) {
            Node best = null;
            long bestKey = Long.MAX_VALUE;
            for (Node n : ready) {
                int start = Math.max(time, n.earliest);
                long key = ((long) start << 20) + (1 << 19) - n.priority;
                if (key < bestKey) {
                    bestKey = key;
                    best = n;
                }
            }
            best = keepRun(best, order.isEmpty() ? null : order.get(order.size() - 1), ready, time);
            ready.remove(best);
            best.start = Math.max(time, best.earliest);
            time = best.start + best.slots;
            order.add(best);
            for (Node s : best.succs) {
                s.earliest = Math.max(s.earliest, best.start + s.preds.get(best));
                if (--s.unscheduled == 0) ready.add(s);
            }
        }
        if (order.size() != code.size()) throw new IllegalStateException("postsched: dependence cycle in a block");
        // the greedy order is kept only where it is better than allocation's: no more nops, no
        // later finish, and one of the two strictly smaller
        long[] after = cost(order, loadsAtStart);
        if (after[0] > before[0] || after[1] > before[1] || after[0] == before[0] && after[1] == before[1]) return code;
        List<MInstr> out = new ArrayList<>(code.size());
        for (Node n : order) out.add(n.i);
        return out;
    }

    /**
     * Instructions the {@code rpt} pass could merge kept together where it costs nothing
     * (the ir3 rptN merge request of 2024, docs/BACKGROUND.md): instead of {@code best}, a ready instruction that continues the run the last
     * one ends, or else one {@code best} would continue (so a run starts at its head), when it can
     * issue as soon as {@code best} and its path to the block's end is as long.
     */
    private static Node keepRun(Node best, Node last, List<Node> ready, int time) {
        int start = Math.max(time, best.earliest);
        if (last != null && RepeatForm.repeatable(last.i)) {
            for (Node n : ready) {
                if (Math.max(time, n.earliest) <= start
                        && n.priority >= best.priority
                        && RepeatForm.continues(last.i, n.i)) return n;
            }
        }
        for (int step = 1; step < RepeatForm.MAX && RepeatForm.repeatable(best.i); step++) {
            Node head = null;
            for (Node n : ready) {
                if (n != best
                        && Math.max(time, n.earliest) <= start
                        && n.priority >= best.priority
                        && RepeatForm.continues(n.i, best.i)) head = n;
            }
            if (head == null) break;
            best = head;
        }
        return best;
    }

    /**
     * Issuing the nodes in this order, each as soon as its predecessors allow: the nops the ALU
     * delays need (SFU and load results are waited for with (ss)/(sy), not nops), and the slot
     * after the last instruction. A wait with (ss) or (sy) lasts until every SFU or load result
     * issued so far is written, not only the one read — what the hardware and the simulator do,
     * and what makes an order that looks shorter by its own latencies slower in fact.
     */
    private static long[] cost(List<Node> order, int loadsAtStart) {
        Map<Node, Integer> at = new HashMap<>();
        int time = 0, nops = 0, sfuDone = 0, loadDone = loadsAtStart;
        for (Node n : order) {
            int alu = time, start = time;
            for (Map.Entry<Node, Integer> p : n.preds.entrySet()) {
                int ready = at.get(p.getKey()) + p.getValue();
                if (p.getKey().i.op().latency() == Latency.Kind.ALU) alu = Math.max(alu, ready);
                start = Math.max(start, ready);
            }
            if (n.waitsSfu) start = Math.max(start, sfuDone);
            if (n.waitsLoad) start = Math.max(start, loadDone);
            nops += alu - time;
            at.put(n, start);
            time = start + n.slots;
            Latency.Kind k = n.i.op().latency();
            if (k == Latency.Kind.SFU) sfuDone = Math.max(sfuDone, start + Latency.cycles(k));
            if (k == Latency.Kind.LOAD) loadDone = Math.max(loadDone, start + Latency.cycles(k));
        }
        return new long[] {nops, time};
    }
}
