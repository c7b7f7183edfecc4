package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Cond;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.backend.isa.Semantics;
import dev.lathe.backend.program.Program;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Src;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Instruction selection: the scalarized, target-lowered IR function becomes machine
 * instructions over virtual registers, block by block, still in SSA form. This class selects the
 * ALU instructions and owns the registers and the blocks; {@link IntrinsicSelection} selects the
 * intrinsics (I/O, memory, textures, images, system values).
 *
 * <p>Every component of an IR value gets a virtual register (a pair for 64 bits); {@code vecN}
 * and swizzles only rename. {@code fneg}/{@code fabs}/{@code fsat} become {@code absneg} with
 * modifiers, {@code fsub} an {@code add} with a negated source, small constants cat2
 * immediates; comparisons write 0/1 to a register ({@code if} and {@code discard_if} turn that
 * into p0.x right before the branch); texture coordinates are collected into consecutive
 * registers and texels split out of them; 64-bit pack/unpack are collects and splits, which
 * register allocation makes free when the pieces can stay in place. Anything the target has no
 * instruction for stops with "not supported by the target: OP".
 */
final class Isel {
    final Shader shader;
    final Function fn;
    final Layout layout;
    final Map<Block, List<MirInstr>> code = new LinkedHashMap<>();
    private final Map<Value, VReg[]> vals = new HashMap<>();
    List<MirInstr> cur;
    private int nextReg;

    /** Workgroup memory as ir3 has it on a6xx. */
    static final int SHARED_BYTES = 32 * 1024;

    final Map<Variable, Integer> sharedOffsets;
    /** The intrinsics' half of selection. */
    private final IntrinsicSelection intrinsics = new IntrinsicSelection(this);

    Isel(Shader shader, Function fn, Layout layout) {
        this.shader = shader;
        this.fn = fn;
        this.layout = layout;
        this.sharedOffsets = Program.sharedOffsets(shader);
        int bytes = new Program(shader, Map.of(), Map.of(), 0, 0, 0, List.of()).sharedBytes();
        if (bytes > SHARED_BYTES)
            throw new CompileException(
                    "shared variables need " + bytes + " bytes of workgroup memory; the target has " + SHARED_BYTES);
    }

    int registerCount() {
        return nextReg;
    }

    /**
     * The ALU ops selected by a case of their own in {@link #alu} or {@link #component}:
     * expansions into several instructions, or a single instruction chosen with more care (source
     * modifiers, fused multiply-add) than the target's tables give. Everything else selectable
     * comes from those tables ({@link #selectable}).
     */
    static final Set<Op> EXPANDED = Collections.unmodifiableSet(EnumSet.of(
            Op.FSAT,
            Op.MOV,
            Op.VEC2,
            Op.VEC3,
            Op.VEC4,
            Op.VEC8,
            Op.VEC16,
            Op.PACK_64_2X32_SPLIT,
            Op.PACK_64_2X32_SPLIT_X,
            Op.PACK_64_2X32_SPLIT_Y,
            Op.PACK_64_2X32,
            Op.UNPACK_64_2X32_SPLIT_X,
            Op.UNPACK_64_2X32_SPLIT_Y,
            Op.UNPACK_64_2X32,
            Op.FADD,
            Op.FSUB,
            Op.FNEG,
            Op.FABS,
            Op.INEG,
            Op.IABS,
            Op.BCSEL,
            Op.PACK_HALF_2X16_SPLIT,
            Op.UNPACK_HALF_2X16_SPLIT_X,
            Op.UNPACK_HALF_2X16_SPLIT_Y));

    /**
     * The ALU ops instruction selection takes (at some size; {@code not supported by the target}
     * names the sizes it refuses): those one machine op implements, the comparisons of cmps, the
     * conversions of cov, and {@link #EXPANDED}.
     */
    static Set<Op> selectable() {
        Set<Op> ops = EnumSet.copyOf(EXPANDED);
        ops.addAll(MOp.implemented());
        ops.addAll(Semantics.comparisons());
        ops.addAll(Semantics.conversions());
        return Collections.unmodifiableSet(ops);
    }

    /** The {@code isel} pass: the layout of the variables, then the instructions, dead ones removed. */
    static void select(MachineFunction mf) {
        if (mf.shader.functions().size() != 1) {
            throw new CompileException("the target compiles one function (the entry point); found "
                    + mf.shader.functions().size());
        }
        if (mf.shader.stage() == dev.lathe.ir.Stage.GEOMETRY)
            throw new CompileException("geometry shaders: the target does not run them yet (the interpreter does)");
        mf.layout = new Layout(mf.shader);
        Isel isel = new Isel(mf.shader, mf.fn, mf.layout);
        isel.groups = mf.repeatGroups;
        isel.run();
        isel.removeDead();
        mf.mir = isel.code;
        mf.virtualRegisters = isel.registerCount();
        shrinkTexels(mf);
        mf.form = dev.lathe.ir.pass.ProgramForm.VIRTUAL;
    }

