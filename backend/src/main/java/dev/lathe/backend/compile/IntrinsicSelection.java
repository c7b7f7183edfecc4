package dev.lathe.backend.compile;

import dev.lathe.backend.isa.Cond;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;
import dev.lathe.backend.isa.Operand;
import dev.lathe.backend.isa.SysVal;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Stage;
import dev.lathe.ir.TextureDim;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.analysis.range.Range;
import dev.lathe.ir.op.Op;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The intrinsics' half of instruction selection (as Mesa splits {@code ir3_compiler_nir.c}'s
 * ALU emission from its intrinsics): inputs and outputs, uniforms (from the constant file,
 * through the address register, or from uniform memory past it), buffer, global, local and
 * workgroup memory, atomics, images, textures, system values, discard and barriers. Every
 * access is bounds-checked the way ISA.md says. {@link Isel} owns the registers and the block
 * being written; this reads and writes them through it.
 */
final class IntrinsicSelection {
    private final Isel isel;

    IntrinsicSelection(Isel isel) {
        this.isel = isel;
    }

    private int slot(Variable v) {
        return isel.layout.slots.get(v.name());
    }

    private static MType varType(Variable v) {
        int bits = v.type().bitSize();
        return switch (v.type().base()) {
            case FLOAT -> MType.of(MType.Kind.FLOAT, bits);
            case INT -> MType.of(MType.Kind.SINT, bits);
            case BOOL -> MType.B1;
            default -> MType.of(MType.Kind.UINT, bits);
        };
    }

    private VReg sysval(SysVal v) {
        VReg r = isel.newReg(32);
        isel.cur.add(MirInstr.op(MInstr.mov(MType.U32, MType.U32, Operand.reg(0), Operand.special(v)), r));
        return r;
    }

