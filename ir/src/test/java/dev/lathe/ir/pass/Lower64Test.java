package dev.lathe.ir.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.OpProgram;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.validate.Validator;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * lower_doubles and lower_int64 against the op table (Java's double arithmetic, {@code Math.fma},
 * {@code Math.floor}, {@code Long.divideUnsigned} …), op by op: every pair of special and boundary
 * operands (zeros, subnormal edges, powers of two and their neighbours, all-ones significands,
 * the largest finite, infinities, NaN; for integers 0, ±1, the extremes, powers of two and
 * their neighbours), then seeded random operands of several kinds. The lowered program runs in
 * the interpreter; a NaN may be any NaN, every other result must have the reference's bits.
 *
 * <p>The random sample is {@value #DEFAULT_SAMPLES} operand sets per op; the long run of
 * {@code docs/RESULTS.md} sets {@code -Dlathe.lower64.samples=1000000}.
 */
class Lower64Test {
    static final int DEFAULT_SAMPLES = 3000;
    static final int SAMPLES = Integer.getInteger("lathe.lower64.samples", DEFAULT_SAMPLES);
    static final int GROUP = 64;

    static final Set<Op> FLOAT_OPS = LowerDoubles.LOWERABLE;
    static final Set<Op> INT_OPS = LowerInt64.LOWERABLE;

    @TestFactory
    Stream<DynamicTest> everyLoweredOpGivesTheOpTablesResult() {
        List<DynamicTest> tests = new ArrayList<>();
        Set<Op> all = EnumSet.copyOf(FLOAT_OPS);
        all.addAll(INT_OPS);
        for (Op op : all) tests.add(DynamicTest.dynamicTest(op.opName() + "@64", () -> check(op)));
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> theLoweredCodeHasNoInstructionOfTheLoweredOps() {
        List<DynamicTest> tests = new ArrayList<>();
        Set<Op> all = EnumSet.copyOf(FLOAT_OPS);
        all.addAll(INT_OPS);
        for (Op op : all) {
            tests.add(DynamicTest.dynamicTest(op.opName() + "@64", () -> {
                Shader s = lowered(op);
                for (Block b : s.functions().get(0).blocks()) {
                    for (Instr i : b.instrs()) {
                        if (i instanceof AluInstr a && a.unsizedBitSize() == 64) {
                            assertTrue(
                                    !FLOAT_OPS.contains(a.op()) && !INT_OPS.contains(a.op()),
                                    op.opName() + " left " + a.opName() + " on 64 bits");
                        }
                    }
                }
            }));
        }
        return tests.stream();
    }

    static void check(Op op) {
        List<long[]> sets = operandSets(op);
        Shader s = lowered(op);
        List<String> wrong = new ArrayList<>();
        int n = sets.size();
        for (int start = 0; start < n && wrong.size() < 10; start += 1 << 16) {
            int count = Math.min(1 << 16, n - start);
            List<long[]> chunk = sets.subList(start, start + count);
            long[] got = run(s, op, chunk);
            for (int k = 0; k < count && wrong.size() < 10; k++) {
                long[] in = chunk.get(k);
                long want = reference(op, in);
                if (!same(op, want, got[k])) wrong.add(describe(op, in, want, got[k]));
            }
        }
        assertTrue(
                wrong.isEmpty(),
                op.opName() + "@64: " + wrong.size() + "+ wrong of " + n + ":\n" + String.join("\n", wrong));
    }

    static boolean same(Op op, long want, long got) {
        if (FLOAT_OPS.contains(op) && Double.isNaN(Double.longBitsToDouble(want)))
            return Double.isNaN(Double.longBitsToDouble(got));
        return want == got;
    }

    static String describe(Op op, long[] in, long want, long got) {
        StringBuilder sb = new StringBuilder(op.opName()).append('(');
        for (int i = 0; i < in.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(show(op.inputBits(i, 64), in[i], FLOAT_OPS.contains(op) && op.inputBits(i, 64) == 64));
        }
        boolean f = FLOAT_OPS.contains(op);
        return sb.append(") = ")
                .append(show(op.outputBits(64), want, f))
                .append(", lowered: ")
                .append(show(op.outputBits(64), got, f))
                .toString();
    }

    static String show(int bits, long v, boolean asFloat) {
        if (bits == 64 && asFloat) return Double.longBitsToDouble(v) + " [0x" + Long.toHexString(v) + "]";
        return bits == 64 ? v + " [0x" + Long.toHexString(v) + "]" : String.valueOf((int) v);
    }

    static long reference(Op op, long[] in) {
        long[][] srcs = new long[in.length][];
        for (int i = 0; i < in.length; i++) srcs[i] = new long[] {in[i]};
        return op.evaluate(64, 1, srcs)[0];
    }

    static Shader lowered(Op op) {
        Shader s = IrParser.parse(op.opName() + ".ir", OpProgram.text(op, 64, GROUP));
        boolean progress = new LowerDoubles().run(s.functions().get(0))
                | new LowerInt64().run(s.functions().get(0));
        assertTrue(progress, op.opName() + ": nothing lowered");
        assertEquals(List.of(), Validator.validate(s));
        return s;
    }

    static long[] run(Shader s, Op op, List<long[]> sets) {
        int n = sets.size(), srcs = op.numInputs();
        int invocations = (n + GROUP - 1) / GROUP * GROUP;
        long[] words = OpProgram.inputWords(sets, srcs, invocations);
        ShaderInputs in =
                new ShaderInputs().setBufferWords("in", words).setBufferWords("out", new long[invocations * 2]);
        ShaderOutputs out = new Interpreter(s).dispatch(in, invocations / GROUP, 1, 1);
        long[] got = new long[n];
        int outBits = op.outputBits(64);
        for (int k = 0; k < n; k++) {
            got[k] = OpProgram.result(out.bufferWord("out", 2 * k), out.bufferWord("out", 2 * k + 1), outBits);
        }
        return got;
    }

    // ---- operands -------------------------------------------------------------------------------

    static List<long[]> operandSets(Op op) {
        boolean f = FLOAT_OPS.contains(op);
        long[][] special = new long[op.numInputs()][];
        for (int i = 0; i < special.length; i++) special[i] = specials(op, i, f);
        List<long[]> sets = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(op.ordinal() * 1_000_003L + 17);
        long pairs = 1;
        for (long[] sp : special) pairs *= sp.length;
        if (pairs <= 20_000) {
            cross(special, 0, new long[special.length], sets);
        } else { // bit-field ops: 20,000 combinations of the special operands
            for (int k = 0; k < 20_000; k++) {
                long[] set = new long[special.length];
                for (int i = 0; i < set.length; i++) set[i] = special[i][rnd.nextInt(special[i].length)];
                sets.add(set);
            }
        }
        for (int k = 0; k < SAMPLES; k++) {
            long[] set = new long[op.numInputs()];
            for (int i = 0; i < set.length; i++) set[i] = random(op, i, f, rnd);
            if (op == Op.FDIV || op == Op.FMOD) ratio(set, rnd);
            if (op == Op.FREM) multiple(set, rnd);
            sets.add(set);
        }
        return sets;
    }

    private static void cross(long[][] special, int i, long[] cur, List<long[]> out) {
        if (i == special.length) {
            out.add(cur.clone());
            return;
        }
        for (long v : special[i]) {
            cur[i] = v;
            cross(special, i + 1, cur, out);
        }
    }

    static long[] specials(Op op, int i, boolean f) {
        int bits = op.inputBits(i, 64);
        if (bits == 32) {
            return new long[] {
                0,
                1,
                2,
                7,
                8,
                15,
                16,
                31,
                32,
                33,
                52,
                53,
                63,
                64,
                65,
                100,
                1022,
                1023,
                1024,
                1074,
                1075,
                2046,
                2100,
                -1,
                -2,
                -52,
                -53,
                -1022,
                -1023,
                -1074,
                -1075,
                -2100,
                0x7fffffff,
                0x80000000L
            };
        }
        List<Long> v = new ArrayList<>();
        if (f) {
            double[] d = {
                0.0,
                -0.0,
                Double.MIN_VALUE,
                -Double.MIN_VALUE,
                2 * Double.MIN_VALUE,
                Double.MIN_NORMAL,
                -Double.MIN_NORMAL,
                Math.nextDown(Double.MIN_NORMAL),
                Double.MAX_VALUE,
                -Double.MAX_VALUE,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                Double.NaN,
                1.0,
                -1.0,
                0.5,
                -0.5,
                1.5,
                -1.5,
                2.5,
                -2.5,
                3.0,
                0.1,
                -0.1,
                Math.nextUp(1.0),
                Math.nextDown(1.0),
                Math.nextDown(2.0),
                0x1p52,
                Math.nextDown(0x1p52),
                Math.nextUp(0x1p52),
                0x1p53 + 2,
                -0x1p52 - 0.5,
                0x1p52 - 0.5,
                4503599627370495.5,
                1e300,
                1e-300,
                0x1p1023,
                0x1p-1022 * 1.5,
                0x1.fffffffffffffp-1,
                0x1.fffffffffffffp0,
                0x1.fffffffffffffp1022,
                0x1.fffffffffffffp-1020,
                3.0e-320,
                Math.PI,
                -Math.E,
                1e16,
                123456789.75
            };
            for (double x : d) v.add(Double.doubleToRawLongBits(x));
            v.add(0x7ff0000000000001L); // a signalling NaN's bits
        } else {
            long[] l = {
                0,
                1,
                -1,
                2,
                3,
                7,
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                Long.MIN_VALUE + 1,
                1L << 32,
                (1L << 32) - 1,
                (1L << 32) + 1,
                1L << 31,
                (1L << 31) - 1,
                1L << 53,
                (1L << 53) + 1,
                1L << 62,
                (1L << 63) + 1,
                -(1L << 32),
                0xffffffffL << 16,
                0x0123456789abcdefL,
                10,
                -10,
                1000000007L,
                -3,
                64,
                65,
                56
            };
            for (long x : l) v.add(x);
        }
        long[] out = new long[v.size()];
        for (int k = 0; k < out.length; k++) out[k] = v.get(k);
        return out;
    }

    static long random(Op op, int i, boolean f, SplittableRandom rnd) {
        int bits = op.inputBits(i, 64);
        if (bits == 32) {
            return switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextInt(-2200, 2200) & 0xffffffffL;
                case 1 -> rnd.nextInt(0, 80);
                default -> rnd.nextInt() & 0xffffffffL;
            };
        }
        if (f) {
            return switch (rnd.nextInt(6)) {
                case 0 -> rnd.nextLong(); // any bits: every exponent, NaNs, infinities
                case 1 -> Double.doubleToRawLongBits((rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(-60, 60)));
                case 2 -> rnd.nextLong(0x0010000000000000L) | (rnd.nextBoolean() ? Long.MIN_VALUE : 0); // subnormal
                case 3 -> Double.doubleToRawLongBits(rnd.nextInt(-1000, 1000) / 4.0); // quarters: ties for rounding
                case 4 ->
                    Double.doubleToRawLongBits(Math.scalb(1.0, rnd.nextInt(-1074, 1024)))
                            + rnd.nextInt(-3, 4); // near powers of two
                default -> Double.doubleToRawLongBits(Math.scalb(1.0 + rnd.nextDouble(), rnd.nextInt(-1080, 1030)));
            };
        }
        return switch (rnd.nextInt(5)) {
            case 0 -> rnd.nextLong();
            case 1 -> rnd.nextLong() >> rnd.nextInt(64);
            case 2 -> rnd.nextLong(-100, 100);
            case 3 -> (1L << rnd.nextInt(64)) + rnd.nextInt(-2, 3);
            default -> rnd.nextLong() >>> rnd.nextInt(64);
        };
    }

    /**
     * Half of the dividends are near a multiple of the divisor (the quotient anywhere from 1 to
     * 2^2000): where a remainder's estimate is most often one off and the loop runs longest.
     */
    private static void multiple(long[] set, SplittableRandom rnd) {
        if (rnd.nextBoolean()) return;
        if (rnd.nextBoolean())
            set[1] |= 0x000ffffffffffff0L | rnd.nextInt(16); // near-all-ones significands: v ≥ t rounds
        double b = Double.longBitsToDouble(set[1]);
        if (Double.isNaN(b) || Double.isInfinite(b) || b == 0) return;
        double a = b * rnd.nextLong(1, 1L << rnd.nextInt(1, 63));
        a = Math.scalb(a, rnd.nextInt(0, 2100));
        if (Double.isInfinite(a)) a = Math.copySign(Double.MAX_VALUE, a);
        for (int k = rnd.nextInt(-3, 4); k != 0; k -= Integer.signum(k)) a = k > 0 ? Math.nextUp(a) : Math.nextDown(a);
        set[0] = Double.doubleToRawLongBits(rnd.nextBoolean() ? a : -a);
    }

    /** Half of the quotients land near the edges: subnormal results, overflow, ratios near one. */
    private static void ratio(long[] set, SplittableRandom rnd) {
        if (rnd.nextBoolean()) return;
        double b = Double.longBitsToDouble(set[1]);
        if (Double.isNaN(b) || Double.isInfinite(b) || b == 0) return;
        double a = switch (rnd.nextInt(3)) {
            case 0 -> b * Math.scalb(1.0 + rnd.nextDouble(), rnd.nextInt(-1090, -1015)); // below the normal range
            case 1 -> b * Math.scalb(1.0 + rnd.nextDouble(), rnd.nextInt(1015, 1030)); // near overflow
            default -> b * (1.0 + (rnd.nextDouble() - 0.5) * 0x1p-40); // near one
        };
        set[0] = Double.doubleToRawLongBits(a);
    }
}
