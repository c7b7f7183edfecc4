package dev.lathe.ir.op;

import dev.lathe.ir.BaseType;

/**
 * How an op reads or writes the bits of an operand. SSA values themselves are typeless; the
 * class only says how the op interprets them (and which bit sizes are legal by default).
 */
public enum TypeClass {
    FLOAT("float"),
    INT("int"),
    UINT("uint"),
    BOOL("bool"),
    /** Data movement: the op does not look at the bits (mov, vecN, bcsel's values). */
    ANY("any");

    private final String spelling;

    TypeClass(String spelling) {
        this.spelling = spelling;
    }

    public String spelling() {
        return spelling;
    }

    /** The class of values of a scalar type ({@code u32} is UINT). */
    public static TypeClass of(BaseType base) {
        return switch (base) {
            case FLOAT -> FLOAT;
            case INT -> INT;
            case UINT -> UINT;
            case BOOL -> BOOL;
        };
    }

    /** The bit sizes an unsized operand of this class may have, as a {@link Bits#sizeFlag} set. */
    int defaultSizes() {
        return switch (this) {
            case FLOAT -> Bits.sizeFlag(16) | Bits.sizeFlag(32) | Bits.sizeFlag(64);
            case INT, UINT -> Bits.sizeFlag(8) | Bits.sizeFlag(16) | Bits.sizeFlag(32) | Bits.sizeFlag(64);
            case BOOL -> Bits.sizeFlag(1);
            case ANY -> 31;
        };
    }

    static TypeClass parse(String s) {
        for (TypeClass t : values()) {
            if (t.spelling.equals(s)) return t;
        }
        throw new IllegalArgumentException("unknown type class: " + s);
    }
}
