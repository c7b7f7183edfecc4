package dev.lathe.ir;

/**
 * A node of the structured control-flow tree: a basic block, an {@code if} or a {@code loop}.
 * Nodes sit in a {@link CfList}; like NIR, a list always starts and ends with a block and never
 * has two blocks in a row, so every {@code if} and {@code loop} is followed by a block (the
 * merge block of the {@code if}, the exit block of the loop).
 */
public abstract sealed class CfNode permits Block, IfNode, LoopNode {
    CfList parent;
    CfNode prev;
    CfNode next;

    /** The list this node is in, or null when it is detached. */
    public CfList parent() {
        return parent;
    }

    public CfNode prev() {
        return prev;
    }

    public CfNode next() {
        return next;
    }

    /** The function this node belongs to, or null when detached. */
    public Function function() {
        return parent == null ? null : parent.function();
    }
}
