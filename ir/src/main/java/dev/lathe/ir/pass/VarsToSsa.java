package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.analysis.DominanceFrontiers;
import dev.lathe.ir.analysis.DominatorTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * vars_to_ssa: turns local variables accessed through {@code load_var}/{@code store_var} into
 * SSA values (Cytron et al.).
 *
 * <p>Every scalar or vector local is promoted, and so is every element of a local array that is
 * only ever indexed by constants; an array indexed by a computed value stays in memory.
 * Phis go in the iterated dominance frontier of the blocks that store to a slot. A preorder
 * walk of the dominator tree then keeps the current value of each slot on a stack: a store
 * pushes its value, a load reads the top (or {@code undef} before any store), each successor's
 * new phis get the value along that edge, and leaving a block pops what it pushed. A constant
 * index past the end of the array reads zero and its stores are dropped, as the interpreter
 * defines. Phis that turn out unneeded are left to phi_simplify and dce.
 */
final class VarsToSsa implements Pass {

    /** One promoted storage location: a variable, or one element of an array. */
    private record Slot(int id, Variable var, int element, VarType type) {}

    private final Map<Variable, Slot[]> slots = new IdentityHashMap<>();
    private final List<Slot> allSlots = new ArrayList<>();

    @Override
    public boolean run(Function fn) {
        slots.clear();
        allSlots.clear();
        List<IntrinsicInstr> accesses = new ArrayList<>();
        Map<Variable, Boolean> promotable = new IdentityHashMap<>();
        for (Variable v : fn.locals()) promotable.put(v, true);
        for (Instr i : fn.instructions()) {
            if (!(i instanceof IntrinsicInstr in)) continue;
            if (in.intrinsic() != Intrinsic.LOAD_VAR && in.intrinsic() != Intrinsic.STORE_VAR) continue;
            accesses.add(in);
            if (in.var().isArray() && constantIndex(in) < 0) promotable.put(in.var(), false);
        }
        for (Variable v : fn.locals()) {
            if (!promotable.get(v)) continue;
            Slot[] s = new Slot[Math.max(1, v.arrayLength())];
            for (int e = 0; e < s.length; e++) {
                s[e] = new Slot(allSlots.size(), v, e, v.type());
                allSlots.add(s[e]);
            }
            slots.put(v, s);
        }
        if (slots.isEmpty()) return false;

        DominatorTree dom = fn.analyses().dominators();
        DominanceFrontiers df = DominanceFrontiers.compute(fn, dom);
        Map<PhiInstr, Slot> placed = placePhis(fn, accesses, dom, df);
        rename(fn, dom, placed);
        for (Variable v : slots.keySet()) fn.removeLocal(v);
        return true;
    }

    /** The constant element index of an array access (-1 when computed, or for non-arrays 0). */
    private static long constantIndex(IntrinsicInstr in) {
        if (!in.var().isArray()) return 0;
        if (in.src(0).value().parent() instanceof LoadConstInstr c) return c.value(0);
        return -1;
    }

    /** The slot an access touches, or null when a constant index is out of range. */
    private Slot slotOf(IntrinsicInstr in) {
        Slot[] s = slots.get(in.var());
        long idx = constantIndex(in);
        return idx >= 0 && idx < s.length ? s[(int) idx] : null;
    }

    private Map<PhiInstr, Slot> placePhis(
            Function fn, List<IntrinsicInstr> accesses, DominatorTree dom, DominanceFrontiers df) {
        Map<Slot, List<Block>> defBlocks = new HashMap<>();
        for (IntrinsicInstr in : accesses) {
            if (in.intrinsic() != Intrinsic.STORE_VAR || !slots.containsKey(in.var())) continue;
            Slot s = slotOf(in);
            if (s == null || !dom.isReachable(in.block())) continue;
            List<Block> l = defBlocks.computeIfAbsent(s, k -> new ArrayList<>());
            if (!l.contains(in.block())) l.add(in.block());
        }
        Map<PhiInstr, Slot> placed = new IdentityHashMap<>();
        int n = fn.blocks().size() + 1;
        for (Slot s : allSlots) {
            List<Block> work = new ArrayList<>(defBlocks.getOrDefault(s, List.of()));
            boolean[] hasPhi = new boolean[n];
            boolean[] queued = new boolean[n];
            for (Block b : work) queued[b.index()] = true;
            while (!work.isEmpty()) {
                Block b = work.remove(work.size() - 1);
                for (Block f : df.frontier(b)) {
                    if (hasPhi[f.index()] || f.isEndBlock()) continue;
                    hasPhi[f.index()] = true;
                    PhiInstr phi =
                            new PhiInstr(fn, s.type().components(), s.type().bitSize());
                    Instr at = f.firstInstr();
                    while (at instanceof PhiInstr) at = at.next();
                    if (at == null) f.append(phi);
                    else phi.insertBefore(at);
                    placed.put(phi, s);
                    if (!queued[f.index()]) {
                        queued[f.index()] = true;
                        work.add(f);
                    }
                }
            }
        }
        return placed;
    }

