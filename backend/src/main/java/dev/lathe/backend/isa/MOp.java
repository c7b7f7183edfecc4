package dev.lathe.backend.isa;

import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Op;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * Every machine instruction: its category (which fixes the encoding layout), its number
 * within the category, its base mnemonic, how many sources it reads, which types it takes, and
 * for plain ALU instructions the IR op whose op-table semantics it has at the instruction's
 * type size (so the simulator and the IR interpreter compute with the same functions).
 * {@code backend/ISA.md} describes each one.
 */
public enum MOp {
    // cat0: flow
    NOP(0, 0, "nop", 0, Types.NONE, null),
    JUMP(0, 1, "jump", 0, Types.NONE, null),
    BR(0, 2, "br", 0, Types.NONE, null),
    KILL(0, 3, "kill", 0, Types.NONE, null),
    END(0, 4, "end", 0, Types.NONE, null),
    // cat1: moves and conversions
    MOV(1, 0, "mov", 1, Types.ANY, null),
    COV(1, 1, "cov", 1, Types.ANY, null),
    /** a0.x = a register (a constant-file index, for {@code c<a0.x + n>} reads). */
    MOVA(1, 2, "mova", 1, Types.NONE, null),
    // cat2: ALU with one or two sources
    ADD_F(2, 0, "add", 2, Types.FLOAT, Op.FADD),
    ADD_U(2, 1, "add", 2, Types.UINT, Op.IADD),
    SUB_U(2, 2, "sub", 2, Types.UINT, Op.ISUB),
    MUL_F(2, 3, "mul", 2, Types.FLOAT, Op.FMUL),
    MUL_U(2, 4, "mul", 2, Types.UINT, Op.IMUL),
    MULH_U(2, 5, "mulh", 2, Types.UINT, Op.UMUL_HIGH),
    MULH_S(2, 6, "mulh", 2, Types.SINT, Op.IMUL_HIGH),
    MIN_F(2, 7, "min", 2, Types.FLOAT, Op.FMIN),
    MAX_F(2, 8, "max", 2, Types.FLOAT, Op.FMAX),
    MIN_U(2, 9, "min", 2, Types.UINT, Op.UMIN),
    MAX_U(2, 10, "max", 2, Types.UINT, Op.UMAX),
    MIN_S(2, 11, "min", 2, Types.SINT, Op.IMIN),
    MAX_S(2, 12, "max", 2, Types.SINT, Op.IMAX),
    CMPS_F(2, 13, "cmps", 2, Types.FLOAT, null),
    CMPS_U(2, 14, "cmps", 2, Types.UINT, null),
    CMPS_S(2, 15, "cmps", 2, Types.SINT, null),
    AND_B(2, 16, "and", 2, Types.UINT, Op.IAND),
    OR_B(2, 17, "or", 2, Types.UINT, Op.IOR),
    XOR_B(2, 18, "xor", 2, Types.UINT, Op.IXOR),
    NOT_B(2, 19, "not", 1, Types.UINT, Op.INOT),
    SHL_B(2, 20, "shl", 2, Types.UINT, Op.ISHL),
    SHR_B(2, 21, "shr", 2, Types.UINT, Op.USHR),
    ASHR_B(2, 22, "ashr", 2, Types.SINT, Op.ISHR),
    FLOOR_F(2, 23, "floor", 1, Types.FLOAT_NOT64, Op.FFLOOR),
    CEIL_F(2, 24, "ceil", 1, Types.FLOAT_NOT64, Op.FCEIL),
    TRUNC_F(2, 25, "trunc", 1, Types.FLOAT_NOT64, Op.FTRUNC),
    RNDNE_F(2, 26, "rndne", 1, Types.FLOAT, Op.FROUND_EVEN),
    SIGN_F(2, 27, "sign", 1, Types.FLOAT, Op.FSIGN),
    ABSNEG_F(2, 28, "absneg", 1, Types.FLOAT, null),
    ABSNEG_S(2, 29, "absneg", 1, Types.SINT, null),
    BFREV_B(2, 30, "bfrev", 1, Types.UINT, Op.BITFIELD_REVERSE),
    CBITS_B(2, 31, "cbits", 1, Types.UINT, Op.BIT_COUNT),
    BARY_F(2, 32, "bary", 2, Types.FLOAT, null),
    CLZ_B(2, 33, "clz", 1, Types.UINT, Op.UCLZ),
    PACKH(2, 34, "packh", 2, Types.FLOAT, Op.PACK_HALF_2X16_SPLIT),
    UNPACKH_LO(2, 35, "unpackhlo", 1, Types.UINT, Op.UNPACK_HALF_2X16_SPLIT_X),
    UNPACKH_HI(2, 36, "unpackhhi", 1, Types.UINT, Op.UNPACK_HALF_2X16_SPLIT_Y),
    // cat3: three sources
    MAD_F(3, 0, "mad", 3, Types.FLOAT, null),
    FMA_F(3, 1, "fma", 3, Types.FLOAT, Op.FFMA),
    SEL_B(3, 2, "sel", 3, Types.ANY, null),
    // cat4: the special function unit
    RCP(4, 0, "rcp", 1, Types.FLOAT_NOT64, Op.FRCP),
    RSQ(4, 1, "rsq", 1, Types.FLOAT_NOT64, Op.FRSQ),
    SQRT(4, 2, "sqrt", 1, Types.FLOAT_NOT64, Op.FSQRT),
    LOG2(4, 3, "log2", 1, Types.FLOAT, Op.FLOG2),
    EXP2(4, 4, "exp2", 1, Types.FLOAT, Op.FEXP2),
    SIN(4, 5, "sin", 1, Types.FLOAT, Op.FSIN),
    COS(4, 6, "cos", 1, Types.FLOAT, Op.FCOS),
    DIV_F(4, 7, "div", 2, Types.FLOAT_NOT64, Op.FDIV),
    POW_F(4, 8, "pow", 2, Types.FLOAT, Op.FPOW),
    DIV_U(4, 9, "div", 2, Types.UINT, Op.UDIV),
    DIV_S(4, 10, "div", 2, Types.SINT, Op.IDIV),
    MOD_U(4, 11, "mod", 2, Types.UINT, Op.UMOD),
    REM_S(4, 12, "rem", 2, Types.SINT, Op.IREM),
    MOD_S(4, 13, "mod", 2, Types.SINT, Op.IMOD),
    // cat5: textures
    SAM(5, 0, "sam", 0, Types.TEXEL, null),
    SAMLOD(5, 1, "samlod", 0, Types.TEXEL, null),
    ISAM(5, 2, "isam", 0, Types.TEXEL, null),
    GETSIZE(5, 3, "getsize", 0, Types.TEXEL, null),
    // cat6: memory
    LDG(6, 0, "ldg", Types.MEMORY, MemoryAccess.LOAD, Space.BUFFER),
    STG(6, 1, "stg", Types.MEMORY, MemoryAccess.STORE, Space.BUFFER),
    LDL(6, 2, "ldl", Types.MEMORY, MemoryAccess.LOAD, Space.LOCAL),
    STL(6, 3, "stl", Types.MEMORY, MemoryAccess.STORE, Space.LOCAL),
    LDP(6, 4, "ldp", Types.MEMORY, MemoryAccess.LOAD, Space.PRIVATE),
    STP(6, 5, "stp", Types.MEMORY, MemoryAccess.STORE, Space.PRIVATE),
    LDC(6, 6, "ldc", Types.MEMORY, MemoryAccess.LOAD, Space.CONSTANT),
    LDLV(6, 7, "ldlv", Types.MEMORY, MemoryAccess.LOAD, Space.INPUT),
    STO(6, 8, "sto", Types.MEMORY, MemoryAccess.STORE, Space.OUTPUT),
    LDLW(6, 9, "ldlw", Types.MEMORY, MemoryAccess.LOAD, Space.WORKGROUP),
    STLW(6, 10, "stlw", Types.MEMORY, MemoryAccess.STORE, Space.WORKGROUP),
    // cat6 atomics on a buffer (b) and on workgroup memory (w): the destination gets the 32-bit
    // word found, the word becomes AtomicOp.apply(word, data, compare); min/max by the type's sign
    ATOMIC_ADD_B(6, 11, "atomic.add", AtomicOp.ADD, Space.BUFFER),
    ATOMIC_MIN_B(6, 12, "atomic.min", AtomicOp.UMIN, Space.BUFFER),
    ATOMIC_MAX_B(6, 13, "atomic.max", AtomicOp.UMAX, Space.BUFFER),
    ATOMIC_AND_B(6, 14, "atomic.and", AtomicOp.AND, Space.BUFFER),
    ATOMIC_OR_B(6, 15, "atomic.or", AtomicOp.OR, Space.BUFFER),
    ATOMIC_XOR_B(6, 16, "atomic.xor", AtomicOp.XOR, Space.BUFFER),
    ATOMIC_XCHG_B(6, 17, "atomic.xchg", AtomicOp.EXCHANGE, Space.BUFFER),
    ATOMIC_CMPXCHG_B(6, 18, "atomic.cmpxchg", AtomicOp.COMP_SWAP, Space.BUFFER),
    ATOMIC_ADD_W(6, 19, "atomic.add", AtomicOp.ADD, Space.WORKGROUP),
    ATOMIC_MIN_W(6, 20, "atomic.min", AtomicOp.UMIN, Space.WORKGROUP),
    ATOMIC_MAX_W(6, 21, "atomic.max", AtomicOp.UMAX, Space.WORKGROUP),
    ATOMIC_AND_W(6, 22, "atomic.and", AtomicOp.AND, Space.WORKGROUP),
    ATOMIC_OR_W(6, 23, "atomic.or", AtomicOp.OR, Space.WORKGROUP),
    ATOMIC_XOR_W(6, 24, "atomic.xor", AtomicOp.XOR, Space.WORKGROUP),
    ATOMIC_XCHG_W(6, 25, "atomic.xchg", AtomicOp.EXCHANGE, Space.WORKGROUP),
    ATOMIC_CMPXCHG_W(6, 26, "atomic.cmpxchg", AtomicOp.COMP_SWAP, Space.WORKGROUP),
    // cat6 storage images: a whole texel (four components) at integer coordinates
    LDIB(6, 27, "ldib", Types.TEXEL, MemoryAccess.LOAD, Space.IMAGE),
    STIB(6, 28, "stib", Types.TEXEL, MemoryAccess.STORE, Space.IMAGE),
    // cat6 atomics on the first component of a storage image's texel (i: r32ui/r32i images)
    ATOMIC_ADD_I(6, 29, "atomic.add", AtomicOp.ADD, Space.IMAGE),
    ATOMIC_MIN_I(6, 30, "atomic.min", AtomicOp.UMIN, Space.IMAGE),
    ATOMIC_MAX_I(6, 31, "atomic.max", AtomicOp.UMAX, Space.IMAGE),
    ATOMIC_AND_I(6, 32, "atomic.and", AtomicOp.AND, Space.IMAGE),
    ATOMIC_OR_I(6, 33, "atomic.or", AtomicOp.OR, Space.IMAGE),
    ATOMIC_XOR_I(6, 34, "atomic.xor", AtomicOp.XOR, Space.IMAGE),
    ATOMIC_XCHG_I(6, 35, "atomic.xchg", AtomicOp.EXCHANGE, Space.IMAGE),
    ATOMIC_CMPXCHG_I(6, 36, "atomic.cmpxchg", AtomicOp.COMP_SWAP, Space.IMAGE),
    // cat6 device memory at a 64-bit address in an aligned register pair (ir3's ldg/stg)
    LDGA(6, 37, "ldga", Types.MEMORY, MemoryAccess.LOAD, Space.DEVICE),
    STGA(6, 38, "stga", Types.MEMORY, MemoryAccess.STORE, Space.DEVICE),
    /** Stores registers into the constant file ({@code c[N]}): a preamble's only way to hand values to the main program. */
    STC(6, 39, "stc", Types.MEMORY, MemoryAccess.STORE, Space.CONSTANT),
    // cat7: synchronization
    BAR(7, 0, "bar", 0, Types.NONE, null);