    void intrinsic(IntrinsicInstr x) {
        Variable v = x.var();
        Value d = x.def();
        if (x.intrinsic().atomicOp() != null) {
            atomic(x, v);
            return;
        }
        switch (x.intrinsic()) {
            case LOAD_INPUT -> {
                VReg[] r = new VReg[d.numComponents()];
                MType t = varType(v);
                boolean bary = isel.shader.stage() == Stage.FRAGMENT && !v.isFlat() && t == MType.F32;
                int[] starts = new int[r.length + 1];
                for (int c = 0; c < r.length; c++) {
                    starts[c] = isel.cur.size();
                    r[c] = isel.newReg(d.bitSize());
                    MInstr proto = bary
                            ? MInstr.alu(MOp.BARY_F, MType.F32, Operand.reg(0), Operand.imm(slot(v)), Operand.imm(c))
                            : MInstr.memory(
                                    MOp.LDLV,
                                    isel.memType(d.bitSize()),
                                    1,
                                    Operand.reg(0),
                                    Operand.NONE,
                                    Operand.NONE,
                                    slot(v),
                                    c);
                    isel.cur.add(MirInstr.op(proto, r[c]));
                }
                starts[r.length] = isel.cur.size();
                if (bary) isel.linkGroups(starts);
                isel.define(d, r);
            }
            case STORE_OUTPUT -> {
                Src val = x.src(0);
                if (isel.outputsInRegisters) {
                    VReg[] r = new VReg[val.numComponentsRead()];
                    for (int c = 0; c < r.length; c++) r[c] = isel.comp(val, c);
                    isel.exitOutputs
                            .computeIfAbsent(x.block(), k -> new HashMap<>())
                            .put(v, r);
                    return;
                }
                for (int c = 0; c < val.numComponentsRead(); c++) {
                    MInstr proto = MInstr.memory(
                            MOp.STO,
                            isel.memType(val.value().bitSize()),
                            1,
                            Operand.NONE,
                            Operand.NONE,
                            Operand.reg(0),
                            slot(v),
                            c);
                    isel.cur.add(MirInstr.op(proto, null, null, isel.comp(val, c)));
                }
            }
            case LOAD_UNIFORM, LOAD_CONSTANT -> uniform(x, v, d);
            case LOAD_BUFFER -> loadMemory(MOp.LDG, x, d, slot(v));
            case STORE_BUFFER -> storeMemory(MOp.STG, x, slot(v));
            case LOAD_GLOBAL -> loadMemory(MOp.LDGA, x, d, 0);
            case STORE_GLOBAL -> storeMemory(MOp.STGA, x, 0);
            case IMAGE_LOAD, IMAGE_STORE -> image(x, v);
            case IMAGE_SIZE, BUFFER_SIZE -> {
                // the driver writes the sizes in constant scalars (Layout.sizeSlot)
                int at = isel.layout.sizeSlot(v);
                VReg[] r = new VReg[d.numComponents()];
                for (int c = 0; c < r.length; c++) {
                    r[c] = isel.newReg(32);
                    isel.cur.add(MirInstr.op(
                            MInstr.mov(MType.U32, MType.U32, Operand.reg(0), Operand.constant(at + c)), r[c]));
                }
                isel.define(d, r);
            }
            case TEX, TXL, TXF, TXS -> texture(x, v, d);
            case LOAD_VAR, STORE_VAR, LOAD_SHARED, STORE_SHARED -> local(x, v);
            case LOAD_LOCAL_INVOCATION_ID ->
                isel.define(
                        d,
                        new VReg[] {sysval(SysVal.LOCAL_ID_X), sysval(SysVal.LOCAL_ID_Y), sysval(SysVal.LOCAL_ID_Z)});
            case LOAD_WORKGROUP_ID ->
                isel.define(d, new VReg[] {
                    sysval(SysVal.WORKGROUP_ID_X), sysval(SysVal.WORKGROUP_ID_Y), sysval(SysVal.WORKGROUP_ID_Z)
                });
            case LOAD_NUM_WORKGROUPS ->
                isel.define(d, new VReg[] {
                    sysval(SysVal.NUM_WORKGROUPS_X), sysval(SysVal.NUM_WORKGROUPS_Y), sysval(SysVal.NUM_WORKGROUPS_Z)
                });
            case LOAD_WORKGROUP_SIZE ->
                isel.define(d, new VReg[] {
                    sysval(SysVal.WORKGROUP_SIZE_X), sysval(SysVal.WORKGROUP_SIZE_Y), sysval(SysVal.WORKGROUP_SIZE_Z)
                });
            case LOAD_LOCAL_INVOCATION_INDEX -> isel.define(d, new VReg[] {sysval(SysVal.LOCAL_INDEX)});
            case LOAD_GLOBAL_INVOCATION_ID -> {
                SysVal[][] parts = {
                    {SysVal.WORKGROUP_ID_X, SysVal.WORKGROUP_SIZE_X, SysVal.LOCAL_ID_X},
                    {SysVal.WORKGROUP_ID_Y, SysVal.WORKGROUP_SIZE_Y, SysVal.LOCAL_ID_Y},
                    {SysVal.WORKGROUP_ID_Z, SysVal.WORKGROUP_SIZE_Z, SysVal.LOCAL_ID_Z}
                };
                VReg[] r = new VReg[3];
                for (int c = 0; c < 3; c++) {
                    VReg w = sysval(parts[c][0]), s = sysval(parts[c][1]), l = sysval(parts[c][2]);
                    VReg p = isel.newReg(32);
                    isel.emitAlu(
                            MOp.MUL_U,
                            MType.U32,
                            null,
                            false,
                            p,
                            new Operand[] {Operand.reg(0), Operand.reg(0)},
                            List.of(w, s));
                    r[c] = isel.newReg(32);
                    isel.emitAlu(
                            MOp.ADD_U,
                            MType.U32,
                            null,
                            false,
                            r[c],
                            new Operand[] {Operand.reg(0), Operand.reg(0)},
                            List.of(p, l));
                }
                isel.define(d, r);
            }
            case LOAD_FRAG_COORD ->
                isel.define(d, new VReg[] {
                    sysval(SysVal.FRAG_COORD_X),
                    sysval(SysVal.FRAG_COORD_Y),
                    sysval(SysVal.FRAG_COORD_Z),
                    sysval(SysVal.FRAG_COORD_W)
                });
            case LOAD_FRONT_FACE -> isel.define(d, new VReg[] {sysval(SysVal.FRONT_FACE)});
            case LOAD_VERTEX_ID -> isel.define(d, new VReg[] {sysval(SysVal.VERTEX_ID)});
            case LOAD_INSTANCE_ID -> isel.define(d, new VReg[] {sysval(SysVal.INSTANCE_ID)});
            case DISCARD -> {
                isel.cur.add(MirInstr.op(MInstr.mov(MType.B1, MType.B1, Operand.P0, Operand.imm(1)), null));
                isel.cur.add(MirInstr.op(MInstr.flow(MOp.KILL, false, 0), null));
            }
            case DISCARD_IF -> {
                isel.predicate(x.src(0));
                isel.cur.add(MirInstr.op(MInstr.flow(MOp.KILL, false, 0), null));
            }
            case BARRIER -> isel.cur.add(MirInstr.op(MInstr.bar(), null));
            default -> throw isel.unsupported(x, x.opName());
        }
    }

