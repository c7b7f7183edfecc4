package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.op.Op;
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

    /**
     * How far above an instruction with {@code op} the root of a pattern that matches it can
     * be: the deepest level at which {@code op} appears inside a pattern ({@code fneg(fneg(a))}
     * gives fneg 1), 0 for an op that appears only as a root or not at all. The rewrite driver
     * re-queues the users of a changed instruction only this far up.
     */
    int nodeHeight(Op op);

    /**
     * Whether a condition asks about a value that need not be a constant ({@code is_not_negative(a)}
     * rather than {@code is_power_of_two(#c)}): the rewrite driver then runs the range analysis
     * so that such conditions can hold.
     */
    boolean usesFacts();
}
