package dev.lathe.vulkan;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.PrecisionBounds;
import dev.lathe.ir.interp.RunState;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.interp.Shadow;
import dev.lathe.ir.interp.Texture;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Beside one run, the interval each float holds on a conforming Vulkan implementation
 * ({@link VulkanPrecision}): a value whose every component is the one answer is exact (no
 * interval); an op Vulkan lets be inexact, or an op on an inexact value, gives an interval, which
 * moves with the value through copies, phis, locals and outputs. When a value with no single
 * answer would decide something — an integer or a comparison from an interval that straddles a
 * jump, an inexact value's bits, an address, a texture coordinate, a store to memory — the run
 * is <em>undecided</em> (the first such place is kept): another implementation may take another
 * path, and nothing after can be compared.
 */
final class PrecisionTracker implements Shadow {
    /**
     * Vulkan's precision as a shadow of a run, for a device whose texel selection keeps
     * {@code subTexelPrecisionBits} of fraction (its limit of that name; Vulkan requires at
     * least 4): a texture coordinate within 2^-bits of a texel's edge may take either texel.
     */
    static Shadow.Model model(int subTexelPrecisionBits) {
        if (subTexelPrecisionBits < 4)
            throw new IllegalArgumentException(
                    "subTexelPrecisionBits is at least 4 in Vulkan, not " + subTexelPrecisionBits);
        double subTexel = Math.scalb(1.0, -subTexelPrecisionBits);
        return () -> {
            Shared shared = new Shared();
            return run -> new PrecisionTracker(shared, run, subTexel);
        };
    }

    /** What the invocations of one dispatch share: element storage, and the first undecided place. */
    static final class Shared {
        final Map<long[], double[][]> elements = new IdentityHashMap<>();
        /** Per memory region, by the byte offset a float starts at: {lo, hi, bits}. */
        final Map<Variable, Map<Long, double[]>> memory = new IdentityHashMap<>();
        /** Per memory region, per byte: {the workgroup that wrote it or -1, one that read it or -1, -2 for several}. */
        final Map<Variable, Map<Long, int[]>> touched = new IdentityHashMap<>();

        String undecided;
    }

    private final Shared shared;
    /** Per value, per component: {lo, hi}; a null array or component is exact. */
    private final double[][][] intervals;

    private final Map<Variable, double[][]> outputs = new LinkedHashMap<>();

    private final RunState run;
    /** The texel coordinate's slack: 2^-subTexelPrecisionBits. */
    private final double subTexel;

    PrecisionTracker(Shared shared, RunState run, double subTexel) {
        this.shared = shared;
        this.run = run;
        this.subTexel = subTexel;
        this.intervals = new double[run.function().valueCount()][][];
    }

    @Override
    public void localStorage(long[] storage) {
        undefinedStorage(storage);
    }

    @Override
    public Object carried(Value v) {
        return copyOf(v);
    }

    @Override
    public void carry(Value d, Object carried) {
        set(d, (double[][]) carried);
    }

    @Override
    public void constant(Value d) {
        exact(d);
    }

    @Override
    public void undef(Value d) {
        undefined(d);
    }

    /** An index past an array of descriptors (or in a uniform block) the frontend noted makes the run undecided. */
    @Override
    public void defined(Value d, long[] bits) {
        dev.lathe.ir.Function fn = run.function();
        if (!fn.hasDescriptorIndices()) return;
        int length = fn.descriptorIndexLength(d);
        if (length >= 0 && Long.compareUnsigned(bits[0] & 0xffffffffL, length) >= 0) {
            undecided("an index past an array of " + length
                    + " (descriptors, or in a uniform block) is undefined in Vulkan");
        }
    }

    @Override
    public ShaderOutputs finish(ShaderOutputs o, Map<Variable, byte[]> buffers) {
        return new ShaderOutputs(
                o.outputs(), o.buffers(), o.discarded(), o.loopIterations(), o.nans(), result(), o.strips());
    }

