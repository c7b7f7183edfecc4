package dev.lathe.ir;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A list of control-flow nodes: a function body, the then/else side of an {@code if}, or a loop
 * body. Doubly linked for O(1) insertion and removal.
 */
public final class CfList implements Iterable<CfNode> {
    private final Function function;
    private final CfNode owner;
    CfNode first;
    CfNode last;

    CfList(Function function, CfNode owner) {
        this.function = function;
        this.owner = owner;
    }

    public Function function() {
        return function;
    }

    /** The {@code if} or {@code loop} this list belongs to, or null for the function body. */
    public CfNode owner() {
        return owner;
    }

    public CfNode first() {
        return first;
    }

    public CfNode last() {
        return last;
    }

    /** The first node, which is a block in a well-formed list. */
    public Block firstBlock() {
        return (Block) first;
    }

    /** The last node, which is a block in a well-formed list. */
    public Block lastBlock() {
        return (Block) last;
    }

    public boolean isEmpty() {
        return first == null;
    }

    public void append(CfNode n) {
        requireDetached(n);
        n.parent = this;
        n.prev = last;
        n.next = null;
        if (last == null) first = n;
        else last.next = n;
        last = n;
        adopt(n);
    }

    /** Inserts {@code n} right after {@code pos}, which must be in this list. */
    public void insertAfter(CfNode pos, CfNode n) {
        requireDetached(n);
        if (pos.parent != this) throw new IllegalArgumentException("position is not in this list");
        n.parent = this;
        n.prev = pos;
        n.next = pos.next;
        if (pos.next == null) last = n;
        else pos.next.prev = n;
        pos.next = n;
        adopt(n);
    }

    /** Inserts {@code n} right before {@code pos}, which must be in this list. */
    public void insertBefore(CfNode pos, CfNode n) {
        requireDetached(n);
        if (pos.parent != this) throw new IllegalArgumentException("position is not in this list");
        n.parent = this;
        n.next = pos;
        n.prev = pos.prev;
        if (pos.prev == null) first = n;
        else pos.prev.next = n;
        pos.prev = n;
        adopt(n);
    }

    /**
     * Unlinks {@code n} from this list without touching its contents (use-list bookkeeping for
     * removed code is the caller's job; see {@link Function#deleteNode}).
     */
    public void unlink(CfNode n) {
        if (n.parent != this) throw new IllegalArgumentException("node is not in this list");
        if (n.prev == null) first = n.next;
        else n.prev.next = n.next;
        if (n.next == null) last = n.prev;
        else n.next.prev = n.prev;
        n.prev = null;
        n.next = null;
        n.parent = null;
        function.invalidateCfg();
    }

    private void adopt(CfNode n) {
        if (n instanceof Block b) b.function = function;
        function.invalidateCfg();
    }

    private static void requireDetached(CfNode n) {
        if (n.parent != null) throw new IllegalStateException("control-flow node is already in a list");
    }

    @Override
    public Iterator<CfNode> iterator() {
        return new Iterator<>() {
            CfNode cur = first;

            @Override
            public boolean hasNext() {
                return cur != null;
            }

            @Override
            public CfNode next() {
                if (cur == null) throw new NoSuchElementException();
                CfNode n = cur;
                cur = cur.next;
                return n;
            }
        };
    }
}