    private void rename(Function fn, DominatorTree dom, Map<PhiInstr, Slot> placed) {
        List<List<Value>> stacks = new ArrayList<>();
        for (int i = 0; i < allSlots.size(); i++) stacks.add(new ArrayList<>());
        Value[] undefs = new Value[allSlots.size()];
        List<List<Slot>> scopes = new ArrayList<>();
        dom.walk(
                b -> {
                    List<Slot> mine = new ArrayList<>();
                    renameBlock(fn, b, placed, stacks, undefs, mine);
                    scopes.add(mine);
                },
                b -> {
                    for (Slot s : scopes.remove(scopes.size() - 1)) {
                        List<Value> st = stacks.get(s.id());
                        st.remove(st.size() - 1);
                    }
                });
        // Unreachable code: its accesses never run; its edges into new phis carry undef.
        for (Block b : fn.blocks()) {
            if (dom.isReachable(b)) continue;
            for (Instr i : b.instrList()) {
                if (i instanceof IntrinsicInstr in && slots.containsKey(in.var())) {
                    if (in.def() != null) in.def().replaceAllUsesWith(undef(fn, undefs, slotFor(in)));
                    in.remove();
                }
            }
        }
        for (Map.Entry<PhiInstr, Slot> e : placed.entrySet()) {
            PhiInstr phi = e.getKey();
            for (Block p : phi.block().predecessors()) {
                if (phi.srcFor(p) == null) phi.addSrc(p, undef(fn, undefs, e.getValue()));
            }
        }
    }

    private Slot slotFor(IntrinsicInstr in) {
        Slot s = slotOf(in);
        return s != null ? s : slots.get(in.var())[0];
    }

    private void renameBlock(
            Function fn,
            Block b,
            Map<PhiInstr, Slot> placed,
            List<List<Value>> stacks,
            Value[] undefs,
            List<Slot> pushed) {
        for (Instr i : b.instrList()) {
            if (i instanceof PhiInstr phi) {
                Slot s = placed.get(phi);
                if (s != null) {
                    stacks.get(s.id()).add(phi.def());
                    pushed.add(s);
                }
                continue;
            }
            if (!(i instanceof IntrinsicInstr in) || !slots.containsKey(in.var())) continue;
            Slot s = slotOf(in);
            if (in.intrinsic() == Intrinsic.LOAD_VAR) {
                Value v;
                if (s == null) {
                    LoadConstInstr zero = new LoadConstInstr(
                            fn, in.def().bitSize(), new long[in.def().numComponents()]);
                    zero.insertBefore(in);
                    v = zero.def();
                } else {
                    List<Value> st = stacks.get(s.id());
                    v = st.isEmpty() ? undef(fn, undefs, s) : st.get(st.size() - 1);
                }
                in.def().replaceAllUsesWith(v);
                in.remove();
            } else {
                if (s != null) {
                    stacks.get(s.id()).add(in.src(in.numSrcs() - 1).value());
                    pushed.add(s);
                }
                in.remove();
            }
        }
        for (Block succ : b.successors()) {
            for (PhiInstr phi : succ.phis()) {
                Slot s = placed.get(phi);
                if (s == null) continue;
                List<Value> st = stacks.get(s.id());
                phi.addSrc(b, st.isEmpty() ? undef(fn, undefs, s) : st.get(st.size() - 1));
            }
        }
    }

    private static Value undef(Function fn, Value[] undefs, Slot s) {
        if (undefs[s.id()] == null) {
            UndefInstr u = new UndefInstr(fn, s.type().components(), s.type().bitSize());
            fn.entryBlock().prepend(u);
            undefs[s.id()] = u.def();
        }
        return undefs[s.id()];
    }
}
