package dev.lathe.vulkan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A vertex shader's module with its outputs captured by transform feedback: the
 * {@code TransformFeedback} capability, the {@code Xfb} execution mode, and on every captured
 * output {@code XfbBuffer 0}, {@code XfbStride} and its {@code Offset} (on the gl_PerVertex
 * member for a built-in in a block). Nothing else of the module changes: the shader under test
 * runs as written, and Vulkan writes what it output, vertex by vertex, into one buffer, before
 * clipping and whatever the position is.
 */
final class TransformFeedbackPatch {
    private TransformFeedbackPatch() {}

    /** One captured output: a variable, or member {@code member} of block type {@code struct} (-1: none), at {@code offset}. */
    record Capture(int variable, int struct, int member, int offset) {}

    private static final int OP_CAPABILITY = 17,
            OP_ENTRY_POINT = 15,
            OP_EXECUTION_MODE = 16,
            OP_DECORATE = 71,
            OP_MEMBER_DECORATE = 72;
    private static final int CAPABILITY_TRANSFORM_FEEDBACK = 53,
            MODE_XFB = 11,
            DEC_OFFSET = 35,
            DEC_XFB_BUFFER = 36,
            DEC_XFB_STRIDE = 37;

    static byte[] patch(byte[] spirv, List<Capture> captures, int stride) {
        ByteBuffer bb = ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN);
        int[] w = new int[spirv.length / 4];
        for (int i = 0; i < w.length; i++) w[i] = bb.getInt(4 * i);
        int afterCapability = -1, afterEntryPoints = -1, firstType = -1, entryPoint = -1;
        for (int at = 5; at < w.length; ) {
            int count = w[at] >>> 16, op = w[at] & 0xffff;
            if (count == 0) throw new IllegalArgumentException("malformed SPIR-V at word " + at);
            if (op == OP_CAPABILITY && afterCapability < 0) afterCapability = at + count;
            if (op == OP_ENTRY_POINT) {
                afterEntryPoints = at + count;
                entryPoint = w[at + 2];
            }
            if (op >= 19 && op <= 39 && firstType < 0)
                firstType = at; // OpTypeVoid … OpTypeForwardPointer: annotations end here
            at += count;
        }
        if (afterCapability < 0 || afterEntryPoints < 0 || firstType < 0)
            throw new IllegalArgumentException("a module without capabilities, entry point or types");
        List<Integer> decorations = new ArrayList<>();
        Set<Integer> variables = new LinkedHashSet<>();
        for (Capture c : captures) variables.add(c.variable());
        for (int v : variables) {
            // a variable holding a block: the block's members are captured through it
            add(decorations, OP_DECORATE, v, DEC_XFB_BUFFER, 0);
            add(decorations, OP_DECORATE, v, DEC_XFB_STRIDE, stride);
        }
        for (Capture c : captures) {
            if (c.member() < 0) add(decorations, OP_DECORATE, c.variable(), DEC_OFFSET, c.offset());
            else add(decorations, OP_MEMBER_DECORATE, c.struct(), c.member(), DEC_OFFSET, c.offset());
        }
        List<Integer> out = new ArrayList<>(w.length + 16 + decorations.size());
        for (int i = 0; i < w.length; i++) {
            if (i == afterCapability) add(out, OP_CAPABILITY, CAPABILITY_TRANSFORM_FEEDBACK);
            if (i == afterEntryPoints) add(out, OP_EXECUTION_MODE, entryPoint, MODE_XFB);
            if (i == firstType) out.addAll(decorations);
            out.add(w[i]);
        }
        ByteBuffer b = ByteBuffer.allocate(4 * out.size()).order(ByteOrder.LITTLE_ENDIAN);
        out.forEach(b::putInt);
        return b.array();
    }

    private static void add(List<Integer> to, int op, int... operands) {
        to.add((operands.length + 1) << 16 | op);
        for (int x : operands) to.add(x);
    }
}
