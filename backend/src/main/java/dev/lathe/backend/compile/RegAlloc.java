package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.LoopNode;
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
 * Register allocation on the SSA machine program, which also takes it out of SSA, spilling to
 * private memory when the values live at once do not fit the register budget.
 *
 * <p>Blocks are visited in program order (dominators first). A block starts with the registers
 * its first visited predecessor ended with, restricted to what is live; its phis take free
 * registers. Every other edge into it gets coupling code at the end of the predecessor (the
 * structured IR has no critical edges, so that end belongs to the edge): a parallel copy moving
 * each value and phi source to where the block expects it, then reloads of what the block wants
 * in a register but the predecessor left in memory; a back edge gets its code when the latch is
 * done. Inside a block each result takes free registers (a source dying at the instruction may
 * give up its registers to it); when the free registers are enough in number but not in a row (a
 * pair starts on an even register, a texel needs four in a row), a parallel copy first packs every
 * live value to the bottom of the file.
 *
 * <p>Spilling is Braun &amp; Hack's MIN on this walk, as ir3's spiller does it: when the values an
 * instruction needs do not fit, the value read again farthest ahead leaves ({@link NextUse}; the
 * i965 cost order can be chosen instead, {@link Allocation.SpillChoice}). A value that leaves is
 * stored once, right after its definition (which dominates every read), into a private-memory slot
 * of its own ({@code stp}); a {@code mov} of an immediate or a constant is not stored but made
 * again. A read of a value not in a register reloads it ({@code ldp}, or the {@code mov}) into
 * free registers, where it stays for the instructions after (the reload elision review of 2015, docs/BACKGROUND.md: no reload while the next
 * instructions keep reading it) until it has to leave again; without reload elision it serves only
 * the instruction it was reloaded for. At a block's start the phis and the values coming in in
 * registers that do not fit are left in memory, farthest next read first (a phi in memory gets its
 * value stored on each edge); a loop header also takes in the values read inside the loop while
 * registers are free, so that they are reloaded before the loop, not in it. So allocation fails
 * only when a single instruction's sources and result do not fit the budget, and never spills a
 * program whose MaxLive fits it.
 *
 * <p>Parallel copies are sequentialized: a move whose destination no other pending move reads
 * goes first; what remains are cycles, broken through a free register (three-{@code xor} swaps
 * only when every register is taken).
 */
final class RegAlloc {
    private final Function fn;
    private final Map<Block, List<MirInstr>> mir;
    /** The registers this allocation may use: r0.x up to (not including) this unit. */
    private final int limit;

    private final boolean reloadElision, maySpill;
    private final Allocation.SpillChoice choice;
    private Liveness liveness;
    private Map<Block, BitSet> liveIn, liveOut;
    /** Every value by id (null for ids the program does not mention). */
    private VReg[] byId;

    private NextUse nextUse;
    private final Map<Block, Map<VReg, Integer>> entryMaps = new HashMap<>(), exitMaps = new HashMap<>();
    /** Per block, the phis that start it in memory (their value is stored on each edge into it). */
    private final Map<Block, List<VReg>> memoryPhis = new HashMap<>();

    final Map<Block, List<MInstr>> out = new LinkedHashMap<>();
    int maxLive;

    /** The coalescing hints (none without the coalesce pass), and where each hinted set has been put. */
    private final Coalesce.Affinity affinity;

    private final Map<Integer, Integer> setBase = new HashMap<>();

    // ---- spilling: by value id ------------------------------------------------------------------

    /** Where a value was defined: the block, the index in its code right after the definition, and its register. */
    private record DefSite(Block block, int position, int reg) {}

    /** A spill store to put into a block's code at an index (after a definition). */
    private record Insert(int position, List<MInstr> code) {}

    private final MirInstr[] defInstr;
    /** Whether each value is made again instead of stored (decided once, in {@link #run}). */
    private final boolean[] remat;

    private final DefSite[] defSite;
    /** Private-memory byte offset of each spilled value, -1 for none. */
    private final int[] slot;
    /** Whether the value's slot holds it wherever it is live (its store is placed). */
    private final boolean[] stored;
    /** Per in-memory phi, a second slot an edge writes its new value into while it still reads the old one (-1: none yet). */
    private final int[] staging;

