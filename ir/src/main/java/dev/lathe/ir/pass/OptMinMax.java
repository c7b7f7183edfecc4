package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.FloatClass;
import dev.lathe.ir.analysis.range.Range;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.analysis.range.RangeOrder;
import dev.lathe.ir.op.Op;

/**
 * opt_minmax: removes min, max, median, clamp and select instructions whose outcome the range
 * analysis proves.
 *
 * <p>The function is analyzed once; then every candidate reads its operands' elements as they
 * hold where it runs (branch facts included) and asks, per component, which operand the
 * result always equals:
 *
 * <ul>
 *   <li>{@code fmin(a, b)} is {@code a} when {@code a} is never NaN and every {@code a} is at
 *       most every non-NaN {@code b} (-0 below +0, the order fmin uses; a NaN {@code b} loses);
 *       fmax, fmin3, fmax3 alike; {@code fmed3} when no operand can be NaN and one lies between
 *       the other two;
 *   <li>{@code fsat}, {@code fsat_signed}, {@code fclamp_pos} of a value never NaN and already
 *       inside the clamp (a -0 is not inside fsat's, which gives +0);
 *   <li>the integer mins, maxes and medians by their signed or unsigned intervals;
 *   <li>{@code bcsel} with a condition proven true or false, {@code fcsel} with a first
 *       operand proven nonzero (NaN included) or zero.
 * </ul>
 *
 * When every component picks the same operand, uses read that operand (through a {@code mov}
 * when the swizzle is not the identity; copy_prop folds it) and the instruction goes. The
 * replacement has the same bits as what it replaces, so every fact of the analysis stays true
 * and one analysis serves the whole sweep; each replacement is reported to it, so it is kept
 * for the passes after ({@link dev.lathe.ir.analysis.Analyses}). Clamp chains go link by link in the same sweep:
 * each link's element already says where its value lies.
 */
final class OptMinMax implements Pass {
    private static final int NOT_NAN = FloatClass.ALL & ~FloatClass.bit(FloatClass.NAN);

    @Override
    public boolean run(Function fn) {
        // asked for before the first replacement, and kept current through them all
        RangeFacts facts = null;
        boolean progress = false;
        for (Block b : fn.blocks()) {
            Instr next;
            for (Instr i = b.firstInstr(); i != null; i = next) {
                next = i.next();
                if (!(i instanceof AluInstr alu) || !isCandidate(alu.op())) continue;
                if (facts == null) facts = fn.analyses().ranges(); // functions without candidates cost nothing
                int k = decide(alu, facts);
                if (k < 0) continue;
                replace(fn, alu, alu.src(k), facts);
                progress = true;
            }
        }
        if (facts != null) fn.analyses().keep(facts);
        return progress;
    }

    private static boolean isCandidate(Op op) {
        return switch (op) {
            case FMIN,
                    FMAX,
                    FMIN3,
                    FMAX3,
                    FMED3,
                    FSAT,
                    FSAT_SIGNED,
                    FCLAMP_POS,
                    IMIN,
                    IMAX,
                    UMIN,
                    UMAX,
                    IMIN3,
                    IMAX3,
                    UMIN3,
                    UMAX3,
                    IMED3,
                    UMED3,
                    BCSEL,
                    FCSEL -> true;
            default -> false;
        };
    }

    /** The operand every component of {@code alu} equals, or -1. */
    private static int decide(AluInstr alu, RangeFacts facts) {
        int n = alu.numSrcs();
        int chosen = -1;
        for (int c = 0; c < alu.def().numComponents(); c++) {
            Range[] r = new Range[n];
            for (int s = 0; s < n; s++) {
                Src src = alu.src(s);
                r[s] = facts.rangeAt(src.value(), src.component(c), alu);
            }
            int k = pick(alu.op(), r);
            if (k < 0 || (chosen >= 0 && k != chosen)) return -1;
            chosen = k;
        }
        return chosen;
    }