    /**
     * An intrinsic, before it runs: intervals carried through outputs and element storage
     * (locals, shared); any other operand must have one answer; what the intrinsic returns is
     * exact.
     */
    @Override
    public void intrinsic(IntrinsicInstr i) {
        Variable v = i.var();
        Value d = i.def();
        String what = i.intrinsic().spelling();
        switch (i.intrinsic()) {
            case STORE_OUTPUT -> storeOutput(v, i.src(0));
            case LOAD_VAR, LOAD_SHARED -> {
                if (v.isArray()) readsExactly(i.src(0), what);
                loadElement(
                        d,
                        i.intrinsic() == Intrinsic.LOAD_VAR ? run.local(v) : run.shared(v),
                        v,
                        v.isArray() ? word(i, 0) : 0);
            }
            case STORE_VAR, STORE_SHARED -> {
                if (v.isArray()) readsExactly(i.src(0), what);
                storeElement(
                        i.intrinsic() == Intrinsic.STORE_VAR ? run.local(v) : run.shared(v),
                        v,
                        v.isArray() ? word(i, 0) : 0,
                        i.src(v.isArray() ? 1 : 0));
            }
            case TXF, TXS -> {
                for (int k = 0; k < i.numSrcs(); k++) readsExactly(i.src(k), what);
                if (v.isArray()) arrayIndex(i, what);
                exact(d);
            }
            case TEX, TXL -> {
                // nearest sampling of one level: a coordinate decides only which texel, so one
                // whose interval stays inside a texel decides it (the level of detail decides
                // nothing). Vulkan computes the texel coordinate with subTexelPrecisionBits of
                // fraction: within 2^-bits of a texel's edge, either texel may be taken.
                int coord = v.isArray() ? 1 : 0;
                if (v.isArray()) arrayIndex(i, what);
                Texture t = run.texture(v, v.isArray() ? word(i, 0) : 0);
                int[] sizes = {t.width(), t.height(), t.depth()};
                long[] at = run.read(i.src(coord).value());
                if (v.dim() == dev.lathe.ir.TextureDim.CUBE) {
                    cubeTexel(i.src(coord), at, sizes, what);
                    exact(d);
                    break;
                }
                if (v.dim() == dev.lathe.ir.TextureDim.CUBE_ARRAY) {
                    // the direction picks the face and texel as in one cube; the fourth coordinate the cube, as a layer
                    cubeTexel(i.src(coord), at, new int[] {t.width(), t.height(), 6}, what);
                    double[] iv = of(i.src(coord), 3);
                    if (iv == UNDEFINED) undecided(what + " at an undefined cube coordinate");
                    if (iv != null && !Double.isNaN(iv[0]) && !Double.isNaN(iv[1])) {
                        int cubes = Math.max(1, dev.lathe.ir.interp.CubeMap.cubes(t.depth()));
                        if (Interpreter.layer(FloatBits.fromDouble(iv[0], 32), cubes)
                                != Interpreter.layer(FloatBits.fromDouble(iv[1], 32), cubes))
                            undecided(what + " at a cube coordinate near a half may take either cube");
                    }
                    exact(d);
                    break;
                }
                for (int c = 0; c < i.src(coord).numComponentsRead(); c++) {
                    double[] iv = of(i.src(coord), c);
                    if (iv == UNDEFINED) undecided(what + " at an undefined coordinate");
                    double u = Float.intBitsToFloat((int) at[i.src(coord).component(c)]);
                    double lo = iv == null ? u : iv[0], hi = iv == null ? u : iv[1];
                    if (Double.isNaN(lo) || Double.isNaN(hi)) continue;
                    if (v.dim().arrayed() && c == i.src(coord).numComponentsRead() - 1) {
                        // the layer: rounded to even (no sub-texel slack); an interval over a .5 takes either
                        if (Interpreter.layer(FloatBits.fromDouble(lo, 32), sizes[c])
                                != Interpreter.layer(FloatBits.fromDouble(hi, 32), sizes[c]))
                            undecided(what + " at a layer coordinate near a half may take either layer");
                        continue;
                    }
                    double slack = subTexel / sizes[c];
                    if (Interpreter.nearest(FloatBits.fromDouble(lo - slack, 32), sizes[c])
                            != Interpreter.nearest(FloatBits.fromDouble(hi + slack, 32), sizes[c])) {
                        undecided(what + " at a coordinate near a texel's edge may sample either texel");
                    }
                }
                exact(d);
            }
            case IMAGE_STORE -> {
                readsExactly(i.src(0), what);
                long at = run.imageTexel(v, run.read(i.src(0).value()));
                if (at >= 0) storeImage(v, at * 16, i.src(1), run.read(i.src(1).value()), v.format(), what);
            }
            case IMAGE_LOAD -> {
                readsExactly(i.src(0), what);
                long at = run.imageTexel(v, run.read(i.src(0).value()));
                if (at >= 0) loadMemory(d, v, at * 16, what);
                else exact(d);
            }
            case STORE_BUFFER, STORE_GLOBAL -> {
                readsExactly(i.src(0), what);
                boolean global = i.intrinsic() == Intrinsic.STORE_GLOBAL;
                long at = word(i, 0) - (global ? ShaderInputs.DEVICE_MEMORY_BASE : 0);
                Variable region = global ? Interpreter.DEVICE_MEMORY : v;
                byte[] mem = global ? run.deviceMemory() : run.buffer(v);
                long[] x = run.read(i.src(1).value());
                byte[] stored = new byte
                        [x.length * i.src(1).value().bitSize() / 8]; // the bytes the store writes, as it writes them
                Interpreter.storeBuffer(stored, 0, x, i.src(1).value().bitSize());
                boolean[] changes = new boolean[stored.length];
                for (int b = 0; b < changes.length; b++) {
                    long o = at + b;
                    changes[b] = mem == null || o < 0 || o >= mem.length || mem[(int) o] != stored[b];
                }
                touch(region, at, changes.length, run.workgroupIndex(), changes, what);
                storeMemory(region, at, i.src(1), i.src(1).value().bitSize());
            }
            case LOAD_BUFFER, LOAD_GLOBAL -> {
                readsExactly(i.src(0), what);
                boolean global = i.intrinsic() == Intrinsic.LOAD_GLOBAL;
                long at = word(i, 0) - (global ? ShaderInputs.DEVICE_MEMORY_BASE : 0);
                Variable region = global ? Interpreter.DEVICE_MEMORY : v;
                touch(region, at, d.numComponents() * d.bitSize() / 8, run.workgroupIndex(), null, what);
                loadMemory(d, region, at, what);
            }
            default -> {
                for (int k = 0; k < i.numSrcs(); k++) readsExactly(i.src(k), what);
                if (i.intrinsic().atomicOp() != null && v != null && v.kind() == Variable.Kind.BUFFER)
                    atomicWord(v, word(i, 0), what);
                if (i.intrinsic().atomicOp() != null && v != null && v.kind() == Variable.Kind.IMAGE) {
                    long at = run.imageTexel(v, run.read(i.src(0).value()));
                    if (at >= 0) atomicWord(v, at * 16, what);
                }
                exact(d);
            }
        }
    }

