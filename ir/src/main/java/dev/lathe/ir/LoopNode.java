package dev.lathe.ir;

/**
 * {@code loop { body }}: runs the body until a {@code break}. Falling off the end of the body
 * (or a {@code continue}) goes back to the first block of the body, the loop header, whose phis
 * merge the entry value and the values from each back edge. {@code break} goes to the block
 * after the loop.
 */
public final class LoopNode extends CfNode {
    private final CfList body;
    private SourceLoc loc;

    LoopNode(Function fn) {
        this.body = new CfList(fn, this);
    }

    public CfList body() {
        return body;
    }

    /** The first block of the body: the target of continue and of the back edge. */
    public Block header() {
        return body.firstBlock();
    }

    /** The block after the loop: the target of break. */
    public Block exitBlock() {
        return (Block) next;
    }

    public SourceLoc loc() {
        return loc;
    }

    public void setLoc(SourceLoc loc) {
        this.loc = loc;
    }
}
