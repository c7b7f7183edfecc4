package dev.lathe.ir.pass;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Passes by name. {@link #standard()} holds every pass of the {@code ir} module; other modules
 * (the generated rule passes, the backend) add theirs with {@link #register}.
 */
public final class PassRegistry {
    private final Map<String, Supplier<Pass>> passes = new LinkedHashMap<>();

    /** The passes of the {@code ir} module. */
    public static PassRegistry standard() {
        PassRegistry r = new PassRegistry();
        r.register("constant_fold", ConstantFold::new);
        r.register("copy_prop", CopyProp::new);
        r.register("dce", Dce::new);
        r.register("cse", Cse::new);
        r.register("dead_cf", DeadCf::new);
        r.register("phi_simplify", PhiSimplify::new);
        r.register("vars_to_ssa", VarsToSsa::new);
        r.register("lower_alu_to_scalar", LowerAluToScalar::new);
        r.register("opt_vectorize", OptVectorize::new);
        r.register("sink_constants", SinkConstants::new);
        r.register("opt_if", OptIf::new);
        r.register("opt_minmax", OptMinMax::new);
        r.register("lower_outputs", LowerOutputs::new);
        r.register("lower_doubles", LowerDoubles::new);
        r.register("lower_int64", LowerInt64::new);
        return r;
    }

    /**
     * Adds pass {@code name}, made by {@code factory} each time a pipeline names it; a name already registered is an
     * IllegalArgumentException ({@link #replace} swaps one).
     */
    public PassRegistry register(String name, Supplier<Pass> factory) {
        if (passes.containsKey(name)) throw new IllegalArgumentException("pass " + name + " is already registered");
        passes.put(name, factory);
        return this;
    }

    /** Replaces a registered pass (an experiment: another version of a rule set). */
    public PassRegistry replace(String name, Supplier<Pass> factory) {
        if (!passes.containsKey(name)) throw new IllegalArgumentException("no pass " + name + " to replace");
        passes.put(name, factory);
        return this;
    }

    /** A new instance of the named pass, or null. */
    public Pass create(String name) {
        Supplier<Pass> f = passes.get(name);
        return f == null ? null : f.get();
    }

    /** The registered pass names, in the order they were added (a read-only view). */
    public Set<String> names() {
        return Collections.unmodifiableSet(passes.keySet());
    }
}
