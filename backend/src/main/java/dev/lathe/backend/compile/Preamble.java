package dev.lathe.backend.compile;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.Block;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * preamble: what depends on uniforms only is computed once, before the shader, as ir3's
 * preamble does ({@code ir3_nir_opt_preamble}): a {@code projection * view * model} product
 * costs a draw 64 instructions once instead of every vertex.
 *
 * <p>In the entry block (which every invocation runs), an ALU or SFU instruction whose sources
 * are constants, immediates and results of such instructions is uniform. A uniform result that
 * is computed (not a plain {@code mov} of a constant: those become operands anyway) and read by
 * anything that is not uniform is handed over: the preamble computes it and stores it into a
 * constant-file scalar of its own ({@code stc}), and the shader reads that scalar instead — a
 * {@code mov} from it, which {@code const_operands} folds into the readers. An element of a
 * uniform array read at a uniform index ({@code mova} of a uniform value, then
 * {@code c<a0.x + n>}) is uniform as well, so that {@code ubo[frame].projection * ubo[frame].view}
 * is computed once, as ir3's preamble does; the preamble sets a0.x for its reads, and a
 * {@code mova} of the shader left without readers goes. The uniform
 * instructions the shader no longer needs are removed as dead. The preamble then goes through
 * the same passes as the shader (constants as operands, scheduling, allocation, legalization)
 * and ends with {@code end}; the simulator runs it before the shader ({@code Program#preamble}).
 */
final class Preamble {
    private Preamble() {}

    /** The {@code preamble} pass. */
    static void extract(MachineFunction mf) {
        Block entry = mf.fn.entryBlock();
        List<MirInstr> code = mf.mir.get(entry);
        Map<VReg, MirInstr> uniform = new LinkedHashMap<>();
        // an element read at a uniform index (c<a0.x + n> after a mova of a uniform value) is uniform too:
        // each such read and the mova it follows
        Map<MirInstr, MirInstr> movaOf = new IdentityHashMap<>();
        MirInstr a0 = null;
        for (MirInstr m : code) {
            if (isMova(m)) {
                a0 = m.srcs[0] != null && m.srcUnits[0] == 0 && uniform.containsKey(m.srcs[0]) ? m : null;
                continue;
            }
            if (!isUniform(m, uniform, a0 != null)) continue;
            uniform.put(m.def, m);
            if (readsRelative(m)) movaOf.put(m, a0);
        }
        // the computed uniform values something else reads; a mova of the entry block only where a
        // read after it stays in the shader (reads something per invocation)
        Set<VReg> read = new HashSet<>();
        for (List<MirInstr> l : mf.mir.values()) {
            for (MirInstr m : l) {
                if (m.def != null && uniform.get(m.def) == m || isMova(m)) continue;
                for (VReg s : m.srcs) if (s != null) read.add(s);
            }
        }
        Set<MirInstr> staying = Collections.newSetFromMap(new IdentityHashMap<>());
        MirInstr current = null;
        for (MirInstr m : code) {
            if (isMova(m)) current = m;
            else if (current != null && readsRelative(m) && (uniform.get(m.def) != m || read.contains(m.def)))
                staying.add(current);
        }
        Set<VReg> handed = new HashSet<>();
        for (List<MirInstr> l : mf.mir.values()) {
            for (MirInstr m : l) {
                if (m.def != null && uniform.get(m.def) == m) continue;
                if (isMova(m) && l == code && !staying.contains(m)) continue;
                for (VReg s : m.srcs) if (s != null && computed(uniform.get(s))) handed.add(s);
                if (m.phiSrcs != null) for (VReg s : m.phiSrcs.values()) if (computed(uniform.get(s))) handed.add(s);
            }
        }
        if (handed.isEmpty()) return;
        // the preamble: every uniform instruction the handed values need, in program order
        Set<VReg> needed = new HashSet<>();
        List<VReg> work = new ArrayList<>(handed);
        while (!work.isEmpty()) {
            VReg v = work.remove(work.size() - 1);
            if (!needed.add(v)) continue;
            MirInstr m = uniform.get(v);
            for (VReg s : m.srcs) if (s != null) work.add(s);
            if (movaOf.containsKey(m)) work.add(movaOf.get(m).srcs[0]);
        }
        // in program order, each relative read after a mova of its index of its own
        List<MirInstr> pre = new ArrayList<>();
        VReg a0Holds = null;
        for (MirInstr m : code) {
            if (m.def == null || uniform.get(m.def) != m || !needed.contains(m.def)) continue;
            MirInstr mova = movaOf.get(m);
            if (mova != null && mova.srcs[0] != a0Holds) {
                pre.add(MirInstr.op(MInstr.mova(Operand.reg(0)), null, mova.srcs[0]));
                a0Holds = mova.srcs[0];
            }
            pre.add(m);
        }
        Map<VReg, Integer> slots = new HashMap<>();
        for (MirInstr m : pre) {
            if (!handed.contains(m.def)) continue;
            int at = mf.layout.preambleScalar();
            if (at < 0) return; // the constant file is full: everything stays in the shader
            slots.put(m.def, at);
        }
        // the handed values took consecutive scalars in program order: each run of up to four
        // is stored by one stc of a collect of them (allocation's hints put the values where
        // the collect wants them, as ir3's stc stores up to four registers)
        List<VReg> run = new ArrayList<>();
        int first = -1;
        for (MirInstr m : new ArrayList<>(pre)) {
            Integer at = slots.get(m.def);
            if (at == null) continue;
            if (!run.isEmpty() && (at != first + run.size() || run.size() == 4)) {
                pre.addAll(store(mf, run, first));
                run.clear();
            }
            if (run.isEmpty()) first = at;
            run.add(m.def);
        }
        if (!run.isEmpty()) pre.addAll(store(mf, run, first));
        List<MInstr> preamble;
        try {
            preamble = compile(mf, pre);
        } catch (CompileException e) {
            // more uniform values live at once than the file holds: the preamble cannot spill
            // (it has no private memory), so everything stays in the shader (the scalars taken stay unused)
            return;
        }
        // the shader reads each handed value from its scalar
        for (int k = 0; k < code.size(); k++) {
            MirInstr m = code.get(k);
            Integer at = m.def == null ? null : slots.get(m.def);
            if (at != null)
                code.set(k, MirInstr.op(MInstr.mov(MType.U32, MType.U32, Operand.reg(0), Operand.constant(at)), m.def));
        }
        Isel.removeDead(mf.mir);
        // a mova whose readers all went to the preamble goes too, and what computed its index
        ConstOperands.dropIdleMovas(code);
        Isel.removeDead(mf.mir);
        mf.preamble = preamble;
    }

    /** One stc of {@code values} into the scalars from {@code at} on (a collect of them when there are several). */
    private static List<MirInstr> store(MachineFunction mf, List<VReg> values, int at) {
        MInstr stc =
                MInstr.memory(MOp.STC, MType.U32, values.size(), Operand.NONE, Operand.NONE, Operand.reg(0), 0, at);
        if (values.size() == 1) return List.of(MirInstr.op(stc, null, new VReg[] {null, values.get(0)}, new int[2]));
        VReg all = new VReg(mf.virtualRegisters++, values.size(), 1);
        return List.of(
                MirInstr.collect(all, values.toArray(new VReg[0])),
                MirInstr.op(stc, null, new VReg[] {null, all}, new int[2]));
    }

    /** A uniform instruction: ALU or SFU, one 32-bit result, every source a constant, an immediate or a uniform result. */
    private static boolean isMova(MirInstr m) {
        return m.kind == MirInstr.Kind.OP && m.proto.op() == MOp.MOVA;
    }

    private static boolean readsRelative(MirInstr m) {
        if (m.kind != MirInstr.Kind.OP) return false;
        for (Operand o : m.proto.srcs()) if (o.kind() == Operand.Kind.RELCONST) return true;
        return false;
    }

    private static boolean isUniform(MirInstr m, Map<VReg, MirInstr> uniform, boolean uniformA0) {
        if (m.kind != MirInstr.Kind.OP || m.def == null || m.def.units != 1) return false;
        MInstr p = m.proto;
        // what a preamble may hold at all (Program says: ALU and SFU work, nothing per invocation)
        if (Program.checkPreamble(p, false) != null || p.op() == MOp.NOP || p.op() == MOp.STC) return false;
        if (p.rpt() != 0 || p.dst().kind() != Operand.Kind.REG) return false;
        for (int k = 0; k < p.srcs().size(); k++) {
            VReg s = k < m.srcs.length ? m.srcs[k] : null;
            if (s != null) {
                if (!uniform.containsKey(s) || m.srcUnits[k] != 0) return false;
                continue;
            }
            Operand.Kind kind = p.src(k).kind();
            if (kind == Operand.Kind.RELCONST && uniformA0) continue;
            if (kind != Operand.Kind.CONST && kind != Operand.Kind.IMM && kind != Operand.Kind.NONE) return false;
        }
        return true;
    }

    /** Whether a uniform instruction computes something (a plain mov of a constant or an immediate does not). */
    private static boolean computed(MirInstr m) {
        return m != null && m.proto.op() != MOp.MOV;
    }

    /** The preamble's machine code: its instructions through the shader's passes, then end. */
    private static List<MInstr> compile(MachineFunction mf, List<MirInstr> pre) {
        MachineFunction p = new MachineFunction(mf.shader);
        p.layout = mf.layout;
        p.virtualRegisters = mf.virtualRegisters;
        p.mir = new LinkedHashMap<>();
        for (Block b : mf.fn.blocks()) p.mir.put(b, new ArrayList<>());
        p.mir.put(mf.fn.entryBlock(), pre);
        p.form = dev.lathe.ir.pass.ProgramForm.VIRTUAL;
        ConstOperands.fold(p);
        Schedule.schedule(p);
        RegAlloc.allocateWithoutSpilling(p);
        Linear linear = new Linear();
        for (MInstr i : p.allocated.get(mf.fn.entryBlock())) linear.items.add(Linear.Item.of(i));
        linear.items.add(Linear.Item.of(MInstr.flow(MOp.END, false, 0)));
        p.linear = linear;
        p.form = dev.lathe.ir.pass.ProgramForm.LINEAR;
        Legalize.legalize(p);
        return p.linear.resolve();
    }
}
