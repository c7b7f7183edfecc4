package dev.lathe.ir.interp;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the NaNs whose bits the NaN contract leaves open went in one run (see
 * {@code ir/README.md}, "NaN"): a float operation that returns NaN may return any NaN, so such a
 * value is <em>open</em>; data movement (mov, vecN, bcsel, phis, loads and stores) carries the
 * openness along; an op that reads an open NaN's bits (an integer op, a store's offset, an
 * atomic's data) makes the run's outcome depend on bits nothing fixes, and is recorded.
 *
 * <p>What a run leaves is a {@link NanTaint}: which output components and which bytes of memory
 * hold open NaNs, and the first read of open bits, if any. A comparison of two runs under the
 * contract reads it (see {@link ShaderOutputs#differenceUnderNanContract}).
 */
final class NanProvenance implements Shadow {
    /** NaN provenance as a shadow of a run ({@link Interpreter#trackNans}). */
    static final Shadow.Model MODEL = () -> {
        Shared shared = new Shared();
        return run -> new NanProvenance(shared, run);
    };

    /** What the invocations of one dispatch share: memory, and the first read of open bits. */
    static final class Shared {
        /** Per memory region, per byte: 0 exact; n &gt; 0 the first byte of an open n-byte NaN; -1 the rest of one. */
        final Map<Variable, byte[]> memory = new IdentityHashMap<>();
        /** Per element storage (a local or a workgroup variable's array), per component: an open NaN. */
        final Map<long[], boolean[]> elements = new IdentityHashMap<>();

        String observed;
    }

    private final Shared shared;
    /** Per value, bit c: component c is an open NaN. */
    private final long[] masks;
    /** Per output, per component: 0 exact, else the size in bytes of the open NaN written there. */
    private final Map<Variable, byte[]> outputs = new LinkedHashMap<>();

    private final RunState run;

    NanProvenance(Shared shared, RunState run) {
        this.shared = shared;
        this.run = run;
        this.masks = new long[run.function().valueCount()];
    }

    @Override
    public Object carried(Value v) {
        return mask(v);
    }

    @Override
    public void carry(Value d, Object carried) {
        set(d, (Long) carried);
    }

    @Override
    public void constant(Value d) {
        exact(d);
    }

    @Override
    public void undef(Value d) {
        exact(d);
    }

    /**
     * An intrinsic, before it runs: bits read where an offset, index, coordinate or atomic
     * operand is taken; openness carried through stores, loads and outputs; the rest exact.
     */
    @Override
    public void intrinsic(IntrinsicInstr i) {
        Variable v = i.var();
        Value d = i.def();
        String what = i.intrinsic().spelling();
        List<Intrinsic.Role> roles = i.intrinsic().roles(v);
        for (int k = 0; k < roles.size(); k++) {
            switch (roles.get(k)) {
                case VAR_VALUE, ANY_VALUE, FLOAT_COORD, LOD -> {}
                default -> readsBits(i.src(k), what);
            }
        }
        exact(d);
        AtomicOp atomic = i.intrinsic().atomicOp();
        if (atomic != null) {
            if (v.kind() == Variable.Kind.BUFFER) atomicWord(v, run.buffer(v), word(i, 0), what);
            else if (v.kind() == Variable.Kind.SHARED)
                storeElement(run.shared(v), v, v.isArray() ? word(i, 0) : 0, null);
            return;
        }
        switch (i.intrinsic()) {
            case STORE_OUTPUT -> storeOutput(v, i.src(0));
            case LOAD_BUFFER -> loadMemory(d, v, run.buffer(v), word(i, 0), what);
            case STORE_BUFFER ->
                storeMemory(
                        v, run.buffer(v), word(i, 0), i.src(1), i.src(1).value().bitSize());
            case LOAD_GLOBAL ->
                loadMemory(
                        d,
                        Interpreter.DEVICE_MEMORY,
                        run.deviceMemory(),
                        word(i, 0) - ShaderInputs.DEVICE_MEMORY_BASE,
                        what);
            case STORE_GLOBAL ->
                storeMemory(
                        Interpreter.DEVICE_MEMORY,
                        run.deviceMemory(),
                        word(i, 0) - ShaderInputs.DEVICE_MEMORY_BASE,
                        i.src(1),
                        i.src(1).value().bitSize());
            case LOAD_VAR -> loadElement(d, run.local(v), v, v.isArray() ? word(i, 0) : 0);
            case STORE_VAR -> storeElement(run.local(v), v, v.isArray() ? word(i, 0) : 0, i.src(v.isArray() ? 1 : 0));
            case LOAD_SHARED -> loadElement(d, run.shared(v), v, v.isArray() ? word(i, 0) : 0);
            case STORE_SHARED ->
                storeElement(run.shared(v), v, v.isArray() ? word(i, 0) : 0, i.src(v.isArray() ? 1 : 0));
            default -> {}
        }
    }

    /** Component 0 of source {@code k}'s bits. */
    private long word(IntrinsicInstr i, int k) {
        return run.read(i.src(k).value())[0];
    }

    @Override
    public ShaderOutputs finish(ShaderOutputs o, Map<Variable, byte[]> buffers) {
        return new ShaderOutputs(
                o.outputs(),
                o.buffers(),
                o.discarded(),
                o.loopIterations(),
                result(buffers),
                o.precision(),
                o.strips());
    }

    long mask(Value v) {
        return masks[v.index()];
    }

    void set(Value d, long mask) {
        masks[d.index()] = mask;
    }

    /** A value nothing open flows into (a constant, an input, a system value). */
    void exact(Value d) {
        if (d != null) masks[d.index()] = 0;
    }

    private long read(Src s, int c) {
        return (masks[s.value().index()] >>> s.component(c)) & 1;
    }

    private long readAll(Src s) {
        long m = 0;
        for (int c = 0; c < s.numComponentsRead(); c++) m |= read(s, c) << c;
        return m;
    }

    /** Records that {@code what} reads the bits of {@code s}, if s holds an open NaN. */
    void readsBits(Src s, String what) {
        if (readAll(s) != 0 && shared.observed == null)
            shared.observed = what + " reads the bits of a NaN a float operation made";
    }

    /** An ALU instruction executed: {@code in} are the swizzled sources, {@code dst} its result. */
    @Override
    public void alu(AluInstr a, long[][] in, long[] dst) {
        Op op = a.op();
        long m = 0;
        if (op == Op.BCSEL) {
            for (int c = 0; c < dst.length; c++) m |= read(a.src((in[0][c] & 1) != 0 ? 1 : 2), c) << c;
        } else if (op == Op.MOV) {
            m = readAll(a.src(0));
        } else if (op.movesData()) { // vecN: component c from source c
            for (int c = 0; c < dst.length; c++) m |= read(a.src(c), 0) << c;
        } else {
            for (int k = 0; k < a.numSrcs(); k++) {
                if (op.readsBits(k)) readsBits(a.src(k), op.opName());
            }
            if (op.computesFloat()) {
                int bits = a.def().bitSize();
                for (int c = 0; c < dst.length; c++) {
                    if (bits >= 16 && FloatBits.isNaN(dst[c], bits)) m |= 1L << c;
                }
            }
        }
        masks[a.def().index()] = m;
    }

    void storeOutput(Variable v, Src x) {
        byte[] t = new byte[v.type().components()];
        for (int c = 0; c < t.length; c++)
            t[c] = read(x, c) != 0 ? (byte) (x.value().bitSize() / 8) : 0;
        outputs.put(v, t);
    }

    /**
     * A store of {@code x} into an element array at its element {@code idx} (dropped when out of
     * range); a null {@code x} is an atomic, which reads the element's bits and leaves an exact value.
     */
    void storeElement(long[] storage, Variable v, long idx, Src x) {
        int n = v.type().components();
        if (v.isArray() && Long.compareUnsigned(idx, v.arrayLength()) >= 0) return;
        boolean[] t = shared.elements.computeIfAbsent(storage, k -> new boolean[storage.length]);
        for (int c = 0; c < n; c++) {
            int at = (int) idx * n + c;
            if (x == null && t[at] && shared.observed == null)
                shared.observed = "an atomic reads the bits of a NaN a float operation made";
            t[at] = x != null && read(x, c) != 0;
        }
    }

    void loadElement(Value d, long[] storage, Variable v, long idx) {
        int n = v.type().components();
        boolean[] t = shared.elements.get(storage);
        long m = 0;
        if (t != null && (!v.isArray() || Long.compareUnsigned(idx, v.arrayLength()) < 0)) {
            for (int c = 0; c < n; c++) if (t[(int) idx * n + c]) m |= 1L << c;
        }
        masks[d.index()] = m;
    }

    /** A store of {@code x} to memory at byte {@code offset} (out-of-range bytes are dropped). */
    void storeMemory(Variable region, byte[] memory, long offset, Src x, int bits) {
        byte[] t = taint(region, memory);
        int bytes = bits / 8;
        for (int c = 0; c < x.numComponentsRead(); c++) {
            boolean open = read(x, c) != 0;
            for (int k = 0; k < bytes; k++) {
                long at = offset + (long) c * bytes + k;
                if (at >= 0 && at < t.length) t[(int) at] = !open ? 0 : k == 0 ? (byte) bytes : -1;
            }
        }
    }

    /** A load from memory: a component is open when it is exactly one open NaN stored there; a part of one is a read of its bits. */
    void loadMemory(Value d, Variable region, byte[] memory, long offset, String what) {
        byte[] t = taint(region, memory);
        int bytes = d.bitSize() / 8;
        long m = 0;
        for (int c = 0; c < d.numComponents(); c++) {
            long first = offset + (long) c * bytes;
            boolean whole = first >= 0 && first + bytes <= t.length && t[(int) first] == bytes;
            boolean any = false;
            for (int k = 0; k < bytes; k++) {
                long at = first + k;
                if (at < 0 || at >= t.length) continue;
                any |= t[(int) at] != 0;
                if (k > 0 && t[(int) at] != -1) whole = false;
            }
            if (whole) m |= 1L << c;
            else if (any && shared.observed == null)
                shared.observed = what + " reads part of a NaN a float operation made";
        }
        masks[d.index()] = m;
    }

    /** An atomic read-modify-write of the 32-bit word at {@code offset}: it reads the word's bits. */
    void atomicWord(Variable region, byte[] memory, long offset, String what) {
        byte[] t = taint(region, memory);
        for (int k = 0; k < 4; k++) {
            long at = offset + k;
            if (at < 0 || at >= t.length) continue;
            if (t[(int) at] != 0 && shared.observed == null)
                shared.observed = what + " reads the bits of a NaN a float operation made";
            t[(int) at] = 0;
        }
    }

    private byte[] taint(Variable region, byte[] memory) {
        byte[] t = shared.memory.get(region);
        if (t == null || t.length != memory.length) {
            t = new byte[memory.length];
            shared.memory.put(region, t);
        }
        return t;
    }

    /** The taint the run leaves, by variable name. */
    NanTaint result(Map<Variable, byte[]> buffers) {
        Map<String, byte[]> outs = new LinkedHashMap<>();
        outputs.forEach((v, t) -> outs.put(v.name(), t.clone()));
        Map<String, byte[]> mem = new LinkedHashMap<>();
        for (Variable v : buffers.keySet()) {
            byte[] t = shared.memory.get(v);
            if (t != null) mem.put(v.name(), t.clone());
        }
        return new NanTaint(outs, mem, shared.observed);
    }
}
