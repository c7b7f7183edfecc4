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

    private static final int SC_INPUT = 1,
            SC_OUTPUT = 3,
            DEC_BLOCK = 2,
            DEC_BUILT_IN = 11,
            DEC_LOCATION = 30,
            BUILT_IN_POSITION = 0,
            BUILT_IN_POINT_SIZE = 1;

    /**
     * The shader for {@code varyings} (a fragment shader's inputs); the position is the vec4
     * attribute at {@code positionLocation}; a {@code pointSize} above 0 is written as the size of
     * the points drawn.
     */
    static byte[] assemble(List<SpirvInterface.Varying> varyings, int positionLocation, float pointSize) {
        SpirvAssembler a = new SpirvAssembler();
        int voidT = a.type(SpirvAssembler.OP_TYPE_VOID), fnT = a.type(SpirvAssembler.OP_TYPE_FUNCTION, voidT);
        List<int[]> copies = new ArrayList<>(); // input variable, output variable, value type
        List<int[]> memberCopies = new ArrayList<>(); // input variable, output block, member, value type
        List<Integer> interfaceIds = new ArrayList<>();
        // the members of a fragment shader's input block come from an output block of the same
        // members and locations: the interface matches block to block (the validation layer
        // refuses a block fed by loose variables)
        java.util.Map<Integer, List<SpirvInterface.Varying>> blocks = new java.util.LinkedHashMap<>();
        for (SpirvInterface.Varying v : varyings)
            if (v.struct() >= 0)
                blocks.computeIfAbsent(v.struct(), k -> new ArrayList<>()).add(v);
        for (List<SpirvInterface.Varying> members : blocks.values()) {
            members.sort(java.util.Comparator.comparingInt(SpirvInterface.Varying::member));
            int[] types = new int[members.size()];
            for (int k = 0; k < types.length; k++)
                types[k] = a.shape(members.get(k).shape());
            int block = a.struct(types);
            a.decorate(block, DEC_BLOCK);
            int out = a.variable(block, SC_OUTPUT);
            interfaceIds.add(out);
            // members at consecutive locations take them from the variable's, as glslang writes a
            // block's (and as the validation layer matches them); otherwise each member says its own
            boolean consecutive = true;
            for (int k = 1; k < types.length; k++) {
                SpirvInterface.Varying before = members.get(k - 1);
                consecutive &= members.get(k).location() == before.location() + before.slots();
            }
            if (consecutive) a.decorate(out, DEC_LOCATION, members.get(0).location());
            for (int k = 0; k < types.length; k++) {
                if (!consecutive)
                    a.memberDecorate(block, k, DEC_LOCATION, members.get(k).location());
                int in = a.variable(types[k], SC_INPUT);
                a.decorate(in, DEC_LOCATION, members.get(k).location());
                interfaceIds.add(in);
                memberCopies.add(new int[] {in, out, k, types[k]});
            }
        }
        for (SpirvInterface.Varying v : varyings) {
            if (v.struct() >= 0) continue;
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
        for (int[] c : memberCopies) {
            int value = a.id(), member = a.id();
            a.code(SpirvAssembler.OP_LOAD, c[3], value, c[0]);
            int ptr = a.type(SpirvAssembler.OP_TYPE_POINTER, SC_OUTPUT, c[3]);
            a.code(
                    SpirvAssembler.OP_ACCESS_CHAIN,
                    ptr,
                    member,
                    c[1],
                    a.constant(a.type(SpirvAssembler.OP_TYPE_INT, 32, 1), c[2]));
            a.code(SpirvAssembler.OP_STORE, member, value);
        }
        if (pointSize > 0) a.code(SpirvAssembler.OP_STORE, sizeOut, size);
        a.code(SpirvAssembler.OP_RETURN);
        a.code(SpirvAssembler.OP_FUNCTION_END);
        return a.module(0, main, interfaceIds, List.of(), List.of(), 0x00010000); // Vertex, SPIR-V 1.0
    }
}
