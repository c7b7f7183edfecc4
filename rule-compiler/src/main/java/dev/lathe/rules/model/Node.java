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
     * An op node.
     *
     * @param opClass   the class of the op's unsized operands, or -1 when it has none
     * @param once      {@code @once}: the matched instruction must have a single use
     * @param constant  (replacement only) every leaf is a literal or a {@code #} variable, so
     *                  the value is folded with the op table when the rule fires
     * @param flags     (pattern only) the flags the matched instruction must carry ({@code fadd[nsz]})
     * @param builtExact (replacement only) {@code flt[exact](…)}: the instruction is built exact
     * @param uses      (pattern only) how the matched value must be used ({@code @only_used_by_fadd})
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
            java.util.Set<dev.lathe.ir.rewrite.UseCondition> uses)
            implements Node {}

    /**
     * A variable occurrence. All occurrences of a name share a size class; the first one in
     * the pattern binds it, later ones must match the same value.
     */
    record VarNode(int id, String name, boolean constOnly, int sizeClass, Ast.Pos pos) implements Node {}

    /**
     * A literal. {@code asFloat} says how its spelling becomes bits: as a float (operands of
     * float ops, float literals in data-movement ops) or as an integer.
     */
    record ConstNode(int id, String text, boolean asFloat, TypeClass context, int sizeClass, Ast.Pos pos)
            implements Node {}
}
