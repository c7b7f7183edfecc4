package dev.lathe.vulkan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The few shaders the oracle writes itself ({@link FeederVertexShader}, {@link MultisampleFill}),
 * assembled word by word from the SPIR-V specification: ids, types and constants (each made
 * once), decorations, global variables and code, put in the order a module needs.
 */
final class SpirvAssembler {
    static final int OP_CAPABILITY = 17,
            OP_MEMORY_MODEL = 14,
            OP_ENTRY_POINT = 15,
            OP_EXECUTION_MODE = 16,
            OP_DECORATE = 71,
            OP_MEMBER_DECORATE = 72,
            OP_TYPE_VOID = 19,
            OP_TYPE_FUNCTION = 33,
            OP_TYPE_INT = 21,
            OP_TYPE_FLOAT = 22,
            OP_TYPE_VECTOR = 23,
            OP_TYPE_MATRIX = 24,
            OP_TYPE_ARRAY = 28,
            OP_TYPE_RUNTIME_ARRAY = 29,
            OP_TYPE_STRUCT = 30,
            OP_TYPE_POINTER = 32,
            OP_CONSTANT = 43,
            OP_VARIABLE = 59,
            OP_FUNCTION = 54,
            OP_LABEL = 248,
            OP_LOAD = 61,
            OP_STORE = 62,
            OP_ACCESS_CHAIN = 65,
            OP_COMPOSITE_EXTRACT = 81,
            OP_CONVERT_F_TO_S = 110,
            OP_I_ADD = 128,
            OP_I_MUL = 132,
            OP_RETURN = 253,
            OP_FUNCTION_END = 56;

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

    /** A struct type, made anew each time (structs are told apart by their decorations). */
    int struct(int... members) {
        int id = id();
        int[] words = new int[members.length + 1];
        words[0] = id;
        System.arraycopy(members, 0, words, 1, members.length);
        emit(globals, OP_TYPE_STRUCT, words);
        return id;
    }

    /** The type of one location of a varying: a 32-bit scalar or vector, a matrix or an array of them. */
    int shape(SpirvInterface.Shape s) {
        int scalar = s.base() == 'f' ? type(OP_TYPE_FLOAT, 32) : type(OP_TYPE_INT, 32, s.base() == 'i' ? 1 : 0);
        int t = s.components() > 1 ? type(OP_TYPE_VECTOR, scalar, s.components()) : scalar;
        if (s.columns() > 1) t = type(OP_TYPE_MATRIX, t, s.columns());
        if (s.arrayLength() > 0) t = type(OP_TYPE_ARRAY, t, constant(type(OP_TYPE_INT, 32, 0), s.arrayLength()));
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

    void decorate(int id, int decoration, int... literals) {
        int[] words = new int[2 + literals.length];
        words[0] = id;
        words[1] = decoration;
        System.arraycopy(literals, 0, words, 2, literals.length);
        emit(decorations, OP_DECORATE, words);
    }

    void memberDecorate(int struct, int member, int decoration, int... literals) {
        int[] words = new int[3 + literals.length];
        words[0] = struct;
        words[1] = member;
        words[2] = decoration;
        System.arraycopy(literals, 0, words, 3, literals.length);
        emit(decorations, OP_MEMBER_DECORATE, words);
    }

    void code(int op, int... operands) {
        emit(code, op, operands);
    }

    private static void emit(List<Integer> to, int op, int... operands) {
        to.add((operands.length + 1) << 16 | op);
        for (int w : operands) to.add(w);
    }

    /**
     * The module: capability Shader and {@code capabilities}, Logical GLSL450, entry point "main"
     * of {@code executionModel} with {@code interfaceIds}, {@code modes} (each {mode, literals…})
     * on it, then the sections; {@code version} is the header's SPIR-V version word.
     */
    byte[] module(
            int executionModel,
            int main,
            List<Integer> interfaceIds,
            List<Integer> capabilities,
            List<int[]> modes,
            int version) {
        List<Integer> w = new ArrayList<>(List.of(0x07230203, version, 0, bound, 0));
        emit(w, OP_CAPABILITY, 1); // Shader
        for (int c : capabilities) emit(w, OP_CAPABILITY, c);
        emit(w, OP_MEMORY_MODEL, 0, 1); // Logical GLSL450
        int[] ep = new int[2 + 2 + interfaceIds.size()];
        ep[0] = executionModel;
        ep[1] = main;
        ep[2] = 'm' | 'a' << 8 | 'i' << 16 | 'n' << 24;
        ep[3] = 0;
        for (int i = 0; i < interfaceIds.size(); i++) ep[4 + i] = interfaceIds.get(i);
        emit(w, OP_ENTRY_POINT, ep);
        for (int[] m : modes) {
            int[] words = new int[1 + m.length];
            words[0] = main;
            System.arraycopy(m, 0, words, 1, m.length);
            emit(w, OP_EXECUTION_MODE, words);
        }
        w.addAll(decorations);
        w.addAll(globals);
        w.addAll(code);
        ByteBuffer b = ByteBuffer.allocate(4 * w.size()).order(ByteOrder.LITTLE_ENDIAN);
        w.forEach(b::putInt);
        return b.array();
    }
}
