package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Latency;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Legalization: the fewest nops and {@code (ss)}/{@code (sy)} flags that make the code obey
 * the latency rules ({@link Latency}, which the simulator checks).
 *
 * <p>A forward walk keeps, per register, how many issue slots ago an ALU instruction wrote it
 * and whether an SFU or load result is outstanding. An instruction that reads or writes a
 * register with an outstanding result gets {@code (ss)}/{@code (sy)} (which waits for all of
 * them); one that reads too soon after an ALU write gets the missing slots, folded into the
 * previous instruction's {@code (nopN)} when it has room, else as {@code nop}s. At a label the
 * states of every way in are merged (the smaller distance, the union of outstanding results);
 * loops need the back edge's state, so the walk repeats until the states the jumps bring stop
 * changing (they only get more pessimistic, so it ends). Slots only the way falling into a label
 * needs are put before the label, on that way, rather than after it where every way in — each
 * iteration of a loop — pays them. Stall cycles do not count as distance: the result is safe
 * whatever the stalls turn out to be.
 */
final class Legalize {
    private static final int INF = 1 << 20;
    private static final int N = Access.A0 + 1;

    static final class State {
        final int[] since = new int[N];
        final boolean[] ss = new boolean[N], sy = new boolean[N];

        State() {
            Arrays.fill(since, INF);
        }

        State copy() {
            State s = new State();
            System.arraycopy(since, 0, s.since, 0, N);
            System.arraycopy(ss, 0, s.ss, 0, N);
            System.arraycopy(sy, 0, s.sy, 0, N);
            return s;
        }

        /** Merges o into this; whether anything changed. */
        boolean merge(State o) {
            boolean changed = false;
            for (int r = 0; r < N; r++) {
                if (o.since[r] < since[r]) {
                    since[r] = o.since[r];
                    changed = true;
                }
                if (o.ss[r] && !ss[r]) {
                    ss[r] = true;
                    changed = true;
                }
                if (o.sy[r] && !sy[r]) {
                    sy[r] = true;
                    changed = true;
                }
            }
            return changed;
        }

        void advance(int slots) {
            for (int r = 0; r < N; r++) since[r] = Math.min(INF, since[r] + slots);
        }
    }

    /**
     * Legalization's walk over straight-line code, for a pass that asks what an instruction
     * would wait at some point ({@link RepeatForm}); it starts with every register ready.
     */
    static final class Timing {
        private final State state = new State();

        /** The empty slots {@code i} would wait here. */
        int delay(MInstr i) {
            return Legalize.delay(i, state);
        }

        /** Whether {@code i} would need (ss) or (sy) here. */
        boolean syncs(MInstr i) {
            for (int[] regs : new int[][] {Access.reads(i), Access.writes(i)}) {
                for (int r : regs) if (state.ss[r] || state.sy[r]) return true;
            }
            return false;
        }

        /** Moves past {@code i}, placed as legalization would place it. */
        void issue(MInstr i) {
            place(i, state, null);
        }
    }

    /** The {@code legalize} pass. */
    static void legalize(MachineFunction mf) {
        mf.linear = run(mf.linear, entryState(mf));
        mf.legalized = true;
    }

    /** The state at the first instruction: texture prefetches are outstanding loads there (backend/ISA.md). */
    static State entryState(MachineFunction mf) {
        State s = new State();
        for (int r : mf.prefetchedRegisters()) s.sy[r] = true;
        return s;
    }

    static Linear run(Linear in, State entry) {
        Map<Integer, State> jumps = new HashMap<>();
        for (int round = 0; ; round++) {
            if (round > 1000) throw new IllegalStateException("internal error: legalization did not settle");
            Linear out = new Linear();
            out.labels = in.labels;
            boolean changed = walk(in, out, jumps, entry);
            if (!changed) return out;
        }
    }

    /**
     * One walk; whether the state some jump brings to a label grew (then the result is not final
     * yet). {@code jumps} holds, per label, the merged states of the jumps to it.
     */
    private static boolean walk(Linear in, Linear out, Map<Integer, State> jumps, State entry) {
        boolean changed = false;
        State cur = entry.copy();
        List<Linear.Item> items = in.items;
        for (int n = 0; n < items.size(); n++) {
            Linear.Item it = items.get(n);
            if (it.isLabel()) {
                State j = jumps.get(it.label());
                if (cur != null) {
                    // slots the way falling in needs and the jumps in do not: on the fall-through
                    // path, before the label, not inside the code every way in runs (a loop's body)
                    // (both counts hold the waits the code after the label makes on its own; their difference is the
                    // entry's)
                    int extra = j == null ? 0 : padding(cur, items, n + 1) - padding(j, items, n + 1);
                    if (extra > 0) {
                        addNops(out, extra);
                        cur.advance(extra);
                    }
                    if (j != null) cur.merge(j);
                } else {
                    cur = j == null ? new State() : j.copy();
                }
                out.items.add(it);
                continue;
            }
            if (cur == null) cur = new State(); // unreachable code: any state is safe
            MInstr placed = place(it.instr(), cur, out);
            out.items.add(new Linear.Item(placed, it.target(), -1));
            if (it.target() >= 0) {
                State at = jumps.get(it.target());
                if (at == null) {
                    jumps.put(it.target(), cur.copy());
                    changed = true;
                } else {
                    changed |= at.merge(cur);
                }
            }
            if (placed.op() == MOp.JUMP || placed.op() == MOp.END) cur = null;
        }
        return changed;
    }