    private final Map<Block, List<Insert>> inserts = new HashMap<>();
    private final Map<Block, Double> weights = new HashMap<>();
    /** Each value's i965 spill cost (its definition and reads weighted by where they are), for {@link Allocation.SpillChoice#COST}. */
    private final double[] staticCost;

    int privateBytes, spills, fills;
    double spillCost;
    /** A word of private memory for the rare edge that must copy memory to memory with every register taken (-1: none yet). */
    private int emergencySlot = -1;

    // ---- the block being allocated: next reads, last reads (by value id, valid where stamped) -----

    private int serial;
    private final int[] stamp, nextRead, lastRead;
    private int[][] nextAfter;
    private int blockLength;
    private BitSet blockOut;

    RegAlloc(MachineFunction mf, Allocation allocation, boolean maySpill) {
        this.fn = mf.fn;
        this.mir = mf.mir;
        this.affinity = mf.affinity;
        this.limit = allocation.units();
        this.reloadElision = allocation.reloadElision();
        this.choice = allocation.spillChoice();
        this.maySpill = maySpill;
        int n = mf.virtualRegisters + 1;
        defInstr = new MirInstr[n];
        remat = new boolean[n];
        defSite = new DefSite[n];
        slot = new int[n];
        Arrays.fill(slot, -1);
        stored = new boolean[n];
        staging = new int[n];
        Arrays.fill(staging, -1);
        staticCost = new double[n];
        stamp = new int[n];
        nextRead = new int[n];
        lastRead = new int[n];
        held = new int[n];
        for (List<MirInstr> code : mir.values())
            for (MirInstr m : code) if (m.group != 0 && m.def != null) groupSize.merge(m.group, 1, Integer::sum);
    }

    /** Repeat groups ({@link MirInstr#group}): how many members write a register, and where the next member's result would continue the run. */
    private final Map<Integer, Integer> groupSize = new HashMap<>(), groupNext = new HashMap<>();
    /** One past the highest register a result has taken so far. */
    private int highWater;

    /** The {@code regalloc} pass. */
    static void allocate(MachineFunction mf) {
        RegAlloc ra = new RegAlloc(mf, mf.allocation, true);
        ra.run();
        ra.finish(mf);
    }

    /** Allocation that may not spill (the preamble runs where there is no private memory): a CompileException if it would have to. */
    static void allocateWithoutSpilling(MachineFunction mf) {
        RegAlloc ra = new RegAlloc(mf, Allocation.DEFAULT, false);
        ra.run();
        ra.finish(mf);
    }

    private void finish(MachineFunction mf) {
        mf.allocated = out;
        mf.maxLive = maxLive;
        mf.privateBytes = privateBytes;
        mf.spills = spills;
        mf.fills = fills;
        mf.spillCost = spillCost;
        mf.mir = null;
        mf.form = dev.lathe.ir.pass.ProgramForm.ALLOCATED;
    }

    // ---- allocation ----------------------------------------------------------------------------

    /** Which values the current {@link State} holds in registers: by id, the state's serial (stale serials mean no). */
    private final int[] held;

    private int states;

    /** Where values are in one block as allocation walks it. */
    private final class State {
        final int[] owner = new int[limit];
        final Map<VReg, Integer> where = new LinkedHashMap<>();
        final int serial = ++states;

        /** Whether v is in registers (a quick {@code where.containsKey}). */
        boolean has(VReg v) {
            return held[v.id] == serial;
        }
        /** The registers the values in {@link #where} take, counted by value (a vector whose units pieces took over counts whole). */
        int units;

        State() {
            Arrays.fill(owner, -1);
        }

        void place(VReg v, int at) {
            if (where.put(v, at) == null) units += v.units;
            held[v.id] = serial;
            for (int u = 0; u < v.units; u++) owner[at + u] = v.id;
        }

        void free(VReg v) {
            Integer at = where.remove(v);
            if (at == null) return;
            held[v.id] = 0;
            units -= v.units;
            for (int u = 0; u < v.units; u++) if (owner[at + u] == v.id) owner[at + u] = -1;
        }

