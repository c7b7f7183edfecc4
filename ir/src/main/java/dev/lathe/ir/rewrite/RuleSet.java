package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import java.util.List;

/**
 * A compiled rule file: the generated matcher class of one {@code .rules} file (or the rule
 * interpreter, the reference it is tested against).
 */
public interface RuleSet {
    /** The pass name ({@code pass algebraic;}). */
    String passName();

    /** The rules, in file order; indices are rule numbers. */
    List<RuleInfo> rules();

    /**
     * Tries the rules whose pattern is rooted at {@code root}'s op, in file order. On the first
     * match it builds the replacement before {@code root}, points root's uses at it and returns
     * the rule's index; returns -1 when nothing matches.
     */
    int rewrite(AluInstr root, Rewriter rw);
}