    /** Component 0 of source {@code k}'s bits. */
    private long word(IntrinsicInstr i, int k) {
        return run.read(i.src(k).value())[0];
    }

    /** An array of textures indexed at run time: past its end Vulkan's descriptor is undefined (the interpreter takes the last). */
    private void arrayIndex(IntrinsicInstr i, String what) {
        readsExactly(i.src(0), what);
        Variable v = i.var();
        if (Long.compareUnsigned(word(i, 0) & 0xffffffffL, v.arrayLength()) >= 0) {
            undecided(what + " past an array of " + v.arrayLength() + " textures is undefined in Vulkan");
        }
    }

    /**
     * A cube map sample decides its texel when every direction in the box its components' intervals
     * span (with the sub-texel slack on the face's coordinates) picks one face and one texel. A
     * face and the directions one texel of it takes are each convex (bounded by planes through
     * the origin), so the box's corners decide: all alike, and none on a face's boundary, where
     * Vulkan lets the device choose either face.
     */
    private void cubeTexel(Src coord, long[] at, int[] sizes, String what) {
        double[][] box = new double[3][];
        for (int c = 0; c < 3; c++) {
            double[] iv = of(coord, c);
            if (iv == UNDEFINED) undecided(what + " at an undefined coordinate");
            double u = Float.intBitsToFloat((int) at[coord.component(c)]);
            box[c] = iv == null ? new double[] {u, u} : iv;
            if (Double.isNaN(box[c][0]) || Double.isNaN(box[c][1])) return;
        }
        long[] first = null;
        for (int corner = 0; corner < 8; corner++) {
            long[] dir = new long[3];
            double[] mag = new double[3];
            for (int c = 0; c < 3; c++) {
                double u = box[c][(corner >> c) & 1];
                dir[c] = FloatBits.fromDouble(u, 32);
                mag[c] = Math.abs(Float.intBitsToFloat((int) dir[c]));
            }
            double[] sorted = mag.clone();
            java.util.Arrays.sort(sorted);
            if (sorted[2] == sorted[1])
                undecided(what + " at a direction on a cube map face's edge may take either face");
            long[] st = dev.lathe.ir.interp.CubeMap.coordinates(dir[0], dir[1], dir[2]);
            long[] texel = new long[3];
            for (int c = 0; c < 3; c++) {
                double u = Float.intBitsToFloat((int) st[c]);
                double slack = c < 2 ? subTexel / sizes[c] : 0;
                int lo = Interpreter.nearest(FloatBits.fromDouble(u - slack, 32), sizes[c]);
                int hi = Interpreter.nearest(FloatBits.fromDouble(u + slack, 32), sizes[c]);
                if (lo != hi) undecided(what + " at a coordinate near a texel's edge may sample either texel");
                texel[c] = lo;
            }
            if (first == null) first = texel;
            else if (!java.util.Arrays.equals(first, texel))
                undecided(what + " at a direction whose interval spans texels");
        }
    }

