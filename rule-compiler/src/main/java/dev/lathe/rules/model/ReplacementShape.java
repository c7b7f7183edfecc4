package dev.lathe.rules.model;

/**
 * The shape of a replacement's subtree as a string: two subtrees with the same shape compute the
 * same value (the ops are pure and a variable names one matched value), so a replacement builds
 * each shape once and its other occurrences read that one ({@code iadd(a, b)} three times in
 * {@code iadd_sat}'s lowering is one instruction). The generated matchers and the rule
 * interpreter both build replacements this way.
 */
public final class ReplacementShape {
    private ReplacementShape() {}

    /** The shape of {@code n}: its op, size class and operands' shapes; a variable's name; a literal's spelling, reading and size class. */
    public static String of(Node n) {
        StringBuilder sb = new StringBuilder();
        // a worklist of nodes and closing marks: replacements nest, and a stack keeps the order plain
        java.util.ArrayDeque<Object> work = new java.util.ArrayDeque<>();
        work.push(n);
        while (!work.isEmpty()) {
            Object o = work.pop();
            if (o instanceof String s) {
                sb.append(s);
            } else if (o instanceof Node.VarNode v) {
                sb.append('$').append(v.name());
            } else if (o instanceof Node.ConstNode c) {
                sb.append('#')
                        .append(c.text())
                        .append(c.asFloat() ? 'f' : 'i')
                        .append('/')
                        .append(c.sizeClass());
            } else {
                Node.OpNode op = (Node.OpNode) o;
                sb.append(op.op().name())
                        .append('/')
                        .append(op.sizeClass())
                        .append('/')
                        .append(op.opClass())
                        .append('(');
                work.push(")");
                for (int i = op.srcs().size() - 1; i >= 0; i--) {
                    work.push(op.srcs().get(i));
                    if (i > 0) work.push(",");
                }
            }
        }
        return sb.toString();
    }
}
