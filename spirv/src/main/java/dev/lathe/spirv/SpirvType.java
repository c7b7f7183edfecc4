package dev.lathe.spirv;

import java.util.List;

/** The SPIR-V types Lathe reads, by their defining instruction. */
sealed interface SpirvType {
    record Void() implements SpirvType {}

    record Bool() implements SpirvType {}

    record Int(int width, boolean signed) implements SpirvType {}

    record Float(int width) implements SpirvType {}

    record Vector(SpirvType element, int count) implements SpirvType {}

    /** Columns of {@code column} (a vector type), {@code count} of them. */
    record Matrix(Vector column, int count) implements SpirvType {}

    record Array(SpirvType element, int length, int id) implements SpirvType {}

    record RuntimeArray(SpirvType element, int id) implements SpirvType {}

    record Struct(List<SpirvType> members, int id) implements SpirvType {}

    record Pointer(int storageClass, SpirvType pointee) implements SpirvType {}

    record Function(SpirvType result, List<SpirvType> params) implements SpirvType {}

    /**
     * An image: dim 0 1D, 1 2D, 2 3D, 3 cube …; its sampled type is a scalar; usage 1 with a
     * sampler, 2 a storage image (0 known at run time only); format is SPIR-V's ImageFormat.
     */
    record Image(SpirvType sampled, int dim, boolean arrayed, boolean multisampled, int usage, int format) implements SpirvType {}

    record Sampler() implements SpirvType {}

    record SampledImage(Image image) implements SpirvType {}

    /** Scalars and vectors: what fits one IR value. */
    static boolean isSimple(SpirvType t) {
        return t instanceof Bool || t instanceof Int || t instanceof Float || t instanceof Vector;
    }

    static SpirvType scalarOf(SpirvType t) {
        return t instanceof Vector v ? v.element() : t;
    }

    static int components(SpirvType t) {
        return t instanceof Vector v ? v.count() : 1;
    }

    static int bits(SpirvType t) {
        SpirvType s = scalarOf(t);
        if (s instanceof Int i) return i.width();
        if (s instanceof Float f) return f.width();
        return 1;
    }
}
