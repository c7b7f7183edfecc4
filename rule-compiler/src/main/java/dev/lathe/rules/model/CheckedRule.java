package dev.lathe.rules.model;

import dev.lathe.ir.op.TypeClass;
import java.util.List;
import java.util.Map;

/**
 * A rule that passed every check, ready for code generation, interpretation and soundness
 * checking.
 *
 * @param file       the rule file as given to the compiler ({@code rules/algebraic.rules})
 * @param line       the line of the rule's name
 * @param column     the column of the rule's name
 * @param text       the rule as written
 * @param comment    the comment that ends the rule's line, or ""
 * @param exact      {@code =>} rather than {@code ~=>}
 * @param pattern    an op node
 * @param variables  the pattern's variables in binding order
 * @param varTypes   how the rule reads each variable (float, int, uint, bool), for predicates
 *                   and soundness inputs; ANY when only data movement touches it
 * @param classes    size classes by number
 * @param gates      the gate clauses ({@code if option(lower_fsat)}, {@code stage(vertex)}), pass line's first
 * @param reassociating {@code ~~>}: an identity over the real numbers, fired only where every
 *                   float instruction matched carries {@code reassoc} ({@code exact} is false)
 * @param usedBits   {@code @low8}/{@code @low16} on the pattern's root: only that many low bits
 *                   of the matched value are used, and only they must agree; 0: every bit
 * @param maxWidth   the most components the matched root may have (0: any): a horizontal op
 *                   read at the rule's width is read through the identity ({@code f2f16(vec2(a, b))}
 *                   matches a root of 1 or 2 components)
 * @param ulpBound   from the pass line's {@code approximate(N ulp)}: the rule is a lowering
 *                   approximate by design, checked within N ulps whatever its arrow (0: none)
 */
public record CheckedRule(
        String file,
        String name,
        int line,
        int column,
        String text,
        String comment,
        boolean exact,
        Node.OpNode pattern,
        Node replacement,
        List<Condition> conditions,
        List<String> variables,
        Map<String, TypeClass> varTypes,
        List<SizeClass> classes,
        List<GateClause> gates,
        boolean reassociating,
        int usedBits,
        int maxWidth,
        double ulpBound) {

    /** Whether the rule is approximate within a stated bound ({@link #ulpBound}). */
    public boolean approximate() {
        return ulpBound > 0;
    }

    /** {@code =>}, {@code ~=>} or {@code ~~>}. */
    public String arrow() {
        return exact ? "=>" : reassociating ? "~~>" : "~=>";
    }

    /** How many instructions the rule may fire on: 0 every one, 1 those not exact, 2 those that may reassociate. */
    public int strictness() {
        return exact ? 0 : reassociating ? 2 : 1;
    }

    /** {@code rules/algebraic.rules:12}. */
    public String location() {
        return file + ":" + line;
    }

    /**
     * How many components the checker evaluates: the root's fixed count, else the width bound,
     * else 1 (every component of a per-component rule computes alike).
     */
    public int checkedWidth() {
        int fixed = pattern.components();
        return fixed > 0 ? fixed : maxWidth > 0 ? maxWidth : 1;
    }

    /**
     * The most components a root the rule fires on may have, 0 for any: the count a
     * per-component root is fixed at (a rule on one component), else {@link #maxWidth}. A
     * horizontal root's count is the op's, which valid IR guarantees.
     */
    public int maxRootComponents() {
        if (pattern.op().isHorizontal()) return 0;
        return pattern.components() > 0 ? pattern.components() : maxWidth;
    }

    /** Whether any value of the rule is a vector part (a horizontal op, a swizzle, a fixed count above 1). */
    public boolean usesVectors() {
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>(java.util.List.of(pattern, replacement));
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (n.isVector()) return true;
            if (n instanceof Node.OpNode op) work.addAll(op.srcs());
        }
        return maxWidth > 1;
    }

    public SizeClass sizeClass(int id) {
        return classes.get(id);
    }
}
