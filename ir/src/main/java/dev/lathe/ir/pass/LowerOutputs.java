package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * lower_outputs: every output written once, at the end (Mesa's
 * {@code nir_lower_io_to_temporaries} for outputs). Each output gets a local variable, zero at
 * the start as an output that is never written; every {@code store_output} becomes a store to
 * it; and at each way out of the function — before each {@code return}, and at the end of the
 * body — the local's value is stored to the output. {@code vars_to_ssa} then turns the locals
 * into values, so a target that keeps outputs in registers until the shader ends (as ir3 does)
 * finds each output's final value, one per exit, right before the exit.
 *
 * <p>The function is left alone when it is already in that form: every output stored once in
 * each exit block and nowhere else, and in a geometry shader, whose outputs each
 * {@code emit_vertex} reads.
 */
final class LowerOutputs implements Pass {

    @Override
    public boolean run(Function fn) {
        List<Variable> outputs = fn.shader().variables(Variable.Kind.OUTPUT);
        // a geometry shader's outputs are read at every emit_vertex, not at the end: its stores stay
        if (outputs.isEmpty() || fn.shader().stage() == dev.lathe.ir.Stage.GEOMETRY) return false;
        List<Block> exits = exits(fn);
        if (lowered(fn, exits, outputs)) return false;
        Map<Variable, Variable> temps = new LinkedHashMap<>();
        for (Variable o : outputs) {
            String name = o.name() + ".out";
            while (fn.local(name) != null) name += "_";
            temps.put(o, fn.addLocal(Variable.local(name, o.type(), 0)));
        }
        // every store to an output becomes a store to its local
        for (Instr i : fn.instructions()) {
            if (i instanceof IntrinsicInstr x && x.intrinsic() == Intrinsic.STORE_OUTPUT) {
                IntrinsicInstr s = new IntrinsicInstr(
                        fn, Intrinsic.STORE_VAR, temps.get(x.var()), x.src(0).value());
                s.setLoc(x.loc());
                s.insertBefore(x);
                x.remove();
            }
        }
        // zero at the start, as an output nothing writes
        Block entry = fn.entryBlock();
        List<Instr> init = new ArrayList<>();
        for (Variable o : outputs) {
            LoadConstInstr zero =
                    new LoadConstInstr(fn, o.type().bitSize(), new long[o.type().components()]);
            init.add(zero);
            init.add(new IntrinsicInstr(fn, Intrinsic.STORE_VAR, temps.get(o), zero.def()));
        }
        for (int k = init.size() - 1; k >= 0; k--) entry.insertAfterPhis(init.get(k));
        // the final value of each output at each way out
        for (Block exit : exits) {
            for (Variable o : outputs) {
                IntrinsicInstr load = new IntrinsicInstr(
                        fn,
                        Intrinsic.LOAD_VAR,
                        temps.get(o),
                        o.type().components(),
                        o.type().bitSize());
                exit.insertBeforeJump(load);
                exit.insertBeforeJump(new IntrinsicInstr(fn, Intrinsic.STORE_OUTPUT, o, load.def()));
            }
        }
        return true;
    }

    /** The blocks control leaves the function from: those ending with {@code return}, and the body's last block when it falls off the end. */
    static List<Block> exits(Function fn) {
        List<Block> out = new ArrayList<>();
        for (Block b : fn.blocks()) {
            JumpInstr j = b.jump();
            if (j != null && j.kind() == JumpInstr.Kind.RETURN) out.add(b);
        }
        CfNode last = fn.body().last();
        if (last instanceof Block b && b.jump() == null) out.add(b);
        return out;
    }

    /** Whether every output is stored exactly once in each exit block and nowhere else. */
    private static boolean lowered(Function fn, List<Block> exits, List<Variable> outputs) {
        Set<Block> exitSet = new HashSet<>(exits);
        Map<Block, Set<Variable>> stored = new HashMap<>();
        for (Instr i : fn.instructions()) {
            if (!(i instanceof IntrinsicInstr x) || x.intrinsic() != Intrinsic.STORE_OUTPUT) continue;
            if (!exitSet.contains(i.block())
                    || !stored.computeIfAbsent(i.block(), b -> new HashSet<>()).add(x.var())) return false;
        }
        for (Block b : exits) {
            if (stored.getOrDefault(b, Set.of()).size() != outputs.size()) return false;
        }
        return true;
    }
}
