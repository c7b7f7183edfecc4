package dev.lathe.ir;

import dev.lathe.ir.op.Fp16;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds IR at an insertion point, the way tests and frontends want to write it:
 *
 * <pre>{@code
 * IrBuilder b = new IrBuilder(fn);
 * Value x = b.loadInput(color);
 * Value y = b.alu(Op.FMUL, b.swz(x, "xyz"), b.f32(2.0f));
 * IfNode in = b.pushIf(b.alu(Op.FLT, b.swz(y, "x"), b.f32(0.5f)));
 *   ...
 * b.pushElse(in);
 *   ...
 * b.popIf(in);
 * }</pre>
 *
 * <p>The insertion point is "before an instruction" or "at the end of a block (before its
 * jump)". Per-component ALU ops built without explicit component counts take the widest source
 * and read narrower sources with their last component repeated (as NIR's builder does).
 */
public final class IrBuilder {
    private final Function fn;
    private Block block;
    private Instr before;

    /** A builder appending to the last block of {@code fn}'s body. */
    public IrBuilder(Function fn) {
        this.fn = fn;
        this.block = fn.body().lastBlock();
    }

    /** The function this builder inserts into. */
    public Function function() {
        return fn;
    }

    /** The block instructions currently go into. */
    public Block block() {
        return block;
    }

    /** Moves the insertion point to the end of {@code b} (before its jump, if any). */
    public IrBuilder atEnd(Block b) {
        block = b;
        before = null;
        return this;
    }

    /** Moves the insertion point to just before {@code i}. */
    public IrBuilder before(Instr i) {
        block = i.block();
        before = i;
        return this;
    }

    /** Moves the insertion point to just after {@code i}. */
    public IrBuilder after(Instr i) {
        if (i.next() == null) return atEnd(i.block());
        return before(i.next());
    }

    /**
     * Inserts an instruction built elsewhere at the insertion point. An ALU instruction or an
     * intrinsic whose shape is wrong ({@link ShapeProblem}) is refused with an
     * IllegalArgumentException saying what is wrong, so a frontend's mistake stops where it is made.
     */
    public <T extends Instr> T insert(T i) {
        List<ShapeProblem> problems = i instanceof AluInstr a
                ? a.shapeProblems()
                : i instanceof IntrinsicInstr in ? in.shapeProblems(fn.shader().stage()) : List.of();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    i.opName() + ": " + problems.get(0).message());
        }
        if (before != null) i.insertBefore(before);
        else block.insertBeforeJump(i);
        return i;
    }

    // ---- constants ----------------------------------------------------------------------------

    /** A constant from raw bit patterns, one per component. */
    public Value constant(int bitSize, long... bits) {
        return insert(new LoadConstInstr(fn, bitSize, bits)).def();
    }

    /** 32-bit float constants, one per component (the bits as given: a NaN keeps its payload). */
    public Value f32(float... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = Float.floatToRawIntBits(v[i]) & 0xffffffffL;
        return constant(32, bits);
    }

    /** 64-bit float constants, one per component (the bits as given: a NaN keeps its payload). */
    public Value f64(double... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = Double.doubleToRawLongBits(v[i]);
        return constant(64, bits);
    }

    /** Half constants, each rounded to nearest even from the double given. */
    public Value f16(double... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = Fp16.fromDouble(v[i]);
        return constant(16, bits);
    }

    /** 32-bit integer constants, one per component; signed and unsigned alike (the 32 bits as given). */
    public Value i32(int... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = v[i] & 0xffffffffL;
        return constant(32, bits);
    }

    /** 64-bit integer constants, one per component. */
    public Value i64(long... v) {
        return constant(64, v);
    }

    /** 16-bit integer constants, one per component; only the low 16 bits are kept ({@code -1} is {@code 0xffff}). */
    public Value i16(int... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = v[i];
        return constant(16, bits);
    }

    /** 8-bit integer constants, one per component; only the low 8 bits are kept ({@code -1} is {@code 0xff}). */
    public Value i8(int... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = v[i];
        return constant(8, bits);
    }

    /** 1-bit boolean constants, one per component. */
    public Value bool(boolean... v) {
        long[] bits = new long[v.length];
        for (int i = 0; i < v.length; i++) bits[i] = v[i] ? 1 : 0;
        return constant(1, bits);
    }

    /** An {@code undef} of the given shape: passes may assume any bits for it (the interpreter reads zero). */
    public Value undef(int numComponents, int bitSize) {
        return insert(new UndefInstr(fn, numComponents, bitSize)).def();
    }

    // ---- ALU ----------------------------------------------------------------------------------

    /** {@code v} read through a swizzle such as {@code "yx"} or {@code "xxxx"}. */
    public Swizzled swz(Value v, String swizzle) {
        byte[] s = Swizzle.parse(swizzle);
        if (s == null) throw new IllegalArgumentException("not a swizzle: " + swizzle);
        return new Swizzled(v, s);
    }

    /** Component {@code c} of {@code v} as a scalar operand. */
    public Swizzled comp(Value v, int c) {
        return new Swizzled(v, new byte[] {(byte) c});
    }

    /** An ALU op with the result shape inferred from the op and the sources. */
    public Value alu(Op op, AluOperand... srcs) {
        int comps;
        if (op.isHorizontal()) {
            comps = op.output().components();
        } else {
            comps = 1;
            for (AluOperand o : srcs) comps = Math.max(comps, width(o));
        }
        int bits = op.output().isSized() ? op.output().bitSize() : 0;
        for (int i = 0; i < srcs.length && bits == 0; i++) {
            if (!op.input(i).isSized()) bits = srcs[i].value().bitSize();
        }
        return aluInstr(op, comps, bits, srcs).def();
    }

    /** An ALU op with an explicit result shape. */
    public AluInstr aluInstr(Op op, int numComponents, int bitSize, AluOperand... srcs) {
        Value[] vals = new Value[srcs.length];
        byte[][] swz = new byte[srcs.length][];
        for (int i = 0; i < srcs.length; i++) {
            vals[i] = srcs[i].value();
            int want = op.inputComponents(i, numComponents);
            byte[] given = srcs[i].swizzle();
            if (given == null) {
                int have = vals[i].numComponents();
                given = new byte[want];
                for (int c = 0; c < want; c++) given[c] = (byte) Math.min(c, have - 1);
            } else if (given.length < want) {
                byte[] widened = new byte[want];
                for (int c = 0; c < want; c++) widened[c] = given[Math.min(c, given.length - 1)];
                given = widened;
            }
            swz[i] = given;
        }
        return insert(new AluInstr(fn, op, numComponents, bitSize, vals, swz));
    }

    private static int width(AluOperand o) {
        return o.swizzle() == null ? o.value().numComponents() : o.swizzle().length;
    }

    /** Builds a vector from scalar components with vec2/vec3/vec4/vec8/vec16. */
    public Value vec(Value... comps) {
        Op op = switch (comps.length) {
            case 1 -> Op.MOV;
            case 2 -> Op.VEC2;
            case 3 -> Op.VEC3;
            case 4 -> Op.VEC4;
            case 8 -> Op.VEC8;
            case 16 -> Op.VEC16;
            default -> throw new IllegalArgumentException("no vec op for " + comps.length + " components");
        };
        AluOperand[] ops = new AluOperand[comps.length];
        for (int i = 0; i < comps.length; i++) ops[i] = comp(comps[i], 0);
        return aluInstr(op, comps.length, comps[0].bitSize(), ops).def();
    }

    /** Component {@code c} of {@code v} as a new scalar value (a mov). */
    public Value channel(Value v, int c) {
        return aluInstr(Op.MOV, 1, v.bitSize(), comp(v, c)).def();
    }

    // ---- intrinsics ---------------------------------------------------------------------------

    /**
     * Any intrinsic: {@code in} naming {@code var} (null when it names none), defining a value of the given shape (0, 0
     * when it defines none), with {@code srcs} in the order of its roles ({@link Intrinsic#roles}). A wrong shape, or an
     * intrinsic the shader's stage lacks, is refused as {@link #insert} says.
     */
    public IntrinsicInstr intrinsic(Intrinsic in, Variable var, int numComponents, int bitSize, Value... srcs) {
        return insert(new IntrinsicInstr(fn, in, var, numComponents, bitSize, srcs));
    }

    private Value load(Intrinsic in, Variable var, Value... srcs) {
        int[] shape = in.destShape(var);
        return intrinsic(in, var, shape[0], shape[1], srcs).def();
    }

    /** Reads input {@code v} ({@code load_input}; vertex and fragment shaders). */
    public Value loadInput(Variable v) {
        return load(Intrinsic.LOAD_INPUT, v);
    }

    /** Writes {@code x}, of {@code v}'s type, to output {@code v} ({@code store_output}; vertex and fragment shaders). */
    public void storeOutput(Variable v, Value x) {
        intrinsic(Intrinsic.STORE_OUTPUT, v, 0, 0, x);
    }

    /** Reads uniform {@code v}, which is no array ({@code load_uniform}). */
    public Value loadUniform(Variable v) {
        return load(Intrinsic.LOAD_UNIFORM, v);
    }

    /** Geometry: per-vertex input {@code v} of vertex {@code vertex} ({@code load_input}). */
    public Value loadInput(Variable v, Value vertex) {
        return load(Intrinsic.LOAD_INPUT, v, vertex);
    }

    /** Reads element {@code index} (32-bit) of array uniform {@code v}; an index past the end reads zero. */
    public Value loadUniform(Variable v, Value index) {
        return load(Intrinsic.LOAD_UNIFORM, v, index);
    }

    /**
     * Loads {@code numComponents} values of {@code bitSize} bits, little-endian, from storage buffer {@code v} at the
     * 32-bit {@code byteOffset} ({@code load_buffer}); bytes past the end read zero.
     */
    public Value loadBuffer(Variable v, Value byteOffset, int numComponents, int bitSize) {
        return intrinsic(Intrinsic.LOAD_BUFFER, v, numComponents, bitSize, byteOffset)
                .def();
    }

    /**
     * Stores {@code x} (any 8–64-bit vector), little-endian, into storage buffer {@code v} at the 32-bit
     * {@code byteOffset} ({@code store_buffer}); bytes past the end are dropped.
     */
    public void storeBuffer(Variable v, Value byteOffset, Value x) {
        intrinsic(Intrinsic.STORE_BUFFER, v, 0, 0, byteOffset, x);
    }

    /** Loads from device memory at a 64-bit address ({@code load_global}). */
    public Value loadGlobal(Value address, int numComponents, int bitSize) {
        return intrinsic(Intrinsic.LOAD_GLOBAL, null, numComponents, bitSize, address)
                .def();
    }

    /** Stores {@code x} to device memory at a 64-bit address ({@code store_global}). */
    public void storeGlobal(Value address, Value x) {
        intrinsic(Intrinsic.STORE_GLOBAL, null, 0, 0, address, x);
    }

    /** The size of storage buffer {@code v} in bytes, a 32-bit unsigned scalar ({@code buffer_size}). */
    public Value bufferSize(Variable v) {
        return load(Intrinsic.BUFFER_SIZE, v);
    }

    /**
     * An atomic on a buffer (at a byte offset), a shared variable (at an element index, null
     * for a scalar) or a storage image (at integer coordinates); {@code compare} only for comp_swap. Defines the 32-bit word found.
     */
    public Value atomic(AtomicOp op, Variable v, Value at, Value compare, Value data) {
        List<Value> srcs = new ArrayList<>();
        if (at != null) srcs.add(at);
        if (op.hasCompare()) srcs.add(compare);
        srcs.add(data);
        return intrinsic(Intrinsic.atomic(op, v.kind()), v, 1, 32, srcs.toArray(new Value[0]))
                .def();
    }

    /** Samples texture {@code t} (no array) at normalized float coordinates {@code coord}, one per dimension ({@code tex}). */
    public Value tex(Variable t, Value coord) {
        return load(Intrinsic.TEX, t, coord);
    }

    /** Samples texture {@code t} (no array) at normalized float coordinates and the 32-bit float level of detail {@code lod}. */
    public Value txl(Variable t, Value coord, Value lod) {
        return load(Intrinsic.TXL, t, coord, lod);
    }

    /** Fetches the texel of texture {@code t} (no array) at integer coordinates {@code coord} ({@code txf}); outside it reads zero. */
    public Value txf(Variable t, Value coord) {
        return load(Intrinsic.TXF, t, coord);
    }

    /**
     * A texture instruction ({@code tex}, {@code txl}, {@code txf}, {@code txs}) on element
     * {@code element} of an array of textures, or on a texture that is no array when
     * {@code element} is null.
     */
    public Value texture(Intrinsic op, Variable t, Value element, Value... rest) {
        if (element == null) return load(op, t, rest);
        Value[] srcs = new Value[rest.length + 1];
        srcs[0] = element;
        System.arraycopy(rest, 0, srcs, 1, rest.length);
        return load(op, t, srcs);
    }

    /** Reads the texel of storage image {@code img} at integer coordinates {@code coord}; outside the image it reads zero. */
    public Value imageLoad(Variable img, Value coord) {
        return load(Intrinsic.IMAGE_LOAD, img, coord);
    }

    /**
     * Writes {@code texel} (four 32-bit components) to storage image {@code img} at integer coordinates {@code coord}, at
     * the image format's precision; a store outside the image is dropped.
     */
    public void imageStore(Variable img, Value coord, Value texel) {
        intrinsic(Intrinsic.IMAGE_STORE, img, 0, 0, coord, texel);
    }

    /** The size of storage image {@code img}: one 32-bit integer per dimension ({@code image_size}). */
    public Value imageSize(Variable img) {
        return load(Intrinsic.IMAGE_SIZE, img);
    }

    /** The size of texture {@code t} (no array): one 32-bit integer per dimension ({@code txs}). */
    public Value txs(Variable t) {
        return load(Intrinsic.TXS, t);
    }

    /** Loads a local ({@code load_var}) or a shared variable ({@code load_shared}). */
    public Value loadVar(Variable v) {
        return load(loadOf(v), v);
    }

    /** Loads element {@code index} (32-bit) of an array local or shared variable; past the end it reads zero. */
    public Value loadVar(Variable v, Value index) {
        return load(loadOf(v), v, index);
    }

    /** Stores to a local ({@code store_var}) or a shared variable ({@code store_shared}). */
    public void storeVar(Variable v, Value x) {
        intrinsic(storeOf(v), v, 0, 0, x);
    }

    /** Stores {@code x} to element {@code index} (32-bit) of an array local or shared variable; past the end it is dropped. */
    public void storeVar(Variable v, Value index, Value x) {
        intrinsic(storeOf(v), v, 0, 0, index, x);
    }

    private static Intrinsic loadOf(Variable v) {
        return v.kind() == Variable.Kind.SHARED ? Intrinsic.LOAD_SHARED : Intrinsic.LOAD_VAR;
    }

    private static Intrinsic storeOf(Variable v) {
        return v.kind() == Variable.Kind.SHARED ? Intrinsic.STORE_SHARED : Intrinsic.STORE_VAR;
    }

    /** A system value (load_local_invocation_id, load_frag_coord, …). */
    public Value sysval(Intrinsic in) {
        if (in.varKind() != null || !in.hasDest())
            throw new IllegalArgumentException(in.spelling() + " is not a system value");
        return load(in, null);
    }

    /** Ends the invocation: the fragment is discarded ({@code discard}; fragment shaders only). */
    public void discard() {
        intrinsic(Intrinsic.DISCARD, null, 0, 0);
    }

    /** Discards the invocation when the 1-bit {@code cond} is true ({@code discard_if}; fragment shaders only). */
    public void discardIf(Value cond) {
        intrinsic(Intrinsic.DISCARD_IF, null, 0, 0, cond);
    }

    /** Waits until every invocation of the workgroup gets here ({@code barrier}; compute shaders only). */
    public void barrier() {
        intrinsic(Intrinsic.BARRIER, null, 0, 0);
    }

    /** Geometry: the outputs' values become the next emitted vertex ({@code emit_vertex}). */
    public void emitVertex() {
        intrinsic(Intrinsic.EMIT_VERTEX, null, 0, 0);
    }

    /** Geometry: the strip being emitted ends ({@code end_primitive}). */
    public void endPrimitive() {
        intrinsic(Intrinsic.END_PRIMITIVE, null, 0, 0);
    }

    // ---- control flow -------------------------------------------------------------------------

    /**
     * Starts an {@code if} at the insertion point (splitting the block there) and moves into its
     * then side.
     */
    public IfNode pushIf(Value cond) {
        if (cond.numComponents() != 1 || cond.bitSize() != 1) {
            throw new IllegalArgumentException(
                    "an if condition must be vec1 1, not vec" + cond.numComponents() + " " + cond.bitSize());
        }
        Instr split = before != null ? before : block.jump();
        IfNode in = fn.insertIf(block, split, cond);
        atEnd(in.thenList().lastBlock());
        return in;
    }

    /** Moves into the else side of {@code in}. */
    public void pushElse(IfNode in) {
        atEnd(in.elseList().lastBlock());
    }

    /** Leaves {@code in}: continues in its merge block, before anything the split moved there. */
    public void popIf(IfNode in) {
        enterAfter(in.mergeBlock());
    }

    /** Starts a {@code loop} at the insertion point and moves into its body. */
    public LoopNode pushLoop() {
        Instr split = before != null ? before : block.jump();
        LoopNode loop = fn.insertLoop(block, split);
        atEnd(loop.body().lastBlock());
        return loop;
    }

    /** Leaves {@code loop}: continues in its exit block. */
    public void popLoop(LoopNode loop) {
        enterAfter(loop.exitBlock());
    }

    private void enterAfter(Block b) {
        block = b;
        before = b.firstInstr();
    }

    /** Ends the current block with a {@code break}, {@code continue} or {@code return}: a jump is always a block's last instruction. */
    public void jump(JumpInstr.Kind kind) {
        insert(new JumpInstr(kind));
    }

    /** Leaves the innermost loop ({@code break}): control goes to the loop's exit block. */
    public void breakLoop() {
        jump(JumpInstr.Kind.BREAK);
    }

    /** Starts the next iteration of the innermost loop ({@code continue}). */
    public void continueLoop() {
        jump(JumpInstr.Kind.CONTINUE);
    }

    /** Returns from the function ({@code return}): control goes to its end block. */
    public void ret() {
        jump(JumpInstr.Kind.RETURN);
    }

    /** A phi at the start of the current block (after any phis already there); add sources to it. */
    public PhiInstr phi(int numComponents, int bitSize) {
        PhiInstr p = new PhiInstr(fn, numComponents, bitSize);
        Instr i = block.firstInstr();
        while (i instanceof PhiInstr) i = i.next();
        if (i == null) block.append(p);
        else p.insertBefore(i);
        return p;
    }
}
