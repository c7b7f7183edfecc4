package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.TypeClass;
import java.util.List;

/**
 * What is known about values that are not constants: the answers a range analysis gives to
 * rule conditions. {@link #NONE} knows nothing, so conditions on non-constant values fail.
 */
public interface ValueFacts {
    /** Whether {@code p} certainly holds for component {@code component} of {@code v}. */
    boolean holds(Predicate p, Value v, int component, TypeClass type, long bound);

    /**
     * The same, for the value as read where {@code at} executes (facts may know more there: in
     * the then-list of an {@code if} its condition is true).
     */
    default boolean holds(Predicate p, Value v, int component, TypeClass type, long bound, Instr at) {
        return holds(p, v, component, type, bound);
    }

    /**
     * A rule rewrote {@code root}: {@code movedUsers} now read {@code result} instead. After an
     * inexact rule the values may differ, so whatever was derived from the old one must not be
     * answered from any more.
     */
    default void rewritten(AluInstr root, Value result, boolean exact, List<Instr> movedUsers) {}

    ValueFacts NONE = (p, v, component, type, bound) -> false;
}
