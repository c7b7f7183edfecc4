package dev.lathe.ir;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Everything that is not ALU arithmetic: access to the shader interface, system values, local
 * variables, and side effects. Each intrinsic says which kind of variable it names (if any),
 * what its sources are, what it defines, in which stages it is legal, and how it may be moved
 * or removed.
 */
public enum Intrinsic {
    /** An input; in a geometry shader, of the vertex in source 0 (out of range reads zero). */
    LOAD_INPUT(
            Variable.Kind.INPUT,
            Dest.VAR_TYPE,
            Effect.PURE,
            stages(Stage.VERTEX, Stage.FRAGMENT, Stage.GEOMETRY),
            Role.ARRAY_INDEX),
    STORE_OUTPUT(
            Variable.Kind.OUTPUT,
            Dest.NONE,
            Effect.SIDE_EFFECT,
            stages(Stage.VERTEX, Stage.FRAGMENT, Stage.GEOMETRY),
            Role.VAR_VALUE),
    LOAD_UNIFORM(Variable.Kind.UNIFORM, Dest.VAR_TYPE, Effect.PURE, allStages(), Role.ARRAY_INDEX),
    /** An element of constant data; an index out of range reads zero, as a local array's does. */
    LOAD_CONSTANT(Variable.Kind.CONSTANT, Dest.VAR_TYPE, Effect.PURE, allStages(), Role.ARRAY_INDEX),
    LOAD_BUFFER(Variable.Kind.BUFFER, Dest.FREE, Effect.READS_MEMORY, allStages(), Role.OFFSET),
    STORE_BUFFER(Variable.Kind.BUFFER, Dest.NONE, Effect.SIDE_EFFECT, allStages(), Role.OFFSET, Role.ANY_VALUE),
    /**
     * Device memory at a 64-bit address (SPIR-V's PhysicalStorageBuffer pointers, GLSL's
     * buffer_reference): the run's one region of device memory, which starts at
     * {@code ShaderInputs.DEVICE_MEMORY_BASE} and is apart from the buffers bound by binding.
     */
    LOAD_GLOBAL(null, Dest.FREE, Effect.READS_MEMORY, allStages(), Role.ADDRESS),
    STORE_GLOBAL(null, Dest.NONE, Effect.SIDE_EFFECT, allStages(), Role.ADDRESS, Role.ANY_VALUE),
    /** The buffer's size in bytes (what the application bound; a run-time array's length comes from it). */
    BUFFER_SIZE(Variable.Kind.BUFFER, Dest.UINT, Effect.PURE, allStages()),
    // On an array of textures the first source picks the element; an index at or past the end
    // (unsigned) picks the last one.
    TEX(Variable.Kind.TEXTURE, Dest.TEXEL, Effect.PURE, allStages(), Role.ARRAY_INDEX, Role.FLOAT_COORD),
    TXL(Variable.Kind.TEXTURE, Dest.TEXEL, Effect.PURE, allStages(), Role.ARRAY_INDEX, Role.FLOAT_COORD, Role.LOD),
    TXF(Variable.Kind.TEXTURE, Dest.TEXEL, Effect.PURE, allStages(), Role.ARRAY_INDEX, Role.INT_COORD),
    TXS(Variable.Kind.TEXTURE, Dest.TEX_SIZE, Effect.PURE, allStages(), Role.ARRAY_INDEX),
    /** A storage image's texel at integer coordinates (zero outside the image). */
    IMAGE_LOAD(Variable.Kind.IMAGE, Dest.TEXEL, Effect.READS_MEMORY, allStages(), Role.INT_COORD),
    /** Stores a texel at the image's format precision (dropped outside the image). */
    IMAGE_STORE(Variable.Kind.IMAGE, Dest.NONE, Effect.SIDE_EFFECT, allStages(), Role.INT_COORD, Role.TEXEL),
    IMAGE_SIZE(Variable.Kind.IMAGE, Dest.TEX_SIZE, Effect.PURE, allStages()),
    LOAD_VAR(Variable.Kind.LOCAL, Dest.VAR_TYPE, Effect.READS_MEMORY, allStages(), Role.ARRAY_INDEX),
    STORE_VAR(Variable.Kind.LOCAL, Dest.NONE, Effect.SIDE_EFFECT, allStages(), Role.ARRAY_INDEX, Role.VAR_VALUE),
    LOAD_LOCAL_INVOCATION_ID(null, Dest.UVEC3, Effect.PURE, stages(Stage.COMPUTE)),
    LOAD_LOCAL_INVOCATION_INDEX(null, Dest.UINT, Effect.PURE, stages(Stage.COMPUTE)),
    LOAD_WORKGROUP_ID(null, Dest.UVEC3, Effect.PURE, stages(Stage.COMPUTE)),
    LOAD_NUM_WORKGROUPS(null, Dest.UVEC3, Effect.PURE, stages(Stage.COMPUTE)),
    LOAD_GLOBAL_INVOCATION_ID(null, Dest.UVEC3, Effect.PURE, stages(Stage.COMPUTE)),
    LOAD_WORKGROUP_SIZE(null, Dest.UVEC3, Effect.PURE, stages(Stage.COMPUTE)),
    LOAD_FRAG_COORD(null, Dest.VEC4, Effect.PURE, stages(Stage.FRAGMENT)),
    LOAD_FRONT_FACE(null, Dest.BOOL, Effect.PURE, stages(Stage.FRAGMENT)),
    LOAD_VERTEX_ID(null, Dest.UINT, Effect.PURE, stages(Stage.VERTEX)),
    LOAD_INSTANCE_ID(null, Dest.UINT, Effect.PURE, stages(Stage.VERTEX)),
    DISCARD(null, Dest.NONE, Effect.SIDE_EFFECT, stages(Stage.FRAGMENT)),
    DISCARD_IF(null, Dest.NONE, Effect.SIDE_EFFECT, stages(Stage.FRAGMENT), Role.CONDITION),
    BARRIER(null, Dest.NONE, Effect.SIDE_EFFECT, stages(Stage.COMPUTE)),
    /** Geometry: the outputs' present values become the next vertex of the stream. */
    EMIT_VERTEX(null, Dest.NONE, Effect.SIDE_EFFECT, stages(Stage.GEOMETRY)),
    /** Geometry: the strip being emitted ends; the next vertex starts another. */
    END_PRIMITIVE(null, Dest.NONE, Effect.SIDE_EFFECT, stages(Stage.GEOMETRY)),
    /** Geometry: the input primitive's number in the draw (gl_PrimitiveIDIn). */
    LOAD_PRIMITIVE_ID(null, Dest.UINT, Effect.PURE, stages(Stage.GEOMETRY)),
    /** Geometry: which of the invocations of one input primitive this is (gl_InvocationID). */
    LOAD_INVOCATION_ID(null, Dest.UINT, Effect.PURE, stages(Stage.GEOMETRY)),
    LOAD_SHARED(Variable.Kind.SHARED, Dest.VAR_TYPE, Effect.READS_MEMORY, stages(Stage.COMPUTE), Role.ARRAY_INDEX),
    STORE_SHARED(
            Variable.Kind.SHARED,
            Dest.NONE,
            Effect.SIDE_EFFECT,
            stages(Stage.COMPUTE),
            Role.ARRAY_INDEX,
            Role.VAR_VALUE),
    // Atomics: read a 32-bit word, store AtomicOp.apply of it, define the word read. In a buffer
    // the word is at a byte offset, in a shared variable (32-bit scalar elements) at an element.
    BUFFER_ATOMIC_ADD(Variable.Kind.BUFFER, AtomicOp.ADD, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_IMIN(Variable.Kind.BUFFER, AtomicOp.IMIN, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_UMIN(Variable.Kind.BUFFER, AtomicOp.UMIN, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_IMAX(Variable.Kind.BUFFER, AtomicOp.IMAX, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_UMAX(Variable.Kind.BUFFER, AtomicOp.UMAX, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_AND(Variable.Kind.BUFFER, AtomicOp.AND, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_OR(Variable.Kind.BUFFER, AtomicOp.OR, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_XOR(Variable.Kind.BUFFER, AtomicOp.XOR, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_EXCHANGE(Variable.Kind.BUFFER, AtomicOp.EXCHANGE, allStages(), Role.OFFSET, Role.ATOMIC_DATA),
    BUFFER_ATOMIC_COMP_SWAP(
            Variable.Kind.BUFFER, AtomicOp.COMP_SWAP, allStages(), Role.OFFSET, Role.COMPARE, Role.ATOMIC_DATA),
    SHARED_ATOMIC_ADD(Variable.Kind.SHARED, AtomicOp.ADD, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_IMIN(Variable.Kind.SHARED, AtomicOp.IMIN, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_UMIN(Variable.Kind.SHARED, AtomicOp.UMIN, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_IMAX(Variable.Kind.SHARED, AtomicOp.IMAX, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_UMAX(Variable.Kind.SHARED, AtomicOp.UMAX, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_AND(Variable.Kind.SHARED, AtomicOp.AND, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_OR(Variable.Kind.SHARED, AtomicOp.OR, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_XOR(Variable.Kind.SHARED, AtomicOp.XOR, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_EXCHANGE(
            Variable.Kind.SHARED, AtomicOp.EXCHANGE, stages(Stage.COMPUTE), Role.ARRAY_INDEX, Role.ATOMIC_DATA),
    SHARED_ATOMIC_COMP_SWAP(
            Variable.Kind.SHARED,
            AtomicOp.COMP_SWAP,
            stages(Stage.COMPUTE),
            Role.ARRAY_INDEX,
            Role.COMPARE,
            Role.ATOMIC_DATA),
    // on the first component of an r32ui or r32i storage image's texel
    IMAGE_ATOMIC_ADD(Variable.Kind.IMAGE, AtomicOp.ADD, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_IMIN(Variable.Kind.IMAGE, AtomicOp.IMIN, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_UMIN(Variable.Kind.IMAGE, AtomicOp.UMIN, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_IMAX(Variable.Kind.IMAGE, AtomicOp.IMAX, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_UMAX(Variable.Kind.IMAGE, AtomicOp.UMAX, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_AND(Variable.Kind.IMAGE, AtomicOp.AND, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_OR(Variable.Kind.IMAGE, AtomicOp.OR, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_XOR(Variable.Kind.IMAGE, AtomicOp.XOR, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_EXCHANGE(Variable.Kind.IMAGE, AtomicOp.EXCHANGE, allStages(), Role.INT_COORD, Role.ATOMIC_DATA),
    IMAGE_ATOMIC_COMP_SWAP(
            Variable.Kind.IMAGE, AtomicOp.COMP_SWAP, allStages(), Role.INT_COORD, Role.COMPARE, Role.ATOMIC_DATA);

    /** What an intrinsic defines. */
    public enum Dest {
        NONE,
        VAR_TYPE,
        FREE,
        TEXEL,
        TEX_SIZE,
        UVEC3,
        UINT,
        VEC4,
        BOOL
    }

    /** How an intrinsic interacts with the rest of the program. */
    public enum Effect {
        /** Depends only on its sources and the (read-only) interface: may be merged, moved, removed. */
        PURE,
        /** Reads memory that stores can change: may be removed when unused, but not merged or moved across stores. */
        READS_MEMORY,
        /** Changes state or control: never removed, merged or reordered with other effects. */
        SIDE_EFFECT
    }

    /** The role of one source. */
    public enum Role {
        /** The value to store: the variable's type. */
        VAR_VALUE,
        /** The value to store into a buffer: any size of 8–64 bits. */
        ANY_VALUE,
        /** A 32-bit element index; present only when the variable is an array. */
        ARRAY_INDEX,
        /** A 32-bit byte offset. */
        OFFSET,
        /** A 64-bit device address. */
        ADDRESS,
        /** 32-bit float texture coordinates, one per dimension, normalized to [0, 1). */
        FLOAT_COORD,
        /** 32-bit integer texel coordinates, one per dimension. */
        INT_COORD,
        /** A 32-bit float level of detail. */
        LOD,
        /** A 1-bit condition. */
        CONDITION,
        /** A texel to store: four 32-bit components. */
        TEXEL,
        /** An atomic's 32-bit data. */
        ATOMIC_DATA,
        /** comp_swap's 32-bit compare value. */
        COMPARE
    }

    private final String spelling;
    private final Variable.Kind varKind;
    private final Dest dest;
    private final Effect effect;
    private final Set<Stage> stages;
    private final Role[] roles;
    private final AtomicOp atomicOp;

    Intrinsic(Variable.Kind varKind, Dest dest, Effect effect, Set<Stage> stages, Role... roles) {
        this(varKind, dest, effect, stages, null, roles);
    }

    Intrinsic(Variable.Kind varKind, AtomicOp atomicOp, Set<Stage> stages, Role... roles) {
        this(varKind, Dest.UINT, Effect.SIDE_EFFECT, stages, atomicOp, roles);
    }

    private Intrinsic(
            Variable.Kind varKind, Dest dest, Effect effect, Set<Stage> stages, AtomicOp atomicOp, Role... roles) {
        this.spelling = name().toLowerCase(Locale.ROOT);
        this.varKind = varKind;
        this.dest = dest;
        this.effect = effect;
        this.stages = stages;
        this.roles = roles;
        this.atomicOp = atomicOp;
    }

    /** The operation of an atomic intrinsic, or null for the others. */
    public AtomicOp atomicOp() {
        return atomicOp;
    }

    /** The atomic intrinsic doing {@code op} on a buffer or on a shared variable. */
    public static Intrinsic atomic(AtomicOp op, boolean shared) {
        return valueOf((shared ? "SHARED_ATOMIC_" : "BUFFER_ATOMIC_") + op.name());
    }

    /** The atomic intrinsic doing {@code op} on a variable of {@code kind} (buffer, shared or image). */
    public static Intrinsic atomic(AtomicOp op, Variable.Kind kind) {
        return valueOf(switch (kind) {
                    case SHARED -> "SHARED_ATOMIC_";
                    case IMAGE -> "IMAGE_ATOMIC_";
                    default -> "BUFFER_ATOMIC_";
                }
                + op.name());
    }

    private static Set<Stage> stages(Stage... s) {
        return EnumSet.of(s[0], s);
    }

    private static Set<Stage> allStages() {
        return EnumSet.allOf(Stage.class);
    }

    public static Intrinsic byName(String name) {
        for (Intrinsic i : values()) {
            if (i.spelling.equals(name)) return i;
        }
        return null;
    }

    public String spelling() {
        return spelling;
    }

    /** The kind of variable this intrinsic names, or null when it names none. */
    public Variable.Kind varKind() {
        return varKind;
    }

    public Dest dest() {
        return dest;
    }

    public boolean hasDest() {
        return dest != Dest.NONE;
    }

    public Effect effect() {
        return effect;
    }

    public boolean isLegalIn(Stage s) {
        return stages.contains(s);
    }

    public Set<Stage> stages() {
        return EnumSet.copyOf(stages);
    }

    /** The source roles for an instance naming {@code var} (array indices only for arrays). */
    public List<Role> roles(Variable var) {
        List<Role> out = new ArrayList<>(roles.length);
        for (Role r : roles) {
            if (r == Role.ARRAY_INDEX && (var == null || !var.isArray())) continue;
            out.add(r);
        }
        return out;
    }

    /**
     * The (components, bit size) the destination must have for {@code var}, or null when the
     * instruction chooses it (load_buffer) or there is none.
     */
    public int[] destShape(Variable var) {
        return switch (dest) {
            case NONE, FREE -> null;
            case VAR_TYPE -> new int[] {var.type().components(), var.type().bitSize()};
            case TEXEL -> new int[] {4, 32};
            case TEX_SIZE -> new int[] {var.dim().sizes(), 32};
            case UVEC3 -> new int[] {3, 32};
            case UINT -> new int[] {1, 32};
            case VEC4 -> new int[] {4, 32};
            case BOOL -> new int[] {1, 1};
        };
    }

    /**
     * The (components, bit size) source {@code role} must have for {@code var}, or null when any
     * 8–64-bit vector is allowed (a buffer store's value).
     */
    public static int[] srcShape(Role role, Variable var) {
        return switch (role) {
            case VAR_VALUE -> new int[] {var.type().components(), var.type().bitSize()};
            case ANY_VALUE -> null;
            case ARRAY_INDEX, OFFSET -> new int[] {1, 32};
            case ADDRESS -> new int[] {1, 64};
            case FLOAT_COORD, INT_COORD -> new int[] {var.dim().coordinates(), 32};
            case LOD, ATOMIC_DATA, COMPARE -> new int[] {1, 32};
            case TEXEL -> new int[] {4, 32};
            case CONDITION -> new int[] {1, 1};
        };
    }
}