    void undecided(String why) {
        if (shared.undecided == null) shared.undecided = why;
    }

    /** A value that holds its one answer (a constant, an input, a load from memory, a system value). */
    void exact(Value d) {
        if (d != null) intervals[d.index()] = null;
    }

    /**
     * The "interval" of a component of an {@code undef} (compared by identity): Vulkan gives it no
     * value — an output variable read before it is written holds whatever the implementation left
     * there — so it may hold any bits. It moves through copies; a float op on it gives another;
     * anything else it reaches (an integer, a comparison, an address, memory) is undecided.
     */
    static final double[] UNDEFINED = {Double.NaN, Double.NaN};

    /** An {@code undef}: every component may hold any bits. */
    void undefined(Value d) {
        double[][] iv = new double[d.numComponents()][];
        java.util.Arrays.fill(iv, UNDEFINED);
        intervals[d.index()] = iv;
    }

    /** Element storage (a local) whose every component is undefined until it is stored. */
    void undefinedStorage(long[] storage) {
        double[][] t = new double[storage.length][];
        java.util.Arrays.fill(t, UNDEFINED);
        shared.elements.put(storage, t);
    }

    /** The interval component {@code c} of {@code s} holds, or null when it is exact. */
    double[] of(Src s, int c) {
        double[][] iv = intervals[s.value().index()];
        return iv == null ? null : iv[s.component(c)];
    }

    private boolean inexact(Src s) {
        for (int c = 0; c < s.numComponentsRead(); c++) if (of(s, c) != null) return true;
        return false;
    }

    double[][] copyOf(Value v) {
        return intervals[v.index()];
    }

    void set(Value d, double[][] iv) {
        intervals[d.index()] = iv;
    }