    private void uniform(IntrinsicInstr x, Variable v, Value d) {
        int base = slot(v);
        int units = d.bitSize() == 64 ? 2 : 1;
        int comps = v.type().components();
        MType t = d.bitSize() == 64 ? MType.U64 : MType.U32;
        VReg[] r = new VReg[d.numComponents()];
        if (x.numSrcs() == 0 || x.src(0).value().parent() instanceof LoadConstInstr) {
            long index = x.numSrcs() == 0
                    ? 0
                    : ((LoadConstInstr) x.src(0).value().parent())
                                    .value(x.src(0).component(0))
                            & 0xffffffffL;
            boolean inRange = index < Math.max(1, v.arrayLength());
            for (int c = 0; c < r.length; c++) {
                if (!inRange) {
                    r[c] = isel.materialize(0, d.bitSize());
                    continue;
                }
                r[c] = isel.newReg(d.bitSize());
                int at = base + (int) (index * comps + c) * units;
                // past the constant file (uniform memory): an ldc at a fixed address
                isel.cur.add(MirInstr.op(
                        at >= Encoding.MAX_CONST
                                ? MInstr.memory(MOp.LDC, t, 1, Operand.reg(0), Operand.NONE, Operand.NONE, 0, at)
                                : MInstr.mov(t, t, Operand.reg(0), Operand.constant(at)),
                        r[c]));
            }
            isel.define(d, r);
            return;
        }
        // a run-time index: an element at a clamped address, zero when out of range (as the
        // interpreter reads). From the constant file through the address register, as ir3 reads
        // uniform arrays: mova a0.x, then c<a0.x + n> (an index out of range points a0.x at a
        // block of zeros); past the constant file (uniform memory) with ldc and a select.
        // the whole array in the constant file: read through the address register
        boolean relative = units == 1 && base + (long) v.arrayLength() * comps <= Encoding.MAX_CONST;
        Aligned run = relative ? aligned(x.src(0), v.arrayLength()) : null;
        if (run != null) {
            VReg addr = runAddress(v, run, base, comps);
            if (addr != null) {
                readRelative(addr, base + (int) run.k() * comps, t, d);
                return;
            }
        }
        VReg index = isel.comp(x.src(0), 0);
        int scale = comps * units;
        if (relative && knownBelow(x.src(0), v.arrayLength())) {
            // the range analysis knows the index is in range (bayer[(y & 3) * 4 + (x & 3)]): no check, no select
            VReg at = index;
            if (scale != 1) {
                at = isel.newReg(32);
                aluWithConstant(MOp.MUL_U, null, at, index, scale);
            }
            readRelative(at, base, t, d);
            return;
        }
        VReg ok = isel.newReg(32), addr = isel.newReg(32), scaled = index;
        aluWithConstant(MOp.CMPS_U, Cond.LT, ok, index, v.arrayLength());
        if (scale != 1) {
            scaled = isel.newReg(32);
            aluWithConstant(MOp.MUL_U, null, scaled, index, scale);
        }
        int zeros = relative ? isel.layout.zeros(comps) : -1;
        if (zeros >= 0) {
            VReg spare = isel.materialize(zeros - base, 32);
            isel.sel(MType.U32, ok, scaled, spare, addr);
            readRelative(addr, base, t, d);
            return;
        }
        VReg zero = isel.materialize(0, 32);
        isel.sel(MType.U32, ok, scaled, zero, addr);
        VReg zeroValue = isel.materialize(0, d.bitSize());
        for (int c = 0; c < r.length; c++) {
            VReg raw = isel.newReg(d.bitSize());
            isel.cur.add(MirInstr.op(
                    MInstr.memory(MOp.LDC, t, 1, Operand.reg(0), Operand.reg(0), Operand.NONE, 0, base + c * units),
                    raw,
                    addr,
                    null));
            r[c] = isel.newReg(d.bitSize());
            isel.sel(t, ok, raw, zeroValue, r[c]);
        }
        isel.define(d, r);
    }

