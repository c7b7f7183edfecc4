package dev.lathe.ir.analysis.range;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Soundness of every transfer function: for every op and legal size, random operand elements
 * (joins of a few random values, then enlarged at random: more classes, wider intervals, or
 * anything) and random values drawn inside them; the op table's result on those values must
 * lie in the element the transfer function computes. Seeded ({@code -Dlathe.seed}); a failure
 * prints the elements, the values and the result.
 */
class RangeTransferSoundnessTest {
    static final long SEED = Long.getLong("lathe.seed", 20261121L);
    static final int TRIALS = 240;
    static final int DRAWS = 8;

    @TestFactory
    Stream<DynamicTest> everyOpIsSound() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Op op : Op.values()) {
            tests.add(DynamicTest.dynamicTest(op.opName(), () -> {
                long checks = check(op);
                assertTrue(checks > 0, op.opName() + ": nothing checked");
            }));
        }
        return tests.stream();
    }

    /**
     * An op added to the table has a transfer function, or is listed as known only on constants
     * (or as anything, if horizontal): the analysis never falls back to "anything" unnoticed.
     */
    @Test
    void everyOpHasATransferOrIsListedAsAnything() {
        RangeTransfer t = new RangeTransfer();
        List<String> missing = new ArrayList<>();
        for (Op op : Op.values()) {
            int size = sizes(op).get(0);
            try {
                if (op.isHorizontal()) {
                    int n = Math.max(1, op.output().components());
                    Range[][] srcs = new Range[op.numInputs()][];
                    for (int k = 0; k < srcs.length; k++) {
                        srcs[k] = new Range[op.inputComponents(k, n)];
                        java.util.Arrays.fill(srcs[k], Range.top(op.inputBits(k, size)));
                    }
                    t.horizontal(op, size, n, srcs);
                } else {
                    Range[] in = new Range[op.numInputs()];
                    for (int k = 0; k < in.length; k++) in[k] = Range.top(op.inputBits(k, size));
                    t.alu(op, size, in);
                }
            } catch (IllegalStateException e) {
                missing.add(e.getMessage());
            }
            if (RangeTransfer.ON_CONSTANTS_ONLY.contains(op))
                assertTrue(!op.isHorizontal(), op.opName() + " is horizontal: list it in HORIZONTAL_ANYTHING");
            if (RangeTransfer.HORIZONTAL_ANYTHING.contains(op))
                assertTrue(op.isHorizontal(), op.opName() + " is per component: list it in ON_CONSTANTS_ONLY");
        }
        assertTrue(missing.isEmpty(), String.join("\n", missing));
    }

    /** The ops that get more than "anything" for some inputs: the analysis's real coverage. */
    @Test
    void atLeastOneHundredFiftyOpsHaveTransferFunctions() {
        RangeTransfer t = new RangeTransfer();
        Random rnd = new Random(SEED);
        List<String> covered = new ArrayList<>(), anything = new ArrayList<>();
        for (Op op : Op.values()) {
            boolean informative = false;
            for (int size : sizes(op)) {
                for (int trial = 0; trial < 50 && !informative; trial++) {
                    Range[] in = elements(op, size, rnd, new long[op.numInputs()][]);
                    Range out = op.isHorizontal() ? null : t.alu(op, size, in);
                    informative = out != null && !out.isTop();
                }
            }
            if (informative) covered.add(op.opName());
            else anything.add(op.opName());
        }
        assertTrue(covered.size() >= 150, covered.size() + " ops; anything: " + anything);
    }

    static List<Integer> sizes(Op op) {
        return op.hasUnsizedOperands() ? op.legalBitSizeList() : List.of(32);
    }

    /** Runs the trials of one op; returns how many results were checked. */
    static long check(Op op) {
        Random rnd = new Random(SEED * 31 + op.ordinal());
        RangeTransfer t = new RangeTransfer();
        long checks = 0;
        for (int size : sizes(op)) {
            for (int trial = 0; trial < TRIALS; trial++) {
                if (op.isHorizontal()) {
                    checks += horizontal(op, size, rnd, t);
                    continue;
                }
                long[][] seeds = new long[op.numInputs()][];
                Range[] in = elements(op, size, rnd, seeds);
                Range out = t.alu(op, size, in);
                for (int d = 0; d < DRAWS; d++) {
                    long[][] srcs = new long[in.length][1];
                    for (int i = 0; i < in.length; i++) srcs[i][0] = draw(in[i], seeds[i], rnd);
                    long r = op.evaluate(size, 1, srcs)[0];
                    checks++;
                    if (!out.contains(r)) {
                        StringBuilder sb = new StringBuilder(op.opName() + " at " + size + " bits: result "
                                + show(r, op.outputBits(size)) + " is not in " + out + "\n");
                        for (int i = 0; i < in.length; i++) {
                            sb.append("  operand ")
                                    .append(i)
                                    .append(" = ")
                                    .append(show(srcs[i][0], in[i].bits()))
                                    .append(" in ")
                                    .append(in[i])
                                    .append('\n');
                        }
                        fail(sb.toString());
                    }
                }
            }
        }
        return checks;
    }

    /** Horizontal ops: every operand component gets its own element. */
    static long horizontal(Op op, int size, Random rnd, RangeTransfer t) {
        int outComponents = op.output().components() > 0 ? op.output().components() : 4;
        if (op.name().startsWith("VEC")) outComponents = op.numInputs();
        Range[][] in = new Range[op.numInputs()][];
        long[][][] seeds = new long[op.numInputs()][][];
        for (int i = 0; i < in.length; i++) {
            int comps = op.inputComponents(i, outComponents);
            in[i] = new Range[comps];
            seeds[i] = new long[comps][];
            int bits = op.inputBits(i, size);
            for (int c = 0; c < comps; c++) {
                long[][] one = new long[1][];
                in[i][c] = element(bits, rnd, one, 0);
                seeds[i][c] = one[0];
            }
        }
        Range[] out = t.horizontal(op, size, outComponents, in);
        long checks = 0;
        for (int d = 0; d < DRAWS; d++) {
            long[][] srcs = new long[in.length][];
            for (int i = 0; i < in.length; i++) {
                srcs[i] = new long[in[i].length];
                for (int c = 0; c < in[i].length; c++) srcs[i][c] = draw(in[i][c], seeds[i][c], rnd);
            }
            long[] r = op.evaluate(size, outComponents, srcs);
            for (int c = 0; c < outComponents; c++) {
                checks++;
                if (!out[c].contains(r[c])) {
                    fail(op.opName() + " at " + size + " bits: component " + c + " = " + show(r[c], op.outputBits(size))
                            + " is not in " + out[c] + " (operands " + Arrays.deepToString(in) + ")");
                }
            }
        }
        return checks;
    }

    static Range[] elements(Op op, int size, Random rnd, long[][] seeds) {
        Range[] in = new Range[op.numInputs()];
        for (int i = 0; i < in.length; i++) in[i] = element(op.inputBits(i, size), rnd, seeds, i);
        return in;
    }

    /** The join of a few random values, enlarged at random; the values go to {@code seeds[slot]}. */
    static Range element(int bits, Random rnd, long[][] seeds, int slot) {
        int k = 1 + rnd.nextInt(4);
        seeds[slot] = new long[k];
        Range r = Range.bottom(bits);
        for (int j = 0; j < k; j++) {
            seeds[slot][j] = value(bits, rnd);
            r = r.join(Range.constant(bits, seeds[slot][j]));
        }
        int classes = r.classes();
        boolean whole = r.whole();
        long sLo = r.sLo(), sHi = r.sHi(), uLo = r.uLo(), uHi = r.uHi();
        if (rnd.nextInt(10) == 0) return Range.top(bits);
        if (rnd.nextInt(3) == 0) classes |= rnd.nextInt(FloatClass.ALL + 1);
        if (rnd.nextInt(4) == 0) whole = false;
        if (rnd.nextInt(3) == 0) {
            long a = Bits.sext(value(bits, rnd), bits), b = Bits.sext(value(bits, rnd), bits);
            sLo = Math.min(sLo, Math.min(a, b));
            sHi = Math.max(sHi, Math.max(a, b));
        }
        if (rnd.nextInt(3) == 0) {
            long a = Bits.zext(value(bits, rnd), bits), b = Bits.zext(value(bits, rnd), bits);
            uLo = Range.umin(uLo, Range.umin(a, b));
            uHi = Range.umax(uHi, Range.umax(a, b));
        }
        return new Range(bits, false, classes, whole, sLo, sHi, uLo, uHi);
    }

    /** A value inside the element: one of its seeds, or a random candidate that fits. */
    static long draw(Range r, long[] seeds, Random rnd) {
        if (rnd.nextInt(3) > 0) {
            for (int attempt = 0; attempt < 40; attempt++) {
                long v = candidate(r, rnd);
                if (r.contains(v)) return v;
            }
        }
        return seeds[rnd.nextInt(seeds.length)];
    }

    private static long candidate(Range r, Random rnd) {
        int bits = r.bits();
        switch (rnd.nextInt(4)) {
            case 0 -> {
                if (r.isFloatSize()) {
                    int c = rnd.nextInt(FloatClass.COUNT);
                    long[] k = FloatClass.corners(c, bits, false);
                    if (k.length > 0) {
                        if (k.length == 2 && rnd.nextBoolean()) {
                            long lo = Math.min(k[0], k[1]),
                                    hi = Math.max(k[0], k[1]); // same sign: patterns are ordered
                            return lo + (long) (rnd.nextDouble() * (hi - lo));
                        }
                        return k[rnd.nextInt(k.length)];
                    }
                }
                return value(bits, rnd);
            }
            case 1 -> {
                long[] ends = {r.sLo(), r.sHi(), r.uLo(), r.uHi()};
                return Bits.trunc(ends[rnd.nextInt(4)], bits);
            }
            case 2 -> {
                long span = r.sHi() - r.sLo();
                if (span >= 0 && span < Long.MAX_VALUE)
                    return Bits.trunc(r.sLo() + (long) (rnd.nextDouble() * (span + 1.0)), bits);
                return value(bits, rnd);
            }
            default -> {
                return value(bits, rnd);
            }
        }
    }

    /** A random pattern, biased toward edge values of both readings. */
    static long value(int bits, Random rnd) {
        long v;
        boolean floats = FloatClass.isFloatSize(bits);
        switch (rnd.nextInt(floats ? 6 : 4)) {
            case 0 -> {
                long[] edges = {
                    0,
                    1,
                    -1,
                    2,
                    -2,
                    3,
                    7,
                    8,
                    10,
                    31,
                    32,
                    33,
                    255,
                    256,
                    Bits.minSigned(bits),
                    Bits.maxSigned(bits),
                    Bits.minSigned(bits) + 1,
                    Bits.maxSigned(bits) - 1,
                    Bits.mask(bits)
                };
                v = edges[rnd.nextInt(edges.length)];
            }
            case 1 -> v = rnd.nextInt(41) - 20;
            case 2 -> v = 1L << rnd.nextInt(Math.max(1, bits));
            case 3 -> v = rnd.nextLong();
            case 4 -> {
                double[] specials = {
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    2.0,
                    -2.0,
                    0.5,
                    -0.5,
                    3.0,
                    0.25,
                    1e-3,
                    -7.5,
                    100.0,
                    -1000.0,
                    65504.0,
                    Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY,
                    Double.NaN,
                    1e30,
                    -1e30,
                    1e-30,
                    1.5,
                    -1.5,
                    42.0
                };
                v = FloatBits.fromDouble(specials[rnd.nextInt(specials.length)], bits);
            }
            default -> {
                double x = switch (rnd.nextInt(3)) {
                    case 0 -> rnd.nextGaussian() * 4;
                    case 1 -> Math.rint(rnd.nextGaussian() * 50);
                    default -> rnd.nextDouble();
                };
                v = FloatBits.fromDouble(rnd.nextBoolean() ? x : -x, bits);
            }
        }
        return Bits.trunc(v, bits);
    }

    static String show(long v, int bits) {
        String s = String.format("0x%x", Bits.trunc(v, bits));
        if (FloatClass.isFloatSize(bits)) s += " (" + FloatBits.toDouble(v, bits) + ")";
        return s + " = " + Bits.sext(v, bits);
    }
}
