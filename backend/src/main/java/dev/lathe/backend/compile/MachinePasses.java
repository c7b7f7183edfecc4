package dev.lathe.backend.compile;

import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.ProgramForm;
import java.util.ArrayList;
import java.util.List;

/**
 * The backend's passes by name, and the machine pipeline. Each is one file's algorithm:
 *
 * <ul>
 *   <li>{@code isel} ({@link Isel}): where variables live ({@link Layout}), then machine
 *       instructions over virtual registers, dead ones removed;
 *   <li>{@code image_sam} ({@link ImageSam}): loads of storage images the shader never writes
 *       go through the texture unit ({@code isam}), not {@code ldib};
 *   <li>{@code prefetch} ({@link Prefetch}): a fragment shader's first samples at interpolated
 *       inputs become texture prefetches, done before the shader starts;
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
            "image_sam",
            "prefetch",
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

    /** The backend's passes, one registry entry each: the driver registers them beside the IR's passes. */
    public static final List<PassRegistry.Entry> ENTRIES = List.of(
            entry("isel", ProgramForm.IR, ProgramForm.VIRTUAL, Isel::select),
            entry("image_sam", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, ImageSam::rewrite),
            entry("prefetch", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, Prefetch::prefetch),
            entry("preamble", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, Preamble::extract),
            entry("const_operands", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, ConstOperands::fold),
            entry("sched", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, Schedule::schedule),
            entry("rpt_groups", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, RepeatGroups::split),
            entry("coalesce", ProgramForm.VIRTUAL, ProgramForm.VIRTUAL, Coalesce::coalesce),
            entry("regalloc", ProgramForm.VIRTUAL, ProgramForm.ALLOCATED, RegAlloc::allocate),
            entry("copyprop", ProgramForm.ALLOCATED, ProgramForm.ALLOCATED, CopyProp::propagate),
            entry("preload", ProgramForm.ALLOCATED, ProgramForm.ALLOCATED, Preload::extract),
            entry("postsched", ProgramForm.ALLOCATED, ProgramForm.ALLOCATED, PostSchedule::schedule),
            entry("rpt", ProgramForm.ALLOCATED, ProgramForm.ALLOCATED, RepeatForm::form),
            entry("rpt_all", ProgramForm.ALLOCATED, ProgramForm.ALLOCATED, RepeatForm::formAll),
            entry("linearize", ProgramForm.ALLOCATED, ProgramForm.LINEAR, Linearize::linearize),
            entry("branches", ProgramForm.LINEAR, ProgramForm.LINEAR, Branches::clean),
            entry("legalize", ProgramForm.LINEAR, ProgramForm.LINEAR, Legalize::legalize));

    /** A machine pass's entry; the passes keep no state between programs, so one instance serves every pipeline. */
    private static PassRegistry.Entry entry(String name, ProgramForm takes, ProgramForm gives, MachinePass pass) {
        return new PassRegistry.Entry(name, takes, gives, () -> pass);
    }

    /** Adds the machine passes to {@code registry} (the driver's one registry of every pass). */
    public static PassRegistry registerInto(PassRegistry registry) {
        for (PassRegistry.Entry e : ENTRIES) registry.register(e);
        return registry;
    }

    /** Whether a machine pipeline makes {@code (rptN)} instructions: what repeat groups and the IR's vectorization are for. */
    public static boolean formsRepeats(List<String> passes) {
        return passes.contains("rpt") || passes.contains("rpt_all");
    }

    public static List<String> names() {
        return ENTRIES.stream().map(PassRegistry.Entry::name).toList();
    }

    /** The entry of the machine pass called {@code name}, or null. */
    public static PassRegistry.Entry entry(String name) {
        for (PassRegistry.Entry e : ENTRIES) {
            if (e.name().equals(name)) return e;
        }
        return null;
    }

    /** The machine pass called {@code name}, or null. */
    public static MachinePass create(String name) {
        PassRegistry.Entry e = entry(name);
        return e == null ? null : (MachinePass) e.factory().get();
    }

    /**
     * The passes of a machine pipeline, checked: every name known, each pass getting the form it
     * takes, the last leaving straight-line code; otherwise an IllegalArgumentException saying
     * what is wrong.
     */
    public static List<PassRegistry.Entry> pipeline(List<String> names) {
        List<PassRegistry.Entry> out = new ArrayList<>();
        ProgramForm form = ProgramForm.IR;
        for (String n : names) {
            PassRegistry.Entry p = entry(n);
            if (p == null)
                throw new IllegalArgumentException(
                        "unknown machine pass '" + n + "' (known: " + String.join(", ", names()) + ")");
            if (p.takes() != form) {
                throw new IllegalArgumentException("machine pass " + n + " takes the "
                        + p.takes().label() + " form, but comes after " + form.label() + " code");
            }
            form = p.gives();
            out.add(p);
        }
        if (names.contains("prefetch") && names.indexOf("preload") < names.indexOf("prefetch")) {
            // a prefetch is only ever a preload: code may not hold one
            throw new IllegalArgumentException("machine pass prefetch needs preload after it");
        }
        if (names.isEmpty() || !names.get(names.size() - 1).equals("legalize")) {
            // without legalize the code breaks the latencies: nothing may run it, so nothing may make it
            throw new IllegalArgumentException("the machine pipeline must end with legalize");
        }
        return out;
    }
}
