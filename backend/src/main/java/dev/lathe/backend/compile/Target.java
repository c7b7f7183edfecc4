package dev.lathe.backend.compile;

import dev.lathe.backend.rules.GeneratedRules;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.rewrite.RuleSet;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Everything the compiler knows about the machine, in one place: the IR ops instruction
 * selection takes, what it lacks on 64-bit operands, its lowering rules (the rule files of
 * {@code backend/rules/}, compiled with the backend as Go keeps {@code _gen/ARM64.rules} with
 * its backend), and its machine passes and pipeline. The driver asks the target for all of them
 * instead of hard-wiring any; a second target would be a second instance.
 */
public final class Target {
    /** The Adreno-ir3-like target of {@code backend/ISA.md}. */
    public static final Target IR3_LIKE = new Target();

    private final Set<Op> selected = Isel.selectable();
    private final Set<Op> refused64 = Collections.unmodifiableSet(EnumSet.of(
            Op.BIT_COUNT,
            Op.BITFIELD_REVERSE,
            Op.FCEIL,
            Op.FDIV,
            Op.FFLOOR,
            Op.FRCP,
            Op.FRSQ,
            Op.FSQRT,
            Op.FTRUNC,
            Op.IABS,
            Op.IDIV,
            Op.IMOD,
            Op.IMUL_HIGH,
            Op.IREM,
            Op.UCLZ,
            Op.UDIV,
            Op.UMOD,
            Op.UMUL_HIGH));
    private final Set<Op> lacks64 = lacks64(selected, refused64);
    private final Set<String> ruleOptions = ruleOptions(selected);

    private Target() {}

    /** The target's name, as messages and documents call it. */
    public String name() {
        return "ir3-like";
    }

    /**
     * The ALU ops instruction selection takes, at some size: derived from the target's tables
     * ({@code MOp}, {@code Semantics}) and the few ops selection writes itself (source
     * modifiers, moves, vectors, packs, {@code mad}); every other op reaches selection only
     * through a lowering rule or pass.
     */
    public Set<Op> selectedOps() {
        return selected;
    }

    /**
     * The ops of {@link #selectedOps} that instruction selection refuses on 64-bit operands: the
     * hardware has 64-bit float add, multiply, fused multiply-add, min/max, compare, round and the
     * transcendental unit, and 64-bit integer work only as 32-bit pieces that selection writes
     * itself (add, multiply, shifts, logic, compares, conversions). {@code TargetClaimsTest} checks
     * that this is exactly what selection refuses.
     */
    public Set<Op> refused64() {
        return refused64;
    }

    /**
     * What the IR must lower before selection on 64-bit operands: {@link #refused64} and the ops
     * selection takes at no size. The driver gives this set to {@code lower_doubles} and
     * {@code lower_int64}.
     */
    public Set<Op> lacks64() {
        return lacks64;
    }

    /**
     * The target's lowering rule sets, generated from {@code backend/rules/*.rules} (the pass
     * {@code lower}: the ops it has no instruction for at any size, written with ops it has,
     * every rule exact and proved in the build).
     */
    public List<RuleSet> loweringRules() {
        return GeneratedRules.all();
    }

    /**
     * The options this target sets, for rules gated on them ({@code if option(lower_fsat)}),
     * named as NIR's {@code nir_shader_compiler_options} names them where the meaning is the same:
     * a {@code lower_X} option is set where selection has no instruction for X (so rules that
     * lower X apply and rules that make X do not), {@code has_X} where it has one. Derived from
     * {@link #selectedOps}, so the two cannot disagree; an option not named here is not set.
     */
    public Set<String> ruleOptions() {
        return ruleOptions;
    }

