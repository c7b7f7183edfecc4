package dev.lathe.ir.interp;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Src;
import dev.lathe.ir.Stage;
import dev.lathe.ir.TextureDim;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

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
 * ignored); {@code txf} outside the texture reads zero. A compute dispatch runs each workgroup
 * in lockstep between barriers: every invocation, in local-index order, runs until it reaches a
 * {@code barrier} (or ends), then all go on past it; shared variables start as zero in each
 * workgroup. So a program whose invocations race on memory still has one defined result (the
 * backend simulator runs the same schedule). A barrier that not every invocation of the
 * workgroup reaches is an error.
 */
public final class Interpreter {
    /** How many loop back edges a run (or a whole dispatch) may take before it ends with an error. */
    public static final long DEFAULT_ITERATION_LIMIT = 1_000_000;

    private final Shader shader;
    private final Function fn;
    private final long iterationLimit;
    private final Block[] blocks;
    private final PhiInstr[][] phis;
    private final Instr[][] body;
    private BiConsumer<Value, long[]> observer;
    /** What runs compute beside the bits (NaN provenance, a precision model), in the order given. */
    private final List<Shadow.Model> shadows = new ArrayList<>();

    /** An interpreter of {@code shader}'s entry point with the default iteration limit. */
    public Interpreter(Shader shader) {
        this(shader, DEFAULT_ITERATION_LIMIT);
    }

    /**
     * An interpreter of {@code shader}'s entry point whose runs end with an {@link InterpreterException.IterationLimit}
     * after {@code iterationLimit} loop back edges. It reads the shader's blocks once: make another after changing the shader.
     */
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
    public Interpreter observe(BiConsumer<Value, long[]> observer) {
        this.observer = observer;
        return this;
    }

    /**
     * Also records where NaNs whose bits the NaN contract leaves open go (see
     * {@link NanProvenance}): the outputs then carry a {@link NanTaint}, which comparisons under
     * the contract read.
     */
    public Interpreter trackNans() {
        return track(NanProvenance.MODEL);
    }

    /**
     * Also runs {@code shadow} beside the bits (see {@link Shadow}): what it finds goes into the
     * outputs. Tracking the same model twice tracks it once.
     */
    public Interpreter track(Shadow.Model shadow) {
        if (!shadows.contains(shadow)) shadows.add(shadow);
        return this;
    }

    /** Each shadow's state for one run or dispatch. */
    private Shadow.Dispatch[] newDispatches() {
        Shadow.Dispatch[] d = new Shadow.Dispatch[shadows.size()];
        for (int k = 0; k < d.length; k++) d[k] = shadows.get(k).dispatch();
        return d;
    }

    /** One invocation. */
    public ShaderOutputs run(ShaderInputs in) {
        Run r = new Run(
                in,
                initialBuffers(in),
                shader.stage() == Stage.COMPUTE ? newShared() : Map.of(),
                new long[1],
                newDispatches());
        // a lone compute invocation is a workgroup of one: its barriers wait for nobody
        while (r.resume()) {}
        return r.result();
    }

    /**
     * Every invocation of a compute dispatch of {@code gx × gy × gz} workgroups on the schedule
     * of {@link #dispatchLockstep}, sharing buffers; the iteration limit counts the back edges of
     * all of them. Outputs are those of the last invocation.
     */
    public ShaderOutputs dispatch(ShaderInputs in, int gx, int gy, int gz) {
        Map<Variable, byte[]> bufs = initialBuffers(in);
        List<Run> all = new ArrayList<>();
        Map<Variable, long[]>[] shared = newSharedHolder();
        long[] spent = new long[1]; // the iteration limit holds for the whole dispatch
        Shadow.Dispatch[] dispatches = newDispatches();
        dispatchLockstep(
                in,
                shader.workgroupSize(),
                gx,
                gy,
                gz,
                () -> shared[0] = newShared(),
                () -> {
                    Run r = new Run(in, bufs, shared[0], spent, dispatches);
                    all.add(r);
                    return r;
                },
                InterpreterException::new);
        long iterations = 0;
        for (Run r : all) iterations += r.iterations;
        ShaderOutputs r = all.get(all.size() - 1).result();
        return new ShaderOutputs(r.outputs(), r.buffers(), r.discarded(), iterations, r.nans(), r.precision());
    }

