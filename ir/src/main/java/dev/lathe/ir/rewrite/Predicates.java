package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
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
        if (p.kind() == Predicate.Kind.STRUCTURAL) return structural(p, v, view, type);
        if (p.anyComponent()) {
            for (byte k : view) {
                boolean some = v.parent() instanceof LoadConstInstr c
                        ? p.holds(c.value(k), v.bitSize(), type, bound)
                        : facts.holds(Predicate.IS_NAN, v, k, type, bound, at);
                if (some) return true;
            }
            return false;
        }
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

    /** The structural conditions: what makes {@code v}. */
    private static boolean structural(Predicate p, Value v, byte[] view, TypeClass type) {
        boolean constant = v.parent() instanceof LoadConstInstr;
        return switch (p) {
            case IS_NOT_CONST -> !constant;
            case IS_NOT_CONST_ZERO -> {
                if (!(v.parent() instanceof LoadConstInstr c)) yield true;
                for (byte k : view) {
                    if (!Predicate.IS_NOT_ZERO.holds(c.value(k), v.bitSize(), type, 0)) yield false;
                }
                yield true;
            }
            case IS_NOT_CONST_AND_NOT_FSIGN -> !constant && !madeBy(v, Op.FSIGN, Op.FSIGN);
            case IS_FMUL -> madeBy(v, Op.FMUL, Op.FMULZ);
            case IS_NOT_FMUL -> !madeBy(v, Op.FMUL, Op.FMULZ);
            default -> throw new IllegalStateException(p.spelling() + " is not structural");
        };
    }

    /** Whether {@code v} is made by {@code a} or {@code b}, or by fneg of one of them (as NIR looks). */
    private static boolean madeBy(Value v, Op a, Op b) {
        if (!(v.parent() instanceof AluInstr i)) return false;
        if (i.op() == Op.FNEG && i.src(0).value().parent() instanceof AluInstr inner) i = inner;
        return i.op() == a || i.op() == b;
    }
}
