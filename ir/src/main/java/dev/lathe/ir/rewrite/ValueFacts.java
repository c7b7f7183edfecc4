package dev.lathe.ir.rewrite;

import dev.lathe.ir.Value;
import dev.lathe.ir.op.TypeClass;

/**
 * What is known about values that are not constants: the answers a range analysis gives to
 * rule conditions. {@link #NONE} knows nothing, so conditions on non-constant values fail.
 */
public interface ValueFacts {
    /** Whether {@code p} certainly holds for component {@code component} of {@code v}. */
    boolean holds(Predicate p, Value v, int component, TypeClass type, long bound);

    ValueFacts NONE = (p, v, component, type, bound) -> false;
}