    @SuppressWarnings("unchecked")
    private static Map<Variable, long[]>[] newSharedHolder() {
        return new Map[1];
    }

    private Map<Variable, long[]> newShared() {
        Map<Variable, long[]> m = new HashMap<>();
        for (Variable v : shader.variables(Variable.Kind.SHARED))
            m.put(v, new long[v.type().components() * Math.max(1, v.arrayLength())]);
        return m;
    }

    /** One invocation of a dispatch that can stop at a barrier and go on later. */
    public interface Resumable {
        /** Runs until the next barrier (true) or the end of the invocation (false). */
        boolean resume();
    }

    /**
     * The schedule of a compute dispatch, shared by the interpreter and the backend simulator:
     * workgroups in x, y, z order; in each, {@code newWorkgroup} runs, then {@code newInvocation}
     * makes the invocations in local-index order (with {@code in}'s ids set to theirs), and they
     * run in rounds: each, in order, until it reaches a barrier or ends; the next round starts
     * when all have. A round in which some invocations wait at a barrier while others have ended
     * is an error (made by {@code error}).
     */
    public static void dispatchLockstep(
            ShaderInputs in,
            int[] size,
            int gx,
            int gy,
            int gz,
            Runnable newWorkgroup,
            Supplier<Resumable> newInvocation,
            java.util.function.Function<String, RuntimeException> error) {
        in.setNumWorkgroups(gx, gy, gz);
        for (int wz = 0; wz < gz; wz++) {
            for (int wy = 0; wy < gy; wy++) {
                for (int wx = 0; wx < gx; wx++) {
                    in.setWorkgroupId(wx, wy, wz);
                    newWorkgroup.run();
                    List<Resumable> group = new ArrayList<>();
                    for (int lz = 0; lz < size[2]; lz++) {
                        for (int ly = 0; ly < size[1]; ly++) {
                            for (int lx = 0; lx < size[0]; lx++) {
                                in.setLocalInvocationId(lx, ly, lz);
                                group.add(newInvocation.get());
                            }
                        }
                    }
                    boolean[] ended = new boolean[group.size()];
                    int endedCount = 0;
                    while (endedCount < group.size()) {
                        int waiting = 0;
                        for (int k = 0; k < group.size(); k++) {
                            if (ended[k]) continue;
                            if (group.get(k).resume()) {
                                waiting++;
                            } else {
                                ended[k] = true;
                                endedCount++;
                            }
                        }
                        if (waiting > 0 && endedCount > 0) {
                            throw error.apply("workgroup (" + wx + ", " + wy + ", " + wz + "): " + waiting + " of "
                                    + group.size() + " invocations wait at a barrier the others never reach");
                        }
                    }
                }
            }
        }
    }

    private Map<Variable, byte[]> initialBuffers(ShaderInputs in) {
        return initialMemory(shader, in);
    }

    /**
     * The starting contents of every buffer (as given, else empty) and storage image (its
     * texture input, four little-endian 32-bit words per texel, x fastest; else one texel of
     * zeros). Shared with the backend simulator.
     */
    public static Map<Variable, byte[]> initialMemory(Shader shader, ShaderInputs in) {
        Map<Variable, byte[]> mem = new LinkedHashMap<>();
        byte[] device = in.buffer(ShaderInputs.DEVICE_MEMORY);
        if (device != null) mem.put(DEVICE_MEMORY, device);
        for (Variable v : shader.variables(Variable.Kind.BUFFER)) {
            byte[] b = in.buffer(v.name());
            mem.put(v, b == null ? new byte[0] : b);
        }
        for (Variable v : shader.variables(Variable.Kind.IMAGE)) {
            long[] texels = textureOf(v, 0, in).texels();
            byte[] b = new byte[texels.length * 4];
            storeBuffer(b, 0, texels, 32);
            mem.put(v, b);
        }
        return mem;
    }

