package dev.lathe.ir;

/**
 * A variable's type: base type, bit size and component count, spelled {@code vec4 f32},
 * {@code f32} (scalar), {@code vec2 i64}, {@code b1}.
 */
public record VarType(BaseType base, int bitSize, int components) {
    public VarType {
        if (!Value.isValidComponentCount(components)) {
            throw new IllegalArgumentException("invalid component count " + components);
        }
        boolean ok = switch (base) {
            case FLOAT -> bitSize == 16 || bitSize == 32 || bitSize == 64;
            case INT, UINT -> bitSize == 8 || bitSize == 16 || bitSize == 32 || bitSize == 64;
            case BOOL -> bitSize == 1;
        };
        if (!ok) throw new IllegalArgumentException("invalid bit size " + bitSize + " for " + base);
    }

    public static VarType f32(int components) {
        return new VarType(BaseType.FLOAT, 32, components);
    }

    public static VarType i32(int components) {
        return new VarType(BaseType.INT, 32, components);
    }

    public static VarType u32(int components) {
        return new VarType(BaseType.UINT, 32, components);
    }

    /** The scalar spelling: {@code f32}, {@code u8}, {@code b1}. */
    public String scalarName() {
        return base.prefix() + Integer.toString(bitSize);
    }

    /** Parses a scalar spelling such as {@code f32}; null if it is not one. */
    public static VarType parseScalar(String s, int components) {
        if (s.length() < 2) return null;
        BaseType b = BaseType.ofPrefix(s.charAt(0));
        if (b == null) return null;
        int bits;
        try {
            bits = Integer.parseInt(s.substring(1));
        } catch (NumberFormatException e) {
            return null;
        }
        try {
            return new VarType(b, bits, components);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return components == 1 ? scalarName() : "vec" + components + " " + scalarName();
    }
}
