package dev.lathe.ir.interp;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Src;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a shader's entry point on given inputs: the reference semantics every optimization and
 * the backend are tested against.
 *
 * <p>Execution walks the control-flow graph block by block (no recursion): phis of a block
 * read, all at once, the sources for the predecessor control came from; an {@code if} takes
 * its then side when bit 0 of the condition is set. Every ALU op is evaluated by the op table.
 * Loops run under an iteration limit that ends the run with an error naming the loop.
 *
 * <p>Defined behaviour beyond the op table (also in {@code ir/README.md}): {@code undef} reads
 * as zero; locals start as zero; out-of-range array indices read zero and drop stores; buffer
 * accesses are byte-addressed little-endian, bytes past the end read zero and are not written;
 * texture sampling is nearest with clamp-to-edge on a single level ({@code txl}'s lod is
 * ignored); {@code txf} outside the texture reads zero; {@code barrier} has no effect because
 * invocations run one after another and share no memory but buffers.
 */
public final class Interpreter {
    public static final long DEFAULT_ITERATION_LIMIT = 1_000_000;

    private final Shader shader;
    private final Function fn;
    private final long iterationLimit;
    private final Block[] blocks;
    private final PhiInstr[][] phis;
    private final Instr[][] body;
    private java.util.function.BiConsumer<Value, long[]> observer;

    public Interpreter(Shader shader) {
        this(shader, DEFAULT_ITERATION_LIMIT);
    }

    public Interpreter(Shader shader, long iterationLimit) {
        this.shader = shader;
        this.fn = shader.entryPoint();
        this.iterationLimit = iterationLimit;
        List<Block> bl = fn.blocks();
        this.blocks = bl.toArray(new Block[0]);
        this.phis = new PhiInstr[blocks.length][];
        this.body = new Instr[blocks.length][];
        for (int i = 0; i < blocks.length; i++) {
            List<PhiInstr> p = new ArrayList<>();
            List<Instr> rest = new ArrayList<>();
            for (Instr ins : blocks[i].instrs()) {
                if (ins instanceof PhiInstr phi) p.add(phi);
                else rest.add(ins);
            }
            phis[i] = p.toArray(new PhiInstr[0]);
            body[i] = rest.toArray(new Instr[0]);
        }
    }

    /**
     * Calls {@code observer} with every value the program computes, as it computes it (for
     * tests that check analyses against real runs). Null stops it.
     */
    public Interpreter observe(java.util.function.BiConsumer<Value, long[]> observer) {
        this.observer = observer;
        return this;
    }

    /** One invocation. */
    public ShaderOutputs run(ShaderInputs in) {
        Run r = new Run(in, initialBuffers(in));
        r.execute();
        return r.result();
    }

    /**
     * Every invocation of a compute dispatch of {@code groups} workgroups, one after another
     * (workgroups in x, y, z order, invocations likewise), sharing buffers. Outputs are those of
     * the last invocation.
     */
    public ShaderOutputs dispatch(ShaderInputs in, int gx, int gy, int gz) {
        Map<Variable, byte[]> bufs = initialBuffers(in);
        Run[] last = new Run[1];
        long[] iterations = new long[1];
        forEachInvocation(in, shader.workgroupSize(), gx, gy, gz, () -> {
            last[0] = new Run(in, bufs);
            last[0].execute();
            iterations[0] += last[0].iterations;
        });
        ShaderOutputs r = last[0].result();
        return new ShaderOutputs(r.outputs(), r.buffers(), r.discarded(), iterations[0]);
    }

    /**
     * Sets {@code in}'s workgroup and local ids to every invocation of a dispatch in turn
     * (workgroups in x, y, z order, invocations likewise) and runs {@code body} for each: the
     * order the interpreter and the backend simulator both use.
     */
    public static void forEachInvocation(ShaderInputs in, int[] size, int gx, int gy, int gz, Runnable body) {
        in.setNumWorkgroups(gx, gy, gz);
        for (int wz = 0; wz < gz; wz++) {
            for (int wy = 0; wy < gy; wy++) {
                for (int wx = 0; wx < gx; wx++) {
                    in.setWorkgroupId(wx, wy, wz);
                    for (int lz = 0; lz < size[2]; lz++) {
                        for (int ly = 0; ly < size[1]; ly++) {
                            for (int lx = 0; lx < size[0]; lx++) {
                                in.setLocalInvocationId(lx, ly, lz);
                                body.run();
                            }
                        }
                    }
                }
            }
        }
    }

