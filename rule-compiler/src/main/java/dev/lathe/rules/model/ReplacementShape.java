package dev.lathe.rules.model;

/**
 * The shape of a replacement's subtree as a string: two subtrees with the same shape compute the
 * same value (the ops are pure and a variable names one matched value), so a replacement builds
 * each shape once and its other occurrences read that one ({@code iadd(a, b)} three times in
 * {@code iadd_sat}'s lowering is one instruction). The generated matchers and the rule
 * interpreter both build replacements this way, from {@link #firsts}, computed once per rule.
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
                sb.append('$').append(v.name()).append('.').append(v.swizzle());
            } else if (o instanceof Node.ConstNode c) {
                sb.append('#')
                        .append(c.text())
                        .append(c.asFloat() ? 'f' : 'i')
                        .append('/')
                        .append(c.sizeClass())
                        .append('x')
                        .append(c.components());
            } else {
                Node.OpNode op = (Node.OpNode) o;
                // the count it is built at is part of the shape (fmul(a, b) at 1 and at 4 differ); a swizzle
                // is how a built value is read, not part of it
                sb.append(op.op().name())
                        .append('/')
                        .append(op.sizeClass())
                        .append('/')
                        .append(op.opClass())
                        .append('x')
                        .append(op.components())
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

    /**
     * For every op and literal node of {@code replacement} below its root, the id of the first node (in
     * preorder) of the same shape: the one a replacement builds, left to right and operands first,
     * before any other of its shape, so every other reads its value.
     */
    public static java.util.Map<Integer, Integer> firsts(Node replacement) {
        java.util.Map<String, Integer> byShape = new java.util.HashMap<>();
        java.util.Map<Integer, Integer> out = new java.util.HashMap<>();
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>();
        if (replacement instanceof Node.OpNode root)
            for (int i = root.srcs().size() - 1; i >= 0; i--)
                work.push(root.srcs().get(i));
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (n instanceof Node.VarNode) continue; // a variable is read, never built
            out.put(n.id(), byShape.computeIfAbsent(of(n), k -> n.id()));
            if (n instanceof Node.OpNode op)
                for (int i = op.srcs().size() - 1; i >= 0; i--)
                    work.push(op.srcs().get(i));
        }
        return out;
    }
}