        int find(VReg v) {
            for (int at = 0; at + v.units <= limit; at += v.align) {
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
    }

    void run() {
        Liveness live = Liveness.of(fn, mir);
        liveness = live;
        liveIn = live.liveIn;
        liveOut = live.liveOut;
        byId = live.byId;
        nextUse = NextUse.of(fn, mir, defInstr.length);
        for (Block b : MachineFunction.blocks(fn, mir)) {
            double w = weight(b);
            for (MirInstr m : mir.get(b)) {
                if (m.def != null) {
                    defInstr[m.def.id] = m;
                    remat[m.def.id] = rematerializable(m, m.def);
                    staticCost[m.def.id] += w;
                }
                if (m.kind == MirInstr.Kind.PHI) {
                    m.phiSrcs.forEach((p, s) -> staticCost[s.id] += weight(p));
                } else {
                    for (VReg s : m.srcs) if (s != null) staticCost[s.id] += w;
                }
            }
        }
        for (Block b : MachineFunction.blocks(fn, mir)) allocate(b);
        applyInserts();
    }

    private double weight(Block b) {
        return weights.computeIfAbsent(b, x -> Nesting.of(x).spillWeight());
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
        beginBlock(b, mir);
        int k = 0;
        List<VReg> phis = new ArrayList<>();
        for (; k < mir.size() && mir.get(k).kind == MirInstr.Kind.PHI; k++) phis.add(mir.get(k).def);
        // what comes in is in registers or in memory (a value that is neither fails where it is reloaded)
        int liveTotal = liveness.units(in);
        for (VReg p : phis) liveTotal += p.units;
        maxLive = Math.max(maxLive, liveTotal);
        List<VReg> inMemory = entrySet(b, st, phis, k);
        memoryPhis.put(b, inMemory);
        for (VReg v : phis) {
            if (inMemory.contains(v)) continue;
            int at = preferred(st, v, List.of());
            if (at < 0) at = st.find(v);
            if (at < 0) {
                // only this block's entry layout changes: every incoming edge copies into it
                repack(st, null, List.of());
                at = st.find(v);
                if (at < 0)
                    throw new IllegalStateException(
                            "internal error: no room for phi " + v + " at the start of " + b.label());
            }
            st.place(v, at);
            settle(v, at);
        }
        // where the phis are once all are placed (placing a later one may have packed the earlier ones)
        for (VReg v : phis) if (st.has(v)) defSite[v.id] = new DefSite(b, 0, st.where.get(v));
        takeInLoopValues(b, st, in);
        entryMaps.put(b, new LinkedHashMap<>(st.where));
        for (Block p : b.predecessors()) {
            if (exitMaps.containsKey(p)) edgeCopies(p, b);
        }
        // instructions
        splitOnly = splitOnly(b, mir);
        for (int i = k; i < mir.size(); i++) liveTotal = instruction(b, st, mir.get(i), i, code, liveTotal);
        Map<VReg, Integer> exit = new LinkedHashMap<>();
        BitSet o = liveOut.get(b);
        st.where.forEach((v, at) -> {
            if (o.get(v.id)) exit.put(v, at);
        });
        exitMaps.put(b, exit);
        for (Block s : b.successors()) {
            if (entryMaps.containsKey(s)) edgeCopies(b, s);
        }
    }

    /**
     * Which phis start {@code b} in memory (returned), the values coming in in registers and the
     * phis together having to fit: the farthest read leaves first (or the cheapest, by the choice).
     */
    private List<VReg> entrySet(Block b, State st, List<VReg> phis, int start) {
        List<VReg> inMemory = new ArrayList<>();
        int total = st.units;
        for (VReg p : phis) total += p.units;
        while (total > limit) {
            VReg victim = null;
            for (VReg v : st.where.keySet()) victim = better(victim, v, start);
            for (VReg p : phis) if (!inMemory.contains(p)) victim = better(victim, p, start);
            if (victim == null) throw budget(b, "its phis");
            total -= victim.units;
            if (phis.contains(victim)) {
                if (!maySpill) throw budget(b, "its phis");
                inMemory.add(victim);
                giveSlot(victim);
                stored[victim.id] = true; // every edge into b stores it
                spills++;
            } else {
                if (!maySpill) throw budget(b, "its phis");
                evict(st, victim);
            }
        }
        return inMemory;
    }

    /**
     * At a loop header, the values coming in in memory that the loop reads, in the order it first
     * reads them, take the registers left free: the edge from before the loop reloads them once,
     * instead of the body on every iteration. The loop's code is scanned only while registers are
     * free, so a program pays for this at most its size times its loop depth.
     */
    private void takeInLoopValues(Block b, State st, BitSet in) {
        if (!(b.parent() != null
                && b.parent().owner() instanceof LoopNode loop
                && loop.body().firstBlock() == b)) return;
        List<Block> all = fn.blocks();
        int last = loop.body().lastBlock().index();
        for (int k = b.index(); k <= last && st.units < limit; k++) {
            List<MirInstr> code = mir.get(all.get(k));
            if (code == null) continue;
            for (MirInstr m : code) {
                if (st.units >= limit) return;
                VReg[] reads = m.kind == MirInstr.Kind.PHI ? m.phiSrcs.values().toArray(new VReg[0]) : m.srcs;
                for (VReg v : reads) {
                    if (v == null || !in.get(v.id) || st.has(v) || st.units + v.units > limit) continue;
                    int at = st.find(v);
                    if (at >= 0) st.place(v, at);
                }
            }
        }
    }

    /** Sets up the next and last reads of the values {@code b} reads, by a backward walk of its code. */
    private void beginBlock(Block b, List<MirInstr> code) {
        serial++;
        currentBlock = b;
        blockLength = code.size();
        blockOut = liveOut.get(b);
        nextAfter = new int[code.size()][];
        for (int i = code.size() - 1; i >= 0; i--) {
            MirInstr m = code.get(i);
            if (m.kind == MirInstr.Kind.PHI) continue;
            int[] na = new int[m.srcs.length];
            for (int s = 0; s < m.srcs.length; s++) {
                VReg v = m.srcs[s];
                na[s] = v == null || stamp[v.id] != serial ? -1 : nextRead[v.id];
            }
            nextAfter[i] = na;
            for (VReg v : m.srcs) {
                if (v == null) continue;
                if (stamp[v.id] != serial) {
                    stamp[v.id] = serial;
                    lastRead[v.id] = i;
                }
                nextRead[v.id] = i;
            }
        }
    }

    /** The index of v's last read in the block, {@link Integer#MAX_VALUE} when it is live out, -1 when the block never reads it. */
    private int lastUse(VReg v) {
        if (blockOut.get(v.id)) return Integer.MAX_VALUE;
        return stamp[v.id] == serial ? lastRead[v.id] : -1;
    }

    /** Instructions from index {@code i} of the block to v's next read (on the nearest path), or {@link NextUse#FAR}. */
    private int distance(VReg v, int i) {
        if (stamp[v.id] == serial && nextRead[v.id] >= i) return nextRead[v.id] - i;
        if (!blockOut.get(v.id)) return NextUse.FAR;
        return (int) Math.min(NextUse.FAR, (long) blockLength - i + nextUse.fromEnd(currentBlock, v.id));
    }

    private Block currentBlock;

    /** Of two candidates to leave the registers at index i, the one the spill choice prefers (a null one loses). */
    private VReg better(VReg a, VReg b, int i) {
        if (a == null) return b;
        if (choice == Allocation.SpillChoice.COST && staticCost[a.id] != staticCost[b.id]) {
            return staticCost[b.id] < staticCost[a.id] ? b : a;
        }
        return distance(b, i) > distance(a, i) ? b : a;
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

    /** Allocates one instruction; returns the units live after it (in registers or in memory). */
    private int instruction(Block b, State st, MirInstr m, int index, List<MInstr> code, int liveTotal) {
        List<VReg> srcs = new ArrayList<>();
        for (VReg s : m.srcs) if (s != null && !srcs.contains(s)) srcs.add(s);
        List<VReg> reloaded = new ArrayList<>();
        for (VReg s : srcs) {
            if (st.has(s)) continue;
            int at = room(b, st, s, srcs, List.of(), code, index);
            reload(b, s, at, code);
            st.place(s, at);
            reloaded.add(s);
        }
        List<VReg> dying = new ArrayList<>();
        int dyingUnits = 0;
        for (VReg s : srcs) {
            if (lastUse(s) == index) {
                dying.add(s);
                dyingUnits += s.units;
            } else if (!reloadElision && reloaded.contains(s)) {
                dying.add(s); // leaves its register after this instruction: the next read reloads it
            }
        }
        VReg d = m.def;
        int after = liveTotal - dyingUnits + (d == null ? 0 : d.units);
        maxLive = Math.max(maxLive, Math.max(liveTotal, after));
        Integer at = null;
        if (d != null) {
            at = coalesce(st, m, dying);
            if (at == null) {
                int f = preferred(st, d, dying);
                if (f < 0) f = grouped(st, m, dying);
                if (f < 0) f = room(b, st, d, srcs, dying, code, index);
                at = f;
            }
        }
        emit(st, m, d, at, code);
        for (VReg v : dying) st.free(v);
        if (d != null) {
            st.place(d, at);
            settle(d, at);
            defSite[d.id] = new DefSite(b, code.size(), at);
            if (m.group != 0) groupNext.put(m.group, at + d.units);
            highWater = Math.max(highWater, at + d.units);
            if (lastUse(d) < 0) {
                st.free(d); // never read: its registers are free again at once
                after -= d.units;
            }
        }
        int[] na = nextAfter[index];
        for (int s = 0; s < m.srcs.length; s++) if (m.srcs[s] != null) nextRead[m.srcs[s].id] = na[s];
        return after;
    }

    /**
     * A place for v (the registers of {@code dying} counting as free): a free one; else, when the
     * values fit but not in a row, the file packed; else values other than {@code pinned} leave
     * the registers until it fits.
     */
    private int room(Block b, State st, VReg v, List<VReg> pinned, List<VReg> dying, List<MInstr> code, int index) {
        for (; ; ) {
            int f = st.findIgnoring(v, dying);
            if (f >= 0) return f;
            int dyingUnits = 0;
            for (VReg x : dying) dyingUnits += x.units;
            if (st.units - dyingUnits + v.units <= limit) {
                // enough registers, not in a row: pack the live values, the dying ones last, and
                // put the result over the dying ones (the instruction reads them before it writes)
                repack(st, code, dying);
                f = st.findIgnoring(v, dying);
                if (f >= 0) return f;
            }
            VReg victim = null;
            for (VReg x : st.where.keySet()) if (!pinned.contains(x)) victim = better(victim, x, index);
            if (victim == null || !maySpill) throw budget(b, mir.get(b).get(index));
            evict(st, victim);
        }
    }

    private CompileException budget(Block b, String what) {
        if (!maySpill)
            return new CompileException(
                    "register pressure in code that cannot spill, at " + what + " in block b" + b.index());
        return new CompileException("register budget too small: " + what + " in block b" + b.index()
                + " needs more than the " + limit + " registers allowed (r0.x to r" + (limit / 4 - 1) + ".w) at once");
    }

    /** The budget cannot hold one instruction's sources and result at once: says how many it needs. */
    private CompileException budget(Block b, MirInstr m) {
        List<VReg> regs = new ArrayList<>();
        for (VReg s : m.srcs) if (s != null && !regs.contains(s)) regs.add(s);
        int need = m.def == null ? 0 : m.def.units;
        for (VReg s : regs) need += s.units;
        String what = MachineFunction.virtual(m);
        if (!maySpill) return budget(b, what);
        return new CompileException(
                "register budget too small: " + what + " in block b" + b.index() + " reads and writes " + need
                        + " registers at once, more than the " + limit + " allowed (r0.x to r" + (limit / 4 - 1)
                        + ".w): it needs --max-regs "
                        + (need + 3) / 4 + " or more");
    }

    // ---- spill code ----------------------------------------------------------------------------

    /** Whether v's definition is a mov of an immediate or a constant: made again rather than stored. */
    private static boolean rematerializable(MirInstr d, VReg v) {
        if (d == null || d.kind != MirInstr.Kind.OP || d.proto.op() != MOp.MOV || v.units != 1 || d.proto.rpt() != 0)
            return false;
        for (VReg s : d.srcs) if (s != null) return false;
        Operand.Kind k = d.proto.src(0).kind();
        return k == Operand.Kind.IMM || k == Operand.Kind.CONST;
    }

    /** Whether v, when not in a register, can be brought back: rematerialized, or its slot holds it. */
    private boolean inMemory(VReg v) {
        return stored[v.id] || remat[v.id];
    }

    private void giveSlot(VReg v) {
        if (slot[v.id] >= 0) return;
        slot[v.id] = privateBytes;
        privateBytes += 4 * v.units;
    }

    /** v leaves the registers: stored right after its definition first, unless it is made again. */
    private void evict(State st, VReg v) {
        if (!remat[v.id] && !stored[v.id]) {
            DefSite ds = defSite[v.id];
            if (ds == null)
                throw new IllegalStateException("internal error: " + v + " leaves the registers before its definition");
            giveSlot(v);
            inserts.computeIfAbsent(ds.block(), x -> new ArrayList<>())
                    .add(new Insert(ds.position(), stores(slot[v.id], ds.reg(), v.units)));
            stored[v.id] = true;
            spills++;
            spillCost += weight(ds.block());
        }
        st.free(v);
    }

    /** Brings v into registers {@code at}... (in block b's code). */
    private void reload(Block b, VReg v, int at, List<MInstr> code) {
        fills++;
        if (remat[v.id]) {
            code.add(defInstr[v.id].proto.withDst(Operand.reg(at)));
            return;
        }
        if (!stored[v.id])
            throw new IllegalStateException("internal error: " + v + " is reloaded but was never stored");
        code.addAll(loads(slot[v.id], at, v.units));
        spillCost += weight(b);
    }

    /** {@code stp}s of units registers from {@code reg} into private memory at byte {@code offset}, four a piece. */
    private static List<MInstr> stores(int offset, int reg, int units) {
        List<MInstr> out = new ArrayList<>();
        for (int u = 0; u < units; u += 4) {
            int n = Math.min(4, units - u);
            out.add(MInstr.memory(
                    MOp.STP, MType.U32, n, Operand.NONE, Operand.NONE, Operand.reg(reg + u), 0, offset + 4 * u));
        }
        return out;
    }

    private static List<MInstr> loads(int offset, int reg, int units) {
        List<MInstr> out = new ArrayList<>();
        for (int u = 0; u < units; u += 4) {
            int n = Math.min(4, units - u);
            out.add(MInstr.memory(
                    MOp.LDP, MType.U32, n, Operand.reg(reg + u), Operand.NONE, Operand.NONE, 0, offset + 4 * u));
        }
        return out;
    }

    /** Puts the spill stores after their definitions. */
    private void applyInserts() {
        inserts.forEach((b, list) -> {
            list.sort((x, y) ->
                    Integer.compare(x.position(), y.position())); // stable: stores of one place keep their order
            List<MInstr> code = out.get(b), merged = new ArrayList<>(code.size() + list.size());
            int next = 0;
            for (int i = 0; i <= code.size(); i++) {
                while (next < list.size() && list.get(next).position() == i)
                    merged.addAll(list.get(next++).code());
                if (i < code.size()) merged.add(code.get(i));
            }
            out.put(b, merged);
        });
    }

    // ---- placement -----------------------------------------------------------------------------

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
        for (int b = 0; b + span <= limit; b++) {
            if ((b + h.offset()) % v.align == 0 && free(st, b, span, dying)) return b + h.offset();
        }
        return -1;
    }

    /**
     * A repeat group's preference (ir3's merge sets, the ir3 rptN merge request of 2024, docs/BACKGROUND.md), after the coalescing hints,
     * which save copies, where a group saves only code size: a member goes right after the one
     * before it; the first member where the whole group fits in a row. -1 when that is not free
     * (the group then does not merge, which costs nothing else).
     */
    private int grouped(State st, MirInstr m, List<VReg> dying) {
        if (m.group == 0) return -1;
        VReg d = m.def;
        Integer next = groupNext.get(m.group);
        if (next != null) return next % d.align == 0 && free(st, next, d.units, dying) ? next : -1;
        int span = groupSize.getOrDefault(m.group, 1) * d.units;
        // within the vec4 registers used so far: a group is not worth a register more ("full")
        int within = Math.min(limit, Math.max(4, (highWater + 3) / 4 * 4));
        for (int b = 0; b + span <= within; b += d.align) if (free(st, b, span, dying)) return b;
        return -1;
    }

    private boolean free(State st, int at, int units, List<VReg> dying) {
        if (at + units > limit) return false;
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
            default -> {}
        }
        return null;
    }