    /**
     * Places {@code i} after the code whose state is {@code cur}: the (ss)/(sy) its reads and
     * writes of outstanding results need, and the empty slots its reads of ALU results need
     * (added to {@code out} when it is not null); {@code cur} then follows the instruction.
     */
    private static MInstr place(MInstr i, State cur, Linear out) {
        int[] reads = Access.reads(i), writes = Access.writes(i);
        boolean ss = i.ss(), sy = i.sy();
        for (int r : reads) {
            ss |= cur.ss[r];
            sy |= cur.sy[r];
        }
        for (int r : writes) {
            ss |= cur.ss[r];
            sy |= cur.sy[r];
        }
        if (ss) Arrays.fill(cur.ss, false);
        if (sy) Arrays.fill(cur.sy, false);
        int need = delay(i, cur);
        if (need > 0) {
            if (out != null) addNops(out, need);
            cur.advance(need);
        }
        MInstr placed = i.withSync(ss, sy);
        cur.advance(placed.rpt() + 1 + placed.nop());
        for (int k = 0; k <= placed.rpt(); k++) {
            // repetition k writes k slots after the first: rpt - k slots before the last ends
            int[] written = placed.rpt() == 0 ? writes : Access.writes(repetition(placed, k));
            for (int r : written) {
                switch (i.op().latency()) {
                    case SFU -> {
                        cur.ss[r] = true;
                        cur.since[r] = INF;
                    }
                    case LOAD -> {
                        cur.sy[r] = true;
                        cur.since[r] = INF;
                    }
                    case ALU -> cur.since[r] = placed.rpt() - k + 1 + placed.nop();
                }
            }
        }
        return placed;
    }

    /** Repetition k of a repeated instruction ({@code (rptN)nop} has none: it reads and writes nothing). */
    private static MInstr repetition(MInstr i, int k) {
        return i.op() == MOp.NOP ? i.withRpt(0) : i.repetition(k);
    }

    /** The empty slots {@code i} must wait after {@code cur}; repetition k of an {@code (rptN)} issues k slots after the first. */
    private static int delay(MInstr i, State cur) {
        if (i.rpt() == 0 || i.op() == MOp.NOP) return delay(i, Access.reads(i), cur);
        int need = 0;
        for (int k = 0; k <= i.rpt(); k++) {
            MInstr r = i.repetition(k);
            need = Math.max(need, delay(r, Access.reads(r), cur) - k);
        }
        return need;
    }

    private static int delay(MInstr i, int[] reads, State cur) {
        int need = 0;
        for (int r : reads) {
            int wait = r == Access.A0 ? Latency.ADDRESS_DELAY : Latency.aluDelay(i.op(), r == Access.P0);
            need = Math.max(need, wait - cur.since[r]);
        }
        return need;
    }

    /**
     * The empty slots the straight-line code at {@code items[from]} would wait, entered with
     * {@code state}: falling through labels up to the next branch, over the instructions that
     * fill the slots any ALU delay reaches (the same instructions whatever the state).
     */
    private static int padding(State state, List<Linear.Item> items, int from) {
        State s = state.copy();
        int total = 0, slots = 0;
        for (int k = from; k < items.size() && slots < Latency.ALU_TO_OTHER; k++) {
            Linear.Item it = items.get(k);
            if (it.isLabel()) continue; // falling through a label: the same way on
            MInstr i = it.instr();
            int need = delay(i, s);
            total += Math.max(0, need);
            MInstr placed = place(i, s, null);
            slots += placed.slots(); // the same instructions whatever the waits, so two counts compare
            if (it.target() >= 0 || i.op().category() == 0 && i.op() != MOp.NOP) break;
        }
        return total;
    }

    /** Adds {@code n} empty slots before the next instruction: in the previous one's (nopN) when it fits. */
    private static void addNops(Linear out, int n) {
        List<Linear.Item> items = out.items;
        if (!items.isEmpty()) {
            Linear.Item last = items.get(items.size() - 1);
            if (!last.isLabel()
                    && last.instr().op() != MOp.NOP
                    && last.target() < 0
                    && last.instr().op().category() != 0) {
                int room = 3 - last.instr().nop();
                int take = Math.min(room, n);
                if (take > 0) {
                    items.set(
                            items.size() - 1,
                            new Linear.Item(last.instr().withNop(last.instr().nop() + take), -1, -1));
                    n -= take;
                }
            }
        }
        while (n > 0) {
            int k = Math.min(4, n);
            items.add(Linear.Item.of(MInstr.nop(k)));
            n -= k;
        }
    }
}
