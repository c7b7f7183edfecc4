package dev.lathe.ir.pass;

import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * opt_large_constants: a local array that only ever holds constants becomes constant data the
 * shader carries ({@code constant} variables, read with {@code load_constant}), as NIR's
 * {@code nir_opt_large_constants} moves such arrays into the shader's constant data. The target
 * keeps them in its constant file and reads them through the address register, where the array
 * in local memory costs a store per element on every invocation before the first read
 * ({@code const float bayer[16] = …; bayer[i]}).
 *
 * <p>An array qualifies when every access is a {@code load_var} or {@code store_var}, every
 * store sits in the function's entry block (it runs once, before anything else, on every path)
 * and stores a constant at a constant index in range, and no load in the entry block comes
 * before the last store. Every load then sees the same data: the last constant stored to each
 * element, zero for an element never stored (reading it before a store is undefined, as
 * {@code vars_to_ssa} reads it, so zero is one of its values). Only arrays of 32-bit elements
 * move: what the constant file holds. Arrays indexed only by constants never get here
 * ({@code vars_to_ssa} makes values of them); this runs after the optimization loop, so
 * loops that index an array have been unrolled first where they could be (NIR runs it late for
 * the same reason), and the loads whose index became a constant read the data directly.
 *
 * <p>Each load at a constant index of a {@code constant} variable is replaced by a
 * {@code load_const} of the element (or zero out of range), so a load left by an earlier run
 * folds too.
 */
final class OptLargeConstants implements Pass {

    @Override
    public boolean run(Function fn) {
        // in the locals' order, so that the constant data is declared (and named) the same way every run
        Map<Variable, List<IntrinsicInstr>> accesses = new LinkedHashMap<>();
        List<IntrinsicInstr> constantLoads = new ArrayList<>();
        for (Variable v : fn.locals()) if (v.isArray() && v.type().bitSize() == 32) accesses.put(v, new ArrayList<>());
        for (Instr i : fn.instructions()) {
            if (!(i instanceof IntrinsicInstr in) || in.var() == null) continue;
            if (in.intrinsic() == Intrinsic.LOAD_CONSTANT && index(in) != null) constantLoads.add(in);
            List<IntrinsicInstr> list = accesses.get(in.var());
            if (list != null) list.add(in);
        }
        boolean progress = false;
        for (var e : accesses.entrySet()) {
            long[] data = data(fn, e.getKey(), e.getValue());
            if (data == null) continue;
            Variable c = fn.shader()
                    .addVariable(Variable.constant(
                            freeName(fn.shader(), e.getKey().name()),
                            e.getKey().type(),
                            e.getKey().arrayLength(),
                            data));
            for (IntrinsicInstr in : e.getValue()) {
                if (in.intrinsic() == Intrinsic.STORE_VAR) {
                    in.remove();
                    continue;
                }
                IntrinsicInstr load = new IntrinsicInstr(
                        fn,
                        Intrinsic.LOAD_CONSTANT,
                        c,
                        in.def().numComponents(),
                        in.def().bitSize(),
                        in.src(0).value());
                load.setLoc(in.loc());
                load.insertBefore(in);
                in.def().replaceAllUsesWith(load.def());
                in.remove();
                if (index(load) != null) constantLoads.add(load);
            }
            fn.removeLocal(e.getKey());
            progress = true;
        }
        for (IntrinsicInstr in : constantLoads) {
            LoadConstInstr k =
                    new LoadConstInstr(fn, in.def().bitSize(), in.var().constantElement(index(in)));
            k.insertBefore(in);
            in.def().replaceAllUsesWith(k.def());
            in.remove();
            progress = true;
        }
        return progress;
    }

    /**
     * The data of local array {@code v} whose accesses are {@code accesses} (in program order),
     * or null when it does not qualify.
     */
    private static long[] data(Function fn, Variable v, List<IntrinsicInstr> accesses) {
        Block entry = fn.entryBlock();
        int comps = v.type().components();
        long[] data = new long[comps * v.arrayLength()];
        int lastStore = -1;
        boolean anyLoad = false;
        for (int k = 0; k < accesses.size(); k++) {
            IntrinsicInstr in = accesses.get(k);
            if (in.intrinsic() == Intrinsic.LOAD_VAR) {
                anyLoad = true;
                continue;
            }
            if (in.intrinsic() != Intrinsic.STORE_VAR || in.block() != entry) return null;
            Long element = index(in);
            if (element == null
                    || element >= v.arrayLength()
                    || !(in.src(1).value().parent() instanceof LoadConstInstr c)) return null;
            for (int x = 0; x < comps; x++) data[(int) (element * comps + x)] = c.value(x);
            lastStore = k;
        }
        if (!anyLoad) return null; // dce's (or nobody's) business
        // instructions() lists the entry block first, in order: a load listed before the last
        // store is in the entry block before it
        for (int k = 0; k < lastStore; k++) if (accesses.get(k).intrinsic() == Intrinsic.LOAD_VAR) return null;
        return data;
    }

    /** The constant index of an access to an array (null when computed). */
    private static Long index(IntrinsicInstr in) {
        if (!in.var().isArray()) return 0L;
        if (in.src(0).value().parent() instanceof LoadConstInstr c)
            return c.value(in.src(0).component(0)) & 0xffffffffL;
        return null;
    }

    /** {@code name}, or {@code name_N} with the first N no variable of the shader has. */
    private static String freeName(Shader s, String name) {
        if (s.variable(name) == null) return name;
        for (int n = 1; ; n++) if (s.variable(name + "_" + n) == null) return name + "_" + n;
    }
}