    private static boolean distinct(VReg[] vs) {
        for (int i = 0; i < vs.length; i++) for (int j = i + 1; j < vs.length; j++) if (vs[i] == vs[j]) return false;
        return true;
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
        if (code != null) parallelCopy(moves, code, live(st), limit);
    }

    private void emit(State st, MirInstr m, VReg d, Integer at, List<MInstr> code) {
        switch (m.kind) {
            case COPY, SPLIT -> {
                int from = st.where.get(m.srcs[0]) + m.srcUnits[0] * (m.kind == MirInstr.Kind.SPLIT ? d.units : 0);
                List<int[]> moves = new ArrayList<>();
                for (int u = 0; u < d.units; u++) moves.add(new int[] {from + u, at + u});
                parallelCopy(moves, code, live(st), limit);
            }
            case COLLECT -> {
                List<int[]> moves = new ArrayList<>();
                int off = 0;
                for (VReg s : m.srcs) {
                    int from = st.where.get(s);
                    for (int u = 0; u < s.units; u++) moves.add(new int[] {from + u, at + off + u});
                    off += s.units;
                }
                parallelCopy(moves, code, live(st), limit);
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
                    srcs.set(
                            s,
                            new Operand(Operand.Kind.REG, st.where.get(v) + m.srcUnits[s], o.neg(), o.abs(), o.rep()));
                }
                code.add(p.withOperands(dst, srcs));
            }
            default -> throw new IllegalStateException("internal error: unexpected " + m);
        }
    }

