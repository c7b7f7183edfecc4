package dev.lathe.ir;

/**
 * {@code if cond { then } else { else }}. The condition is a one-component 1-bit value; its use
 * is a {@link Src} owned by this node and appears in the value's use list. The block before the
 * {@code if} branches to the first block of each side; the last block of each side falls
 * through to the block after the {@code if}, whose phis merge the two sides.
 */
public final class IfNode extends CfNode implements SrcOwner {
    private final Src condition;
    private final CfList thenList;
    private final CfList elseList;
    private SourceLoc loc;

    IfNode(Function fn, Value condition) {
        this.condition = new Src(this, condition, null);
        this.thenList = new CfList(fn, this);
        this.elseList = new CfList(fn, this);
    }

    public Src condition() {
        return condition;
    }

    public CfList thenList() {
        return thenList;
    }

    public CfList elseList() {
        return elseList;
    }

    /** The block after this {@code if} (its merge block). */
    public Block mergeBlock() {
        return (Block) next;
    }

    public SourceLoc loc() {
        return loc;
    }

    public void setLoc(SourceLoc loc) {
        this.loc = loc;
    }
}
