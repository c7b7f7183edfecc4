package dev.lathe.ir.op;

/** Sets of legal bit sizes for an op's unsized operands, as {@link Bits#sizeFlag} masks. */
final class SizeSet {
    private SizeSet() {}

    static final int DEFAULT = -1;
    static final int B1 = 1;
    static final int I8 = 2;
    static final int I16 = 4;
    static final int I32 = 8;
    static final int I64 = 16;
    static final int ALL = B1 | I8 | I16 | I32 | I64;
    static final int INTS = I8 | I16 | I32 | I64;
    static final int INTS_AND_BOOL = ALL;
    static final int FROM16 = I16 | I32 | I64;
    static final int ONLY32 = I32;
}