    private static Set<String> ruleOptions(Set<Op> selected) {
        java.util.TreeSet<String> on = new java.util.TreeSet<>();
        java.util.Map<String, Op> lower = java.util.Map.ofEntries(
                java.util.Map.entry("lower_fpow", Op.FPOW),
                java.util.Map.entry("lower_flrp16", Op.FLRP),
                java.util.Map.entry("lower_flrp32", Op.FLRP),
                java.util.Map.entry("lower_flrp64", Op.FLRP),
                java.util.Map.entry("lower_ffract", Op.FFRACT),
                java.util.Map.entry("lower_fmod", Op.FMOD),
                java.util.Map.entry("lower_isign", Op.ISIGN),
                java.util.Map.entry("lower_ldexp", Op.LDEXP),
                java.util.Map.entry("lower_fdiv", Op.FDIV),
                java.util.Map.entry("lower_fsat", Op.FSAT),
                java.util.Map.entry("lower_fsign", Op.FSIGN),
                java.util.Map.entry("lower_bitfield_extract", Op.UBITFIELD_EXTRACT),
                java.util.Map.entry("lower_bitfield_insert", Op.BITFIELD_INSERT),
                java.util.Map.entry("lower_extract_byte", Op.EXTRACT_U8),
                java.util.Map.entry("lower_extract_word", Op.EXTRACT_U16),
                java.util.Map.entry("lower_bitops", Op.BIT_COUNT),
                java.util.Map.entry("lower_ufind_msb", Op.UFIND_MSB),
                java.util.Map.entry("lower_umax", Op.UMAX),
                java.util.Map.entry("lower_umin", Op.UMIN),
                java.util.Map.entry("lower_uadd_sat", Op.UADD_SAT),
                java.util.Map.entry("lower_usub_sat", Op.USUB_SAT),
                java.util.Map.entry("lower_iadd_sat", Op.IADD_SAT),
                java.util.Map.entry("lower_mul_high", Op.UMUL_HIGH));
        lower.forEach((name, op) -> {
            if (!selected.contains(op)) on.add(name);
        });
        if (selected.contains(Op.FSUB)) on.add("has_fsub");
        if (selected.contains(Op.ISUB)) on.add("has_isub");
        // the late rules fuse fmul and fadd into ffma, which selection makes a mad, at every size
        on.addAll(List.of("fuse_ffma16", "fuse_ffma32", "fuse_ffma64"));
        // NIR's seq/slt/sge (float results of comparisons) are not instructions here
        on.add("lower_scmp");
        // selection takes 16-bit ALU work (half registers), not 8-bit
        on.add("support_16bit_alu");
        return Collections.unmodifiableSet(on);
    }

    /**
     * Whether selection takes {@code op} at {@code bits} itself, rather than the lowering rules
     * before it: the conversions of a 1-bit integer (NIR's {@code i2f32} of a boolean's bit)
     * become {@code bcsel}s in {@code lower.rules}, so selection never sees them.
     */
    public boolean selectsAt(Op op, int bits) {
        return selected.contains(op) && !(bits == 1 && CONVERSIONS_OF_ONE_BIT.contains(op));
    }

    private static final Set<Op> CONVERSIONS_OF_ONE_BIT = Collections.unmodifiableSet(EnumSet.of(
            Op.I2F16, Op.I2F32, Op.I2F64, Op.U2F16, Op.U2F32, Op.U2F64, Op.I2I8, Op.I2I16, Op.I2I32, Op.I2I64, Op.U2U8,
            Op.U2U16, Op.U2U32, Op.U2U64));

    /** The machine passes, one registry entry each. */
    public List<PassRegistry.Entry> machinePasses() {
        return MachinePasses.ENTRIES;
    }

    /** The machine pipeline, in order. */
    public List<String> machinePipeline() {
        return MachinePasses.DEFAULT;
    }

    private static Set<Op> lacks64(Set<Op> selected, Set<Op> refused) {
        Set<Op> s = EnumSet.copyOf(refused);
        for (Op op : Op.values()) if (!selected.contains(op)) s.add(op);
        return Collections.unmodifiableSet(s);
    }
}