    /** {@code d}'s components read as c<a0.x + base + c>, a0.x loaded from {@code addr}. */
    private void readRelative(VReg addr, int base, MType t, Value d) {
        isel.cur.add(MirInstr.op(MInstr.mova(Operand.reg(0)), null, addr));
        VReg[] r = new VReg[d.numComponents()];
        for (int c = 0; c < r.length; c++) {
            r[c] = isel.newReg(32);
            isel.cur.add(MirInstr.op(MInstr.mov(t, t, Operand.reg(0), Operand.relConst(base + c)), r[c]));
        }
        isel.define(d, r);
    }

    /** Whether the range analysis knows that (unsigned) {@code index} is below {@code n}. */
    private boolean knownBelow(Src index, long n) {
        Range r = isel.fn.analyses().ranges().range(index.value(), index.component(0));
        return !r.empty() && r.uHi() < n;
    }

    /**
     * A run-time index written {@code base + k}: {@code base} a multiple of {@code align} (a
     * shift left or a multiply by a power of two), {@code k} a constant below it, the array a
     * whole number of runs of {@code align} elements — a matrix's columns, {@code m[i]}'s
     * {@code 4i + k}. Then {@code base + k} is in range exactly when {@code base} is (it cannot
     * wrap), so every element of the run shares one check and one address.
     */
    private record Aligned(Src base, long k, int align) {}

    private static Aligned aligned(Src index, int length) {
        Src base = index;
        long k = 0;
        if (scalar(index) instanceof AluInstr add && add.op() == Op.IADD) {
            for (int s = 0; s < 2; s++) {
                Long c = constant(add.src(1 - s));
                if (c != null) {
                    base = add.src(s);
                    k = c;
                    break;
                }
            }
        }
        long align = alignment(base, 3);
        if (align <= 1 || k >= align || length % align != 0) return null;
        return new Aligned(base, k, (int) align);
    }

    /** The largest power of two (up to 2^15) {@code s} is known to be a multiple of, looking {@code depth} instructions up. */
    private static long alignment(Src s, int depth) {
        Long c = constant(s);
        if (c != null) return c == 0 ? MAX_ALIGN : Math.min(MAX_ALIGN, Long.lowestOneBit(c));
        if (depth == 0 || !(scalar(s) instanceof AluInstr a) || a.numSrcs() != 2) return 1;
        Long by = constant(a.src(1));
        return switch (a.op()) {
            case ISHL -> by != null && by < 16 ? Math.min(MAX_ALIGN, alignment(a.src(0), depth - 1) << by) : 1;
            case IMUL -> {
                long x = alignment(a.src(0), depth - 1), y = alignment(a.src(1), depth - 1);
                yield Math.min(MAX_ALIGN, x * y);
            }
            case IADD -> Math.min(alignment(a.src(0), depth - 1), alignment(a.src(1), depth - 1));
            default -> 1;
        };
    }

    private static final long MAX_ALIGN = 1 << 15;

    /** The instruction defining a scalar 32-bit value, or null. */
    private static Instr scalar(Src s) {
        Value v = s.value();
        return v.numComponents() == 1 && v.bitSize() == 32 ? v.parent() : null;
    }

    private static Long constant(Src s) {
        return s.value().parent() instanceof LoadConstInstr lc ? lc.value(s.component(0)) & 0xffffffffL : null;
    }