    /** An ALU instruction executed: {@code in} are the swizzled sources, {@code dst} its result. */
    @Override
    public void alu(AluInstr a, long[][] in, long[] dst) {
        Op op = a.op();
        int n = dst.length;
        double[][] out = new double[n][];
        boolean any = false;
        if (op.movesData()) { // mov, vecN, bcsel: the interval of the component moved
            for (int c = 0; c < n; c++) {
                if (op == Op.BCSEL && of(a.src(0), c) == UNDEFINED) undecided("bcsel picks by an undefined value");
                Src s = op == Op.BCSEL ? a.src((in[0][c] & 1) != 0 ? 1 : 2) : op == Op.MOV ? a.src(0) : a.src(c);
                out[c] = of(s, op == Op.BCSEL || op == Op.MOV ? c : 0);
                any |= out[c] != null;
            }
            intervals[a.def().index()] = any ? out : null;
            return;
        }
        if (readsUndefined(a, n, out)) return;
        int bits = a.def().bitSize();
        if (!op.isHorizontal() && a.numSrcs() > 0) {
            for (int c = 0; c < n; c++) {
                long[] operands = new long[a.numSrcs()];
                for (int k = 0; k < operands.length; k++) operands[k] = in[k][c];
                String why =
                        VulkanPrecision.undefined(op, operands, a.src(0).value().bitSize());
                if (why != null) undecided(why + " is undefined in Vulkan");
            }
        }
        boolean floatResult = op.output().typeClass() == TypeClass.FLOAT;
        boolean ownError =
                VulkanPrecision.inexact(op, a.isExact() || (op == Op.FMUL || op == Op.FMULZ) && !mayContract(a.def()));
        if (PACKS.contains(op)) {
            packs(a, in, dst);
            return;
        }
        for (int c = 0; c < n; c++) {
            double[][] srcs;
            boolean inexactSource = false;
            if (op.isHorizontal()) {
                int total = 0;
                for (int k = 0; k < a.numSrcs(); k++) total += in[k].length;
                srcs = new double[total][];
                int at = 0;
                for (int k = 0; k < a.numSrcs(); k++) {
                    for (int j = 0; j < in[k].length; j++) {
                        double[] iv = source(a, k, j, in[k][j]);
                        inexactSource |= iv != null;
                        srcs[at++] = iv != null ? iv : point(a, k, in[k][j]);
                    }
                }
            } else {
                srcs = new double[a.numSrcs()][];
                for (int k = 0; k < a.numSrcs(); k++) {
                    double[] iv = source(a, k, c, in[k][c]);
                    inexactSource |= iv != null;
                    srcs[k] = iv != null ? iv : point(a, k, in[k][c]);
                }
            }
            if (!inexactSource && !ownError) {
                // the one correctly rounded answer, unless it is a denormal, which may be flushed,
                // or a zero, whose sign Vulkan need not keep
                if (floatResult && bits >= 16 && (isDenormal(dst[c], bits) || FloatBits.toDouble(dst[c], bits) == 0)) {
                    double v = FloatBits.toDouble(dst[c], bits);
                    out[c] = new double[] {Math.min(v, 0), Math.max(v, 0)};
                    any = true;
                }
                continue;
            }
            double[] r = VulkanPrecision.bound(op, bits, srcs);
            if (r == null) {
                undecided(op.opName()
                        + " of a value a Vulkan implementation may compute differently has no one answer here");
                continue;
            }
            if (!floatResult) {
                if (r[0] != r[1]) undecided(op.opName() + " of an inexact value has several answers");
                continue; // an integer or a boolean with one answer: the interpreter's
            }
            double v = FloatBits.toDouble(dst[c], bits);
            if (r[0] == r[1] && r[0] == v && v != 0)
                continue; // one answer after all: the interpreter's, bit for bit (a zero's sign is free)
            // the interpreter's own answer is correctly rounded, so one Vulkan allows: outside, the model is wrong
            // (tests run with -ea)
            assert Double.isNaN(v) || v >= r[0] && v <= r[1]
                    : a + ": " + v + " outside [" + r[0] + ", " + r[1] + "] from "
                            + java.util.Arrays.deepToString(srcs);
            out[c] = r;
            any = true;
        }
        double[] approximation = a.block() == null || a.block().function() == null
                ? null
                : a.block().function().approximation(a.def());
        if (approximation != null && floatResult) {
            // a frontend's approximation of a function (within approximation[0] of it), which Vulkan
            // lets an implementation compute within approximation[1] ULP
            for (int c = 0; c < n; c++) {
                double v = FloatBits.toDouble(dst[c], bits);
                double[] r = out[c] != null ? out[c] : new double[] {v, v};
                if (!Double.isFinite(r[0]) || !Double.isFinite(r[1])) continue;
                double slack = approximation[0]
                        + approximation[1]
                                * VulkanPrecision.ulp(
                                        Math.max(Math.abs(r[0]), Math.abs(r[1])) + approximation[0], bits);
                out[c] = new double[] {r[0] - slack, r[1] + slack};
                any = true;
            }
        }
        intervals[a.def().index()] = any ? out : null;
    }

    /**
     * Whether {@code a} reads an undefined component: a float result is then undefined where it
     * does (per component, every component of a horizontal op) and {@code out} is what the value
     * holds; any other result is undecided.
     */
    private boolean readsUndefined(AluInstr a, int n, double[][] out) {
        boolean any = false;
        for (int k = 0; k < a.numSrcs(); k++) {
            for (int c = 0; c < a.src(k).numComponentsRead(); c++) {
                if (of(a.src(k), c) != UNDEFINED) continue;
                any = true;
                if (a.op().isHorizontal()) java.util.Arrays.fill(out, UNDEFINED);
                else if (c < n) out[c] = UNDEFINED;
            }
        }
        if (!any) return false;
        if (a.op().output().typeClass() != TypeClass.FLOAT) {
            undecided(a.op().opName() + " reads an undefined value");
            intervals[a.def().index()] = null;
        } else {
            intervals[a.def().index()] = out;
        }
        return true;
    }

    /**
     * Whether a product may be fused into an add that reads it (directly, or through a copy): a
     * product nothing adds to is correctly rounded, one answer.
     */
    private static boolean mayContract(Value product) {
        for (Src use : product.uses()) {
            if (use.instr() instanceof AluInstr u) {
                Op o = u.op();
                if (o == Op.FADD || o == Op.FSUB || o == Op.FFMA || o == Op.FLRP || o.movesData()) return true;
            } else {
                return true; // a phi, a store to a local: the add may be further on
            }
        }
        return false;
    }