    // ---- edges ---------------------------------------------------------------------------------

    /**
     * The coupling code on the edge p -> s, at the end of p: stores of the values of s's
     * in-memory phis that p has in registers, the parallel copy of what s expects in registers and
     * p has in registers, reloads of what s expects in registers and p left in memory, and last
     * the in-memory phis whose value p has in memory too (through a register s leaves free). An
     * in-memory phi whose old value this edge still reads (another phi's source, as in
     * {@code a, b = b, a + b}) gets its new value in a staging slot first, copied into its own
     * slot once every read is done.
     */
    private void edgeCopies(Block p, Block s) {
        Map<VReg, Integer> from = exitMaps.get(p), to = entryMaps.get(s);
        Map<VReg, VReg> phiSrc = new HashMap<>();
        for (MirInstr m : mir.get(s)) {
            if (m.kind != MirInstr.Kind.PHI) break;
            phiSrc.put(m.def, m.phiSrcs.get(p));
        }
        List<MInstr> copies = new ArrayList<>();
        double w = weight(p);
        List<VReg> memPhis = memoryPhis.get(s), fromMemory = new ArrayList<>(), staged = new ArrayList<>();
        for (VReg phi : memPhis) if (!from.containsKey(phi) && phiSrc.containsValue(phi)) staged.add(phi);
        for (VReg phi : memPhis) {
            VReg src = phiSrc.get(phi);
            Integer at = from.get(src);
            if (at == null) {
                fromMemory.add(phi);
                continue;
            }
            copies.addAll(stores(target(phi, staged), at, phi.units));
            spillCost += w;
        }
        List<int[]> moves = new ArrayList<>();
        List<VReg[]> reloads = new ArrayList<>();
        for (var e : to.entrySet()) {
            VReg v = e.getKey();
            VReg src = phiSrc.getOrDefault(v, v);
            if (src == null)
                throw new IllegalStateException("internal error: phi " + v + " has no source for " + p.label());
            Integer at = from.get(src);
            if (at == null) {
                if (!inMemory(src)) {
                    throw new IllegalStateException(
                            "internal error: " + src + " (for " + v + ") is nowhere at the end of " + p.label());
                }
                reloads.add(new VReg[] {src, v});
                continue;
            }
            for (int u = 0; u < v.units; u++) moves.add(new int[] {at + u, e.getValue() + u});
        }
        // on the edge only what s expects is live (values staying in place too): any other register may serve as a
        // scratch
        BitSet live = new BitSet(limit);
        to.forEach((v, at) -> live.set(at, at + v.units));
        BitSet moved = new BitSet(limit);
        for (int[] m : moves) moved.set(m[1]);
        parallelCopy(moves, copies, moved, limit);
        for (VReg[] r : reloads) reload(p, r[0], to.get(r[1]), copies);
        if (!fromMemory.isEmpty() || !staged.isEmpty()) {
            int scratch = borrow(p, live, copies);
            for (VReg phi : fromMemory) memoryToMemory(p, phiSrc.get(phi), target(phi, staged), scratch, copies);
            for (VReg phi : staged) copySlot(p, staging[phi.id], slot[phi.id], phi.units, scratch, copies);
            giveBack(p, scratch, live, copies);
        }
        if (copies.isEmpty()) return;
        if (p.successors().size() != 1) {
            throw new IllegalStateException("internal error: copies needed on an edge out of " + p.label()
                    + ", which has " + p.successors().size() + " successors");
        }
        out.get(p).addAll(copies);
    }