    /** Per block: the a0.x value of a run's base (one check and address for all its elements). */
    private final Map<List<Object>, VReg> runAddresses = new HashMap<>();

    private List<MirInstr> runAddressesFor;

    /**
     * The a0.x value for the run at {@code run.base()} of uniform array {@code v} (at constant
     * {@code slot}): base·comps in range, else a block of zeros as long as the run; made once per
     * block and base. Null when the constant file has no room for the zeros.
     */
    private VReg runAddress(Variable v, Aligned run, int slot, int comps) {
        if (runAddressesFor != isel.cur) {
            runAddresses.clear();
            runAddressesFor = isel.cur;
        }
        List<Object> key = List.of(v, run.base().value(), run.base().component(0));
        VReg had = runAddresses.get(key);
        if (had != null) return had;
        int zeros = isel.layout.zeros(run.align() * comps);
        if (zeros < 0) return null;
        VReg index = isel.comp(run.base(), 0);
        VReg ok = isel.newReg(32), addr = isel.newReg(32), scaled = isel.newReg(32);
        aluWithConstant(MOp.CMPS_U, Cond.LT, ok, index, v.arrayLength());
        aluWithConstant(MOp.MUL_U, null, scaled, index, comps);
        VReg spare = isel.materialize(zeros - slot, 32);
        isel.sel(MType.U32, ok, scaled, spare, addr);
        runAddresses.put(key, addr);
        return addr;
    }

    /**
     * The byte address (from the variable's base) of element {@code index} of an array of
     * {@code elem}-byte elements, clamped to the spare element after it when out of range, and
     * the in-range flag: {addr, ok}.
     */
    private VReg[] elementAddress(VReg index, Variable v, int elem) {
        VReg ok = isel.newReg(32);
        aluWithConstant(MOp.CMPS_U, Cond.LT, ok, index, v.arrayLength());
        VReg scaled = isel.newReg(32);
        aluWithConstant(MOp.MUL_U, null, scaled, index, elem);
        VReg spare = isel.materialize((long) v.arrayLength() * elem, 32);
        VReg addr = isel.newReg(32);
        isel.sel(MType.U32, ok, scaled, spare, addr);
        return new VReg[] {addr, ok};
    }

    /**
     * Buffer atomics address the buffer at the byte offset; shared ones the element, clamped to
     * the spare element like loads and stores, with the result replaced by zero out of range
     * (the interpreter neither reads nor writes there).
     */
    private void atomic(IntrinsicInstr x, Variable v) {
        AtomicOp a = x.intrinsic().atomicOp();
        boolean shared = v.kind() == Variable.Kind.SHARED;
        boolean image = v.kind() == Variable.Kind.IMAGE;
        MOp op = MOp.atomic(a, v.kind());
        MType t = MOp.atomicType(a);
        VReg addr, ok = null;
        int next;
        int dims = image ? v.dim().coordinates() : 0;
        if (image) {
            VReg[] parts = new VReg[dims];
            for (int c = 0; c < dims; c++) parts[c] = isel.comp(x.src(0), c);
            addr = coordinates(parts);
            next = 1;
        } else if (!shared) {
            addr = isel.comp(x.src(0), 0);
            next = 1;
        } else {
            int base = isel.sharedOffsets.get(v);
            VReg rel;
            if (v.isArray()) {
                VReg[] at = elementAddress(isel.comp(x.src(0), 0), v, Layout.elementBytes(v));
                rel = at[0];
                ok = at[1];
                next = 1;
            } else {
                rel = isel.materialize(0, 32);
                next = 0;
            }
            addr = isel.newReg(32);
            aluWithConstant(MOp.ADD_U, null, addr, rel, base);
        }
        VReg compare = a.hasCompare() ? isel.comp(x.src(next++), 0) : null;
        VReg data = isel.comp(x.src(next), 0);
        VReg raw = isel.newReg(32);
        MInstr proto = MInstr.atomic(
                op,
                t,
                Operand.reg(0),
                Operand.reg(0),
                Operand.reg(0),
                compare == null ? Operand.NONE : Operand.reg(0),
                shared ? 0 : slot(v),
                dims);
        isel.cur.add(
                compare == null ? MirInstr.op(proto, raw, addr, data) : MirInstr.op(proto, raw, addr, data, compare));
        VReg r = raw;
        if (ok != null) {
            r = isel.newReg(32);
            isel.sel(MType.U32, ok, raw, isel.materialize(0, 32), r);
        }
        isel.define(x.def(), new VReg[] {r});
    }

