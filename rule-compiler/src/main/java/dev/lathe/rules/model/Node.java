package dev.lathe.rules.model;

import dev.lathe.ir.AluFlags;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.ast.Ast;
import java.util.List;

/**
 * A node of a checked pattern or replacement: an op applied to nodes, a variable, or a
 * literal. Every node knows the size class of its value ({@link #sizeClass}); classes are
 * resolved over the whole rule (see {@link SizeClass}).
 */
public sealed interface Node permits Node.OpNode, Node.VarNode, Node.ConstNode {
    /** A number unique within the rule (pattern and replacement), in preorder. */
    int id();

    Ast.Pos pos();

    /** The size class of this node's value. */
    int sizeClass();

    /**
     * How many components the value is read at: 0 for the rule's width (as many as the matched
     * root has), else a fixed count, under a horizontal op ({@code fdot3} reads 3 of each operand).
     */
    int components();

    /** NIR's letters for components 0 to 15, as swizzles are shown. */
    String SWIZZLE_LETTERS = "xyzwefghijklmnop";

    /** A swizzle's text ({@code "yx"}), or "" for none. */
    static String swizzleText(byte[] swizzle) {
        if (swizzle == null) return "";
        StringBuilder sb = new StringBuilder();
        for (byte c : swizzle) sb.append(SWIZZLE_LETTERS.charAt(c));
        return sb.toString();
    }

    /** The components a swizzle's text names. */
    static byte[] swizzleComponents(String text) {
        byte[] out = new byte[text.length()];
        for (int i = 0; i < out.length; i++) out[i] = (byte) SWIZZLE_LETTERS.indexOf(text.charAt(i));
        return out;
    }

    /** Whether the value is a vector part: a fixed count above 1, a swizzle, or a horizontal op. */
    default boolean isVector() {
        return components() > 1
                || this instanceof VarNode v && (!v.swizzle().isEmpty() || v.varComponents() > 1)
                || this instanceof OpNode o
                        && (o.op().isHorizontal() || !o.swizzle().isEmpty());
    }

    /**
     * An op node.
     *
     * @param opClass   the class of the op's unsized operands, or -1 when it has none
     * @param once      {@code @once}: the matched instruction must have a single use
     * @param constant  (replacement only) every leaf is a literal or a {@code #} variable, so
     *                  the value is folded with the op table when the rule fires
     * @param flags     (pattern only) the flags the matched instruction must carry ({@code fadd[nsz]})
     * @param builtExact (replacement only) {@code flt[exact](…)}: the instruction is built exact
     * @param uses      (pattern only) how the matched value must be used ({@code @only_used_by_fadd})
     * @param components see {@link Node#components}
     * @param swizzle   a horizontal op's result read at these components ({@code unpack_64_2x32(a).y}), or ""
     */
    record OpNode(
            int id,
            Op op,
            List<Node> srcs,
            int opClass,
            int sizeClass,
            boolean once,
            boolean constant,
            Ast.Pos pos,
            AluFlags flags,
            boolean builtExact,
            java.util.Set<dev.lathe.ir.rewrite.UseCondition> uses,
            int components,
            String swizzle)
            implements Node {}

    /**
     * A variable occurrence. All occurrences of a name share a size class; the first one in
     * the pattern binds it, later ones must match the same value.
     *
     * @param varComponents the variable's own count (0: the rule's width): what its whole uses read
     * @param swizzle       {@code a.yx}: this occurrence reads those components of it, or ""
     */
    record VarNode(
            int id, String name, boolean constOnly, int sizeClass, Ast.Pos pos, int varComponents, String swizzle)
            implements Node {
        /** Read whole: the variable's own count; swizzled: the swizzle's length. */
        @Override
        public int components() {
            return swizzle.isEmpty() ? varComponents : swizzle.length();
        }
    }

    /**
     * A literal. {@code asFloat} says how its spelling becomes bits: as a float (operands of
     * float ops, float literals in data-movement ops) or as an integer.
     */
    record ConstNode(
            int id, String text, boolean asFloat, TypeClass context, int sizeClass, Ast.Pos pos, int components)
            implements Node {}
}
