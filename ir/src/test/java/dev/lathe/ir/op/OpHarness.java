package dev.lathe.ir.op;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Shared plumbing for the op-table tests: evaluating an op on scalars or vectors through
 * {@link Op#evaluate}, failure messages that show op, bit size, inputs and both results in hex,
 * a check counter, and seeded value generators (random patterns plus edge values).
 */
final class OpHarness {
    private OpHarness() {}

    /** Every comparison made through {@link #expect} and friends, over the whole test run. */
    static final AtomicLong CHECKS = new AtomicLong();

    /** Prints how many checks a test class made (classes run one after another in one JVM). */
    static void report(String testClass, long checksBefore) {
        System.out.println("[op tests] " + testClass + ": " + (CHECKS.get() - checksBefore) + " checks");
    }

    static Op op(String name) {
        Op op = Op.byName(name);
        if (op == null) throw new AssertionError("no op named " + name);
        return op;
    }

    /** A hex pattern padded to the bit size, e.g. {@code 0x3f800000}. */
    static String hex(long v, int bits) {
        int digits = Math.max(1, (bits + 3) / 4);
        String h = Long.toHexString(Bits.trunc(v, Math.max(bits, 1)));
        StringBuilder sb = new StringBuilder("0x");
        for (int i = h.length(); i < digits; i++) sb.append('0');
        return sb.append(h).toString();
    }

    static String hexList(Op op, int unsized, long[] in) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < in.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(hex(in[i], bitsOfInput(op, i, unsized)));
        }
        return sb.append(')').toString();
    }

    static String hexVectors(Op op, int unsized, long[][] in) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < in.length; i++) {
            if (i > 0) sb.append(", ");
            int b = bitsOfInput(op, i, unsized);
            sb.append(Arrays.stream(in[i]).mapToObj(v -> hex(v, b)).collect(Collectors.joining(" ", "[", "]")));
        }
        return sb.append(')').toString();
    }

    static int bitsOfInput(Op op, int i, int unsized) {
        int b = op.inputBits(i, unsized);
        return b == 0 ? 64 : b;
    }

    static int bitsOfOutput(Op op, int unsized) {
        int b = op.outputBits(unsized);
        return b == 0 ? 64 : b;
    }

    /** Evaluates a per-component op on one component per source (inputs masked to their sizes). */
    static long eval(Op op, int unsized, long... in) {
        if (op.isHorizontal()) throw new IllegalArgumentException(op.opName() + " is horizontal");
        if (in.length != op.numInputs()) throw new IllegalArgumentException(op.opName() + ": wrong source count");
        long[][] srcs = new long[in.length][];
        for (int i = 0; i < in.length; i++) srcs[i] = new long[] {Bits.trunc(in[i], bitsOfInput(op, i, unsized))};
        return op.evaluate(unsized, 1, srcs)[0];
    }

    /** Evaluates a horizontal op: srcs[i] holds the components of source i. */
    static long[] evalVec(Op op, int unsized, long[][] srcs) {
        int comps = op.output().components();
        long[][] masked = new long[srcs.length][];
        for (int i = 0; i < srcs.length; i++) {
            int b = bitsOfInput(op, i, unsized);
            masked[i] = Arrays.stream(srcs[i]).map(v -> Bits.trunc(v, b)).toArray();
        }
        return op.evaluate(unsized, comps, masked);
    }

    /** Asserts that a per-component op gives {@code expected} on the inputs. */
    static void expect(Op op, int unsized, long expected, long... in) {
        long actual = eval(op, unsized, in);
        expectResult(op, unsized, in, expected, actual, null);
    }

    static void expect(String name, int unsized, long expected, long... in) {
        expect(op(name), unsized, expected, in);
    }

    /** As {@link #expect}, with a note that says where the expectation comes from. */
    static void expectNote(String note, Op op, int unsized, long expected, long... in) {
        long actual = eval(op, unsized, in);
        expectResult(op, unsized, in, expected, actual, note);
    }

    static void expectResult(Op op, int unsized, long[] in, long expected, long actual, String note) {
        CHECKS.incrementAndGet();
        int ob = bitsOfOutput(op, unsized);
        long e = Bits.trunc(expected, ob);
        if (e != actual) {
            throw new AssertionError(op.opName() + " @" + unsized + " " + hexList(op, unsized, in) + ": expected "
                    + hex(e, ob) + " but got " + hex(actual, ob) + (note == null ? "" : " [" + note + "]"));
        }
    }

    static void expectVec(Op op, int unsized, long[][] in, long[] expected) {
        long[] actual = evalVec(op, unsized, in);
        CHECKS.incrementAndGet();
        int ob = bitsOfOutput(op, unsized);
        long[] e = Arrays.stream(expected).map(v -> Bits.trunc(v, ob)).toArray();
        if (!Arrays.equals(e, actual)) {
            throw new AssertionError(op.opName() + " @" + unsized + " " + hexVectors(op, unsized, in) + ": expected "
                    + Arrays.stream(e).mapToObj(v -> hex(v, ob)).collect(Collectors.joining(" ", "[", "]"))
                    + " but got "
                    + Arrays.stream(actual).mapToObj(v -> hex(v, ob)).collect(Collectors.joining(" ", "[", "]")));
        }
    }

    /** A plain assertion that is counted and carries its own message. */
    static void check(boolean ok, Supplier<String> message) {
        CHECKS.incrementAndGet();
        if (!ok) throw new AssertionError(message.get());
    }

    // ---- value generators ----------------------------------------------------------------------

    static final long[] F16_EDGES = {
        0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0xb800, 0x4000, 0xc000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01,
        0x7dff, 0x7fff, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x3bff, 0x3c01, 0x3555,
        0x4248, 0x5640, 0x6800, 0x1400, 0x0200,
    };

    static final long[] F32_EDGES = {
        0x00000000L, 0x80000000L, 0x3f800000L, 0xbf800000L, 0x3f000000L, 0xbf000000L, 0x40000000L, 0xc0000000L,
        0x7f800000L, 0xff800000L, 0x7fc00000L, 0xffc00000L, 0x7f800001L, 0xff800001L, 0x7fffffffL, 0x7fa00000L,
        0x00000001L, 0x80000001L, 0x007fffffL, 0x807fffffL, 0x00800000L, 0x80800000L, 0x7f7fffffL, 0xff7fffffL,
        0x3f7fffffL, 0x3f800001L, 0x3dcccccdL, 0x40400000L, 0xc0600000L, 0x40200000L, 0x4f000000L, 0xcf000000L,
        0x5f000000L, 0xdf000000L, 0x5f800000L, 0x4b800000L, 0x4b800001L, 0x33800000L, 0x477fe000L, 0x477ff000L,
        0x38800000L, 0x33000000L, 0x437f0000L, 0x3effffffL, 0x3fc00000L, 0xbfc00000L, 0x4effffffL, 0xcf000001L,
    };

    static final long[] F64_EDGES = {
        0x0000000000000000L, 0x8000000000000000L, 0x3ff0000000000000L, 0xbff0000000000000L, 0x3fe0000000000000L,
        0xbfe0000000000000L, 0x4000000000000000L, 0xc000000000000000L, 0x7ff0000000000000L, 0xfff0000000000000L,
        0x7ff8000000000000L, 0xfff8000000000000L, 0x7ff0000000000001L, 0xfff0000000000001L, 0x7fffffffffffffffL,
        0x0000000000000001L, 0x8000000000000001L, 0x000fffffffffffffL, 0x800fffffffffffffL, 0x0010000000000000L,
        0x8010000000000000L, 0x7fefffffffffffffL, 0xffefffffffffffffL, 0x3fefffffffffffffL, 0x3ff0000000000001L,
        0x3fb999999999999aL, 0x4008000000000000L, 0x43e0000000000000L, 0xc3e0000000000000L, 0x43f0000000000000L,
        0x41e0000000000000L, 0xc1e0000000000000L, 0x41dfffffffc00000L, 0x4340000000000000L, 0x4340000000000001L,
        0x3ca0000000000000L, 0x36a0000000000000L, 0x47efffffe0000000L, 0x3fdfffffffffffffL, 0x3ff8000000000000L,
    };

    static long[] floatEdges(int bits) {
        return switch (bits) {
            case 16 -> F16_EDGES;
            case 32 -> F32_EDGES;
            case 64 -> F64_EDGES;
            default -> throw new IllegalArgumentException("not a float size: " + bits);
        };
    }

    private static final long[][] INT_EDGES = new long[65][];

    /** Integer edge values of a size: 0, 1, -1, MIN, MAX, MIN+1, MAX-1, powers of two and their neighbours. */
    static long[] intEdges(int bits) {
        long[] cached = INT_EDGES[bits];
        if (cached != null) return cached;
        List<Long> out = new ArrayList<>();
        long m = Bits.mask(bits);
        long[] base = {
            0,
            1,
            2,
            3,
            -1,
            -2,
            Bits.minSigned(bits),
            Bits.maxSigned(bits),
            Bits.minSigned(bits) + 1,
            Bits.maxSigned(bits) - 1,
            0x55555555_55555555L,
            0xaaaaaaaa_aaaaaaaaL,
            7,
            8,
            31,
            32,
            33,
            63,
            64,
            65
        };
        for (long v : base) out.add(v & m);
        for (int i = 0; i < bits; i += Math.max(1, bits / 8)) {
            out.add((1L << i) & m);
            out.add(((1L << i) - 1) & m);
            out.add(((1L << i) + 1) & m);
        }
        long[] r = out.stream().distinct().mapToLong(Long::longValue).toArray();
        INT_EDGES[bits] = r;
        return r;
    }

    /** A random pattern of the size: uniform bits, or an edge value, or a small integer. */
    static long randomInt(SplittableRandom rnd, int bits) {
        long m = Bits.mask(bits);
        return switch (rnd.nextInt(6)) {
            case 0 -> {
                long[] e = intEdges(bits);
                yield e[rnd.nextInt(e.length)];
            }
            case 1 -> (long) rnd.nextInt(-40, 41) & m;
            case 2 -> (rnd.nextLong() >>> rnd.nextInt(64)) & m; // varied magnitudes
            case 3 -> -(rnd.nextLong() >>> rnd.nextInt(64)) & m;
            default -> rnd.nextLong() & m;
        };
    }

    private static final long[][] SMALL_DYADICS = new long[65][];

    /** The values k / 2^j for |k| <= 64, j < 4, as patterns of the size (computed exactly, once). */
    static long[] smallDyadics(int bits) {
        long[] cached = SMALL_DYADICS[bits];
        if (cached != null) return cached;
        List<Long> out = new ArrayList<>();
        for (int k = -64; k <= 64; k++) {
            for (int j = 0; j < 4; j++) out.add(fromDoubleExactly(k / (double) (1 << j), bits));
        }
        long[] r = out.stream().distinct().mapToLong(Long::longValue).toArray();
        SMALL_DYADICS[bits] = r;
        return r;
    }

    /**
     * A random float pattern of the size: uniform bits (any class, NaN payloads included), an
     * edge value, a small dyadic such as 2.5 or -0.375, or a random finite value of moderate
     * magnitude (exponent within 2^+-20, random significand).
     */
    static long randomFloat(SplittableRandom rnd, int bits) {
        long m = Bits.mask(bits);
        switch (rnd.nextInt(8)) {
            case 0:
            case 1: {
                long[] e = floatEdges(bits);
                return e[rnd.nextInt(e.length)];
            }
            case 2: {
                long[] d = smallDyadics(bits);
                return d[rnd.nextInt(d.length)];
            }
            case 3: {
                ExactFloat.Format f = ExactFloat.format(bits);
                long biased = f.bias() + rnd.nextInt(-Math.min(20, f.bias() - 1), Math.min(20, f.bias()) + 1);
                long frac = rnd.nextLong() & f.fracMask();
                long sign = rnd.nextBoolean() ? f.signBit() : 0;
                return sign | (biased << (f.precision() - 1)) | frac;
            }
            default:
                return rnd.nextLong() & m;
        }
    }

    /** A double that is exactly representable in the size, as a pattern of that size. */
    static long fromDoubleExactly(double v, int bits) {
        if (v == 0)
            return Double.doubleToRawLongBits(v) < 0 ? ExactFloat.format(bits).signBit() : 0;
        return ExactFloat.roundNearest(new BigDecimal(v), bits);
    }

    static long f32(float f) {
        return Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    static float asF32(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    static long f64(double d) {
        return Double.doubleToRawLongBits(d);
    }

    static double asF64(long bits) {
        return Double.longBitsToDouble(bits);
    }

    /** A Java float result as the op table must write it: NaN becomes the canonical NaN. */
    static long canon32(float f) {
        return f != f ? 0x7fc00000L : f32(f);
    }

    static long canon64(double d) {
        return d != d ? 0x7ff8000000000000L : f64(d);
    }
}
