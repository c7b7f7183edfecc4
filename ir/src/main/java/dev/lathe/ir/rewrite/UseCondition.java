package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.util.Locale;

/**
 * A condition on how a pattern op's value is used, written after the op like {@code @once}
 * ({@code fmul(a, b)@only_used_by_fadd}): NIR's use conditions, with NIR's meaning. They say
 * where the rule fires, not what it computes, so the checker and the prover judge the rule on
 * every value.
 */
public enum UseCondition {
    /** Every use reads it as a float: an ALU operand of float type, or bcsel's value operands whose bcsel is so used (NIR's is_only_used_as_float). */
    ONLY_USED_AS_FLOAT,
    /** Every use is an fadd, or an fneg or fabs only used by fadds (NIR's is_only_used_by_fadd). */
    ONLY_USED_BY_FADD,
    /** Every use is an iadd (NIR's is_only_used_by_iadd). */
    ONLY_USED_BY_IADD,
    /** Some use is not an fsat (NIR's is_used_by_non_fsat). */
    USED_BY_NON_FSAT,
    /** No use is an if's condition (NIR's is_not_used_by_if). */
    NOT_USED_BY_IF;

    /** How a rule writes it, after {@code @}: {@code only_used_by_fadd}. */
    public String spelling() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static UseCondition bySpelling(String s) {
        for (UseCondition c : values()) if (c.spelling().equals(s)) return c;
        return null;
    }

    /** Whether {@code v}'s uses satisfy the condition. */
    public boolean holds(Value v) {
        return switch (this) {
            case ONLY_USED_AS_FLOAT -> usedAsFloat(v, 0);
            case ONLY_USED_BY_FADD -> usedByFadd(v, 0);
            case ONLY_USED_BY_IADD -> every(v, Op.IADD);
            case USED_BY_NON_FSAT -> {
                for (Src u : v.uses()) {
                    if (!(u.owner() instanceof AluInstr a) || a.op() != Op.FSAT) yield true;
                }
                yield false;
            }
            case NOT_USED_BY_IF -> {
                for (Src u : v.uses()) if (!(u.owner() instanceof dev.lathe.ir.Instr)) yield false;
                yield true;
            }
        };
    }

    private static boolean every(Value v, Op op) {
        for (Src u : v.uses()) {
            if (!(u.owner() instanceof AluInstr a) || a.op() != op) return false;
        }
        return true;
    }

    /** NIR looks through at most 8 bcsels or fneg/fabs. */
    private static final int DEPTH = 8;

    private static boolean usedByFadd(Value v, int depth) {
        for (Src u : v.uses()) {
            if (!(u.owner() instanceof AluInstr a)) return false;
            if (a.op() == Op.FADD) continue;
            if ((a.op() == Op.FNEG || a.op() == Op.FABS) && depth < DEPTH && usedByFadd(a.def(), depth + 1)) continue;
            return false;
        }
        return true;
    }

    private static boolean usedAsFloat(Value v, int depth) {
        for (Src u : v.uses()) {
            if (!(u.owner() instanceof AluInstr a)) return false;
            int k = 0;
            while (a.src(k) != u) k++;
            if (a.op() == Op.BCSEL && k > 0) {
                if (depth < DEPTH && usedAsFloat(a.def(), depth + 1)) continue;
                return false;
            }
            if (a.op().input(k).typeClass() != TypeClass.FLOAT) return false;
        }
        return true;
    }
}