    /** Which types an instruction takes. */
    public enum Types {
        NONE,
        ANY,
        FLOAT,
        UINT,
        SINT,
        /** f16 and f32: the hardware has no fp64 rcp, rsq, sqrt, div, floor, ceil or trunc */
        FLOAT_NOT64,
        /** f32, u32, s32: what a texel holds */
        TEXEL,
        /** 8- to 64-bit values moved to or from memory */
        MEMORY,
        /** u32 and s32: the words atomics work on */
        WORD;

        /** The kind of type an ALU op of this class computes at, or null when it is not one kind. */
        public MType.Kind kind() {
            return switch (this) {
                case FLOAT, FLOAT_NOT64 -> MType.Kind.FLOAT;
                case UINT -> MType.Kind.UINT;
                case SINT -> MType.Kind.SINT;
                default -> null;
            };
        }

        public boolean allows(MType t) {
            return switch (this) {
                case NONE -> false;
                case ANY -> true;
                case FLOAT -> t.kind() == MType.Kind.FLOAT;
                case FLOAT_NOT64 -> t.kind() == MType.Kind.FLOAT && t.bits() < 64;
                // bitwise and unsigned ops take booleans; 64-bit integers are lowered to 32-bit pieces
                case UINT -> t.kind() == MType.Kind.UINT && t.bits() <= 32;
                case SINT -> t.kind() == MType.Kind.SINT && t.bits() <= 32;
                case TEXEL -> t == MType.F32 || t == MType.U32 || t == MType.S32;
                case MEMORY -> t != MType.B1;
                case WORD -> t == MType.U32 || t == MType.S32;
            };
        }
    }