    /** Where an edge writes in-memory phi's new value: its slot, or its staging slot when the edge still reads the old one. */
    private int target(VReg phi, List<VReg> staged) {
        if (!staged.contains(phi)) return slot[phi.id];
        if (staging[phi.id] < 0) {
            staging[phi.id] = privateBytes;
            privateBytes += 4 * phi.units;
        }
        return staging[phi.id];
    }

    /** Copies src (in memory, or made again) into private memory at {@code offset}, through register {@code scratch}. */
    private void memoryToMemory(Block p, VReg src, int offset, int scratch, List<MInstr> code) {
        fills++;
        if (remat[src.id]) {
            code.add(defInstr[src.id].proto.withDst(Operand.reg(scratch)));
            code.addAll(stores(offset, scratch, 1));
            spillCost += weight(p);
            return;
        }
        copySlot(p, slot[src.id], offset, src.units, scratch, code);
    }

    /** Copies {@code units} words of private memory, a register at a time, through register {@code scratch}. */
    private void copySlot(Block p, int fromOffset, int toOffset, int units, int scratch, List<MInstr> code) {
        for (int u = 0; u < units; u++) {
            code.addAll(loads(fromOffset + 4 * u, scratch, 1));
            code.addAll(stores(toOffset + 4 * u, scratch, 1));
            spillCost += 2 * weight(p);
        }
    }