    /** {@code dst = a OP k} on u32: k as an immediate when it fits the 11-bit field, else in a register. */
    private void aluWithConstant(MOp op, Cond cond, VReg dst, VReg a, long k) {
        if (k >= -1024 && k <= 1023) {
            isel.emitAlu(op, MType.U32, cond, false, dst, new Operand[] {Operand.reg(0), Operand.imm(k)}, List.of(a));
        } else {
            isel.emitAlu(
                    op,
                    MType.U32,
                    cond,
                    false,
                    dst,
                    new Operand[] {Operand.reg(0), Operand.reg(0)},
                    List.of(a, isel.materialize(k, 32)));
        }
    }

    /** ldib/stib: the coordinates (and a stored texel) as register vectors; bounds and format are the hardware's. */
    private void image(IntrinsicInstr x, Variable v) {
        int dims = v.dim().coordinates();
        MType t =
                v.type().base() == BaseType.FLOAT ? MType.F32 : v.type().base() == BaseType.INT ? MType.S32 : MType.U32;
        VReg[] parts = new VReg[dims];
        for (int c = 0; c < dims; c++) parts[c] = isel.comp(x.src(0), c);
        VReg coord = coordinates(parts);
        if (x.intrinsic() == Intrinsic.IMAGE_STORE) {
            VReg[] texel = new VReg[4];
            for (int c = 0; c < 4; c++) texel[c] = isel.comp(x.src(1), c);
            VReg data = isel.newVector(4);
            isel.cur.add(MirInstr.collect(data, texel));
            isel.cur.add(MirInstr.op(
                    MInstr.image(MOp.STIB, t, dims, Operand.NONE, Operand.reg(0), Operand.reg(0), slot(v)),
                    null,
                    coord,
                    data));
            return;
        }
        VReg result = isel.newVector(4);
        isel.cur.add(MirInstr.op(
                MInstr.image(MOp.LDIB, t, dims, Operand.reg(0), Operand.reg(0), Operand.NONE, slot(v)),
                result,
                coord,
                null));
        VReg[] r = new VReg[4];
        for (int c = 0; c < 4; c++) {
            r[c] = isel.newReg(32);
            isel.cur.add(MirInstr.split(r[c], result, c));
        }
        isel.define(x.def(), r);
    }

    /** This block's coordinate vectors by their pieces: textures sampled at the same coordinates share one. */
    private final Map<List<VReg>, VReg> coordinates = new HashMap<>();

    /** A new block begins: coordinates collected in the last one are not reused. */
    void startBlock() {
        coordinates.clear();
    }

    /** The pieces collected into consecutive registers, once per block for the same pieces. */
    private VReg coordinates(VReg[] parts) {
        return coordinates.computeIfAbsent(List.of(parts), k -> {
            VReg v = isel.newVector(parts.length);
            isel.cur.add(MirInstr.collect(v, parts));
            return v;
        });
    }

