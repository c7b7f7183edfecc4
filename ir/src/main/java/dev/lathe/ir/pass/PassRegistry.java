package dev.lathe.ir.pass;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Passes by name, IR and machine passes alike: one {@link Entry} per pass, and the only place its
 * name is said. {@link #standard()} holds every pass of the {@code ir} module; other modules add
 * theirs with {@link #register} (the generated rule passes, the backend's machine passes, a
 * user's rule sets). A pipeline names its passes; this makes a fresh instance of each.
 */
public final class PassRegistry {
    /**
     * A pass: its name, the form of program it takes and the form it gives, and what makes a fresh
     * instance of it — a {@link Pass} for the IR, the backend's own pass type for machine forms.
     */
    public record Entry(String name, ProgramForm takes, ProgramForm gives, Supplier<?> factory) {
        /** Whether the pass works on the IR (takes and gives {@link ProgramForm#IR}). */
        public boolean isIrPass() {
            return takes == ProgramForm.IR && gives == ProgramForm.IR;
        }
    }

    private final Map<String, Entry> passes = new LinkedHashMap<>();

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
        r.register("loop_unroll", LoopUnroll::new);
        r.register("opt_large_constants", OptLargeConstants::new);
        r.register("opt_minmax", OptMinMax::new);
        r.register("lower_outputs", LowerOutputs::new);
        r.register("lower_doubles", LowerDoubles::new);
        r.register("lower_int64", LowerInt64::new);
        return r;
    }

    /**
     * Adds IR pass {@code name}, made by {@code factory} each time a pipeline names it; a name already registered is an
     * IllegalArgumentException ({@link #replace} swaps one).
     */
    public PassRegistry register(String name, Supplier<Pass> factory) {
        return register(new Entry(name, ProgramForm.IR, ProgramForm.IR, factory));
    }

    /** Adds {@code entry}; a name already registered is an IllegalArgumentException. */
    public PassRegistry register(Entry entry) {
        if (passes.containsKey(entry.name()))
            throw new IllegalArgumentException("pass " + entry.name() + " is already registered");
        passes.put(entry.name(), entry);
        return this;
    }

    /** Replaces a registered IR pass (an experiment: another version of a rule set). */
    public PassRegistry replace(String name, Supplier<Pass> factory) {
        Entry old = passes.get(name);
        if (old == null || !old.isIrPass()) throw new IllegalArgumentException("no IR pass " + name + " to replace");
        passes.put(name, new Entry(name, ProgramForm.IR, ProgramForm.IR, factory));
        return this;
    }

    /** The entry of the pass called {@code name}, or null. */
    public Entry entry(String name) {
        return passes.get(name);
    }

    /** A new instance of the named IR pass, or null (no such pass, or a machine pass). */
    public Pass create(String name) {
        Entry e = passes.get(name);
        return e == null || !e.isIrPass() ? null : (Pass) e.factory().get();
    }

    /** Every registered pass name, IR and machine, in the order they were added (a read-only view). */
    public Set<String> names() {
        return Collections.unmodifiableSet(passes.keySet());
    }

    /** The names of the IR passes, in the order they were added. */
    public Set<String> irNames() {
        Set<String> out = new LinkedHashSet<>();
        for (Entry e : passes.values()) if (e.isIrPass()) out.add(e.name());
        return Collections.unmodifiableSet(out);
    }
}
