package dev.lathe.ir.pass;

import dev.lathe.ir.AluFlags;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * opt_vectorize: the inverse of {@code lower_alu_to_scalar} for independent scalars — scalar
 * ALU instructions of one block doing the same op at the same size, that read, source by
 * source, components of the same value (or the same constant), become one instruction of up to
 * {@link #MAX_WIDTH} components, as NIR's {@code nir_opt_vectorize} does before ir3 selects
 * repeat groups from it (the ir3 rptN merge request of 2024, docs/BACKGROUND.md).
 *
 * <p>The criterion is NIR's: since every source of a later instruction is a value an earlier one
 * also reads (or an equal constant), the later ones cannot depend on the first, and the vector
 * instruction can stand where the first was. Each scalar's readers then read their component
 * of the vector (a {@code mov} of it for a reader that is no ALU instruction). Scalarizing first
 * and vectorizing again drops the components nothing reads and joins the scalars of horizontal
 * expansions (the products of a dot product); the backend emits each vector instruction's
 * components next to each other as one repeat group. Left scalar: reciprocals (ir3 keeps
 * {@code rcp} out of its groups), moves, vecN and the horizontal ops.
 */
final class OptVectorize implements Pass {
    /** The widest vector: a {@code (rpt3)} instruction. */
    static final int MAX_WIDTH = 4;

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        for (Block b : fn.blocks()) progress |= run(fn, b);
        return progress;
    }

    /** What instructions must share to be joined: op, size, exactness, and per source the value read (or the constant's bits). */
    private record Key(Op op, int bits, boolean exact, AluFlags flags, List<Object> sources) {}

    private static boolean run(Function fn, Block b) {
        Map<Key, List<AluInstr>> open = new LinkedHashMap<>();
        List<List<AluInstr>> groups = new ArrayList<>();
        for (Instr i : b.instrs()) {
            if (!(i instanceof AluInstr a) || !eligible(a)) continue;
            Key k = key(a);
            List<AluInstr> g = open.get(k);
            if (g == null || g.size() == MAX_WIDTH) {
                g = new ArrayList<>();
                open.put(k, g);
                groups.add(g);
            }
            g.add(a);
        }
        boolean progress = false;
        for (List<AluInstr> g : groups) {
            if (g.size() > 1) {
                join(fn, g);
                progress = true;
            }
        }
        return progress;
    }

    private static boolean eligible(AluInstr a) {
        Op op = a.op();
        if (a.def().numComponents() != 1 || op.isHorizontal() || op == Op.MOV || op == Op.FRCP || CopyProp.isVec(op))
            return false;
        // a comparison deciding an if is selected into the branch's predicate on its own
        if (a.def().isUsedByIf()) return false;
        for (int s = 0; s < a.numSrcs(); s++) {
            if (a.src(s).numComponentsRead() != 1) return false;
        }
        return true;
    }

    private static Key key(AluInstr a) {
        List<Object> sources = new ArrayList<>(a.numSrcs());
        for (int s = 0; s < a.numSrcs(); s++) {
            Src src = a.src(s);
            if (src.value().parent() instanceof LoadConstInstr k) {
                sources.add(Arrays.asList(src.value().bitSize(), k.value(src.component(0))));
            } else {
                sources.add(src.value());
            }
        }
        return new Key(a.op(), a.def().bitSize(), a.isExact(), a.flags(), sources);
    }

    /** One vector instruction where the first of {@code g} is, its readers reading their component of it. */
    private static void join(Function fn, List<AluInstr> g) {
        AluInstr first = g.get(0);
        int n = g.size();
        Value[] srcs = new Value[first.numSrcs()];
        byte[][] swz = new byte[srcs.length][];
        for (int s = 0; s < srcs.length; s++) {
            Src f = first.src(s);
            srcs[s] = f.value();
            swz[s] = new byte[n];
            boolean constant = f.value().parent() instanceof LoadConstInstr;
            // an equal constant is read from the first one's, which stands before them all
            for (int c = 0; c < n; c++)
                swz[s][c] = (byte) (constant ? f.component(0) : g.get(c).src(s).component(0));
        }
        AluInstr v = new AluInstr(fn, first.op(), n, first.def().bitSize(), srcs, swz);
        v.copyFlagsFrom(first); // the key made the group's flags the same
        v.setLoc(first.loc());
        v.insertBefore(first);
        for (int c = 0; c < n; c++) {
            AluInstr member = g.get(c);
            AluInstr scalar = null;
            for (Src use : member.def().uses()) {
                if (use.hasSwizzle()) {
                    byte[] sw = new byte[use.numComponentsRead()];
                    Arrays.fill(sw, (byte) c);
                    use.set(v.def(), sw);
                } else {
                    if (scalar == null) {
                        scalar = new AluInstr(
                                fn, Op.MOV, 1, v.def().bitSize(), new Value[] {v.def()}, new byte[][] {{(byte) c}});
                        scalar.insertAfter(v);
                    }
                    use.set(scalar.def());
                }
            }
            member.remove();
        }
    }
}