    /** The texel index of integer coordinates in a storage image, or -1 outside it. */
    private static long imageTexel(Variable v, long[] coord, ShaderInputs in) {
        Texture t = textureOf(v, 0, in);
        int dims = v.dim().coordinates();
        long x = Bits.sext(coord[0], 32);
        long y = dims > 1 ? Bits.sext(coord[1], 32) : 0;
        long z = dims > 2 ? Bits.sext(coord[2], 32) : 0;
        if (x < 0 || y < 0 || z < 0 || x >= t.width() || y >= t.height() || z >= t.depth()) return -1;
        return (z * t.height() + y) * t.width() + x;
    }

    /** A storage image's texel (zero outside the image). Shared with the backend simulator. */
    public static long[] imageLoad(Variable v, byte[] mem, long[] coord, ShaderInputs in) {
        long at = imageTexel(v, coord, in);
        return at < 0 ? new long[4] : loadBuffer(mem, at * 16, 4, 32);
    }

    /**
     * An atomic on the first component of a storage image's texel (r32ui or r32i, so the word
     * is kept whole); outside the image it returns zero and stores nothing. Shared with the
     * simulator.
     */
    public static long imageAtomic(
            Variable v, byte[] mem, long[] coord, AtomicOp op, long data, long compare, ShaderInputs in) {
        long at = imageTexel(v, coord, in);
        return at < 0 ? 0 : atomicBuffer(mem, at * 16, op, data, compare);
    }

    /** Stores a texel at the image's format precision (dropped outside the image). Shared with the simulator. */
    public static void imageStore(Variable v, byte[] mem, long[] coord, long[] texel, ShaderInputs in) {
        long at = imageTexel(v, coord, in);
        if (at >= 0) storeBuffer(mem, at * 16, v.format().store(texel), 32);
    }

    /** The state of one invocation. */
    private final class Run implements Resumable, RunState {
        final ShaderInputs in;
        final int[] localId, workgroupId, numWorkgroups;
        final Map<Variable, byte[]> buffers;
        final Map<Variable, long[]> shared;
        /** Where a resumed run goes on: a block, the block control came from, the next instruction of its body. */
        Block cur, prev;

        int next;
        boolean ended;
        final long[][] vals = new long[fn.valueCount()][];
        final Map<Variable, long[]> outputs = new LinkedHashMap<>();
        final Map<Variable, long[]> locals = new HashMap<>();
        boolean discarded;
        long iterations;
        /** A geometry shader's strips ended so far, and the one being emitted. */
        final List<List<Map<String, long[]>>> strips = new ArrayList<>();

        List<Map<String, long[]>> strip = new ArrayList<>();
        int emitted;

        final long[] spent;
        /** What this invocation computes beside the bits, one per model tracked. */
        final Shadow[] shadows;