    /** Which operand the result equals for every value of the operands' elements, or -1. */
    private static int pick(Op op, Range[] r) {
        return switch (op) {
            case FMIN, FMIN3 -> extreme(r, true);
            case FMAX, FMAX3 -> extreme(r, false);
            case FMED3 ->
                RangeOrder.mayBeNaN(r[0]) || RangeOrder.mayBeNaN(r[1]) || RangeOrder.mayBeNaN(r[2])
                        ? -1
                        : median(r, RangeOrder::floatsAtMost);
            case FSAT -> inside(r[0], FloatClass.between(FloatClass.POS_ZERO, FloatClass.ONE));
            case FSAT_SIGNED -> inside(r[0], FloatClass.between(FloatClass.NEG1, FloatClass.ONE));
            case FCLAMP_POS -> inside(r[0], FloatClass.between(FloatClass.POS_ZERO, FloatClass.POS_INF));
            case IMIN, IMIN3 -> least(r, RangeOrder::signedAtMost);
            case UMIN, UMIN3 -> least(r, RangeOrder::unsignedAtMost);
            case IMAX, IMAX3 -> least(r, (a, b) -> RangeOrder.signedAtMost(b, a));
            case UMAX, UMAX3 -> least(r, (a, b) -> RangeOrder.unsignedAtMost(b, a));
            case IMED3 -> median(r, RangeOrder::signedAtMost);
            case UMED3 -> median(r, RangeOrder::unsignedAtMost);
            case BCSEL -> r[0].empty() ? -1 : r[0].uLo() != 0 ? 1 : r[0].uHi() == 0 ? 2 : -1;
            case FCSEL -> {
                if (!r[0].isFloatSize() || r[0].empty()) yield -1;
                int cls = RangeOrder.classes(r[0]);
                if ((cls & FloatClass.bit(FloatClass.NEG_ZERO)) == 0
                        && (cls & FloatClass.bit(FloatClass.POS_ZERO)) == 0) yield 1;
                yield (cls & ~(FloatClass.bit(FloatClass.NEG_ZERO) | FloatClass.bit(FloatClass.POS_ZERO))) == 0
                        ? 2
                        : -1;
            }
            default -> -1;
        };
    }

    /**
     * For fmin (and fmin3) the operand never NaN and at most every other one; for fmax the
     * operand at least every other one. NaN operands lose in both, so the others may be NaN.
     */
    private static int extreme(Range[] r, boolean min) {
        for (int k = 0; k < r.length; k++) {
            if (RangeOrder.mayBeNaN(r[k])) continue;
            boolean all = true;
            for (int o = 0; o < r.length && all; o++) {
                if (o != k) all = min ? RangeOrder.floatsAtMost(r[k], r[o]) : RangeOrder.floatsAtMost(r[o], r[k]);
            }
            if (all) return k;
        }
        return -1;
    }

    /** The operand ordered before every other one by {@code atMost}. */
    private static int least(Range[] r, Order atMost) {
        for (int k = 0; k < r.length; k++) {
            boolean all = true;
            for (int o = 0; o < r.length && all; o++) {
                if (o != k) all = atMost.test(r[k], r[o]);
            }
            if (all) return k;
        }
        return -1;
    }

    /** The operand lying between the other two. */
    private static int median(Range[] r, Order atMost) {
        for (int k = 0; k < 3; k++) {
            Range p = r[(k + 1) % 3], q = r[(k + 2) % 3];
            if ((atMost.test(p, r[k]) && atMost.test(r[k], q)) || (atMost.test(q, r[k]) && atMost.test(r[k], p)))
                return k;
        }
        return -1;
    }

    /** 0 when the value is never NaN and lies in the clamp's classes. */
    private static int inside(Range r, int classes) {
        if (r.empty() || !r.isFloatSize()) return -1;
        int cls = RangeOrder.classes(r);
        return (cls & NOT_NAN) == cls && (cls & ~classes) == 0 ? 0 : -1;
    }

    private interface Order {
        boolean test(Range a, Range b);
    }

    private static void replace(Function fn, AluInstr alu, Src operand, RangeFacts facts) {
        Value result = alu.def();
        Value v = operand.value();
        Value now = v;
        if (!operand.isIdentitySwizzle() || v.numComponents() != result.numComponents()) {
            AluInstr mov =
                    new AluInstr(fn, Op.MOV, result.numComponents(), result.bitSize(), new Value[] {v}, new byte[][] {
                        operand.swizzle()
                    });
            mov.insertBefore(alu);
            now = mov.def();
        }
        facts.replaceAllUses(result, now);
        alu.remove();
    }
}
