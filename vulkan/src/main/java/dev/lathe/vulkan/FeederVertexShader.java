package dev.lathe.vulkan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The vertex shader a fragment shader is drawn with: for each of the fragment shader's inputs it
 * reads a vertex attribute of the same type at the same location and writes it out unchanged, so
 * that every vertex of the triangle carries the same value and interpolation has nothing to blend
 * (a constant's plane equation is the constant); the position comes from one more attribute.
 * Assembled here word by word from the SPIR-V specification rather than compiled from GLSL, so the
 * oracle needs no compiler at run time.
 */
final class FeederVertexShader {
    private FeederVertexShader() {}

    // opcodes, storage classes and decorations of the SPIR-V specification
    private static final int OP_CAPABILITY = 17, OP_MEMORY_MODEL = 14, OP_ENTRY_POINT = 15, OP_DECORATE = 71, OP_TYPE_VOID = 19,
            OP_TYPE_FUNCTION = 33, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23, OP_TYPE_MATRIX = 24, OP_TYPE_ARRAY = 28,
            OP_TYPE_POINTER = 32, OP_CONSTANT = 43, OP_VARIABLE = 59, OP_FUNCTION = 54, OP_LABEL = 248, OP_LOAD = 61, OP_STORE = 62,
            OP_RETURN = 253, OP_FUNCTION_END = 56;
    private static final int SC_INPUT = 1, SC_OUTPUT = 3, DEC_BUILT_IN = 11, DEC_LOCATION = 30, BUILT_IN_POSITION = 0, BUILT_IN_POINT_SIZE = 1;

    /**
     * The shader for {@code varyings} (a fragment shader's inputs); the position is the vec4
     * attribute at {@code positionLocation}; a {@code pointSize} above 0 is written as the size of
     * the points drawn.
     */
    static byte[] assemble(List<SpirvInterface.Varying> varyings, int positionLocation, float pointSize) {
        Assembler a = new Assembler();
        int voidT = a.type(OP_TYPE_VOID), fnT = a.type(OP_TYPE_FUNCTION, voidT);
        List<int[]> copies = new ArrayList<>(); // input variable, output variable, value type
        List<Integer> interfaceIds = new ArrayList<>();
        for (SpirvInterface.Varying v : varyings) {
            int t = a.shape(v.shape());
            int in = a.variable(t, SC_INPUT), out = a.variable(t, SC_OUTPUT);
            a.decorate(in, DEC_LOCATION, v.location());
            a.decorate(out, DEC_LOCATION, v.location());
            copies.add(new int[] {in, out, t});
            interfaceIds.add(in);
            interfaceIds.add(out);
        }
        int vec4 = a.type(OP_TYPE_VECTOR, a.type(OP_TYPE_FLOAT, 32), 4);
        int posIn = a.variable(vec4, SC_INPUT), posOut = a.variable(vec4, SC_OUTPUT);
        a.decorate(posIn, DEC_LOCATION, positionLocation);
        a.decorate(posOut, DEC_BUILT_IN, BUILT_IN_POSITION);
        copies.add(new int[] {posIn, posOut, vec4});
        interfaceIds.add(posIn);
        interfaceIds.add(posOut);
        int sizeOut = 0, size = 0;
        if (pointSize > 0) {
            int f32 = a.type(OP_TYPE_FLOAT, 32);
            sizeOut = a.variable(f32, SC_OUTPUT);
            a.decorate(sizeOut, DEC_BUILT_IN, BUILT_IN_POINT_SIZE);
            size = a.constant(f32, Float.floatToRawIntBits(pointSize));
            interfaceIds.add(sizeOut);
        }

        int main = a.id();
        a.code(OP_FUNCTION, voidT, main, 0, fnT);
        a.code(OP_LABEL, a.id());
        for (int[] c : copies) {
            int value = a.id();
            a.code(OP_LOAD, c[2], value, c[0]);
            a.code(OP_STORE, c[1], value);
        }
        if (pointSize > 0) a.code(OP_STORE, sizeOut, size);
        a.code(OP_RETURN);
        a.code(OP_FUNCTION_END);
        return a.module(main, interfaceIds);
    }

    /** Ids, types (each made once) and the sections of one module. */
    private static final class Assembler {
        private int bound = 1;
        private final List<Integer> decorations = new ArrayList<>(), globals = new ArrayList<>(), code = new ArrayList<>();
        private final Map<String, Integer> types = new HashMap<>();

        int id() {
            return bound++;
        }

        /** A type instruction {@code op} with {@code operands} after its result id, made once. */
        int type(int op, int... operands) {
            String key = op + java.util.Arrays.toString(operands);
            Integer known = types.get(key);
            if (known != null) return known;
            int id = id();
            int[] words = new int[operands.length + 1];
            words[0] = id;
            System.arraycopy(operands, 0, words, 1, operands.length);
            emit(globals, op, words);
            types.put(key, id);
            return id;
        }

        int shape(SpirvInterface.Shape s) {
            int scalar = s.base() == 'f' ? type(OP_TYPE_FLOAT, 32) : type(OP_TYPE_INT, 32, s.base() == 'i' ? 1 : 0);
            int t = s.components() > 1 ? type(OP_TYPE_VECTOR, scalar, s.components()) : scalar;
            if (s.columns() > 1) t = type(OP_TYPE_MATRIX, t, s.columns());
            if (s.arrayLength() > 0) {
                int length = constant(type(OP_TYPE_INT, 32, 0), s.arrayLength());
                t = type(OP_TYPE_ARRAY, t, length);
            }
            return t;
        }

        int constant(int type, int value) {
            String key = "const " + type + " " + value;
            Integer known = types.get(key);
            if (known != null) return known;
            int id = id();
            emit(globals, OP_CONSTANT, type, id, value);
            types.put(key, id);
            return id;
        }

        int variable(int valueType, int storageClass) {
            int ptr = type(OP_TYPE_POINTER, storageClass, valueType);
            int id = id();
            emit(globals, OP_VARIABLE, ptr, id, storageClass);
            return id;
        }

        void decorate(int id, int decoration, int literal) {
            emit(decorations, OP_DECORATE, id, decoration, literal);
        }

        void code(int op, int... operands) {
            emit(code, op, operands);
        }

        private static void emit(List<Integer> to, int op, int... operands) {
            to.add((operands.length + 1) << 16 | op);
            for (int w : operands) to.add(w);
        }

        byte[] module(int main, List<Integer> interfaceIds) {
            List<Integer> w = new ArrayList<>(List.of(0x07230203, 0x00010000, 0, bound, 0));
            emit(w, OP_CAPABILITY, 1); // Shader
            emit(w, OP_MEMORY_MODEL, 0, 1); // Logical GLSL450
            int[] ep = new int[2 + 2 + interfaceIds.size()];
            ep[0] = 0; // Vertex
            ep[1] = main;
            ep[2] = 'm' | 'a' << 8 | 'i' << 16 | 'n' << 24;
            ep[3] = 0;
            for (int i = 0; i < interfaceIds.size(); i++) ep[4 + i] = interfaceIds.get(i);
            emit(w, OP_ENTRY_POINT, ep);
            w.addAll(decorations);
            w.addAll(globals);
            w.addAll(code);
            ByteBuffer b = ByteBuffer.allocate(4 * w.size()).order(ByteOrder.LITTLE_ENDIAN);
            w.forEach(b::putInt);
            return b.array();
        }
    }
}