        Run(
                ShaderInputs in,
                Map<Variable, byte[]> buffers,
                Map<Variable, long[]> shared,
                long[] spent,
                Shadow.Dispatch[] dispatches) {
            this.spent = spent;
            this.in = in;
            this.localId = in.localInvocationId();
            this.workgroupId = in.workgroupId();
            this.numWorkgroups = in.numWorkgroups();
            this.buffers = buffers;
            this.shared = shared;
            this.cur = fn.entryBlock();
            this.shadows = new Shadow[dispatches.length];
            for (int k = 0; k < dispatches.length; k++) shadows[k] = dispatches[k].invocation(this);
            for (Variable v : shader.variables(Variable.Kind.OUTPUT))
                outputs.put(v, new long[v.type().components()]);
            for (Variable v : fn.locals()) {
                long[] storage = new long[v.type().components() * Math.max(1, v.arrayLength())];
                locals.put(v, storage);
                for (Shadow sh : shadows) sh.localStorage(storage);
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

        /** The strip being emitted ends (an empty one is no strip). */
        private void endStrip() {
            if (!strip.isEmpty()) strips.add(strip);
            strip = new ArrayList<>();
        }

        ShaderOutputs result() {
            Map<String, long[]> outs = new LinkedHashMap<>();
            outputs.forEach((k, v) -> outs.put(k.name(), v.clone()));
            Map<String, byte[]> bufs = new LinkedHashMap<>();
            buffers.forEach((k, v) -> bufs.put(k.name(), v.clone()));
            endStrip(); // the end of the shader ends the strip being emitted
            ShaderOutputs out = new ShaderOutputs(outs, bufs, discarded, iterations, null, null, strips);
            for (Shadow sh : shadows) out = sh.finish(out, buffers);
            return out;
        }

        @Override
        public boolean resume() {
            if (ended) return false;
            Block end = fn.endBlock();
            while (cur != end) {
                int bi = cur.index();
                PhiInstr[] ps = phis[bi];
                if (ps.length > 0 && next == 0) {
                    long[][] incoming = new long[ps.length][];
                    Object[][] carried = new Object[shadows.length][ps.length];
                    for (int k = 0; k < ps.length; k++) {
                        Src s = ps[k].srcFor(prev);
                        if (s == null) {
                            throw new InterpreterException(
                                    "phi " + ps[k].def() + " has no source for the block control came from");
                        }
                        incoming[k] = read(s.value());
                        for (int h = 0; h < shadows.length; h++) carried[h][k] = shadows[h].carried(s.value());
                    }
                    for (int k = 0; k < ps.length; k++) {
                        set(ps[k].def(), incoming[k]);
                        for (int h = 0; h < shadows.length; h++) shadows[h].carry(ps[k].def(), carried[h][k]);
                    }
                }
                Instr[] is = body[bi];
                while (next < is.length) {
                    Instr i = is[next++];
                    if (i instanceof IntrinsicInstr x && x.intrinsic() == Intrinsic.BARRIER) return true;
                    if (!exec(i)) { // discard ends the invocation
                        ended = true;
                        return false;
                    }
                }
                next = 0;
                Block succ = successor(cur);
                if (succ.index() <= cur.index() && succ != end) {
                    // A back edge: count an iteration of the loop whose header is `next`.
                    iterations++;
                    if (++spent[0] > iterationLimit) {
                        LoopNode loop = (LoopNode) succ.parent().owner();
                        String where = loop != null && loop.loc() != null ? " (loop at " + loop.loc() + ")" : "";
                        throw new InterpreterException.IterationLimit(
                                "loop iteration limit of " + iterationLimit + " reached" + where);
                    }
                }
                prev = cur;
                cur = succ;
            }
            ended = true;
            return false;
        }

        private Block successor(Block b) {
            List<Block> succs = b.successors();
            if (b.jump() == null && b.next() instanceof IfNode in) {
                long c = read(in.condition().value())[0];
                return succs.get((c & 1) != 0 ? 0 : 1);
            }
            if (succs.isEmpty())
                throw new InterpreterException("control falls off block b" + b.index() + " (run the validator)");
            return succs.get(0);
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
                for (Shadow sh : shadows) sh.alu(alu, s, dst);
            } else if (i instanceof LoadConstInstr lc) {
                set(lc.def(), lc.values());
                for (Shadow sh : shadows) sh.constant(lc.def());
            } else if (i instanceof UndefInstr u) {
                set(u.def(), new long[u.def().numComponents()]);
                for (Shadow sh : shadows) sh.undef(u.def());
            } else if (i instanceof IntrinsicInstr in) {
                for (Shadow sh : shadows) sh.intrinsic(in);
                return intrinsic(in);
            } else if (!(i instanceof JumpInstr)) {
                throw new InterpreterException("cannot run " + i.opName() + " here");
            }
            return true;
        }

        private boolean intrinsic(IntrinsicInstr i) {
            Variable v = i.var();
            Value d = i.def();
            AtomicOp atomic = i.intrinsic().atomicOp();
            if (atomic != null) {
                long data = read(i.src(atomic.hasCompare() ? 2 : 1).value())[0];
                long compare = atomic.hasCompare() ? read(i.src(1).value())[0] : 0;
                if (v.kind() == Variable.Kind.IMAGE) {
                    set(d, new long[] {
                        imageAtomic(v, buffers.get(v), read(i.src(0).value()), atomic, data, compare, in)
                    });
                    return true;
                }
                long at = v.isArray() || v.kind() == Variable.Kind.BUFFER
                        ? read(i.src(0).value())[0]
                        : 0;
                set(d, new long[] {
                    v.kind() == Variable.Kind.BUFFER
                            ? atomicBuffer(buffers.get(v), at, atomic, data, compare)
                            : atomicElement(shared.get(v), v, at, atomic, data, compare)
                });
                return true;
            }
            switch (i.intrinsic()) {
                case LOAD_INPUT -> {
                    // a geometry shader's per-vertex input: the vertex in source 0 (past the last reads zero)
                    long vertex = v.isArray() ? read(i.src(0).value())[0] : 0;
                    set(
                            d,
                            vertex < Math.max(1, v.arrayLength())
                                    ? interfaceValue(v, (int) vertex)
                                    : new long[d.numComponents()]);
                }
                case EMIT_VERTEX -> {
                    int most = shader.geometry().maxVertices();
                    if (++emitted > most)
                        throw new InterpreterException(
                                "the geometry shader emits more than the " + most + " vertices its layout declares");
                    Map<String, long[]> vertex = new LinkedHashMap<>();
                    outputs.forEach((k, x) -> vertex.put(k.name(), x.clone()));
                    strip.add(vertex);
                }
                case END_PRIMITIVE -> endStrip();
                case LOAD_PRIMITIVE_ID -> set(d, new long[] {in.primitiveId() & 0xffffffffL});
                case LOAD_INVOCATION_ID -> set(d, new long[] {in.invocationId() & 0xffffffffL});
                case STORE_OUTPUT ->
                    System.arraycopy(
                            read(i.src(0).value()),
                            0,
                            outputs.get(v),
                            0,
                            v.type().components());
                case LOAD_UNIFORM -> {
                    long idx = v.isArray() ? read(i.src(0).value())[0] : 0;
                    set(
                            d,
                            idx < v.arrayLength() || !v.isArray()
                                    ? interfaceValue(v, (int) idx)
                                    : new long[d.numComponents()]);
                }
                case LOAD_CONSTANT ->
                    set(d, v.constantElement(v.isArray() ? read(i.src(0).value())[0] : 0));
                case LOAD_BUFFER ->
                    set(d, loadBuffer(buffers.get(v), read(i.src(0).value())[0], d.numComponents(), d.bitSize()));
                case STORE_BUFFER -> {
                    Value x = i.src(1).value();
                    storeBuffer(buffers.get(v), read(i.src(0).value())[0], read(x), x.bitSize());
                }
                case BUFFER_SIZE -> set(d, new long[] {buffers.get(v).length & 0xffffffffL});
                case LOAD_GLOBAL ->
                    set(
                            d,
                            loadDevice(
                                    Interpreter.deviceMemory(buffers),
                                    read(i.src(0).value())[0],
                                    d.numComponents(),
                                    d.bitSize()));
                case STORE_GLOBAL -> {
                    Value x = i.src(1).value();
                    storeDevice(Interpreter.deviceMemory(buffers), read(i.src(0).value())[0], read(x), x.bitSize());
                }
                case IMAGE_LOAD ->
                    set(d, imageLoad(v, buffers.get(v), read(i.src(0).value()), in));
                case IMAGE_STORE ->
                    imageStore(
                            v,
                            buffers.get(v),
                            read(i.src(0).value()),
                            read(i.src(1).value()),
                            in);
                case IMAGE_SIZE -> set(d, textureSize(v, 0, in));
                case TEX, TXL, TXF, TXS -> {
                    // on an array of textures source 0 picks the element and the coordinates follow
                    int e = v.isArray() ? element(v, read(i.src(0).value())[0]) : 0;
                    int coord = v.isArray() ? 1 : 0;
                    set(
                            d,
                            switch (i.intrinsic()) {
                                case TXS -> textureSize(v, e, in);
                                case TXF -> fetch(v, e, read(i.src(coord).value()), in);
                                default -> sample(v, e, read(i.src(coord).value()), in);
                            });
                }
                case LOAD_VAR ->
                    set(
                            d,
                            loadElement(
                                    locals.get(v),
                                    v,
                                    v.isArray() ? read(i.src(0).value())[0] : 0));
                case STORE_VAR ->
                    storeElement(
                            locals.get(v),
                            v,
                            v.isArray() ? read(i.src(0).value())[0] : 0,
                            read(i.src(v.isArray() ? 1 : 0).value()));
                case LOAD_LOCAL_INVOCATION_ID -> set(d, u32(localId));
                case LOAD_WORKGROUP_ID -> set(d, u32(workgroupId));
                case LOAD_NUM_WORKGROUPS -> set(d, u32(numWorkgroups));
                case LOAD_WORKGROUP_SIZE -> set(d, u32(shader.workgroupSize()));
                case LOAD_GLOBAL_INVOCATION_ID -> {
                    int[] w = workgroupId, l = localId, s = shader.workgroupSize();
                    set(d, u32(new int[] {w[0] * s[0] + l[0], w[1] * s[1] + l[1], w[2] * s[2] + l[2]}));
                }
                case LOAD_LOCAL_INVOCATION_INDEX -> {
                    int[] l = localId, s = shader.workgroupSize();
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
                case BARRIER -> {} // resume() stops before it
                case LOAD_SHARED ->
                    set(
                            d,
                            loadElement(
                                    shared.get(v),
                                    v,
                                    v.isArray() ? read(i.src(0).value())[0] : 0));
                case STORE_SHARED ->
                    storeElement(
                            shared.get(v),
                            v,
                            v.isArray() ? read(i.src(0).value())[0] : 0,
                            read(i.src(v.isArray() ? 1 : 0).value()));
            }
            return true;
        }

        /** This invocation's workgroup, as one number. */
        @Override
        public int workgroupIndex() {
            return workgroupId[0] + numWorkgroups[0] * (workgroupId[1] + numWorkgroups[1] * workgroupId[2]);
        }

        /** Element {@code idx} of an array variable's storage (an unsigned index; out of range reads zero). */
        private long[] loadElement(long[] store, Variable v, long idx) {
            int c = v.type().components();
            long[] r = new long[c];
            if (!v.isArray() || Long.compareUnsigned(idx, v.arrayLength()) < 0)
                System.arraycopy(store, (int) idx * c, r, 0, c);
            return r;
        }

        /** An atomic on element {@code idx} of a shared 32-bit scalar array: out of range reads zero and stores nothing. */
        private long atomicElement(long[] store, Variable v, long idx, AtomicOp op, long data, long compare) {
            if (v.isArray() && Long.compareUnsigned(idx, v.arrayLength()) >= 0) return 0;
            long old = store[(int) idx];
            store[(int) idx] = op.apply(old, data, compare);
            return old;
        }

        /** Stores element {@code idx}; out of range drops the store. */
        private void storeElement(long[] store, Variable v, long idx, long[] x) {
            int c = v.type().components();
            if (!v.isArray() || Long.compareUnsigned(idx, v.arrayLength()) < 0)
                System.arraycopy(x, 0, store, (int) idx * c, c);
        }

        private void set(Value d, long[] v) {
            vals[d.index()] = v;
            if (observer != null) observer.accept(d, v);
            for (Shadow sh : shadows) sh.defined(d, v);
        }

        // ---- the run as a shadow reads it (RunState) ----

        @Override
        public Function function() {
            return fn;
        }

        @Override
        public long[] read(Value v) {
            long[] r = vals[v.index()];
            if (r == null) throw new InterpreterException("reads " + v + " before it is defined (run the validator)");
            return r;
        }

        @Override
        public ShaderInputs inputs() {
            return in;
        }

        @Override
        public byte[] buffer(Variable v) {
            return buffers.get(v);
        }

        @Override
        public byte[] deviceMemory() {
            return Interpreter.deviceMemory(buffers);
        }

        @Override
        public long[] local(Variable v) {
            return locals.get(v);
        }

        @Override
        public long[] shared(Variable v) {
            return shared.get(v);
        }

        @Override
        public long imageTexel(Variable v, long[] coord) {
            return Interpreter.imageTexel(v, coord, in);
        }

        @Override
        public Texture texture(Variable v, long index) {
            return textureOf(v, element(v, index), in);
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

    /**
     * Device memory in a run's memory map: present when the inputs give it (a shader that reads
     * device memory without it reads zeros, as outside the region).
     */
    public static final Variable DEVICE_MEMORY = Variable.buffer(ShaderInputs.DEVICE_MEMORY, VarType.u32(1), -1);

    private static final byte[] NO_MEMORY = new byte[0];

    /** The device memory of a run's memory map (empty when the inputs gave none). */
    public static byte[] deviceMemory(Map<Variable, byte[]> memory) {
        return memory.getOrDefault(DEVICE_MEMORY, NO_MEMORY);
    }

    /**
     * {@code comps} values of {@code bits} from device memory at a 64-bit {@code address}:
     * bytes outside [{@link ShaderInputs#DEVICE_MEMORY_BASE}, base + size) read zero (addresses
     * wrap around 2^64). Shared with the backend simulator.
     */
    public static long[] loadDevice(byte[] mem, long address, int comps, int bits) {
        return loadBuffer(mem, address - ShaderInputs.DEVICE_MEMORY_BASE, comps, bits);
    }

    /** Stores to device memory; bytes outside the region are dropped. Shared with the backend simulator. */
    public static void storeDevice(byte[] mem, long address, long[] x, int bits) {
        storeBuffer(mem, address - ShaderInputs.DEVICE_MEMORY_BASE, x, bits);
    }

    /**
     * Shared with the backend simulator, so both read memory the same way. Bytes outside the
     * buffer, below it too (a machine address with a negative offset), read zero.
     */
    public static long[] loadBuffer(byte[] buf, long offset, int comps, int bits) {
        int bytes = bits / 8;
        long[] r = new long[comps];
        for (int c = 0; c < comps; c++) {
            long v = 0;
            for (int k = 0; k < bytes; k++) {
                long at = offset + (long) c * bytes + k;
                if (at >= 0 && at < buf.length) v |= (buf[(int) at] & 0xffL) << (8 * k);
            }
            r[c] = v;
        }
        return r;
    }

    /**
     * An atomic on the 32-bit word at byte {@code offset} of a buffer; returns the word found.
     * Bytes past the end read zero and drop their part of the store, like loads and stores.
     * Shared with the backend simulator.
     */
    public static long atomicBuffer(byte[] buf, long offset, AtomicOp op, long data, long compare) {
        long old = loadBuffer(buf, offset, 1, 32)[0];
        storeBuffer(buf, offset, new long[] {op.apply(old, data, compare)}, 32);
        return old;
    }

    /**
     * Stores the components of {@code x}, {@code bits} each, little-endian at byte {@code offset} of a buffer; bytes
     * outside it are dropped. Shared with the backend simulator.
     */
    public static void storeBuffer(byte[] buf, long offset, long[] x, int bits) {
        int bytes = bits / 8;
        for (int c = 0; c < x.length; c++) {
            for (int k = 0; k < bytes; k++) {
                long at = offset + (long) c * bytes + k;
                if (at >= 0 && at < buf.length) buf[(int) at] = (byte) (x[c] >>> (8 * k));
            }
        }
    }

    /** The layer an array of textures' f32 layer coordinate picks: rounded to nearest even, clamped; NaN is layer 0. */
    public static int layer(long coordBits, int layers) {
        float u = Float.intBitsToFloat((int) coordBits);
        if (u != u) return 0;
        double r = Math.rint(u);
        return (int) Math.max(0, Math.min(layers - 1, r));
    }

    /** The texel that nearest sampling of a size-{@code size} texture takes at normalized coordinate {@code coordBits} (an f32), clamped to the edge. */
    public static int nearest(long coordBits, int size) {
        float u = Float.intBitsToFloat((int) coordBits);
        if (u != u) return 0;
        double t = Math.floor((double) u * size);
        if (t < 0) return 0;
        if (t > size - 1) return size - 1;
        return (int) t;
    }

    /** A texture that was not given reads as a single texel of zeros. */
    private static final Texture EMPTY = new Texture(1, 1, 1, new long[4]);

    private static Texture textureOf(Variable v, int element, ShaderInputs in) {
        Texture t = in.texture(v.elementName(element));
        return t == null ? EMPTY : t;
    }

    /** Element {@code index} (a 32-bit unsigned index) of an array of textures, the last one past the end. */
    public static int element(Variable v, long index) {
        return (int) Math.min(index & 0xffffffffL, Math.max(1, v.arrayLength()) - 1);
    }

    /** Nearest sampling with clamp-to-edge; coordinates are normalized f32 (a cube map's, a direction: {@link CubeMap}). */
    public static long[] sample(Variable v, int element, long[] coord, ShaderInputs in) {
        Texture t = textureOf(v, element, in);
        int x, y, z;
        if (v.dim() == TextureDim.CUBE_ARRAY) {
            int[] at = CubeMap.arrayTexel(coord, t.width(), t.height(), t.depth());
            x = at[0];
            y = at[1];
            z = at[2];
        } else {
            if (v.dim() == TextureDim.CUBE) coord = CubeMap.coordinates(coord[0], coord[1], coord[2]);
            int dims = v.dim().coordinates();
            boolean arrayed = v.dim().arrayed();
            x = nearest(coord[0], t.width());
            y = dims > 1 ? arrayed && dims == 2 ? layer(coord[1], t.height()) : nearest(coord[1], t.height()) : 0;
            z = dims > 2 ? arrayed ? layer(coord[2], t.depth()) : nearest(coord[2], t.depth()) : 0;
        }
        long[] r = new long[4];
        for (int c = 0; c < 4; c++) r[c] = t.component(x, y, z, c);
        return r;
    }

    /** Texel fetch by signed 32-bit integer coordinates; outside the texture reads zero. */
    public static long[] fetch(Variable v, int element, long[] coord, ShaderInputs in) {
        Texture t = textureOf(v, element, in);
        int dims = v.dim().coordinates();
        long x = Bits.sext(coord[0], 32);
        long y = dims > 1 ? Bits.sext(coord[1], 32) : 0;
        long z = dims > 2 ? Bits.sext(coord[2], 32) : 0;
        long[] r = new long[4];
        if (v.dim() == TextureDim.CUBE_ARRAY) {
            // (x, y, face, cube): face f of cube k is layer 6k + f
            long cube = Bits.sext(coord[3], 32);
            if (z >= 6 || cube < 0 || cube >= CubeMap.cubes(t.depth())) return r;
            z += 6 * cube;
        }
        if (x < 0 || y < 0 || z < 0 || x >= t.width() || y >= t.height() || z >= t.depth()) return r;
        for (int c = 0; c < 4; c++) r[c] = t.component((int) x, (int) y, (int) z, c);
        return r;
    }

    /** The size of a texture (element {@code element} of an array of textures) or of a storage image. */
    public static long[] textureSize(Variable v, int element, ShaderInputs in) {
        return textureSize(textureOf(v, element, in), v.dim());
    }

    /** The size of texture {@code t} sampled as {@code dim} ({@code txs}; an array of cube maps counts its cubes). */
    public static long[] textureSize(Texture t, TextureDim dim) {
        int[] all = {t.width(), t.height(), dim == TextureDim.CUBE_ARRAY ? CubeMap.cubes(t.depth()) : t.depth()};
        return u32(Arrays.copyOf(all, dim.sizes()));
    }
}