    private Map<Variable, byte[]> initialBuffers(ShaderInputs in) {
        Map<Variable, byte[]> bufs = new LinkedHashMap<>();
        for (Variable v : shader.variables(Variable.Kind.BUFFER)) {
            byte[] b = in.buffer(v.name());
            bufs.put(v, b == null ? new byte[0] : b);
        }
        return bufs;
    }

    /** The state of one invocation. */
    private final class Run {
        final ShaderInputs in;
        final Map<Variable, byte[]> buffers;
        final long[][] vals = new long[fn.valueCount()][];
        final Map<Variable, long[]> outputs = new LinkedHashMap<>();
        final Map<Variable, long[]> locals = new HashMap<>();
        boolean discarded;
        long iterations;

        Run(ShaderInputs in, Map<Variable, byte[]> buffers) {
            this.in = in;
            this.buffers = buffers;
            for (Variable v : shader.variables(Variable.Kind.OUTPUT)) outputs.put(v, new long[v.type().components()]);
            for (Variable v : fn.locals()) {
                locals.put(v, new long[v.type().components() * Math.max(1, v.arrayLength())]);
            }
            for (Variable v : shader.variables()) {
                if (v.kind() != Variable.Kind.INPUT && v.kind() != Variable.Kind.UNIFORM) continue;
                long[] given = in.value(v.name());
                int want = v.type().components() * Math.max(1, v.arrayLength());
                if (given != null && given.length != want) {
                    throw new InterpreterException("@" + v.name() + " takes " + want + " value(s) (" + v.type()
                            + (v.isArray() ? "[" + v.arrayLength() + "]" : "") + "), got " + given.length);
                }
            }
        }

        ShaderOutputs result() {
            Map<String, long[]> outs = new LinkedHashMap<>();
            outputs.forEach((k, v) -> outs.put(k.name(), v.clone()));
            Map<String, byte[]> bufs = new LinkedHashMap<>();
            buffers.forEach((k, v) -> bufs.put(k.name(), v.clone()));
            return new ShaderOutputs(outs, bufs, discarded, iterations);
        }

        void execute() {
            Block end = fn.endBlock();
            Block cur = fn.entryBlock();
            Block prev = null;
            while (cur != end) {
                int bi = cur.index();
                PhiInstr[] ps = phis[bi];
                if (ps.length > 0) {
                    long[][] incoming = new long[ps.length][];
                    for (int k = 0; k < ps.length; k++) {
                        Src s = ps[k].srcFor(prev);
                        if (s == null) {
                            throw new InterpreterException("phi " + ps[k].def() + " has no source for the block control came from");
                        }
                        incoming[k] = read(s.value());
                    }
                    for (int k = 0; k < ps.length; k++) set(ps[k].def(), incoming[k]);
                }
                for (Instr i : body[bi]) {
                    if (!exec(i)) return; // discard ends the invocation
                }
                Block next = successor(cur);
                if (next.index() <= cur.index() && next != end) {
                    // A back edge: count an iteration of the loop whose header is `next`.
                    if (++iterations > iterationLimit) {
                        LoopNode loop = (LoopNode) next.parent().owner();
                        String where = loop != null && loop.loc() != null ? " (loop at " + loop.loc() + ")" : "";
                        throw new InterpreterException("loop iteration limit of " + iterationLimit + " reached" + where);
                    }
                }
                prev = cur;
                cur = next;
            }
        }

        private Block successor(Block b) {
            List<Block> succs = b.successors();
            if (b.jump() == null && b.next() instanceof IfNode in) {
                long c = read(in.condition().value())[0];
                return succs.get((c & 1) != 0 ? 0 : 1);
            }
            if (succs.isEmpty()) throw new InterpreterException("control falls off block b" + b.index() + " (run the validator)");
            return succs.get(0);
        }

        private long[] read(Value v) {
            long[] r = vals[v.index()];
            if (r == null) throw new InterpreterException("reads " + v + " before it is defined (run the validator)");
            return r;
        }

