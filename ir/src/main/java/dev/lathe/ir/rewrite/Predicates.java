package dev.lathe.ir.rewrite;

import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.TypeClass;

/** Evaluates a rule condition on a bound variable: exactly on constants, else by the known facts. */
public final class Predicates {
    private Predicates() {}

    /**
     * Whether {@code p} holds for every component of {@code v} seen through {@code view}, where
     * {@code at} executes.
     */
    public static boolean test(
            Predicate p, Value v, byte[] view, TypeClass type, long bound, ValueFacts facts, Instr at) {
        if (v.parent() instanceof LoadConstInstr c) {
            for (byte k : view) {
                if (!p.holds(c.value(k), v.bitSize(), type, bound)) return false;
            }
            return true;
        }
        for (byte k : view) {
            if (!facts.holds(p, v, k, type, bound, at)) return false;
        }
        return true;
    }
}
