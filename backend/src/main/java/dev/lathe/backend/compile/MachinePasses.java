package dev.lathe.backend.compile;

import dev.lathe.backend.compile.MachineFunction.Form;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The backend's passes by name, and the machine pipeline. Each is one file's algorithm:
 *
 * <ul>
 *   <li>{@code isel} ({@link Isel}): where variables live ({@link Layout}), then machine
 *       instructions over virtual registers, dead ones removed;
 *   <li>{@code preamble} ({@link Preamble}): what depends on uniforms only is computed once
 *       before the shader and read from the constant file;
 *   <li>{@code const_operands} ({@link ConstOperands}): constants and uniforms read as operands
 *       where the operand rules allow, instead of through a {@code mov};
 *   <li>{@code sched} ({@link Schedule}): each block's instructions ordered so that the latencies
 *       are filled with work, not nops, within a register budget;
 *   <li>{@code rpt_groups} ({@link RepeatGroups}): the repeat groups selection linked that can no
 *       longer merge into one {@code (rptN)} instruction are split;
 *   <li>{@code coalesce} ({@link Coalesce}): hints for allocation — copies, phis, collects and
 *       splits would rather share registers with their sources;
 *   <li>{@code regalloc} ({@link RegAlloc}): registers, out of SSA (edge copies for phis);
 *   <li>{@code copyprop} ({@link CopyProp}): sources read the register a copy came from, and
 *       copies no one reads go;
 *   <li>{@code preload} ({@link Preload}): vertex inputs and system values at the start become
 *       the program's preloads, written by the hardware before the first instruction;
 *   <li>{@code postsched} ({@link PostSchedule}): each block scheduled again over the registers;
 *   <li>{@code rpt} ({@link RepeatForm}): runs of adjacent instructions one {@code (rptN)}
 *       instruction can stand for become it, where that delays nothing ({@code rpt_all}, not in
 *       the default pipeline: every such run);
 *   <li>{@code linearize} ({@link Linearize}): structured control flow to branches;
 *   <li>{@code branches} ({@link Branches}): jumps threaded, inverted over, or dropped;
 *   <li>{@code legalize} ({@link Legalize}): the nops and (ss)/(sy) the latencies need.
 * </ul>
 */
public final class MachinePasses {
    private MachinePasses() {}

    /** The machine pipeline, in order (the driver lists it with the IR pipeline and checks the order of both). */
    public static final List<String> DEFAULT = List.of(
            "isel",
            "preamble",
            "const_operands",
            "sched",
            "rpt_groups",
            "coalesce",
            "regalloc",
            "copyprop",
            "preload",
            "postsched",
            "rpt",
            "linearize",
            "branches",
            "legalize");

    /** A pass: its name, the form it takes and the form it gives, and what it does. */
    private record Entry(String name, Form takes, Form gives, Consumer<MachineFunction> run) implements MachinePass {
        @Override
        public void run(MachineFunction mf) {
            run.accept(mf);
        }
    }

    private static final List<Entry> PASSES = List.of(
            new Entry("isel", Form.IR, Form.VIRTUAL, Isel::select),
            new Entry("preamble", Form.VIRTUAL, Form.VIRTUAL, Preamble::extract),
            new Entry("const_operands", Form.VIRTUAL, Form.VIRTUAL, ConstOperands::fold),
            new Entry("sched", Form.VIRTUAL, Form.VIRTUAL, Schedule::schedule),
            new Entry("rpt_groups", Form.VIRTUAL, Form.VIRTUAL, RepeatGroups::split),
            new Entry("coalesce", Form.VIRTUAL, Form.VIRTUAL, Coalesce::coalesce),
            new Entry("regalloc", Form.VIRTUAL, Form.ALLOCATED, RegAlloc::allocate),
            new Entry("copyprop", Form.ALLOCATED, Form.ALLOCATED, CopyProp::propagate),
            new Entry("preload", Form.ALLOCATED, Form.ALLOCATED, Preload::extract),
            new Entry("postsched", Form.ALLOCATED, Form.ALLOCATED, PostSchedule::schedule),
            new Entry("rpt", Form.ALLOCATED, Form.ALLOCATED, RepeatForm::form),
            new Entry("rpt_all", Form.ALLOCATED, Form.ALLOCATED, RepeatForm::formAll),
            new Entry("linearize", Form.ALLOCATED, Form.LINEAR, Linearize::linearize),
            new Entry("branches", Form.LINEAR, Form.LINEAR, Branches::clean),
            new Entry("legalize", Form.LINEAR, Form.LINEAR, Legalize::legalize));

    /** Whether a machine pipeline makes {@code (rptN)} instructions: what repeat groups and the IR's vectorization are for. */
    public static boolean formsRepeats(List<String> passes) {
        return passes.contains("rpt") || passes.contains("rpt_all");
    }

    public static List<String> names() {
        return PASSES.stream().map(Entry::name).toList();
    }

    /** The pass called {@code name}, or null. */
    public static MachinePass create(String name) {
        for (Entry e : PASSES) {
            if (e.name().equals(name)) return e;
        }
        return null;
    }

    /**
     * The passes of a machine pipeline, checked: every name known, each pass getting the form it
     * takes, the last leaving straight-line code; otherwise an IllegalArgumentException saying
     * what is wrong.
     */
    public static List<MachinePass> pipeline(List<String> names) {
        List<MachinePass> out = new ArrayList<>();
        Form form = Form.IR;
        for (String n : names) {
            MachinePass p = create(n);
            if (p == null)
                throw new IllegalArgumentException(
                        "unknown machine pass '" + n + "' (known: " + String.join(", ", names()) + ")");
            if (p.takes() != form) {
                throw new IllegalArgumentException(
                        "machine pass " + n + " takes the " + p.takes().name().toLowerCase(Locale.ROOT)
                                + " form, but comes after " + form.name().toLowerCase(Locale.ROOT) + " code");
            }
            form = p.gives();
            out.add(p);
        }
        if (names.isEmpty() || !names.get(names.size() - 1).equals("legalize")) {
            // without legalize the code breaks the latencies: nothing may run it, so nothing may make it
            throw new IllegalArgumentException("the machine pipeline must end with legalize");
        }
        return out;
    }
}
