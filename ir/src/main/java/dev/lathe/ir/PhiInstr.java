package dev.lathe.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A phi: at the start of a block, one source per predecessor block, selecting the value that
 * flows in from the predecessor control came from.
 */
public final class PhiInstr extends Instr {
    /** One incoming edge: the predecessor block and the value read along it. */
    public record PhiSrc(Block pred, Src src) {}

    private final Value def;
    private final List<PhiSrc> phiSrcs = new ArrayList<>();

    public PhiInstr(Function fn, int numComponents, int bitSize) {
        this.def = new Value(this, numComponents, bitSize, fn.allocateValueIndex());
    }

    @Override
    public Value def() {
        return def;
    }

    /** Adds the source for predecessor {@code pred}. */
    public PhiSrc addSrc(Block pred, Value v) {
        Src s = new Src(this, v, null);
        PhiSrc ps = new PhiSrc(pred, s);
        phiSrcs.add(ps);
        noteEdit();
        if (isInserted()) s.link();
        return ps;
    }

    /** Removes the source for {@code pred}; returns whether there was one. */
    public boolean removeSrc(Block pred) {
        for (int i = 0; i < phiSrcs.size(); i++) {
            if (phiSrcs.get(i).pred() == pred) {
                phiSrcs.get(i).src().unlink();
                phiSrcs.remove(i);
                noteEdit();
                return true;
            }
        }
        return false;
    }

    /** The source for predecessor {@code pred}, or null. */
    public Src srcFor(Block pred) {
        for (PhiSrc ps : phiSrcs) {
            if (ps.pred() == pred) return ps.src();
        }
        return null;
    }

    /** Changes the predecessor an edge comes from (when control flow is rewired). */
    public void retargetSrc(Block oldPred, Block newPred) {
        for (int i = 0; i < phiSrcs.size(); i++) {
            if (phiSrcs.get(i).pred() == oldPred) {
                phiSrcs.set(i, new PhiSrc(newPred, phiSrcs.get(i).src()));
                noteEdit();
            }
        }
    }

    public List<PhiSrc> phiSrcs() {
        return Collections.unmodifiableList(phiSrcs);
    }

    @Override
    public List<Src> srcs() {
        List<Src> out = new ArrayList<>(phiSrcs.size());
        for (PhiSrc ps : phiSrcs) out.add(ps.src());
        return out;
    }

    @Override
    public String opName() {
        return "phi";
    }

    @Override
    public boolean isRemovableWhenUnused() {
        return true;
    }
}