    /** What an instruction does with memory. */
    public enum MemoryAccess {
        NONE,
        LOAD,
        STORE,
        /** reads a word and writes what the atomic operation makes of it, in one step */
        ATOMIC
    }

    /** The memory an instruction addresses ({@code backend/ISA.md}, category 6). */
    public enum Space {
        NONE,
        /** a storage buffer, {@code bN[…]} */
        BUFFER,
        /** device memory at a 64-bit address, {@code a[…]} */
        DEVICE,
        /** the invocation's local memory, {@code l[…]} */
        LOCAL,
        /** the workgroup's memory, {@code w[…]} */
        WORKGROUP,
        /** a storage image's texel, {@code iN[…]} */
        IMAGE,
        /** private scratch for spills, {@code p[…]} */
        PRIVATE,
        /** the constant file, {@code c[…]} */
        CONSTANT,
        /** vertex attributes and flat fragment inputs, {@code inN[…]} */
        INPUT,
        /** shader outputs, {@code outN[…]} */
        OUTPUT
    }

    private final int category;
    private final int code;
    private final String base;
    private final int numSrcs;
    private final Types types;
    private final Op semantics;
    private final MemoryAccess access;
    private final Space space;
    /** An atomic's operation (min and max as their unsigned forms: the type gives the sign), else null. */
    private final AtomicOp atomic;

