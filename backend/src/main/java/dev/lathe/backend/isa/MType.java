package dev.lathe.backend.isa;

/**
 * The type an instruction operates at: what its sources are read as and how wide they are.
 * A register is 32 bits; narrower values sit in its low bits, 64-bit ones in an aligned pair.
 */
public enum MType {
    F16("f16", Kind.FLOAT, 16),
    F32("f32", Kind.FLOAT, 32),
    F64("f64", Kind.FLOAT, 64),
    U8("u8", Kind.UINT, 8),
    U16("u16", Kind.UINT, 16),
    U32("u32", Kind.UINT, 32),
    U64("u64", Kind.UINT, 64),
    S8("s8", Kind.SINT, 8),
    S16("s16", Kind.SINT, 16),
    S32("s32", Kind.SINT, 32),
    S64("s64", Kind.SINT, 64),
    B1("b1", Kind.UINT, 1);

    /** Float, unsigned integer (and booleans), signed integer. */
    public enum Kind {
        FLOAT,
        UINT,
        SINT
    }

    private final String suffix;
    private final Kind kind;
    private final int bits;

    MType(String suffix, Kind kind, int bits) {
        this.suffix = suffix;
        this.kind = kind;
        this.bits = bits;
    }

    public String suffix() {
        return suffix;
    }

    public Kind kind() {
        return kind;
    }

    public int bits() {
        return bits;
    }

    /**
     * The type of a kind at a size; 1 bit is {@link #B1} whatever the kind. (A size the kind
     * lacks, such as 8-bit floats, gives its 64-bit type: callers ask for the sizes the IR allows.)
     */
    public static MType of(Kind kind, int bits) {
        if (bits == 1) return B1;
        return switch (kind) {
            case FLOAT -> bits == 16 ? F16 : bits == 32 ? F32 : F64;
            case UINT -> bits == 8 ? U8 : bits == 16 ? U16 : bits == 32 ? U32 : U64;
            case SINT -> bits == 8 ? S8 : bits == 16 ? S16 : bits == 32 ? S32 : S64;
        };
    }

    /** How many registers a value of this type takes: 2 for 64 bits, else 1. */
    public int regs() {
        return bits == 64 ? 2 : 1;
    }

    /** The 4-bit code in encodings. */
    public int code() {
        return ordinal();
    }

    public static MType ofCode(int code) {
        MType[] all = values();
        return code >= 0 && code < all.length ? all[code] : null;
    }

    public static MType ofSuffix(String s) {
        for (MType t : values()) {
            if (t.suffix.equals(s)) return t;
        }
        return null;
    }
}