        /** Executes one instruction; false when the invocation ends (discard). */
        private boolean exec(Instr i) {
            if (i instanceof AluInstr alu) {
                int n = alu.numSrcs();
                long[][] s = new long[n][];
                for (int k = 0; k < n; k++) {
                    Src src = alu.src(k);
                    long[] v = read(src.value());
                    int rc = src.numComponentsRead();
                    long[] r = new long[rc];
                    for (int c = 0; c < rc; c++) r[c] = v[src.component(c)];
                    s[k] = r;
                }
                long[] dst = new long[alu.def().numComponents()];
                alu.op().evaluateInto(alu.unsizedBitSize(), s, dst);
                set(alu.def(), dst);
            } else if (i instanceof LoadConstInstr lc) {
                set(lc.def(), lc.values());
            } else if (i instanceof UndefInstr u) {
                set(u.def(), new long[u.def().numComponents()]);
            } else if (i instanceof IntrinsicInstr in) {
                return intrinsic(in);
            } else if (!(i instanceof JumpInstr)) {
                throw new InterpreterException("cannot run " + i.opName() + " here");
            }
            return true;
        }

        private boolean intrinsic(IntrinsicInstr i) {
            Variable v = i.var();
            Value d = i.def();
            switch (i.intrinsic()) {
                case LOAD_INPUT -> set(d, interfaceValue(v, 0));
                case STORE_OUTPUT -> System.arraycopy(read(i.src(0).value()), 0, outputs.get(v), 0, v.type().components());
                case LOAD_UNIFORM -> {
                    long idx = v.isArray() ? read(i.src(0).value())[0] : 0;
                    set(d, idx < v.arrayLength() || !v.isArray() ? interfaceValue(v, (int) idx) : new long[d.numComponents()]);
                }
                case LOAD_BUFFER -> set(d, loadBuffer(buffers.get(v), read(i.src(0).value())[0], d.numComponents(), d.bitSize()));
                case STORE_BUFFER -> {
                    Value x = i.src(1).value();
                    storeBuffer(buffers.get(v), read(i.src(0).value())[0], read(x), x.bitSize());
                }
                case TEX, TXL -> set(d, sample(v, read(i.src(0).value()), in));
                case TXF -> set(d, fetch(v, read(i.src(0).value()), in));
                case TXS -> set(d, textureSize(v, in));
                case LOAD_VAR -> {
                    long[] store = locals.get(v);
                    int c = v.type().components();
                    long idx = v.isArray() ? read(i.src(0).value())[0] : 0;
                    long[] r = new long[c];
                    if (!v.isArray() || idx < v.arrayLength()) System.arraycopy(store, (int) idx * c, r, 0, c);
                    set(d, r);
                }
                case STORE_VAR -> {
                    long[] store = locals.get(v);
                    int c = v.type().components();
                    long idx = v.isArray() ? read(i.src(0).value())[0] : 0;
                    long[] x = read(i.src(v.isArray() ? 1 : 0).value());
                    if (!v.isArray() || idx < v.arrayLength()) System.arraycopy(x, 0, store, (int) idx * c, c);
                }
                case LOAD_LOCAL_INVOCATION_ID -> set(d, u32(in.localInvocationId()));
                case LOAD_WORKGROUP_ID -> set(d, u32(in.workgroupId()));
                case LOAD_NUM_WORKGROUPS -> set(d, u32(in.numWorkgroups()));
                case LOAD_WORKGROUP_SIZE -> set(d, u32(shader.workgroupSize()));
                case LOAD_GLOBAL_INVOCATION_ID -> {
                    int[] w = in.workgroupId(), l = in.localInvocationId(), s = shader.workgroupSize();
                    set(d, u32(new int[] {w[0] * s[0] + l[0], w[1] * s[1] + l[1], w[2] * s[2] + l[2]}));
                }
                case LOAD_LOCAL_INVOCATION_INDEX -> {
                    int[] l = in.localInvocationId(), s = shader.workgroupSize();
                    set(d, u32(new int[] {l[0] + l[1] * s[0] + l[2] * s[0] * s[1]}));
                }
                case LOAD_FRAG_COORD -> set(d, in.fragCoord());
                case LOAD_FRONT_FACE -> set(d, new long[] {in.frontFace() ? 1 : 0});
                case LOAD_VERTEX_ID -> set(d, u32(new int[] {in.vertexId()}));
                case LOAD_INSTANCE_ID -> set(d, u32(new int[] {in.instanceId()}));
                case DISCARD -> {
                    discarded = true;
                    return false;
                }
                case DISCARD_IF -> {
                    if ((read(i.src(0).value())[0] & 1) != 0) {
                        discarded = true;
                        return false;
                    }
                }
                case BARRIER -> { }
            }
            return true;
        }

