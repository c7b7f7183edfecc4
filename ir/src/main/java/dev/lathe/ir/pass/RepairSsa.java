package dev.lathe.ir.pass;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.analysis.DominatorTree;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * repair_ssa: makes every definition dominate its uses again, for frontends whose structured
 * translation adds control-flow paths that never run. SPIR-V only promises that a definition
 * dominates its uses in <em>its</em> control-flow graph; turning a loop's continue construct or a
 * branch out of a selection into structured IR adds edges (a flagged break that leaves an inner
 * loop, then the flag test) along which a value seems to arrive undefined. Mesa runs
 * {@code nir_repair_ssa} after {@code spirv_to_nir} for the same reason.
 *
 * <p>The repair goes through memory and lets {@code vars_to_ssa} build the phis: a definition
 * with a use it does not reach (the validator's rule: a phi source must be available at the end
 * of its predecessor, an if's condition at the end of the block before the if, any other source
 * at its instruction; in unreachable code, the definition must come first in program order) is
 * stored to a new local right after it, and each such use loads that local just before it. On
 * the paths the added edges open, the load reads {@code undef}: paths the source program never
 * takes. Uses the definition does reach keep reading it directly.
 *
 * <p>Not in the pass registry: on valid IR it does nothing, and the validator does not let
 * invalid IR into a pipeline; frontends call it on what they build.
 */
public final class RepairSsa implements Pass {

    /** Where a source is read: an instruction's own position, the end of a phi's predecessor, or before an if. */
    private record UsePoint(Block block, int position) {}

    @Override
    public boolean run(Function fn) {
        fn.ensureCfg();
        DominatorTree dom = fn.analyses().dominators();
        Map<Instr, Integer> position = new IdentityHashMap<>();
        for (Block b : fn.blocks()) {
            int k = 0;
            for (Instr i : b.instrs()) position.put(i, k++);
        }
        // uses the definition does not reach, grouped by value in program order (for stable names)
        Map<Value, List<Src>> broken = new LinkedHashMap<>();
        Map<Src, UsePoint> where = new IdentityHashMap<>();
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (i instanceof PhiInstr phi) {
                    for (PhiInstr.PhiSrc ps : phi.phiSrcs()) {
                        check(ps.src(), new UsePoint(ps.pred(), Integer.MAX_VALUE), dom, position, broken, where);
                    }
                } else {
                    for (Src s : i.srcs()) check(s, new UsePoint(b, position.get(i)), dom, position, broken, where);
                }
            }
        }
        for (IfNode in : ifNodes(fn)) {
            Block before = (Block) in.prev();
            check(in.condition(), new UsePoint(before, Integer.MAX_VALUE), dom, position, broken, where);
        }
        if (broken.isEmpty()) return false;
        IrBuilder b = new IrBuilder(fn);
        for (Map.Entry<Value, List<Src>> e : broken.entrySet()) {
            Value v = e.getKey();
            Variable slot = fn.addLocal(Variable.local(freshName(fn), typeOf(v), 0));
            Instr def = v.parent();
            if (def instanceof PhiInstr) {
                Instr firstNonPhi = firstAfterPhis(def.block());
                if (firstNonPhi == null) b.atEnd(def.block());
                else b.before(firstNonPhi);
            } else {
                b.after(def);
            }
            b.storeVar(slot, v);
            for (Src s : e.getValue()) {
                UsePoint p = where.get(s);
                if (p.position() == Integer.MAX_VALUE) b.atEnd(p.block());
                else b.before(s.owner() instanceof Instr user ? user : null);
                s.set(b.loadVar(slot));
            }
        }
        return true;
    }

    private static void check(
            Src s,
            UsePoint at,
            DominatorTree dom,
            Map<Instr, Integer> position,
            Map<Value, List<Src>> broken,
            Map<Src, UsePoint> where) {
        Value v = s.value();
        Block defBlock = v.parent().block();
        boolean ok;
        if (defBlock == at.block()) {
            ok = position.get(v.parent()) < at.position();
        } else if (dom.isReachable(at.block())) {
            ok = dom.dominates(defBlock, at.block());
        } else {
            ok = defBlock.index() < at.block().index();
        }
        if (ok) return;
        broken.computeIfAbsent(v, k -> new ArrayList<>()).add(s);
        where.put(s, at);
    }

    private static Instr firstAfterPhis(Block b) {
        for (Instr i : b.instrs()) if (!(i instanceof PhiInstr)) return i;
        return null;
    }

    private static List<IfNode> ifNodes(Function fn) {
        List<IfNode> out = new ArrayList<>();
        List<CfList> work = new ArrayList<>();
        work.add(fn.body());
        while (!work.isEmpty()) {
            for (CfNode n : work.remove(work.size() - 1)) {
                if (n instanceof IfNode in) {
                    out.add(in);
                    work.add(in.thenList());
                    work.add(in.elseList());
                } else if (n instanceof LoopNode l) {
                    work.add(l.body());
                }
            }
        }
        return out;
    }

    /** A local's type that holds the value's bits: booleans as b1, everything else as unsigned integers. */
    private static VarType typeOf(Value v) {
        if (v.bitSize() == 1) return new VarType(BaseType.BOOL, 1, v.numComponents());
        return new VarType(BaseType.UINT, v.bitSize(), v.numComponents());
    }

    private static String freshName(Function fn) {
        for (int k = 0; ; k++) {
            String n = "ssa_repair" + k;
            if (fn.local(n) == null && fn.shader().variable(n) == null) return n;
        }
    }
}