    private void texture(IntrinsicInstr x, Variable v, Value d) {
        int dims = v.dim().coordinates();
        if (v.dim() == TextureDim.CUBE_ARRAY && x.intrinsic() == Intrinsic.TXF)
            throw isel.unsupported(x, "txf on a cube array (isam fetches from 1D to 3D textures)");
        MType texel =
                v.type().base() == BaseType.FLOAT ? MType.F32 : v.type().base() == BaseType.INT ? MType.S32 : MType.U32;
        MOp op = switch (x.intrinsic()) {
            case TEX -> MOp.SAM;
            case TXL -> MOp.SAMLOD;
            case TXF -> MOp.ISAM;
            default -> MOp.GETSIZE;
        };
        // an array of textures: its elements are in consecutive slots, the element in source 0
        int first = v.isArray() ? 1 : 0;
        Integer heap = isel.layout.slots.get(v.name() + Layout.HEAP);
        int texture = heap != null ? 0 : slot(v);
        VReg element = null;
        if (heap != null) {
            // bindless: the heap's descriptor is the array's first plus the element, past the end the last
            long last = v.arrayLength() - 1;
            if (!v.isArray()) {
                element = isel.materialize(heap, 32);
            } else if (x.src(0).value().parent() instanceof LoadConstInstr k) {
                element = isel.materialize(heap + Math.min(k.value(x.src(0).component(0)) & 0xffffffffL, last), 32);
            } else {
                VReg at = isel.binImm(MOp.MIN_U, MType.U32, isel.comp(x.src(0), 0), last, isel.newReg(32));
                element = heap == 0 ? at : isel.binImm(MOp.ADD_U, MType.U32, at, heap, isel.newReg(32));
            }
        } else if (v.isArray()) {
            long last = v.arrayLength() - 1;
            if (x.src(0).value().parent() instanceof LoadConstInstr k) {
                texture += (int) Math.min(k.value(x.src(0).component(0)) & 0xffffffffL, last);
            } else {
                // past the end is the last element (the IR's definition; the hardware would read another texture)
                element = isel.binImm(MOp.MIN_U, MType.U32, isel.comp(x.src(0), 0), last, isel.newReg(32));
            }
        }
        VReg coord = null, lod = null;
        if (op != MOp.GETSIZE) {
            VReg[] parts = new VReg[dims];
            for (int c = 0; c < dims; c++) parts[c] = isel.comp(x.src(first), c);
            coord = coordinates(parts);
        }
        if (op == MOp.SAMLOD) lod = isel.comp(x.src(first + 1), 0);
        int comps = op == MOp.GETSIZE ? v.dim().sizes() : 4;
        VReg result = isel.newVector(comps);
        MType type = op == MOp.GETSIZE ? MType.U32 : texel;
        Operand coordOp = op == MOp.GETSIZE ? Operand.NONE : Operand.reg(0),
                lodOp = lod == null ? Operand.NONE : Operand.reg(0);
        MInstr proto = heap != null
                ? MInstr.bindlessTexture(
                        op, type, dims, (1 << comps) - 1, Operand.reg(0), coordOp, lodOp, Operand.reg(0))
                : MInstr.texture(
                        op,
                        type,
                        dims,
                        (1 << comps) - 1,
                        Operand.reg(0),
                        coordOp,
                        lodOp,
                        texture,
                        element == null ? Operand.NONE : Operand.reg(0));
        isel.cur.add(MirInstr.op(proto, result, coord, lod, element));
        VReg[] r = new VReg[comps];
        for (int c = 0; c < comps; c++) {
            r[c] = isel.newReg(32);
            isel.cur.add(MirInstr.split(r[c], result, c));
        }
        isel.define(d, r);
    }

    /**
     * Locals left after vars_to_ssa (arrays indexed at run time) live in local memory, shared
     * variables in workgroup memory ({@code ldlw}/{@code stlw}). An index out of range reads
     * zero and drops the store, as the interpreter does: the address is clamped to a spare
     * element after the array, and a load's value is replaced by zero.
     */
    /** A load of each component from memory at the address in source 0 (a byte offset into buffer {@code slot}, or a device address). */
    private void loadMemory(MOp op, IntrinsicInstr x, Value d, int slot) {
        VReg addr = isel.comp(x.src(0), 0);
        int bytes = d.bitSize() / 8;
        VReg[] r = new VReg[d.numComponents()];
        int read = readComponents(d);
        int count = Integer.SIZE - Integer.numberOfLeadingZeros(read);
        if (op == MOp.LDG && d.bitSize() == 32 && count > 1 && read == (1 << count) - 1) {
            // the components read are the first ones, at consecutive addresses: one load of them all
            // (ir3's ldg.N, NIR's vectorized load_ssbo), split into its registers; each byte outside the
            // buffer still reads 0. Not with a component left unread inside: its register would be free
            // while the load is outstanding, and writing it again would have to wait for the load.
            VReg all = isel.newVector(count);
            MInstr proto =
                    MInstr.memory(op, isel.memType(32), count, Operand.reg(0), Operand.reg(0), Operand.NONE, slot, 0);
            isel.cur.add(MirInstr.op(proto, all, addr, null));
            for (int c = 0; c < r.length; c++) {
                if (c >= count) {
                    r[c] = isel.materialize(0, 32); // read by nothing (dead code removes it)
                    continue;
                }
                r[c] = isel.newReg(32);
                isel.cur.add(MirInstr.split(r[c], all, c));
            }
            isel.define(d, r);
            return;
        }
        for (int c = 0; c < r.length; c++) {
            r[c] = isel.newReg(d.bitSize());
            MInstr proto = MInstr.memory(
                    op, isel.memType(d.bitSize()), 1, Operand.reg(0), Operand.reg(0), Operand.NONE, slot, c * bytes);
            isel.cur.add(MirInstr.op(proto, r[c], addr, null));
        }
        isel.define(d, r);
    }