    MOp(int category, int code, String base, int numSrcs, Types types, Op semantics) {
        this(category, code, base, numSrcs, types, semantics, MemoryAccess.NONE, Space.NONE, null);
    }

    /** A load or a store. */
    MOp(int category, int code, String base, Types types, MemoryAccess access, Space space) {
        this(category, code, base, 0, types, null, access, space, null);
    }

    /** An atomic on a 32-bit word. */
    MOp(int category, int code, String base, AtomicOp atomic, Space space) {
        this(category, code, base, 0, Types.WORD, null, MemoryAccess.ATOMIC, space, atomic);
    }

    MOp(
            int category,
            int code,
            String base,
            int numSrcs,
            Types types,
            Op semantics,
            MemoryAccess access,
            Space space,
            AtomicOp atomic) {
        this.category = category;
        this.code = code;
        this.base = base;
        this.numSrcs = numSrcs;
        this.types = types;
        this.semantics = semantics;
        this.access = access;
        this.space = space;
        this.atomic = atomic;
    }

    /** What it does with memory. */
    public MemoryAccess access() {
        return access;
    }

    /** The memory it addresses, or {@link Space#NONE}. */
    public Space space() {
        return space;
    }

    public int category() {
        return category;
    }

    public int code() {
        return code;
    }

    public String base() {
        return base;
    }

    /** Register sources of ALU instructions (cat1–cat4); 0 for the others. */
    public int numSrcs() {
        return numSrcs;
    }

    public Types types() {
        return types;
    }