    /** Ops that pack floats into an integer, each component into its own field, monotonically. */
    static final java.util.Set<Op> PACKS = java.util.EnumSet.of(
            Op.PACK_UNORM_4X8,
            Op.PACK_SNORM_4X8,
            Op.PACK_UNORM_2X16,
            Op.PACK_SNORM_2X16,
            Op.PACK_HALF_2X16,
            Op.PACK_HALF_2X16_SPLIT,
            Op.PACK_HALF_2X16_RTZ_SPLIT);

    /**
     * A pack of inexact floats has one answer when it packs the same bits at both ends of every
     * interval: each field grows with its component, so it is then the same in between.
     */
    private void packs(AluInstr a, long[][] in, long[] dst) {
        long[][] lo = new long[in.length][], hi = new long[in.length][];
        boolean inexactSource = false;
        for (int k = 0; k < in.length; k++) {
            lo[k] = in[k].clone();
            hi[k] = in[k].clone();
            for (int c = 0; c < in[k].length; c++) {
                double[] iv = source(a, k, c, in[k][c]);
                if (iv == null) continue;
                inexactSource = true;
                int size = a.src(k).value().bitSize();
                lo[k][c] = FloatBits.fromDouble(outward(iv[0], size, false), size);
                hi[k][c] = FloatBits.fromDouble(outward(iv[1], size, true), size);
            }
        }
        intervals[a.def().index()] = null;
        if (!inexactSource) return;
        long[] atLo = new long[dst.length], atHi = new long[dst.length];
        a.op().evaluateInto(a.unsizedBitSize(), lo, atLo);
        a.op().evaluateInto(a.unsizedBitSize(), hi, atHi);
        if (!java.util.Arrays.equals(atLo, atHi))
            undecided(a.op().opName() + " of an inexact value has several answers");
    }

    /** {@code x} as a float of {@code bits}, rounded down (or up) rather than to nearest. */
    private static double outward(double x, int bits, boolean up) {
        double r = FloatBits.round(x, bits);
        if (up ? r >= x : r <= x) return r;
        double u = VulkanPrecision.ulp(r, bits);
        return up ? r + u : r - u;
    }

    /**
     * The interval of component {@code c} of source {@code k} as a float op reads it, or null
     * when it is exact: an inexact value's interval; a denormal, which may be flushed, reaches zero.
     */
    private double[] source(AluInstr a, int k, int c, long bits) {
        Src s = a.src(k);
        double[] iv = of(s, c);
        TypeClass t = a.op().input(k).typeClass();
        if (t != TypeClass.FLOAT) {
            if (iv != null)
                undecided(
                        a.op().opName() + " reads the bits of a float a Vulkan implementation may compute differently");
            return null;
        }
        if (iv != null) return iv;
        int size = s.value().bitSize();
        if (size >= 16 && isDenormal(bits, size)) {
            double v = FloatBits.toDouble(bits, size);
            return new double[] {Math.min(v, 0), Math.max(v, 0)};
        }
        return null;
    }

    /** An exact source as a point: a float's value, an integer's (signed or not, as the op reads it). */
    private static double[] point(AluInstr a, int k, long bits) {
        Src s = a.src(k);
        int size = s.value().bitSize();
        TypeClass t = a.op().input(k).typeClass();
        double v;
        if (t == TypeClass.FLOAT && size >= 16) v = FloatBits.toDouble(bits, size);
        else if (t == TypeClass.INT && size < 64) v = (bits << (64 - size)) >> (64 - size);
        else v = size == 1 ? bits & 1 : bits;
        return new double[] {v, v};
    }

    private static boolean isDenormal(long v, int bits) {
        double d = FloatBits.toDouble(v, bits);
        return d != 0 && Math.abs(d) < VulkanPrecision.smallestNormal(bits);
    }

    /** An intrinsic read {@code s} where only one value will do (an offset, a coordinate, data for memory): inexact there is undecided. */
    void readsExactly(Src s, String what) {
        if (inexact(s)) undecided(what + " takes a value a Vulkan implementation may compute differently");
    }

