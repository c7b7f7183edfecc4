package dev.lathe.ir.pass;

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
    @Override
    public String name() {
        return "cse";
    }

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
        DominatorTree dom = DominatorTree.compute(fn);
        Map<Key, Value> table = new HashMap<>();
        boolean progress = false;
        // Iterative preorder walk; each frame remembers the keys its block added.
        List<Block> stack = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        List<List<Key>> added = new ArrayList<>();
        stack.add(fn.entryBlock());
        next.add(0);
        added.add(null);
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            Block b = stack.get(top);
            if (added.get(top) == null) {
                List<Key> mine = new ArrayList<>();
                progress |= visit(b, table, mine);
                added.set(top, mine);
            }
            List<Block> kids = dom.children(b);
            int k = next.get(top);
            if (k < kids.size()) {
                next.set(top, k + 1);
                stack.add(kids.get(k));
                next.add(0);
                added.add(null);
            } else {
                for (Key key : added.get(top)) table.remove(key);
                stack.remove(top);
                next.remove(top);
                added.remove(top);
            }
        }
        return progress;
    }

    private static boolean visit(Block b, Map<Key, Value> table, List<Key> added) {
        boolean progress = false;
        for (Instr i : b.instrs()) {
            Key key = keyOf(i);
            if (key == null) continue;
            Value earlier = table.get(key);
            if (earlier != null) {
                i.def().replaceAllUsesWith(earlier);
                i.remove();
                progress = true;
            } else {
                table.put(key, i.def());
                added.add(key);
            }
        }
        return progress;
    }

    private static Key keyOf(Instr i) {
        if (i instanceof AluInstr alu) {
            int n = alu.numSrcs();
            long[][] srcs = new long[n][];
            for (int k = 0; k < n; k++) srcs[k] = srcKey(alu.src(k));
            if (alu.op().isCommutative() && compare(srcs[0], srcs[1]) > 0) {
                long[] t = srcs[0];
                srcs[0] = srcs[1];
                srcs[1] = t;
            }
            return new Key(alu.op(), concat(shape(alu.def(), alu.isExact() ? 1 : 0), srcs));
        }
        if (i instanceof LoadConstInstr lc) {
            return new Key(LoadConstInstr.class, concat(shape(lc.def(), 0), new long[][] {lc.values()}));
        }
        if (i instanceof IntrinsicInstr in && in.intrinsic().effect() == Intrinsic.Effect.PURE && in.def() != null) {
            long[][] srcs = new long[in.numSrcs()][];
            for (int k = 0; k < in.numSrcs(); k++) srcs[k] = srcKey(in.src(k));
            return new Key(new VarKind(in.intrinsic(), in.var()), concat(shape(in.def(), 0), srcs));
        }
        if (i instanceof PhiInstr phi) {
            List<PhiInstr.PhiSrc> ps = new ArrayList<>(phi.phiSrcs());
            ps.sort((x, y) -> Integer.compare(x.pred().index(), y.pred().index()));
            long[][] srcs = new long[ps.size()][];
            for (int k = 0; k < srcs.length; k++) {
                srcs[k] = new long[] {ps.get(k).pred().index(), ps.get(k).src().value().index()};
            }
            return new Key(new PhiBlock(phi.block()), concat(shape(phi.def(), 0), srcs));
        }
        return null;
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

    private static long[] shape(Value d, int extra) {
        return new long[] {d.numComponents(), d.bitSize(), extra};
    }

    private static long[] srcKey(Src s) {
        int n = s.numComponentsRead();
        long[] out = new long[n + 1];
        out[0] = s.value().index();
        for (int c = 0; c < n; c++) out[c + 1] = s.component(c);
        return out;
    }

    private static int compare(long[] a, long[] b) {
        return Arrays.compare(a, b);
    }

    private static long[] concat(long[] head, long[][] parts) {
        int n = head.length;
        for (long[] p : parts) n += p.length + 1;
        long[] out = new long[n];
        System.arraycopy(head, 0, out, 0, head.length);
        int at = head.length;
        for (long[] p : parts) {
            out[at++] = p.length;
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
