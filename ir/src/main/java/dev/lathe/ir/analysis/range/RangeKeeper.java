package dev.lathe.ir.analysis.range;

import dev.lathe.ir.Function;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.Analyses;
import java.util.List;

/**
 * Keeps a function's range facts current through a pass whose edits keep every value's bits
 * (copy propagation, cse, constant folding, trivial phis): the pass routes each replacement
 * through here and calls {@link #done} at the end. When no current facts are cached at the
 * start nothing is kept and every call is a plain edit; instructions the pass only inserts or
 * removes need no report (new values are computed when asked for, removed ones are never asked
 * about again).
 */
public final class RangeKeeper {
    private final Analyses analyses;
    private final RangeFacts facts;

    private RangeKeeper(Analyses analyses, RangeFacts facts) {
        this.analyses = analyses;
        this.facts = facts;
    }

    /** A keeper of {@code fn}'s facts if they are current now. */
    public static RangeKeeper of(Function fn) {
        return new RangeKeeper(fn.analyses(), fn.analyses().current());
    }

    /** Every use of {@code old} reads {@code now} (with the same bits) instead. */
    public void replaceAllUses(Value old, Value now) {
        if (facts == null) old.replaceAllUsesWith(now);
        else facts.replaceAllUses(old, now);
    }

    /** {@code use} of {@code old} was set to read {@code now} (the same bits, through its swizzle). */
    public void replacedUse(Src use, Value old, Value now) {
        if (facts != null) facts.replaced(old, now, true, use.instr() == null ? List.of() : List.of(use.instr()));
    }

    /** The pass is over: the facts are current again. */
    public void done() {
        analyses.keep(facts);
    }
}