    void run() {
        outputsInRegisters = outputsAtExits();
        for (Block b : fn.blocks()) code.put(b, new ArrayList<>());
        for (Block b : fn.blocks()) {
            cur = code.get(b);
            intrinsics.startBlock();
            for (Instr i : b.instrs()) select(i);
            if (b.next() instanceof IfNode n) predicate(n.condition());
        }
        if (outputsInRegisters) endBlock();
    }

    /**
     * Whether the shader's outputs stay in registers until it ends, as ir3 leaves them for the
     * hardware ({@code end} names the registers): when every output is stored exactly once in
     * each block the function is left from and nowhere else (what {@code lower_outputs} makes).
     * Otherwise each {@code store_output} is a {@code sto}.
     */
    private boolean outputsAtExits() {
        List<Variable> outputs = shader.variables(Variable.Kind.OUTPUT);
        if (outputs.isEmpty()) return false;
        Set<Block> exits = new HashSet<>(fn.endBlock().predecessors());
        Map<Block, Set<Variable>> stored = new HashMap<>();
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (!(i instanceof IntrinsicInstr x) || x.intrinsic() != Intrinsic.STORE_OUTPUT) continue;
                if (!exits.contains(b)
                        || !stored.computeIfAbsent(b, k -> new HashSet<>()).add(x.var())) return false;
            }
        }
        for (Block b : exits) if (stored.getOrDefault(b, Set.of()).size() != outputs.size()) return false;
        return true;
    }

    boolean outputsInRegisters;

    /** Per exit block, the registers of each output's components stored there. */
    final Map<Block, Map<Variable, VReg[]>> exitOutputs = new HashMap<>();

    /**
     * The function's end block: one {@code end} reading every output's registers, in
     * declaration order; with several exits, phis choose each register's value by the way in.
     */
    private void endBlock() {
        Block end = fn.endBlock();
        List<MirInstr> endCode = new ArrayList<>();
        code.put(end, endCode);
        List<Block> preds = end.predecessors();
        List<VReg> reads = new ArrayList<>();
        for (Variable v : shader.variables(Variable.Kind.OUTPUT)) {
            for (int c = 0; c < v.type().components(); c++) {
                if (preds.size() == 1) {
                    reads.add(exitOutputs.get(preds.get(0)).get(v)[c]);
                    continue;
                }
                VReg r = newReg(v.type().bitSize());
                MirInstr phi = MirInstr.phi(r);
                for (Block p : preds) phi.phiSrcs.put(p, exitOutputs.get(p).get(v)[c]);
                endCode.add(phi);
                reads.add(r);
            }
        }
        List<Operand> placeholders = new ArrayList<>();
        for (int k = 0; k < reads.size(); k++) placeholders.add(Operand.reg(0));
        endCode.add(MirInstr.op(MInstr.end(placeholders), null, reads.toArray(new VReg[0])));
    }

    /**
     * Removes instructions whose result nothing reads and that have no other effect (constants
     * folded into immediates leave their movs behind), to a fixpoint.
     */
    void removeDead() {
        removeDead(code);
    }

    /**
     * Texture results write only the components something reads, as ir3's write masks do: the
     * enabled components land in consecutive registers, so a shadow lookup's single value takes
     * one register instead of four. Runs after {@link #removeDead()}, which leaves the splits
     * that are read.
     */
    static void shrinkTexels(MachineFunction mf) {
        Map<Block, List<MirInstr>> code = mf.mir;
        Map<VReg, List<MirInstr>> splits = new HashMap<>();
        Set<VReg> readWhole = new HashSet<>();
        for (List<MirInstr> l : code.values()) {
            for (MirInstr m : l) {
                if (m.kind == MirInstr.Kind.SPLIT)
                    splits.computeIfAbsent(m.srcs[0], k -> new ArrayList<>()).add(m);
                else for (VReg r : m.srcs) if (r != null) readWhole.add(r);
                if (m.phiSrcs != null) readWhole.addAll(m.phiSrcs.values());
            }
        }
        Map<MirInstr, MirInstr> replace = new HashMap<>();
        for (List<MirInstr> l : code.values()) {
            for (int n = 0; n < l.size(); n++) {
                MirInstr m = l.get(n);
                if (m.kind != MirInstr.Kind.OP || m.proto.op().category() != 5 || m.def == null) continue;
                List<MirInstr> parts = splits.getOrDefault(m.def, List.of());
                int used = 0;
                for (MirInstr sp : parts) used |= 1 << sp.srcUnits[0];
                int mask = m.proto.count();
                if (readWhole.contains(m.def) || used == 0 || (used & mask) == mask) continue;
                VReg def = new VReg(mf.virtualRegisters++, Integer.bitCount(used), 1);
                MInstr p = m.proto;
                l.set(n, MirInstr.op(p.withMask(used), def, m.srcs, m.srcUnits));
                for (MirInstr sp : parts) {
                    int unit = Integer.bitCount(used & ((1 << sp.srcUnits[0]) - 1));
                    replace.put(sp, MirInstr.split(sp.def, def, unit));
                }
            }
        }
        for (List<MirInstr> l : code.values()) l.replaceAll(m -> replace.getOrDefault(m, m));
    }

    /**
     * {@link #removeDead()} over any selected code (passes after selection leave dead movs too):
     * a worklist, each instruction's sources losing a reader when it goes, so that a chain of
     * dead instructions costs its length, not its length squared.
     */
    static void removeDead(Map<Block, List<MirInstr>> code) {
        Map<VReg, Integer> uses = new HashMap<>();
        Map<VReg, MirInstr> defs = new HashMap<>();
        for (List<MirInstr> l : code.values()) {
            for (MirInstr m : l) {
                for (VReg s : m.srcs) if (s != null) uses.merge(s, 1, Integer::sum);
                if (m.phiSrcs != null) for (VReg s : m.phiSrcs.values()) uses.merge(s, 1, Integer::sum);
                if (m.def != null) defs.put(m.def, m);
            }
        }
        Set<MirInstr> dead = Collections.newSetFromMap(new IdentityHashMap<>());
        List<MirInstr> work = new ArrayList<>(defs.values());
        while (!work.isEmpty()) {
            MirInstr m = work.remove(work.size() - 1);
            if (dead.contains(m)
                    || uses.getOrDefault(m.def, 0) > 0
                    || m.kind == MirInstr.Kind.OP && !pure(m.proto.op())) continue;
            dead.add(m);
            List<VReg> read = new ArrayList<>();
            for (VReg s : m.srcs) if (s != null) read.add(s);
            if (m.phiSrcs != null) read.addAll(m.phiSrcs.values());
            for (VReg s : read) {
                if (uses.merge(s, -1, Integer::sum) == 0 && defs.containsKey(s)) work.add(defs.get(s));
            }
        }
        if (dead.isEmpty()) return;
        for (List<MirInstr> l : code.values()) l.removeIf(dead::contains);
    }

    private static boolean pure(MOp op) {
        int c = op.category();
        return c >= 1 && c <= 5 || op.isLoad();
    }

    // ---- values and registers ----------------------------------------------------------------

    VReg newReg(int bits) {
        return bits == 64 ? new VReg(nextReg++, 2, 2) : new VReg(nextReg++, 1, 1);
    }

    VReg newVector(int units) {
        return new VReg(nextReg++, units, 1);
    }

    void add(MirInstr m) {
        cur.add(m);
    }

    private VReg[] regs(Value v) {
        VReg[] r = vals.get(v);
        if (r == null) {
            r = new VReg[v.numComponents()];
            for (int c = 0; c < r.length; c++) r[c] = newReg(v.bitSize());
            vals.put(v, r);
        }
        return r;
    }

    /**
     * The register of component c of a source. A constant is materialized again right where
     * it is read (one mov), rather than kept live from its definition: constants are cheap to
     * make and, after CSE, often shared by uses all over the function.
     */
    VReg comp(Src s, int c) {
        if (s.value().parent() instanceof LoadConstInstr k)
            return materialize(k.value(s.component(c)), k.def().bitSize());
        return regs(s.value())[s.component(c)];
    }

    /** Gives {@code v} these registers: an alias, or copies when a phi already named its registers. */
    void define(Value v, VReg[] comps) {
        VReg[] had = vals.get(v);
        if (had == null) {
            vals.put(v, comps);
            return;
        }
        for (int c = 0; c < comps.length; c++) cur.add(MirInstr.copy(had[c], comps[c]));
    }

    static MType memType(int bits) {
        return bits == 8 ? MType.U8 : bits == 16 ? MType.U16 : bits == 64 ? MType.U64 : MType.U32;
    }

    CompileException unsupported(Instr i, String what) {
        String where = i.loc() != null ? i.loc() + ": " : "";
        return new CompileException(where + "not supported by the target: " + what);
    }

    // ---- selection ------------------------------------------------------------------------------

    private void select(Instr i) {
        current = i;
        if (i instanceof PhiInstr p) {
            phi(p);
        } else if (i instanceof LoadConstInstr k) {
            constant(k);
        } else if (i instanceof UndefInstr u) {
            VReg[] r = new VReg[u.def().numComponents()];
            for (int c = 0; c < r.length; c++) r[c] = materialize(0, u.def().bitSize());
            define(u.def(), r);
        } else if (i instanceof AluInstr a) {
            alu(a);
        } else if (i instanceof IntrinsicInstr x) {
            intrinsics.intrinsic(x);
        } else if (!(i instanceof JumpInstr)) { // the linearizer emits jumps from the structure
            throw unsupported(i, i.opName());
        }
    }

    private void phi(PhiInstr p) {
        VReg[] r = regs(p.def());
        for (int c = 0; c < r.length; c++) {
            MirInstr m = MirInstr.phi(r[c]);
            for (PhiInstr.PhiSrc ps : p.phiSrcs())
                m.phiSrcs.put(ps.pred(), regs(ps.src().value())[ps.src().component(c)]);
            cur.add(m);
        }
    }

    VReg materialize(long bits, int size) {
        VReg r = newReg(size);
        if (size == 64) {
            cur.add(MirInstr.op(
                    MInstr.mov(MType.U64, MType.U64, Operand.reg(0), Operand.constant(layout.constant64(bits))), r));
        } else {
            cur.add(MirInstr.op(MInstr.mov(MType.U32, MType.U32, Operand.reg(0), Operand.imm(bits & 0xffffffffL)), r));
        }
        return r;
    }

    private void constant(LoadConstInstr k) {
        // other readers materialize it where they read it (see comp); phis read it on their edges
        boolean phiReads = false;
        for (Src u = k.def().firstUse(); u != null; u = u.nextUse()) phiReads |= u.instr() instanceof PhiInstr;
        if (!phiReads) return;
        VReg[] r = new VReg[k.def().numComponents()];
        for (int c = 0; c < r.length; c++)
            r[c] = materialize(k.value(c), k.def().bitSize());
        define(k.def(), r);
    }

    /**
     * An ALU source: a cat2 immediate when the component is a constant that fits (for floats,
     * a whole number up to 1023 in magnitude, read as that float), else a register.
     */
    private Operand source(Src s, int c, MType t, boolean immOk, List<VReg> regs, List<Integer> units) {
        if (immOk && s.value().parent() instanceof LoadConstInstr k) {
            long bits = k.value(s.component(c));
            Long imm = immediate(bits, t);
            if (imm != null) return Operand.imm(imm);
        }
        units.add(0);
        if (t.kind() == MType.Kind.FLOAT) return fsrc(s, c, true, regs);
        regs.add(comp(s, c));
        return Operand.reg(0);
    }

    /**
     * A float source with fneg/fabs folded into source modifiers: fneg(y) flips the negation
     * (unless an abs is already outside it), fabs(y) takes the absolute value; cat3 sources
     * have no abs, so peeling stops at an fabs there. The fneg/fabs instructions themselves
     * are removed as dead when nothing else reads them.
     */
    private Operand fsrc(Src s, int c, boolean absOk, List<VReg> regs) {
        boolean neg = false, abs = false;
        Value v = s.value();
        int comp = s.component(c);
        while (v.parent() instanceof AluInstr f
                && (f.op() == Op.FNEG || f.op() == Op.FABS)
                && !(f.op() == Op.FABS && !absOk)) {
            if (f.op() == Op.FNEG) {
                if (!abs) neg = !neg;
            } else {
                abs = true;
            }
            comp = f.src(0).component(comp);
            v = f.src(0).value();
        }
        if (v.parent() instanceof LoadConstInstr k)
            regs.add(materialize(k.value(comp), k.def().bitSize()));
        else regs.add(regs(v)[comp]);
        return Operand.reg(0).withNeg(neg).withAbs(abs);
    }

    /** The cat2 immediate standing for {@code bits} read at type {@code t}, or null when none does. */
    static Long immediate(long bits, MType t) {
        if (t.kind() == MType.Kind.FLOAT) {
            double d = FloatBits.toDouble(bits, t.bits());
            if (d != Math.rint(d) || Math.abs(d) > 1023 || (d == 0 && FloatBits.isNegative(bits, t.bits())))
                return null;
            return (long) d;
        }
        if (t.bits() == 64) return null;
        long v = t.kind() == MType.Kind.SINT ? Bits.sext(bits, t.bits()) : bits;
        if (t.kind() == MType.Kind.UINT) v = Bits.sext(bits, t.bits()); // sign-extended, then truncated back
        return v >= -1024 && v <= 1023 ? v : null;
    }

    void emitAlu(MOp op, MType t, Cond cond, boolean sat, VReg dst, Operand[] srcs, List<VReg> regs) {
        // an expansion needing what the target lacks (a 64-bit floor for ffract) is refused here, by the op table's
        // types
        if (!op.types().allows(t)) {
            String what = current instanceof AluInstr a ? a.op().opName() : current.opName();
            throw unsupported(current, what + " on " + values(t) + lacks(op, t));
        }
        MInstr proto =
                MInstr.of(op, t, null, cond, 0, false, false, 0, sat, false, Operand.reg(0), List.of(srcs), 0, 0, 0, 0);
        VReg[] rs = new VReg[srcs.length];
        int k = 0;
        for (int s = 0; s < srcs.length; s++) {
            if (srcs[s].kind() == Operand.Kind.REG) rs[s] = regs.get(k++);
        }
        MirInstr m = MirInstr.op(proto, dst, rs, new int[srcs.length]);
        cur.add(m);
        if (dst != null) producers.put(dst, new Object[] {m, cur});
    }

    /** The IR instruction being selected, for messages. */
    private Instr current;

    /** Per result register, the ALU instruction that wrote it and its block's list (for folding fsat into it). */
    private final Map<VReg, Object[]> producers = new HashMap<>();

    /**
     * fsat of a float ALU result nothing else reads: the producer gets (sat) and the fsat is
     * nothing at all. Returns false (nothing changed) when any component cannot fold.
     */
    @SuppressWarnings("unchecked")
    private boolean foldSat(AluInstr sat) {
        Src s = sat.src(0);
        if (s.value().useCount() != 1 || !(s.value().parent() instanceof AluInstr)) return false;
        int n = sat.def().numComponents();
        VReg[] regs = vals.get(s.value());
        if (regs == null) return false;
        Object[][] found = new Object[n][];
        VReg[] out = new VReg[n];
        for (int c = 0; c < n; c++) {
            out[c] = regs[s.component(c)];
            found[c] = producers.get(out[c]);
            if (found[c] == null) return false;
            MInstr p = ((MirInstr) found[c][0]).proto;
            int cat = p.op().category();
            if (cat < 2
                    || cat > 4
                    || p.cond() != null
                    || p.type() == null
                    || p.type().kind() != MType.Kind.FLOAT
                    || p.type().bits() != sat.def().bitSize()) {
                return false;
            }
            for (int k = 0; k < c; k++) if (out[k] == out[c]) return false; // a swizzle reading one result twice
        }
        for (int c = 0; c < n; c++) {
            MirInstr m = (MirInstr) found[c][0];
            List<MirInstr> list = (List<MirInstr>) found[c][1];
            MInstr p = m.proto;
            MirInstr withSat = m.withProto(p.withSat(true));
            list.set(list.lastIndexOf(m), withSat);
            producers.put(out[c], new Object[] {withSat, list});
        }
        define(sat.def(), out);
        return true;
    }

    private void alu(AluInstr a) {
        Op op = a.op();
        Value d = a.def();
        int n = d.numComponents();
        switch (op) {
            case FSAT -> {
                if (foldSat(a)) return;
            }
            case MOV -> {
                VReg[] r = new VReg[n];
                for (int c = 0; c < n; c++) r[c] = comp(a.src(0), c);
                define(d, r);
                return;
            }
            case VEC2, VEC3, VEC4, VEC8, VEC16 -> {
                VReg[] r = new VReg[n];
                for (int c = 0; c < n; c++) r[c] = comp(a.src(c), 0);
                define(d, r);
                return;
            }
            case PACK_64_2X32_SPLIT -> {
                VReg[] r = new VReg[n];
                for (int c = 0; c < n; c++) {
                    r[c] = newReg(64);
                    cur.add(MirInstr.collect(r[c], comp(a.src(0), c), comp(a.src(1), c)));
                }
                define(d, r);
                return;
            }
            case PACK_64_2X32_SPLIT_X, PACK_64_2X32_SPLIT_Y -> {
                // a with one of its words replaced by b
                VReg[] r = new VReg[n];
                for (int c = 0; c < n; c++) {
                    VReg keep = newReg(32);
                    cur.add(MirInstr.split(keep, comp(a.src(0), c), op == Op.PACK_64_2X32_SPLIT_X ? 1 : 0));
                    r[c] = newReg(64);
                    VReg b = comp(a.src(1), c);
                    cur.add(
                            op == Op.PACK_64_2X32_SPLIT_X
                                    ? MirInstr.collect(r[c], b, keep)
                                    : MirInstr.collect(r[c], keep, b));
                }
                define(d, r);
                return;
            }
            case PACK_64_2X32 -> {
                VReg r = newReg(64);
                cur.add(MirInstr.collect(r, comp(a.src(0), 0), comp(a.src(0), 1)));
                define(d, new VReg[] {r});
                return;
            }
            case UNPACK_64_2X32_SPLIT_X, UNPACK_64_2X32_SPLIT_Y -> {
                VReg[] r = new VReg[n];
                for (int c = 0; c < n; c++) {
                    r[c] = newReg(32);
                    cur.add(MirInstr.split(r[c], comp(a.src(0), c), op == Op.UNPACK_64_2X32_SPLIT_X ? 0 : 1));
                }
                define(d, r);
                return;
            }
            case UNPACK_64_2X32 -> {
                VReg lo = newReg(32), hi = newReg(32);
                VReg src = comp(a.src(0), 0);
                cur.add(MirInstr.split(lo, src, 0));
                cur.add(MirInstr.split(hi, src, 1));
                define(d, new VReg[] {lo, hi});
                return;
            }
            default -> {}
        }
        VReg[] out = new VReg[n];
        int[] starts = new int[n + 1];
        for (int c = 0; c < n; c++) {
            starts[c] = cur.size();
            out[c] = newReg(d.bitSize());
            component(a, c, out[c]);
        }
        starts[n] = cur.size();
        if (n > 1) linkGroups(starts);
        define(d, out);
    }

    private int nextGroup = 1;
    /** Whether to link repeat groups at all ({@link MachineFunction#repeatGroups}). */
    boolean groups;

    /**
     * Links the instructions of one vector op's components into repeat groups (the ir3 rptN merge request of 2024, docs/BACKGROUND.md):
     * {@code cur[starts[c] .. starts[c + 1])} is component c's code; when every component took
     * the same number of instructions, the k-th of each, when they are the same ALU instruction,
     * form group k, lane c. (An expansion makes a group per step: the shifts of every component,
     * then their masks, ….)
     */
    void linkGroups(int[] starts) {
        if (!groups) return;
        int n = starts.length - 1, len = starts[1] - starts[0];
        for (int c = 1; c < n; c++) if (starts[c + 1] - starts[c] != len) return;
        for (int k = 0; k < len; k++) {
            MirInstr first = cur.get(starts[0] + k);
            if (first.kind != MirInstr.Kind.OP || !RepeatForm.repeatable(first.proto)) continue;
            boolean same = true;
            for (int c = 1; c < n && same; c++) {
                MInstr p = cur.get(starts[c] + k).proto;
                same = p != null && RepeatForm.sameShape(p, first.proto);
            }
            if (!same) continue;
            int g = nextGroup++;
            for (int c = 0; c < n; c++) {
                MirInstr m = cur.get(starts[c] + k);
                m.group = g;
                m.lane = c;
            }
        }
    }

    /** Component c of an ALU instruction into {@code dst}. */
    private void component(AluInstr a, int c, VReg dst) {
        Op op = a.op();
        int bits = a.src(0).value().bitSize();
        if (bits == 64 && WideInts.handles(op)) {
            new WideInts(this, a, c, dst).run();
            return;
        }
        List<VReg> regs = new ArrayList<>();
        List<Integer> units = new ArrayList<>();
        MType f = MType.of(MType.Kind.FLOAT, bits),
                u = MType.of(MType.Kind.UINT, bits),
                s = MType.of(MType.Kind.SINT, bits);
        switch (op) {
            case FADD, FSUB -> {
                if (!mad(a, c, dst, f)) {
                    if (op == Op.FADD) binary(MOp.ADD_F, f, a, c, dst, true);
                    else subtract(a, c, dst, f);
                }
            }
            case FNEG, FABS, FSAT -> {
                Operand x = fsrc(a.src(0), c, true, regs);
                if (op == Op.FNEG) x = x.withNeg(!x.neg());
                if (op == Op.FABS) x = x.withNeg(false).withAbs(true);
                emitAlu(MOp.ABSNEG_F, f, null, op == Op.FSAT, dst, new Operand[] {x}, regs);
            }
            case INEG, IABS -> {
                if (bits == 64 || bits == 1) throw unsupported(a, op.opName() + " on " + bits + "-bit integers");
                regs.add(comp(a.src(0), c));
                Operand x = Operand.reg(0).withNeg(op == Op.INEG).withAbs(op == Op.IABS);
                emitAlu(MOp.ABSNEG_S, s, null, false, dst, new Operand[] {x}, regs);
            }
            case BCSEL -> {
                int vb = a.src(1).value().bitSize();
                MType t = vb == 1 ? MType.B1 : MType.of(MType.Kind.UINT, vb);
                regs.add(comp(a.src(1), c));
                regs.add(comp(a.src(0), c));
                regs.add(comp(a.src(2), c));
                emitAlu(
                        MOp.SEL_B,
                        t,
                        null,
                        false,
                        dst,
                        new Operand[] {Operand.reg(0), Operand.reg(0), Operand.reg(0)},
                        regs);
            }
            case PACK_HALF_2X16_SPLIT -> {
                List<VReg> rs = List.of(comp(a.src(0), c), comp(a.src(1), c));
                emitAlu(MOp.PACKH, MType.F32, null, false, dst, new Operand[] {Operand.reg(0), Operand.reg(0)}, rs);
            }
            case UNPACK_HALF_2X16_SPLIT_X, UNPACK_HALF_2X16_SPLIT_Y ->
                unary(op == Op.UNPACK_HALF_2X16_SPLIT_X ? MOp.UNPACKH_LO : MOp.UNPACKH_HI, MType.U32, a, c, dst);
            case F2F16, F2F32, F2F64, I2I8, I2I16, I2I32, I2I64, U2U8, U2U16, U2U32, U2U64 -> {
                if (op.outputBits(bits) != bits) {
                    convert(a, c, dst, bits);
                } else if (op == Op.F2F16 || op == Op.F2F32 || op == Op.F2F64) {
                    // a float "conversion" to its own size only makes NaNs canonical, as x * 1.0 does
                    binImm(MOp.MUL_F, f, comp(a.src(0), c), 1, dst);
                } else {
                    add(MirInstr.copy(dst, comp(a.src(0), c)));
                }
            }
            default -> {
                // what one machine op, a cmps or a cov computes: selection reads the target's tables backwards
                MOp m = MOp.implementing(op);
                Semantics.Compare k = Semantics.compareFor(op, bits);
                if (m != null) direct(m, a, c, dst, bits);
                else if (k != null) compare(k.op(), k.type(), k.cond(), a, c, dst);
                else convert(a, c, dst, bits);
            }
        }
    }

    /** An IR op one machine op implements ({@link MOp#implementing}), at the type of the op's kind and the IR size. */
    private void direct(MOp m, AluInstr a, int c, VReg dst, int bits) {
        MType t = MType.of(m.types().kind(), bits);
        if (!m.types().allows(t)) throw unsupported(a, a.op().opName() + " on " + values(t) + lacks(m, t));
        switch (m.numSrcs()) {
            case 1 -> unary(m, t, a, c, dst);
            // immediates only in cat2: cat3 and cat4 take registers (and constants)
            case 2 -> binary(m, t, a, c, dst, m.category() == 2);
            default -> ternary(m, t, a, c, dst);
        }
    }

    /** " (the target's rcp does not take f64)". */
    private static String lacks(MOp op, MType t) {
        return " (the target's " + op.base() + " does not take " + t.suffix() + ")";
    }

    /** "64-bit floats", "16-bit integers", "booleans": the values of a type, for messages. */
    private static String values(MType t) {
        if (t == MType.B1) return "booleans";
        return t.bits() + "-bit " + (t.kind() == MType.Kind.FLOAT ? "floats" : "integers");
    }

    private void convert(AluInstr a, int c, VReg dst, int bits) {
        Op op = a.op();
        List<VReg> regs = new ArrayList<>();
        {
            {
                MType[] conv = Semantics.conversionFor(op, bits);
                if (conv == null) throw unsupported(a, op.opName());
                regs.add(comp(a.src(0), c));
                MInstr proto = MInstr.mov(conv[0], conv[1], Operand.reg(0), Operand.reg(0));
                cur.add(MirInstr.op(proto, dst, regs.get(0)));
            }
        }
    }

    /** a - b: an add with the negated b (or with -b as an immediate). */
    private void subtract(AluInstr a, int c, VReg dst, MType f) {
        List<VReg> regs = new ArrayList<>();
        List<Integer> units = new ArrayList<>();
        Operand x = source(a.src(0), c, f, true, regs, units);
        Operand y;
        Long negImm = a.src(1).value().parent() instanceof LoadConstInstr k
                ? negatedImmediate(k.value(a.src(1).component(c)), f)
                : null;
        if (negImm != null) {
            y = Operand.imm(negImm);
        } else {
            y = fsrc(a.src(1), c, true, regs);
            y = y.withNeg(!y.neg());
        }
        emitAlu(MOp.ADD_F, f, null, false, dst, new Operand[] {x, y}, regs);
    }

    /**
     * fadd/fsub of an fmul nothing else reads becomes one mad (two roundings, as the separate
     * instructions): a*b + c, a*b - c (c negated), c - a*b (a negated). The fmul, left
     * without readers, is removed as dead.
     */
    private boolean mad(AluInstr add, int c, VReg dst, MType f) {
        for (int k = 0; k < 2; k++) {
            Src m = add.src(k);
            if (!(m.value().parent() instanceof AluInstr mul) || mul.op() != Op.FMUL) continue;
            int mc = m.component(c);
            // the product read nowhere else (a vector fmul's other components may be: they stay)
            if (reads(m.value(), mc) != 1) continue;
            List<VReg> regs = new ArrayList<>();
            Operand ox = fsrc(mul.src(0), mc, false, regs),
                    oy = fsrc(mul.src(1), mc, false, regs),
                    oz = fsrc(add.src(1 - k), c, false, regs);
            boolean sub = add.op() == Op.FSUB;
            if (sub && k == 0) oz = oz.withNeg(!oz.neg()); // a*b - c
            if (sub && k == 1) ox = ox.withNeg(!ox.neg()); // c - a*b = (-a)*b + c
            emitAlu(MOp.MAD_F, f, null, false, dst, new Operand[] {ox, oy, oz}, regs);
            return true;
        }
        return false;
    }

    /** How many times component {@code comp} of {@code v} is read (a reader other than an ALU instruction reads every component). */
    private static int reads(Value v, int comp) {
        int n = 0;
        for (Src u = v.firstUse(); u != null; u = u.nextUse()) {
            if (!u.hasSwizzle()) {
                n++;
                continue;
            }
            for (int c = 0; c < u.numComponentsRead(); c++) if (u.component(c) == comp) n++;
        }
        return n;
    }

    /** {@code into = cond ? ifTrue : ifFalse}, a {@code sel} of type {@code t} (a pair's for 64 bits). */
    VReg sel(MType t, VReg cond, VReg ifTrue, VReg ifFalse, VReg into) {
        emitAlu(
                MOp.SEL_B,
                t,
                null,
                false,
                into,
                new Operand[] {Operand.reg(0), Operand.reg(0), Operand.reg(0)},
                List.of(ifTrue, cond, ifFalse));
        return into;
    }

    VReg bin(MOp m, MType t, VReg x, VReg y) {
        return bin(m, t, x, y, newReg(t.bits()));
    }

    VReg bin(MOp m, MType t, VReg x, VReg y, VReg dst) {
        emitAlu(m, t, null, false, dst, new Operand[] {Operand.reg(0), Operand.reg(0)}, List.of(x, y));
        return dst;
    }

    VReg binImm(MOp m, MType t, VReg x, long imm, VReg dst) {
        emitAlu(m, t, null, false, dst, new Operand[] {Operand.reg(0), Operand.imm(imm)}, List.of(x));
        return dst;
    }

    private static Long negatedImmediate(long bits, MType t) {
        double d = FloatBits.toDouble(bits, t.bits());
        if (d == 0 || d != Math.rint(d) || Math.abs(d) > 1023) return null;
        return (long) -d;
    }

    private void unary(MOp m, MType t, AluInstr a, int c, VReg dst) {
        List<VReg> regs = new ArrayList<>();
        Operand x = Operand.reg(0);
        if (t.kind() == MType.Kind.FLOAT) x = fsrc(a.src(0), c, true, regs);
        else regs.add(comp(a.src(0), c));
        emitAlu(m, t, null, false, dst, new Operand[] {x}, regs);
    }

    private void binary(MOp m, MType t, AluInstr a, int c, VReg dst, boolean immOk) {
        List<VReg> regs = new ArrayList<>();
        List<Integer> units = new ArrayList<>();
        boolean imm = immOk && t.bits() != 64;
        Operand x = source(a.src(0), c, t, imm, regs, units);
        Operand y = source(
                a.src(1), c, m == MOp.SHL_B || m == MOp.SHR_B || m == MOp.ASHR_B ? MType.U32 : t, imm, regs, units);
        if (x.kind() == Operand.Kind.IMM && y.kind() == Operand.Kind.IMM) {
            // both constant (folding was off): the first goes through a register
            regs.add(0, comp(a.src(0), c));
            x = Operand.reg(0);
        }
        emitAlu(m, t, null, false, dst, new Operand[] {x, y}, regs);
    }

    private void ternary(MOp m, MType t, AluInstr a, int c, VReg dst) {
        List<VReg> regs = new ArrayList<>();
        Operand x = fsrc(a.src(0), c, false, regs),
                y = fsrc(a.src(1), c, false, regs),
                z = fsrc(a.src(2), c, false, regs);
        emitAlu(m, t, null, false, dst, new Operand[] {x, y, z}, regs);
    }

    /**
     * p0.x = a condition, for br and kill: the comparison itself written to p0.x when the
     * condition is a comparison nothing else reads (the 0/1 register version then goes as
     * dead), else {@code cond != 0}.
     */
    void predicate(Src cond) {
        if (cond.value().parent() instanceof AluInstr cmp
                && cond.value().useCount() == 1
                && cond.value().numComponents() == 1) {
            int bits = cmp.src(0).value().bitSize();
            Semantics.Compare k = Semantics.compareFor(cmp.op(), bits);
            if (k != null && bits <= 32) {
                List<VReg> regs = new ArrayList<>();
                List<Integer> units = new ArrayList<>();
                int c = cond.component(0);
                Operand x = source(cmp.src(0), c, k.type(), false, regs, units);
                Operand y = source(cmp.src(1), c, k.type(), true, regs, units);
                MInstr proto = MInstr.cmps(k.op(), k.type(), k.cond(), Operand.P0, x, y);
                VReg[] rs = new VReg[2];
                int r = 0;
                if (x.kind() == Operand.Kind.REG) rs[0] = regs.get(r++);
                if (y.kind() == Operand.Kind.REG) rs[1] = regs.get(r);
                cur.add(MirInstr.op(proto, null, rs, new int[2]));
                return;
            }
        }
        cur.add(MirInstr.op(
                MInstr.cmps(MOp.CMPS_U, MType.U32, Cond.NE, Operand.P0, Operand.reg(0), Operand.imm(0)),
                null,
                comp(cond, 0),
                null));
    }

    private void compare(MOp m, MType t, Cond cond, AluInstr a, int c, VReg dst) {
        List<VReg> regs = new ArrayList<>();
        List<Integer> units = new ArrayList<>();
        boolean imm = t.bits() != 64;
        Operand x = source(a.src(0), c, t, false, regs, units);
        Operand y = source(a.src(1), c, t, imm, regs, units);
        emitAlu(m, t, cond, false, dst, new Operand[] {x, y}, regs);
    }

    // ---- intrinsics -----------------------------------------------------------------------------

    /** Whether a node list can fall off its end (its last block does not jump). */
    static boolean fallsThrough(CfList list) {
        CfNode last = list.last();
        return !(last instanceof Block b) || b.jump() == null;
    }
}