    /** A register not in {@code live}; when every one is taken, r0.x saved in a word of its own. */
    private int borrow(Block p, BitSet live, List<MInstr> code) {
        int scratch = live.nextClearBit(0);
        if (scratch < limit) return scratch;
        if (emergencySlot < 0) {
            emergencySlot = privateBytes;
            privateBytes += 4;
        }
        code.addAll(stores(emergencySlot, 0, 1));
        spillCost += weight(p);
        return 0;
    }

    /** Ends a {@link #borrow}: r0.x back from its word when it was taken. */
    private void giveBack(Block p, int scratch, BitSet live, List<MInstr> code) {
        if (!live.get(scratch)) return;
        code.addAll(loads(emergencySlot, scratch, 1));
        spillCost += weight(p);
    }

    /** The registers holding live values in {@code st}. */
    private BitSet live(State st) {
        BitSet b = new BitSet(limit);
        for (int r = 0; r < limit; r++) if (st.owner[r] >= 0) b.set(r);
        return b;
    }

    /**
     * Emits 32-bit moves doing {@code moves} (from, to) all at once. A move goes as soon as no
     * pending move still reads its destination; what then remains are cycles: one value is
     * parked in a register below {@code limit} that is neither {@code live} nor read or written
     * by the copy (one extra {@code mov} a cycle), and only when there is none is a swap made of
     * three {@code xor}s. A destination an earlier move of the same copy has already filled is
     * never a scratch, even when no pending move touches it any more.
     */
    static void parallelCopy(List<int[]> moves, List<MInstr> code, BitSet live, int limit) {
        List<int[]> pending = new ArrayList<>();
        BitSet busy = (BitSet) live.clone();
        for (int[] m : moves) {
            busy.set(m[0]);
            busy.set(m[1]);
            if (m[0] != m[1]) pending.add(m.clone());
        }
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
            int scratch = busy.nextClearBit(0) < limit ? busy.nextClearBit(0) : -1;
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

    private static MInstr mov(int to, int from) {
        return MInstr.mov(MType.U32, MType.U32, Operand.reg(to), Operand.reg(from));
    }

    private static MInstr xor(int to, int a, int b) {
        return MInstr.alu(MOp.XOR_B, MType.U32, Operand.reg(to), Operand.reg(a), Operand.reg(b));
    }
}