    /** The IR op computing this instruction at its type's size, or null when it is special. */
    public Op semantics() {
        return semantics;
    }

    public boolean isTyped() {
        return types != Types.NONE;
    }

    /**
     * How this op's results become ready ({@link Latency}): the SFU's with (ss); texture fetches',
     * loads' and atomics' with (sy); every other op's after the ALU delays.
     */
    public Latency.Kind latency() {
        if (category == 4) return Latency.Kind.SFU;
        if (category == 5 || isLoad() || isAtomic()) return Latency.Kind.LOAD;
        return Latency.Kind.ALU;
    }

    /** Reads memory and does nothing else (so an unread result makes the load dead). */
    public boolean isLoad() {
        return access == MemoryAccess.LOAD;
    }

    /** The op whose {@link #semantics} is {@code op}, or null: what selects an IR op in one instruction. */
    public static MOp implementing(Op op) {
        return IMPLEMENTING.get(op);
    }

    /** The IR ops one machine op implements. */
    public static Set<Op> implemented() {
        return IMPLEMENTING.keySet();
    }

    private static final Map<Op, MOp> IMPLEMENTING;

    static {
        Map<Op, MOp> m = new EnumMap<>(Op.class);
        for (MOp op : values()) {
            if (op.semantics != null && m.put(op.semantics, op) != null) {
                // the inverse must be a function, or selection would have to choose
                throw new IllegalStateException(op.semantics + " is the semantics of two machine ops");
            }
        }
        IMPLEMENTING = Collections.unmodifiableMap(m);
    }

    public boolean isAtomic() {
        return access == MemoryAccess.ATOMIC;
    }

    /** Atomics on a storage image's texel (addressed {@code iN[coordinates]}). */
    public boolean isImageAtomic() {
        return access == MemoryAccess.ATOMIC && space == Space.IMAGE;
    }

    /** Storage image loads and stores (addressed {@code iN[coordinates]}). */
    public boolean isImage() {
        return space == Space.IMAGE && access != MemoryAccess.ATOMIC;
    }

    /** Atomics on workgroup memory (addressed {@code w[...]}) rather than a buffer. */
    public boolean isSharedAtomic() {
        return access == MemoryAccess.ATOMIC && space == Space.WORKGROUP;
    }

    /** The operation of an atomic at type {@code t} (s32 makes min/max signed). */
    public AtomicOp atomicOp(MType t) {
        boolean signed = t == MType.S32;
        return switch (atomic) {
            case UMIN, IMIN -> signed ? AtomicOp.IMIN : AtomicOp.UMIN;
            case UMAX, IMAX -> signed ? AtomicOp.IMAX : AtomicOp.UMAX;
            default -> atomic;
        };
    }

    /**
     * The atomic doing {@code op} on a buffer, workgroup memory ({@code SHARED}) or an image
     * texel ({@code IMAGE}); its type then gives min/max their sign.
     */
    public static MOp atomic(AtomicOp op, Variable.Kind memory) {
        AtomicOp unsigned = op == AtomicOp.IMIN ? AtomicOp.UMIN : op == AtomicOp.IMAX ? AtomicOp.UMAX : op;
        Space space = switch (memory) {
            case IMAGE -> Space.IMAGE;
            case SHARED -> Space.WORKGROUP;
            default -> Space.BUFFER;
        };
        for (MOp m : values()) if (m.atomic == unsigned && m.space == space) return m;
        throw new IllegalStateException("no atomic " + op + " on " + space);
    }

    /** The type an atomic doing {@code op} runs at. */
    public static MType atomicType(AtomicOp op) {
        return op == AtomicOp.IMIN || op == AtomicOp.IMAX ? MType.S32 : MType.U32;
    }

    public boolean isStore() {
        return access == MemoryAccess.STORE;
    }

    /** The instruction of a category with a code, or null. */
    public static MOp of(int category, int code) {
        for (MOp op : values()) {
            if (op.category == category && op.code == code) return op;
        }
        return null;
    }

    /** The instruction a mnemonic base names at a type, or null. */
    public static MOp of(String base, MType type) {
        for (MOp op : values()) {
            if (op.base.equals(base) && (type == null ? !op.isTyped() : op.types.allows(type))) return op;
        }
        return null;
    }
}