    void storeOutput(Variable v, Src x) {
        double[][] iv = new double[v.type().components()][];
        for (int c = 0; c < iv.length; c++) {
            double[] r = of(x, c);
            if (r != null)
                iv[c] = new double[] {r[0], r[1], x.value().bitSize()
                }; // an undefined component stays {NaN, NaN}: any bits
        }
        outputs.put(v, iv);
    }

    void storeElement(long[] storage, Variable v, long idx, Src x) {
        int n = v.type().components();
        if (v.isArray() && Long.compareUnsigned(idx, v.arrayLength()) >= 0) return;
        double[][] t = shared.elements.computeIfAbsent(storage, k -> new double[storage.length][]);
        for (int c = 0; c < n; c++) t[(int) idx * n + c] = x == null ? null : of(x, c);
    }

    void loadElement(Value d, long[] storage, Variable v, long idx) {
        int n = v.type().components();
        double[][] t = shared.elements.get(storage);
        double[][] out = null;
        if (t != null && (!v.isArray() || Long.compareUnsigned(idx, v.arrayLength()) < 0)) {
            for (int c = 0; c < n; c++) {
                if (t[(int) idx * n + c] == null) continue;
                if (out == null) out = new double[d.numComponents()][];
                out[c] = t[(int) idx * n + c];
            }
        }
        intervals[d.index()] = out;
    }

    /**
     * A store of {@code x} ({@code bits} a component) at byte {@code offset} of memory region
     * {@code region}: an inexact component leaves its interval at its first byte, an exact one
     * clears what it overwrites.
     */
    void storeMemory(Variable region, long offset, Src x, int bits) {
        Map<Long, double[]> m = shared.memory.computeIfAbsent(region, k -> new java.util.TreeMap<>());
        int bytes = bits / 8;
        for (int c = 0; c < x.numComponentsRead(); c++) {
            long at = offset + (long) c * bytes;
            clear(m, at, bytes);
            double[] iv = of(x, c);
            if (iv == UNDEFINED) undecided("a store of an undefined value to " + region.name());
            else if (iv != null) m.put(at, new double[] {iv[0], iv[1], bits});
        }
    }

    /**
     * An image store of texel {@code x} at byte {@code offset} of image {@code image}, kept at
     * {@code format}'s precision: an inexact float component converts to an interval of what the
     * format may keep (Vulkan lets a float go to either of the two nearest normalized codes, and
     * a narrower float round either way); an integer component must be exact.
     */
    void storeImage(
            Variable image, long offset, Src x, long[] texelBits, dev.lathe.ir.ImageFormat format, String what) {
        Map<Long, double[]> m = shared.memory.computeIfAbsent(image, k -> new java.util.TreeMap<>());
        clear(m, offset, 16);
        for (int c = 0; c < Math.min(format.components(), x.numComponentsRead()); c++) {
            double[] iv = of(x, c);
            if (iv == UNDEFINED) {
                undecided(what + " stores an undefined value");
                continue;
            }
            boolean normalized = format.kind() == dev.lathe.ir.ImageFormat.Kind.UNORM
                    || format.kind() == dev.lathe.ir.ImageFormat.Kind.SNORM;
            if (iv == null && normalized) {
                // an exact float still has two codes to go to, unless it is one
                double v = FloatBits.toDouble(texelBits[c], 32);
                if (!Double.isNaN(v)) iv = new double[] {v, v};
            }
            if (iv == null) continue;
            if (format.base() != dev.lathe.ir.BaseType.FLOAT) {
                undecided(
                        what + " stores an integer made from a float a Vulkan implementation may compute differently");
                continue;
            }
            int bits = format.bits(c);
            double lo, hi;
            switch (format.kind()) {
                case UNORM, SNORM -> {
                    double steps = format.kind() == dev.lathe.ir.ImageFormat.Kind.UNORM
                            ? (1L << bits) - 1
                            : (1L << (bits - 1)) - 1;
                    double min = format.kind() == dev.lathe.ir.ImageFormat.Kind.UNORM ? 0 : -1;
                    // a code k reads back as the float nearest k / steps, which may lie on either side of the real
                    // quotient
                    lo = floatAtOrBelow(Math.max(min, Math.floor(Math.max(min, Math.min(1, iv[0])) * steps) / steps));
                    hi = floatAtOrAbove(Math.min(1, Math.ceil(Math.max(min, Math.min(1, iv[1])) * steps) / steps));
                }
                case FLOAT -> {
                    double[] r = bits == 32 ? iv : VulkanPrecision.widen(iv.clone(), 16, 1);
                    lo = r[0];
                    hi = r[1];
                }
                default -> {
                    undecided(what + " stores a packed float a Vulkan implementation may compute differently");
                    continue;
                }
            }
            if (lo == hi) continue; // one code either way
            m.put(offset + 4L * c, new double[] {lo, hi, 32});
        }
    }