    /** The components of {@code d} something reads, as a mask (an ALU source its swizzle's, anything else all). */
    private static int readComponents(Value d) {
        int mask = 0;
        for (Src u : d.uses()) {
            if (!(u.instr() instanceof AluInstr)) return (1 << d.numComponents()) - 1;
            for (int k = 0; k < u.numComponentsRead(); k++) mask |= 1 << u.component(k);
        }
        return mask;
    }

    /** A store of each component of source 1 to memory at the address in source 0. */
    private void storeMemory(MOp op, IntrinsicInstr x, int slot) {
        VReg addr = isel.comp(x.src(0), 0);
        Src val = x.src(1);
        int bits = val.value().bitSize();
        for (int c = 0; c < val.numComponentsRead(); c++) {
            MInstr proto = MInstr.memory(
                    op, isel.memType(bits), 1, Operand.NONE, Operand.reg(0), Operand.reg(0), slot, c * bits / 8);
            isel.cur.add(MirInstr.op(proto, null, addr, isel.comp(val, c)));
        }
    }

    private void local(IntrinsicInstr x, Variable v) {
        boolean shared = v.kind() == Variable.Kind.SHARED;
        boolean store = x.intrinsic() == Intrinsic.STORE_VAR || x.intrinsic() == Intrinsic.STORE_SHARED;
        MOp ld = shared ? MOp.LDLW : MOp.LDL, stOp = shared ? MOp.STLW : MOp.STL;
        int base = shared ? isel.sharedOffsets.get(v) : isel.layout.local(v);
        int elem = Layout.elementBytes(v);
        int bits = v.type().bitSize();
        int bytes = Math.max(bits, 8) / 8;
        MType t = isel.memType(Math.max(bits, 8));
        boolean indexed = v.isArray();
        VReg addr;
        VReg ok = null;
        if (indexed) {
            VReg[] at = elementAddress(isel.comp(x.src(0), 0), v, elem);
            addr = at[0];
            ok = at[1];
        } else {
            addr = isel.materialize(0, 32);
        }
        if (store) {
            Src val = x.src(indexed ? 1 : 0);
            for (int c = 0; c < val.numComponentsRead(); c++) {
                MInstr proto =
                        MInstr.memory(stOp, t, 1, Operand.NONE, Operand.reg(0), Operand.reg(0), 0, base + c * bytes);
                isel.cur.add(MirInstr.op(proto, null, addr, isel.comp(val, c)));
            }
            return;
        }
        Value d = x.def();
        VReg[] r = new VReg[d.numComponents()];
        VReg zero = indexed ? isel.materialize(0, d.bitSize()) : null;
        for (int c = 0; c < r.length; c++) {
            VReg raw = isel.newReg(d.bitSize());
            isel.cur.add(MirInstr.op(
                    MInstr.memory(ld, t, 1, Operand.reg(0), Operand.reg(0), Operand.NONE, 0, base + c * bytes),
                    raw,
                    addr,
                    null));
            if (indexed) {
                r[c] = isel.newReg(d.bitSize());
                MType st = d.bitSize() == 1 ? MType.B1 : MType.of(MType.Kind.UINT, d.bitSize());
                isel.sel(st, ok, raw, zero, r[c]);
            } else {
                r[c] = raw;
            }
        }
        isel.define(d, r);
    }
}
