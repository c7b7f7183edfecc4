package dev.lathe.ir.pass;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluFlags;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.DominatorTree;
import dev.lathe.ir.analysis.range.RangeKeeper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * cse: merges instructions that compute the same value, scoped by the dominator tree.
 *
 * <p>A preorder walk of the dominator tree keeps a table from an instruction's key (what it
 * computes: op, exactness, result shape, sources with swizzles) to the first instruction with
 * that key on the current dominator path. A later instruction with the same key is dominated by
 * it, so its uses can read the earlier value; leaving a subtree pops its entries. The sources of
 * commutative ops are keyed in a canonical order, so {@code fadd a, b} and {@code fadd b, a}
 * merge. Constants, pure intrinsics (inputs, uniforms, textures, system values) and identical
 * phis of one block merge too; anything that reads memory stores can change, or has effects, is
 * never merged.
 */
final class Cse implements Pass {

    /** What an instruction computes; equal keys mean equal values at any point both dominate. */
    private static final class Key {
        final Object kind;
        final long[] data;
        final int hash;

        Key(Object kind, long[] data) {
            this.kind = kind;
            this.data = data;
            this.hash = kind.hashCode() * 31 + Arrays.hashCode(data);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && k.kind.equals(kind) && Arrays.equals(k.data, data);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Override
    public boolean run(Function fn) {
        DominatorTree dom = fn.analyses().dominators();
        RangeKeeper ranges = RangeKeeper.of(fn);
        Map<Key, Value> table = new HashMap<>();
        List<List<Key>> scopes = new ArrayList<>();
        boolean[] progress = {false};
        dom.walk(
                b -> {
                    List<Key> mine = new ArrayList<>();
                    progress[0] |= visit(b, table, mine, ranges);
                    scopes.add(mine);
                },
                b -> {
                    for (Key key : scopes.remove(scopes.size() - 1)) table.remove(key);
                });
        ranges.done();
        return progress[0];
    }

    private static boolean visit(Block b, Map<Key, Value> table, List<Key> added, RangeKeeper ranges) {
        boolean progress = false;
        for (Instr i : b.instrs()) {
            Key key = keyOf(i);
            if (key == null) continue;
            Value earlier = table.get(key);
            if (earlier != null) {
                if (i instanceof AluInstr a && earlier.parent() instanceof AluInstr e) keepBoth(e, a);
                ranges.replaceAllUses(i.def(), earlier);
                i.remove();
                progress = true;
            } else {
                table.put(key, i.def());
                added.add(key);
            }
        }
        return progress;
    }

    /**
     * The instruction kept for both allows only what both allow: exact when either is, each flag
     * only when both carry it (every flag only widens what an instruction may compute).
     */
    private static void keepBoth(AluInstr kept, AluInstr gone) {
        boolean exact = kept.isExact() || gone.isExact();
        AluFlags flags = kept.flags().intersect(gone.flags());
        if (exact) flags = flags.without(AluFlag.REASSOC);
        kept.setFlags(flags);
        kept.setExact(exact);
    }

    private static Key keyOf(Instr i) {
        if (i instanceof AluInstr alu) {
            int n = alu.numSrcs();
            KeyBuilder k = new KeyBuilder(4 + n * 6);
            k.shape(alu.def(), 0); // the exact mark and flags are merged (keepBoth), as NIR's CSE does
            int first = 0, second = 1;
            if (alu.op().isCommutative() && compare(alu.src(0), alu.src(1)) > 0) {
                first = 1;
                second = 0;
            }
            for (int s = 0; s < n; s++) k.src(alu.src(s == 0 ? first : s == 1 ? second : s));
            return new Key(alu.op(), k.done());
        }
        if (i instanceof LoadConstInstr lc) {
            KeyBuilder k = new KeyBuilder(4 + lc.def().numComponents());
            k.shape(lc.def(), 0);
            for (int c = 0; c < lc.def().numComponents(); c++) k.add(lc.value(c));
            return new Key(LoadConstInstr.class, k.done());
        }
        if (i instanceof IntrinsicInstr in && in.intrinsic().effect() == Intrinsic.Effect.PURE && in.def() != null) {
            KeyBuilder k = new KeyBuilder(4 + in.numSrcs() * 6);
            k.shape(in.def(), 0);
            for (int s = 0; s < in.numSrcs(); s++) k.src(in.src(s));
            return new Key(new VarKind(in.intrinsic(), in.var()), k.done());
        }
        if (i instanceof PhiInstr phi) {
            List<PhiInstr.PhiSrc> ps = new ArrayList<>(phi.phiSrcs());
            ps.sort((x, y) -> Integer.compare(x.pred().index(), y.pred().index()));
            KeyBuilder k = new KeyBuilder(4 + ps.size() * 2);
            k.shape(phi.def(), 0);
            for (PhiInstr.PhiSrc p : ps) {
                k.add(p.pred().index());
                k.add(p.src().value().index());
            }
            return new Key(new PhiBlock(phi.block()), k.done());
        }
        return null;
    }

    /** Appends key material to one array (no per-source allocations on this hot path). */
    private static final class KeyBuilder {
        private long[] a;
        private int n;

        KeyBuilder(int capacity) {
            a = new long[capacity];
        }

        void add(long v) {
            if (n == a.length) a = Arrays.copyOf(a, a.length * 2 + 4);
            a[n++] = v;
        }

        void shape(Value d, int extra) {
            add(d.numComponents());
            add(d.bitSize());
            add(extra);
        }

        /** A source: its value and the components it reads, with the count as a separator. */
        void src(Src s) {
            int c = s.numComponentsRead();
            add(c);
            add(s.value().index());
            for (int j = 0; j < c; j++) add(s.component(j));
        }

        long[] done() {
            return n == a.length ? a : Arrays.copyOf(a, n);
        }
    }

    /** Orders sources by value index, then swizzle (for the canonical order of commutative ops). */
    private static int compare(Src a, Src b) {
        int c = Integer.compare(a.value().index(), b.value().index());
        if (c != 0) return c;
        int n = Math.min(a.numComponentsRead(), b.numComponentsRead());
        for (int j = 0; j < n; j++) {
            c = Integer.compare(a.component(j), b.component(j));
            if (c != 0) return c;
        }
        return Integer.compare(a.numComponentsRead(), b.numComponentsRead());
    }

    /** Keys intrinsics by their identity and variable (records compare the variable by identity). */
    private record VarKind(Intrinsic intrinsic, Object var) {
        @Override
        public boolean equals(Object o) {
            return o instanceof VarKind v && v.intrinsic == intrinsic && v.var == var;
        }

        @Override
        public int hashCode() {
            return intrinsic.hashCode() * 31 + System.identityHashCode(var);
        }
    }

    /** Phis merge only within their block. */
    private record PhiBlock(Block block) {
        @Override
        public boolean equals(Object o) {
            return o instanceof PhiBlock p && p.block == block;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(block);
        }
    }
}