    /** The largest float at or below {@code x}. */
    static double floatAtOrBelow(double x) {
        float f = (float) x;
        return f > x ? Math.nextDown(f) : f;
    }

    /** The smallest float at or above {@code x}. */
    static double floatAtOrAbove(double x) {
        float f = (float) x;
        return f < x ? Math.nextUp(f) : f;
    }

    /** Drops the intervals that overlap bytes [at, at + bytes). */
    private static void clear(Map<Long, double[]> m, long at, int bytes) {
        m.entrySet().removeIf(e -> e.getKey() < at + bytes && e.getKey() + (long) e.getValue()[2] / 8 > at);
    }

    /** A load of {@code d} from byte {@code offset} of {@code region}: an interval stored there whole comes back; part of one is undecided. */
    void loadMemory(Value d, Variable region, long offset, String what) {
        Map<Long, double[]> m = shared.memory.get(region);
        double[][] out = null;
        if (m != null && !m.isEmpty()) {
            int bytes = d.bitSize() / 8;
            for (int c = 0; c < d.numComponents(); c++) {
                long at = offset + (long) c * bytes;
                double[] whole = m.get(at);
                if (whole != null && whole[2] == d.bitSize()) {
                    if (out == null) out = new double[d.numComponents()][];
                    out[c] = new double[] {whole[0], whole[1]};
                    continue;
                }
                for (var e : m.entrySet()) {
                    if (e.getKey() < at + bytes && e.getKey() + (long) e.getValue()[2] / 8 > at) {
                        undecided(what + " reads part of a float a Vulkan implementation may compute differently");
                        break;
                    }
                }
            }
        }
        intervals[d.index()] = out;
    }

    /** An atomic on the word at {@code offset}: it reads the word's bits, and leaves an exact value. */
    void atomicWord(Variable region, long offset, String what) {
        Map<Long, double[]> m = shared.memory.get(region);
        if (m == null) return;
        int before = m.size();
        clear(m, offset, 4);
        if (m.size() != before)
            undecided(what + " reads the bits of a float a Vulkan implementation may compute differently");
    }

    /**
     * Workgroup {@code workgroup} reads ({@code changes} null) or writes bytes [at, at + bytes) of
     * {@code region} ({@code changes}: which bytes the write gives a new value): when a byte
     * another workgroup changed is read or changed again, or a byte another workgroup read is
     * changed, the outcome depends on the order workgroups run in, which Vulkan does not define
     * (the interpreter runs them one after another, a GPU at once): undecided. Writing the value a
     * byte already holds changes nothing, whoever runs first.
     */
    void touch(Variable region, long at, int bytes, int workgroup, boolean[] changes, String what) {
        Map<Long, int[]> m = shared.touched.computeIfAbsent(region, k -> new java.util.HashMap<>());
        for (int k = 0; k < bytes; k++) {
            long b = at + k;
            int[] t = m.computeIfAbsent(b, x -> new int[] {-1, -1});
            boolean write = changes != null, changed = write && changes[k];
            boolean race = t[0] >= 0 && t[0] != workgroup && (!write || changed)
                    || changed && (t[1] == -2 || t[1] >= 0 && t[1] != workgroup);
            if (race) {
                undecided(what + ": workgroups race for byte " + b + " of " + region.name()
                        + " (their order is not defined)");
                return;
            }
            if (changed) t[0] = workgroup;
            if (!write) t[1] = t[1] == -1 || t[1] == workgroup ? workgroup : -2;
        }
    }

    /** What the run leaves, by output name. */
    PrecisionBounds result() {
        Map<String, double[][]> outs = new LinkedHashMap<>();
        outputs.forEach((v, iv) -> {
            for (double[] x : iv) {
                if (x != null) {
                    outs.put(v.name(), iv.clone());
                    break;
                }
            }
        });
        Map<String, Map<Long, double[]>> mem = new LinkedHashMap<>();
        shared.memory.forEach((v, m) -> {
            if (!m.isEmpty()) mem.put(v.name(), new java.util.TreeMap<>(m));
        });
        return new PrecisionBounds(outs, mem, shared.undecided);
    }
}
