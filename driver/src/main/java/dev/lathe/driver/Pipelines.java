package dev.lathe.driver;

import static dev.lathe.ir.pass.Pipeline.loop;
import static dev.lathe.ir.pass.Pipeline.run;

import dev.lathe.backend.compile.MachinePasses;
import dev.lathe.backend.compile.Target;
import dev.lathe.ir.pass.Pipeline;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The whole compiler, as data: the IR optimization pipeline, the lowering the target needs,
 * then the machine passes — in one place, in order, with the rules their order must keep
 * ({@link #ORDER}, checked by a test as Go's {@code passOrder} is).
 *
 * <ol>
 *   <li>{@code lower_outputs} gives every output a local, stored to the output once at each
 *       exit (the target keeps outputs in registers until the shader ends);
 *   <li>{@code vars_to_ssa} turns local variables into SSA values, so everything after works on
 *       SSA only;
 *   <li>the loop runs the algebraic rules and the cleanup passes until none makes progress:
 *       rules expose constants, folding exposes constant branches, dead_cf removes them, which
 *       makes phis trivial, which exposes copies and common subexpressions, which makes code
 *       dead. {@code opt_minmax} follows the rules: with the range analysis it drops the clamps,
 *       minimums, maximums and selects whose outcome is decided, which the rules' single-value
 *       conditions cannot see; {@code opt_if} turns tiny pure diamonds into {@code bcsel} inside
 *       the loop, because that exposes more folding and rules. {@code loop_unroll} replaces the
 *       loops whose trip count it can compute by copies of their bodies, whose induction values
 *       then fold, and {@code vars_to_ssa} runs again for the local arrays whose indices became
 *       constants (NIR runs {@code nir_lower_vars_to_ssa} in its loop for the same reason).
 *       {@code lower_doubles} and
 *       {@code lower_int64} end the loop's body: they rebuild the 64-bit ops the target lacks
 *       (after the rules had one round on the original ops), and the next round runs the rules on
 *       what they wrote — {@code pack_hi} turns their high-word rebuilds into
 *       {@code pack_64_2x32_split_y} (the pack_double_2x32_split_y discussion of 2016, docs/BACKGROUND.md), folding and cse share their constants and
 *       halves. A pipeline given with {@code --passes} needs them too to compile such shaders;
 *   <li>{@code opt_large_constants} moves the local arrays that only hold constants, and are
 *       still indexed at run time once unrolling is done, into the shader's constant data (NIR's
 *       {@code nir_opt_large_constants}, which ir3 runs late as well);
 *   <li>the {@code late} rules run once after the loop: they make the code cheaper for the target
 *       (fused multiply-add, subtraction) in ways the algebraic rules would undo;
 *   <li>{@code sink_constants} moves constants next to their uses to shorten live ranges, and
 *       nothing of the optimization should move them back;
 *   <li>{@link #LOWER}: the target's {@code lower} rules (backend/rules/lower.rules,
 *       {@link Target#loweringRules}) write the ops it has no instruction for with ones it has; the target is scalar; then independent scalars doing
 *       the same op on parts of the same values are joined again, for the target's repeated
 *       instructions;
 *   <li>{@link #MACHINE}: the backend's passes, from instruction selection to the final code.
 * </ol>
 */
public final class Pipelines {
    private Pipelines() {}

    /** The IR optimization pipeline. */
    public static final Pipeline OPTIMIZE = Pipeline.of(
            run("lower_outputs"),
            run("vars_to_ssa"),
            loop(
                    "algebraic",
                    "opt_minmax",
                    "constant_fold",
                    "copy_prop",
                    "phi_simplify",
                    "dead_cf",
                    "opt_if",
                    "loop_unroll",
                    "vars_to_ssa",
                    "cse",
                    "dce",
                    "lower_doubles",
                    "lower_int64"),
            run("opt_large_constants"),
            run("late"),
            run("dce"),
            run("sink_constants"));

    /** What the target needs of the IR before instruction selection. */
    public static final Pipeline LOWER =
            Pipeline.of(run("lower"), run("lower_alu_to_scalar"), run("copy_prop"), run("dce"), run("opt_vectorize"));

    /**
     * The lowering for a machine pipeline: {@code opt_vectorize} joins scalars only so that the
     * backend makes {@code (rptN)} instructions of them (the ir3 rptN merge request of 2024, docs/BACKGROUND.md), so without a pass forming
     * them it is left out too, and {@code --no-rpt} measures the compiler without either.
     */
    public static Pipeline lowering(List<String> machine) {
        return MachinePasses.formsRepeats(machine) ? LOWER : LOWER.without(Set.of("opt_vectorize"));
    }

    /** The machine pipeline: the target's ({@link Target#machinePipeline}). */
    public static final List<String> MACHINE = Target.IR3_LIKE.machinePipeline();

    /**
     * A switch of the compiler: the passes it leaves out (machine passes, or IR passes of
     * {@link #OPTIMIZE}), what the code is like without them, and what the part is for
     * ({@code MachineSwitchesTest} checks that it pays).
     */
    public record Switch(List<String> passes, String without, Pays pays) {
        /** Copies {@code passes}, so a switch never changes once made. */
        public Switch {
            passes = List.copyOf(passes);
        }

        Switch(List<String> passes, String without) {
            this(passes, without, Pays.SPEED);
        }
    }

    /** What a part of the backend improves. */
    public enum Pays {
        /** fewer instructions and fewer simulated cycles over the corpus */
        SPEED,
        /** fewer dwords over the corpus, at most 1% more simulated cycles (repeat groups are for code size) */
        SIZE,
        /**
         * fewer simulated cycles over the corpus, whatever the size: unrolling trades instructions for the loop's
         * counting and branching, within its size limit; isam loads as many texels as ldib, through the texture unit
         */
        CYCLES
    }

    /**
     * The compiler's switches, by the name their {@code --no-NAME} option gives them (the command
     * line's options are made from this table). Every part of the backend that improves the code,
     * and loop unrolling, can be turned off, so that its effect is measured against the rest
     * ({@code docs/RESULTS.md}).
     */
    public static final Map<String, Switch> SWITCHES = switches();

    private static Map<String, Switch> switches() {
        Map<String, Switch> m = new LinkedHashMap<>();
        m.put(
                "unroll",
                new Switch(
                        List.of("loop_unroll"),
                        "keep every loop a loop (no unrolling of loops whose trip count is known)",
                        Pays.CYCLES));
        m.put(
                "large-constants",
                new Switch(
                        List.of("opt_large_constants"),
                        "keep local arrays of constants in local memory, stored element by element (no constant data)"));
        m.put(
                "isam",
                new Switch(
                        List.of("image_sam"),
                        "load every storage image with ldib (no isam through the texture unit for images the shader never"
                                + " writes)",
                        Pays.CYCLES));
        m.put(
                "prefetch",
                new Switch(
                        List.of("prefetch"),
                        "sample textures in the fragment shader's code (no texture prefetch before it starts)"));
        m.put("preamble", new Switch(List.of("preamble"), "compute uniform-only values in the shader (no preamble)"));
        m.put(
                "const-operands",
                new Switch(List.of("const_operands"), "read constants and uniforms through a mov, not as operands"));
        m.put(
                "sched",
                new Switch(
                        List.of("sched"),
                        "keep each block's instructions in selection order (no scheduling before allocation)"));
        m.put(
                "coalesce",
                new Switch(List.of("coalesce"), "allocate registers without the coalescing hints (more copies)"));
        m.put(
                "copyprop",
                new Switch(
                        List.of("copyprop"),
                        "keep the copies register allocation leaves (no copy propagation after it)"));
        m.put(
                "preload",
                new Switch(
                        List.of("prefetch", "preload"),
                        "load vertex inputs and system values with instructions (nothing preloaded, no texture"
                                + " prefetch)"));
        m.put("postsched", new Switch(List.of("postsched"), "no second scheduling after register allocation"));
        m.put(
                "rpt",
                new Switch(
                        List.of("rpt_groups", "rpt"),
                        "no (rptN) ALU instructions: every repetition an instruction of its own",
                        Pays.SIZE));
        m.put(
                "branches",
                new Switch(
                        List.of("branches"),
                        "keep the jumps as linearization lays them out (no threading or inverting)"));
        return Collections.unmodifiableMap(m);
    }

    /** The machine pipeline without the passes of the switches in {@code off} (names of {@link #SWITCHES}). */
    public static List<String> machine(Set<String> off) {
        Set<String> drop = switchedOff(off);
        List<String> out = new ArrayList<>();
        for (String p : MACHINE) if (!drop.contains(p)) out.add(p);
        return out;
    }

    /** The IR pipeline {@code p} without the passes of the switches in {@code off} (names of {@link #SWITCHES}). */
    public static Pipeline optimize(Pipeline p, Set<String> off) {
        return p.without(switchedOff(off));
    }

    private static Set<String> switchedOff(Set<String> off) {
        Set<String> drop = new HashSet<>();
        for (String s : off) {
            Switch sw = SWITCHES.get(s);
            if (sw == null)
                throw new IllegalArgumentException(
                        "unknown switch '" + s + "' (known: " + String.join(", ", SWITCHES.keySet()) + ")");
            drop.addAll(sw.passes());
        }
        return drop;
    }

    /** Every pass the compiler runs, in order (a loop's body once): what {@link #ORDER} is checked on. */
    public static List<String> whole() {
        List<String> all = new ArrayList<>(OPTIMIZE.order());
        all.addAll(LOWER.order());
        all.addAll(MACHINE);
        return all;
    }

    /**
     * The default IR pipeline as text, as {@code lathe opt --pipeline default} and {@code --passes} spell it (for a
     * pipeline of one's own around it: {@code "mine, " + DEFAULT}).
     */
    public static final String DEFAULT = OPTIMIZE.toString();

    /**
     * A rule of the order: wherever both passes run, every run of {@code first} comes before every run of {@code then}
     * ({@code firstRunOnly}: the first run of {@code first} before the first of {@code then}; later runs may follow).
     */
    public record Order(String first, String then, String why, boolean firstRunOnly) {
        Order(String first, String then, String why) {
            this(first, then, why, false);
        }
    }

    /**
     * The rules of the order the compiler's passes must keep, each with its reason ({@link #orderProblem} checks a
     * pipeline against them).
     */
    public static final List<Order> ORDER = List.of(
            new Order(
                    "lower_outputs",
                    "vars_to_ssa",
                    "each output becomes a local that vars_to_ssa turns into values, stored once at each exit"),
            new Order(
                    "vars_to_ssa",
                    "algebraic",
                    "the rules and the cleanup passes work on SSA values, not on loads and stores of locals"
                            + " (it runs again for the arrays that unrolling indexes with constants)",
                    true),
            new Order("vars_to_ssa", "opt_minmax", "the range analysis follows SSA values", true),
            new Order(
                    "algebraic",
                    "late",
                    "the late rules undo what the algebraic rules do (fused multiply-add): they run once, after the loop"),
            new Order(
                    "loop_unroll",
                    "opt_large_constants",
                    "an array a loop indexes becomes values once the loop is unrolled; only what is still indexed at run"
                            + " time moves to constant data"),
            new Order(
                    "vars_to_ssa",
                    "opt_large_constants",
                    "arrays indexed only by constants become values, which beats reading constant data"),
            new Order("opt_if", "late", "late rules after the loop that may still turn diamonds into selects"),
            new Order("late", "sink_constants", "constants move next to their uses once nothing moves code anymore"),
            new Order("dead_cf", "sink_constants", "sinking into blocks dead_cf would still remove is wasted"),
            new Order(
                    "algebraic",
                    "lower",
                    "the lowering rules write ops that the algebraic rules would turn back (fneo as two flt)"),
            new Order(
                    "sink_constants",
                    "lower_alu_to_scalar",
                    "the optimization works on vectors; the target's lowering comes after it"),
            new Order(
                    "lower_alu_to_scalar",
                    "opt_vectorize",
                    "vectorization joins the scalars that scalarization and dce leave, dropping the components nothing reads"),
            new Order(
                    "lower_alu_to_scalar",
                    "isel",
                    "the target is scalar: instruction selection takes one component per instruction"));

    /** The first rule of {@link #ORDER} that {@code order} (the passes as they run) breaks, as a message; null when none is. */
    public static String orderProblem(List<String> order) {
        for (Order o : ORDER) {
            int lastFirst = o.firstRunOnly() ? order.indexOf(o.first()) : order.lastIndexOf(o.first());
            int firstThen = order.indexOf(o.then());
            if (lastFirst >= 0 && firstThen >= 0 && lastFirst > firstThen) {
                return o.first() + " must run before " + o.then() + ": " + o.why();
            }
        }
        return null;
    }
}
