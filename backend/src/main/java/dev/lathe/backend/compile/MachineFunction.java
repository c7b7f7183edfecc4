package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Access;
import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.ProgramForm;
import dev.lathe.ir.text.IrPrinter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The program the machine passes hand from one to the next, in the form it has reached:
 * <ol>
 *   <li>{@link ProgramForm#IR}: the scalar IR, before instruction selection;
 *   <li>{@link ProgramForm#VIRTUAL}: machine instructions over virtual registers (SSA), per IR block,
 *       the structured control flow kept ({@link #mir});
 *   <li>{@link ProgramForm#ALLOCATED}: machine instructions over registers, per IR block
 *       ({@link #allocated});
 *   <li>{@link ProgramForm#LINEAR}: straight-line code with labels ({@link #linear}).
 * </ol>
 * Each pass takes one form and gives one (its {@link dev.lathe.ir.pass.PassRegistry.Entry}); {@link #print} shows any of them.
 */
public final class MachineFunction {
    final Shader shader;
    final Function fn;
    ProgramForm form = ProgramForm.IR;
    Layout layout;
    Map<Block, List<MirInstr>> mir;
    int virtualRegisters;
    /**
     * Whether selection links repeat groups ({@link MirInstr#group}): only for a pipeline with
     * the {@code rpt} pass, which is what they are for; without it the code is as if they had
     * never existed.
     */
    boolean repeatGroups;
    /** The coalesce pass's hints for register allocation (null when it has not run). */
    Coalesce.Affinity affinity;

    Map<Block, List<MInstr>> allocated;
    /** What the hardware writes into registers before the first instruction (the {@code preload} pass). */
    final List<MInstr> preloads = new ArrayList<>();
    /** Code run once before the shader, leaving uniform-only values in the constant file (the {@code preamble} pass); empty for none. */
    List<MInstr> preamble = List.of();

    int maxLive;
    /** The register budget and the spilling choices register allocation follows. */
    Allocation allocation = Allocation.DEFAULT;
    /** What spilling left: bytes of private memory per invocation, values spilled, reloads, and their i965 cost. */
    int privateBytes, spills, fills;

    double spillCost;
    Linear linear;
    /** Whether {@code legalize} has run on {@link #linear}. */
    boolean legalized;

    /** The registers the texture prefetches among the preloads write: outstanding loads when the code starts. */
    Set<Integer> prefetchedRegisters() {
        Set<Integer> out = new HashSet<>();
        for (MInstr p : preloads) if (p.isPrefetch()) for (int r : Access.writes(p)) out.add(r);
        return out;
    }

    MachineFunction(Shader shader) {
        this.shader = shader;
        this.fn = shader.entryPoint();
    }

    public ProgramForm form() {
        return form;
    }

    /** The program in its current form, as text: IR, or machine code per block, or the straight-line code. */
    public String print() {
        StringBuilder sb = new StringBuilder();
        switch (form) {
            case IR -> sb.append(IrPrinter.print(shader));
            case VIRTUAL -> {
                for (Block b : blocks(fn, mir)) {
                    sb.append("b").append(b.index()).append(":\n");
                    for (MirInstr m : mir.get(b))
                        sb.append("    ").append(virtual(m)).append('\n');
                }
            }
            case ALLOCATED -> {
                for (MInstr i : preloads)
                    sb.append(".preload ").append(Asm.print(i)).append('\n');
                for (Block b : blocks(fn, allocated)) {
                    sb.append("b").append(b.index()).append(":\n");
                    for (MInstr i : allocated.get(b))
                        sb.append("    ").append(Asm.print(i)).append('\n');
                }
            }
            case LINEAR -> {
                for (MInstr i : preloads)
                    sb.append(".preload ").append(Asm.print(i)).append('\n');
                for (Linear.Item it : linear.items) {
                    if (it.isLabel()) sb.append("L").append(it.label()).append(":\n");
                    else
                        sb.append("    ")
                                .append(Asm.print(it.instr()))
                                .append(it.target() >= 0 ? "  -> L" + it.target() : "")
                                .append('\n');
                }
            }
        }
        return sb.toString();
    }

    /**
     * The blocks with code, in program order: the function's, and its end block when the
     * outputs are read there ({@code end} with the output registers, phis of several exits).
     */
    static List<Block> blocks(Function fn, Map<Block, ?> code) {
        if (!code.containsKey(fn.endBlock())) return fn.blocks();
        List<Block> all = new ArrayList<>(fn.blocks());
        all.add(fn.endBlock());
        return all;
    }

    /** A machine instruction over virtual registers: {@code add.f32 v3, v1, v2}; copies, collects, splits and phis spelled out. */
    static String virtual(MirInstr m) {
        return switch (m.kind) {
            case OP ->
                Asm.print(m.proto, slot -> {
                    if (slot < 0) return m.def == null ? null : name(m.def, m.defUnit);
                    // source k of the prototype is virtual register k, where one is given (as RegAlloc reads them)
                    return slot < m.srcs.length && m.srcs[slot] != null ? name(m.srcs[slot], m.srcUnits[slot]) : null;
                });
            case COPY -> m.def + " = copy " + m.srcs[0];
            case COLLECT -> {
                StringBuilder sb = new StringBuilder(m.def + " = collect");
                for (int k = 0; k < m.srcs.length; k++)
                    sb.append(k == 0 ? " " : ", ").append(m.srcs[k]);
                yield sb.toString();
            }
            case SPLIT -> m.def + " = split " + name(m.srcs[0], m.srcUnits[0]);
            case PHI -> {
                StringBuilder sb = new StringBuilder(m.def + " = phi");
                boolean first = true;
                for (Map.Entry<Block, VReg> e : m.phiSrcs.entrySet()) {
                    sb.append(first ? " " : ", ")
                            .append("b")
                            .append(e.getKey().index())
                            .append(": ")
                            .append(e.getValue());
                    first = false;
                }
                yield sb.toString();
            }
        };
    }

    /** A virtual register, or one unit of a wider one ({@code v7.1}). */
    private static String name(VReg v, int unit) {
        return unit == 0 ? "v" + v.id : "v" + v.id + "." + unit;
    }
}