        private void set(Value d, long[] v) {
            vals[d.index()] = v;
            if (observer != null) observer.accept(d, v);
        }

        private long[] interfaceValue(Variable v, int element) {
            int c = v.type().components();
            long[] given = in.value(v.name());
            long[] r = new long[c];
            if (given != null) System.arraycopy(given, element * c, r, 0, c);
            long m = Bits.mask(v.type().bitSize());
            for (int k = 0; k < c; k++) r[k] &= m;
            return r;
        }
    }

    private static long[] u32(int[] xs) {
        long[] r = new long[xs.length];
        for (int i = 0; i < xs.length; i++) r[i] = xs[i] & 0xffffffffL;
        return r;
    }

    /** Shared with the backend simulator, so both read memory the same way. */
    public static long[] loadBuffer(byte[] buf, long offset, int comps, int bits) {
        int bytes = bits / 8;
        long[] r = new long[comps];
        for (int c = 0; c < comps; c++) {
            long v = 0;
            for (int k = 0; k < bytes; k++) {
                long at = offset + (long) c * bytes + k;
                if (at < buf.length) v |= (buf[(int) at] & 0xffL) << (8 * k);
            }
            r[c] = v;
        }
        return r;
    }

    public static void storeBuffer(byte[] buf, long offset, long[] x, int bits) {
        int bytes = bits / 8;
        for (int c = 0; c < x.length; c++) {
            for (int k = 0; k < bytes; k++) {
                long at = offset + (long) c * bytes + k;
                if (at < buf.length) buf[(int) at] = (byte) (x[c] >>> (8 * k));
            }
        }
    }

    private static int nearest(long coordBits, int size) {
        float u = Float.intBitsToFloat((int) coordBits);
        if (u != u) return 0;
        double t = Math.floor((double) u * size);
        if (t < 0) return 0;
        if (t > size - 1) return size - 1;
        return (int) t;
    }

    /** A texture that was not given reads as a single texel of zeros. */
    private static final Texture EMPTY = new Texture(1, 1, 1, new long[4]);

    private static Texture textureOf(Variable v, ShaderInputs in) {
        Texture t = in.texture(v.name());
        return t == null ? EMPTY : t;
    }

    /** Nearest sampling with clamp-to-edge; coordinates are normalized f32. */
    public static long[] sample(Variable v, long[] coord, ShaderInputs in) {
        Texture t = textureOf(v, in);
        int dims = v.dim().coordinates();
        int x = nearest(coord[0], t.width());
        int y = dims > 1 ? nearest(coord[1], t.height()) : 0;
        int z = dims > 2 ? nearest(coord[2], t.depth()) : 0;
        long[] r = new long[4];
        for (int c = 0; c < 4; c++) r[c] = t.component(x, y, z, c);
        return r;
    }

    /** Texel fetch by signed 32-bit integer coordinates; outside the texture reads zero. */
    public static long[] fetch(Variable v, long[] coord, ShaderInputs in) {
        Texture t = textureOf(v, in);
        int dims = v.dim().coordinates();
        long x = Bits.sext(coord[0], 32);
        long y = dims > 1 ? Bits.sext(coord[1], 32) : 0;
        long z = dims > 2 ? Bits.sext(coord[2], 32) : 0;
        long[] r = new long[4];
        if (x < 0 || y < 0 || z < 0 || x >= t.width() || y >= t.height() || z >= t.depth()) return r;
        for (int c = 0; c < 4; c++) r[c] = t.component((int) x, (int) y, (int) z, c);
        return r;
    }

    public static long[] textureSize(Variable v, ShaderInputs in) {
        Texture t = textureOf(v, in);
        int[] all = {t.width(), t.height(), t.depth()};
        return u32(java.util.Arrays.copyOf(all, v.dim().coordinates()));
    }
}
