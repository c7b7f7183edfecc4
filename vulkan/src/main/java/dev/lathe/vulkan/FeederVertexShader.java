package dev.lathe.vulkan;

import java.util.ArrayList;
import java.util.List;

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

    private static final int SC_INPUT = 1, SC_OUTPUT = 3, DEC_BUILT_IN = 11, DEC_LOCATION = 30, BUILT_IN_POSITION = 0, BUILT_IN_POINT_SIZE = 1;

    /**
     * The shader for {@code varyings} (a fragment shader's inputs); the position is the vec4
     * attribute at {@code positionLocation}; a {@code pointSize} above 0 is written as the size of
     * the points drawn.
     */
    static byte[] assemble(List<SpirvInterface.Varying> varyings, int positionLocation, float pointSize) {
        SpirvAssembler a = new SpirvAssembler();
        int voidT = a.type(SpirvAssembler.OP_TYPE_VOID), fnT = a.type(SpirvAssembler.OP_TYPE_FUNCTION, voidT);
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
        int vec4 = a.type(SpirvAssembler.OP_TYPE_VECTOR, a.type(SpirvAssembler.OP_TYPE_FLOAT, 32), 4);
        int posIn = a.variable(vec4, SC_INPUT), posOut = a.variable(vec4, SC_OUTPUT);
        a.decorate(posIn, DEC_LOCATION, positionLocation);
        a.decorate(posOut, DEC_BUILT_IN, BUILT_IN_POSITION);
        copies.add(new int[] {posIn, posOut, vec4});
        interfaceIds.add(posIn);
        interfaceIds.add(posOut);
        int sizeOut = 0, size = 0;
        if (pointSize > 0) {
            int f32 = a.type(SpirvAssembler.OP_TYPE_FLOAT, 32);
            sizeOut = a.variable(f32, SC_OUTPUT);
            a.decorate(sizeOut, DEC_BUILT_IN, BUILT_IN_POINT_SIZE);
            size = a.constant(f32, Float.floatToRawIntBits(pointSize));
            interfaceIds.add(sizeOut);
        }

        int main = a.id();
        a.code(SpirvAssembler.OP_FUNCTION, voidT, main, 0, fnT);
        a.code(SpirvAssembler.OP_LABEL, a.id());
        for (int[] c : copies) {
            int value = a.id();
            a.code(SpirvAssembler.OP_LOAD, c[2], value, c[0]);
            a.code(SpirvAssembler.OP_STORE, c[1], value);
        }
        if (pointSize > 0) a.code(SpirvAssembler.OP_STORE, sizeOut, size);
        a.code(SpirvAssembler.OP_RETURN);
        a.code(SpirvAssembler.OP_FUNCTION_END);
        return a.module(0, main, interfaceIds, List.of(), List.of(), 0x00010000); // Vertex, SPIR-V 1.0
    }
}
