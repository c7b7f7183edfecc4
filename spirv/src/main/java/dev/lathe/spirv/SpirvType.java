package dev.lathe.spirv;

import java.util.List;
import java.util.function.IntFunction;

/** The SPIR-V types Lathe reads, by their defining instruction; messages spell them as GLSL does ({@code vec4}, {@code uint64_t}, {@code mat3x4}). */
sealed interface SpirvType {
    record Void() implements SpirvType {
        @Override
        public String toString() {
            return "void";
        }
    }

    record Bool() implements SpirvType {
        @Override
        public String toString() {
            return "bool";
        }
    }

    record Int(int width, boolean signed) implements SpirvType {
        @Override
        public String toString() {
            return width == 32 ? (signed ? "int" : "uint") : (signed ? "int" : "uint") + width + "_t";
        }
    }

    record Float(int width) implements SpirvType {
        @Override
        public String toString() {
            return width == 32 ? "float" : width == 64 ? "double" : "float" + width + "_t";
        }
    }

    record Vector(SpirvType element, int count) implements SpirvType {
        @Override
        public String toString() {
            return vectorPrefix(element) + "vec" + count;
        }
    }

    /** Columns of {@code column} (a vector type), {@code count} of them. */
    record Matrix(Vector column, int count) implements SpirvType {
        @Override
        public String toString() {
            String p = column.element() instanceof Float f && f.width() == 64 ? "d" : "";
            return p + "mat" + (count == column.count() ? "" + count : count + "x" + column.count());
        }
    }

    record Array(SpirvType element, int length, int id) implements SpirvType {
        @Override
        public String toString() {
            return element + "[" + Integer.toUnsignedString(length) + "]";
        }
    }

    record RuntimeArray(SpirvType element, int id) implements SpirvType {
        @Override
        public String toString() {
            return element + "[]";
        }
    }

    record Struct(List<SpirvType> members, int id) implements SpirvType {
        @Override
        public String toString() {
            return "struct %" + id;
        }
    }

    record Pointer(int storageClass, SpirvType pointee) implements SpirvType {
        @Override
        public String toString() {
            return "pointer to " + pointee + " (" + SpirvNames.of("StorageClass", storageClass) + ")";
        }
    }

    record Function(SpirvType result, List<SpirvType> params) implements SpirvType {
        @Override
        public String toString() {
            return "function returning " + result;
        }
    }

    /**
     * An image: dim 0 1D, 1 2D, 2 3D, 3 cube …; its sampled type is a scalar; usage 1 with a
     * sampler, 2 a storage image (0 known at run time only); format is SPIR-V's ImageFormat.
     */
    record Image(SpirvType sampled, int dim, boolean arrayed, boolean multisampled, int usage, int format)
            implements SpirvType {
        @Override
        public String toString() {
            return (usage == 2 ? "storage image" : "image") + " of " + sampled + " (" + SpirvNames.of("Dim", dim)
                    + (arrayed ? ", arrayed" : "") + (multisampled ? ", multisampled" : "") + ")";
        }
    }

    record Sampler() implements SpirvType {
        @Override
        public String toString() {
            return "sampler";
        }
    }

    record SampledImage(Image image) implements SpirvType {
        @Override
        public String toString() {
            return "sampled " + image;
        }
    }

    /**
     * A PhysicalStorageBuffer pointer (GLSL's buffer_reference): a 64-bit device address, one
     * IR value. Its pointee is looked up when needed ({@code resolve}), as such pointer types
     * may be declared before it (OpTypeForwardPointer) inside structs they point at; two are
     * the same type when their ids are.
     */
    record DevicePointer(int id, IntFunction<SpirvType> resolve) implements SpirvType {
        SpirvType pointee() {
            return resolve.apply(id);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DevicePointer d && d.id == id;
        }

        @Override
        public int hashCode() {
            return id;
        }

        @Override
        public String toString() {
            return "device pointer %" + id;
        }
    }

    /** A ray query object (OpTypeRayQueryKHR): lives in function memory, see {@code RayQueries}. */
    record RayQuery() implements SpirvType {
        @Override
        public String toString() {
            return "rayQueryEXT";
        }
    }

    /** An acceleration structure (OpTypeAccelerationStructureKHR): Lathe reads it as a buffer of triangles. */
    record AccelerationStructure() implements SpirvType {
        @Override
        public String toString() {
            return "accelerationStructureEXT";
        }
    }

    /** Scalars and vectors: what fits one IR value. */
    static boolean isSimple(SpirvType t) {
        return t instanceof Bool
                || t instanceof Int
                || t instanceof Float
                || t instanceof Vector
                || t instanceof DevicePointer;
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
        if (s instanceof DevicePointer) return 64;
        return 1;
    }

    /** GLSL's vector prefix for an element type: {@code vec4}, {@code ivec2}, {@code u64vec3}, {@code f16vec4}. */
    private static String vectorPrefix(SpirvType e) {
        if (e instanceof Bool) return "b";
        if (e instanceof Float f) return f.width() == 32 ? "" : f.width() == 64 ? "d" : "f" + f.width();
        if (e instanceof Int i) return (i.signed() ? "i" : "u") + (i.width() == 32 ? "" : "" + i.width());
        return "?";
    }
}
