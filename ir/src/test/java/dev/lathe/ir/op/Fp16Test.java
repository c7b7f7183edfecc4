package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpHarness.check;
import static dev.lathe.ir.op.OpHarness.expect;
import static dev.lathe.ir.op.OpHarness.f32;
import static dev.lathe.ir.op.OpHarness.f64;
import static dev.lathe.ir.op.OpHarness.hex;
import static dev.lathe.ir.op.OpHarness.op;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * binary16: hand-computed encodings, exhaustive widening against a decoder written here,
 * narrowing against an exact integer rounding ({@link ExactFloat}), and the f16 arithmetic ops
 * (+ - * / sqrt fma, rounding ops, comparisons, min/max) against exact BigDecimal / BigInteger
 * references rounded once to the nearest half, ties to even.
 */
@ExtendWith(CountChecks.class)
class Fp16Test {

    static final int PAIRS = 20000;

    // ---- an independent decoder ------------------------------------------------------------------

    /** The f32 pattern of a half, written field by field (NaN gives the canonical f32 NaN). */
    static long halfToF32Bits(int h) {
        long s = (h >>> 15) & 1;
        int e = (h >>> 10) & 0x1f;
        int m = h & 0x3ff;
        if (e == 31) return m == 0 ? (s << 31) | 0x7f800000L : 0x7fc00000L;
        if (e == 0) {
            if (m == 0) return s << 31;
            int shift = 0;
            while ((m & 0x400) == 0) {
                m <<= 1;
                shift++;
            }
            m &= 0x3ff;
            e = 1 - shift;
        }
        return (s << 31) | ((long) (e - 15 + 127) << 23) | ((long) m << 13);
    }

    /** The f64 pattern of a half, field by field. */
    static long halfToF64Bits(int h) {
        long s = (h >>> 15) & 1;
        int e = (h >>> 10) & 0x1f;
        long m = h & 0x3ff;
        if (e == 31) return m == 0 ? (s << 63) | 0x7ff0000000000000L : 0x7ff8000000000000L;
        if (e == 0) {
            if (m == 0) return s << 63;
            int shift = 0;
            while ((m & 0x400) == 0) {
                m <<= 1;
                shift++;
            }
            m &= 0x3ff;
            e = 1 - shift;
        }
        return (s << 63) | ((long) (e - 15 + 1023) << 52) | (m << 42);
    }

    // ---- hand-computed encodings -------------------------------------------------------------------

    @Test
    void handComputedEncodings() {
        // value -> nearest half (ties to even), through Fp16 and through f2f16 from f64 and f32
        Object[][] cases = {
            {1.0, 0x3c00},
            {-2.0, 0xc000},
            {0.5, 0x3800},
            {65504.0, 0x7bff},
            {-65504.0, 0xfbff},
            {65519.99, 0x7bff},
            {65520.0, 0x7c00},
            {-65520.0, 0xfc00},
            {1e6, 0x7c00},
            {0x1p-24, 0x0001},
            {-0x1p-24, 0x8001},
            {0x1p-25, 0x0000},
            {-0x1p-25, 0x8000}, // 2^-25 ties to 0
            {0x1.000002p-25, 0x0001},
            {1.5 * 0x1p-24, 0x0002},
            {2.5 * 0x1p-24, 0x0002},
            {3.5 * 0x1p-24, 0x0004},
            {0x1p-14, 0x0400},
            {1023 * 0x1p-24, 0x03ff},
            {0x1p-14 - 0x1p-26, 0x0400},
            {2048.0, 0x6800},
            {2049.0, 0x6800},
            {2050.0, 0x6801},
            {2051.0, 0x6802},
            {2053.0, 0x6802},
            {2055.0, 0x6804},
            {1.0 + 0x1p-11, 0x3c00},
            {1.0 + 3 * 0x1p-11, 0x3c02},
            {1.0 + 0x1p-10, 0x3c01},
            {0.1, 0x2e66},
            {1.0 / 3, 0x3555},
            {Math.PI, 0x4248},
            {100.0, 0x5640},
            {-0.0, 0x8000},
            {0.0, 0x0000},
            {Double.POSITIVE_INFINITY, 0x7c00},
            {Double.NEGATIVE_INFINITY, 0xfc00},
            {Double.NaN, 0x7e00},
            {Double.MIN_VALUE, 0x0000},
            {-Double.MAX_VALUE, 0xfc00},
        };
        for (Object[] c : cases) {
            double d = (Double) c[0];
            int h = (Integer) c[1];
            check(
                    Fp16.fromDouble(d) == h,
                    () -> "Fp16.fromDouble(" + d + ") = " + hex(Fp16.fromDouble(d), 16) + ", expected " + hex(h, 16));
            expect("f2f16", 64, h, f64(d));
            expect("f2f16_rtne", 64, h, f64(d));
            float f = (float) d;
            if (f == d || Double.isNaN(d)) {
                expect("f2f16", 32, h, f32(f));
            }
            // and through the exact reference, so the reference is checked against hand values too
            check(
                    ExactFloat.convert(f64(d), 64, 16, ExactFloat.Mode.NEAREST_EVEN) == h,
                    () -> "reference rounding of " + d + " is not " + hex(h, 16));
        }
        // half -> value
        check(Fp16.toDouble(0x0001) == 0x1p-24, () -> "0x0001 is not 2^-24");
        check(Fp16.toDouble(0x3c00) == 1.0, () -> "0x3c00 is not 1");
        check(Fp16.toDouble(0x7bff) == 65504.0, () -> "0x7bff is not 65504");
        check(Fp16.toDouble(0x03ff) == 1023 * 0x1p-24, () -> "0x03ff is not 1023 * 2^-24");
        check(Fp16.toDouble(0x0400) == 0x1p-14, () -> "0x0400 is not 2^-14");
        check(Fp16.toDouble(0xfc00) == Double.NEGATIVE_INFINITY, () -> "0xfc00 is not -inf");
        check(Double.isNaN(Fp16.toDouble(0x7c01)), () -> "0x7c01 is not NaN");
        check(Fp16.isNaN(0xfe00) && !Fp16.isNaN(0x7c00), () -> "Fp16.isNaN");
        expect("f2f32", 16, 0x3f800000L, 0x3c00);
        expect("f2f32", 16, 0x477fe000L, 0x7bff); // 65504
        expect("f2f32", 16, 0x33800000L, 0x0001); // 2^-24
        expect("f2f32", 16, 0x387fc000L, 0x03ff); // largest subnormal
        expect("f2f32", 16, 0xff800000L, 0xfc00);
        expect("f2f32", 16, 0x7fc00000L, 0xfe01); // NaN: canonical f32 NaN
        expect("f2f64", 16, 0x3e70000000000000L, 0x0001);
    }

    @Test
    void towardZeroConversion() {
        // f2f16_rtz: truncate the significand; finite values stay finite (65504 at most)
        long[][] cases = {
            {f32(65519f), 0x7bff},
            {f32(65520f), 0x7bff},
            {f32(1e6f), 0x7bff},
            {f32(-1e6f), 0xfbff},
            {f32(Float.MAX_VALUE), 0x7bff},
            {0x7f800000L, 0x7c00},
            {0xff800000L, 0xfc00},
            {0x7fc00001L, 0x7e00},
            {f32(2051f), 0x6801},
            {f32(-2051f), 0xe801},
            {f32(2049f), 0x6800},
            {f32(1.9990234f), 0x3fff},
            {f32(0x1p-24f), 0x0001},
            {f32(0x1.fffffep-24f), 0x0001},
            {f32(0x1.fffffep-25f), 0x0000},
            {f32(-0x1p-26f), 0x8000},
            {f32(0x1p-14f), 0x0400},
            {f32(0x1.fffffep-15f), 0x03ff},
            {0x80000000L, 0x8000},
        };
        for (long[] c : cases) expect("f2f16_rtz", 32, c[1], c[0]);
        expect("f2f16_rtz", 64, 0x7bff, f64(65535.99));
        expect("f2f16_rtz", 64, 0x3555, f64(1.0 / 3));
        expect("f2f16_rtz", 64, 0x2e66, f64(0.1));
        expect("f2f16", 64, 0x2e66, f64(0.1));
        expect("f2f16_rtz", 64, 0x3bff, f64(0.99999));
        expect("f2f16", 64, 0x3c00, f64(0.99999));
    }

    // ---- exhaustive over all 65536 halves ---------------------------------------------------------

    @Test
    void widenEveryHalfExhaustively() {
        Op f2f32 = op("f2f32"),
                f2f64 = op("f2f64"),
                back = op("f2f16"),
                unpackX = op("unpack_half_2x16_split_x"),
                unpackY = op("unpack_half_2x16_split_y");
        for (int h = 0; h < 0x10000; h++) {
            long w = halfToF32Bits(h);
            OpHarness.expect(f2f32, 16, w, h);
            OpHarness.expect(f2f64, 16, halfToF64Bits(h), h);
            OpHarness.expect(unpackX, 0, w, h | 0x12340000L);
            OpHarness.expect(unpackY, 0, w, ((long) h << 16) | 0xabcd);
            // narrowing the exact widened value gives the half back (NaNs: canonical)
            long expectedBack = Fp16.isNaN(h) ? 0x7e00 : h;
            OpHarness.expectNote("round trip", back, 32, expectedBack, w);
            OpHarness.expectNote("round trip", back, 64, expectedBack, halfToF64Bits(h));
        }
    }

    @Test
    void roundingOpsOnEveryHalf() {
        Op floor = op("ffloor"),
                ceil = op("fceil"),
                trunc = op("ftrunc"),
                rint = op("fround_even"),
                sqrt = op("fsqrt"),
                neg = op("fneg"),
                abs = op("fabs"),
                isnan = op("fisnan"),
                fin = op("fisfinite"),
                fsign = op("fsign");
        for (int h = 0; h < 0x10000; h++) {
            OpHarness.expectNote("exact sqrt", sqrt, 16, ExactFloat.sqrt(h, 16), h);
            OpHarness.expect(neg, 16, h ^ 0x8000, h);
            OpHarness.expect(abs, 16, h & 0x7fff, h);
            OpHarness.expect(isnan, 16, ExactFloat.isNaN(h, 16) ? 1 : 0, h);
            OpHarness.expect(fin, 16, ExactFloat.isFinite(h, 16) ? 1 : 0, h);
            if (!ExactFloat.isFinite(h, 16) || ExactFloat.isZero(h, 16)) {
                long same = ExactFloat.isNaN(h, 16) ? 0x7e00 : h;
                for (Op o : new Op[] {floor, ceil, trunc, rint}) OpHarness.expect(o, 16, same, h);
                continue;
            }
            BigDecimal x = ExactFloat.exact(h, 16);
            boolean neg0 = ExactFloat.isNegative(h, 16); // an integral result of 0 keeps the sign
            OpHarness.expect(
                    floor,
                    16,
                    ExactFloat.round(x.setScale(0, RoundingMode.FLOOR), 16, ExactFloat.Mode.NEAREST_EVEN, neg0),
                    h);
            OpHarness.expect(
                    ceil,
                    16,
                    ExactFloat.round(x.setScale(0, RoundingMode.CEILING), 16, ExactFloat.Mode.NEAREST_EVEN, neg0),
                    h);
            OpHarness.expect(
                    trunc,
                    16,
                    ExactFloat.round(x.setScale(0, RoundingMode.DOWN), 16, ExactFloat.Mode.NEAREST_EVEN, neg0),
                    h);
            OpHarness.expect(
                    rint,
                    16,
                    ExactFloat.round(x.setScale(0, RoundingMode.HALF_EVEN), 16, ExactFloat.Mode.NEAREST_EVEN, neg0),
                    h);
            OpHarness.expect(fsign, 16, neg0 ? 0xbc00 : 0x3c00, h);
        }
        // sqrt: hand-computed
        expect("fsqrt", 16, 0x4000, 0x4400); // sqrt(4) = 2
        expect("fsqrt", 16, 0x3da8, 0x4000); // sqrt(2) = 1.4142 -> 1.4140625 (0x3da8)
        expect("fsqrt", 16, 0x0c00, 0x0001); // sqrt(2^-24) = 2^-12
        expect("fsqrt", 16, 0x8000, 0x8000);
        expect("fsqrt", 16, 0x7e00, 0xbc00);
        expect("ffloor", 16, 0xbc00, 0xb800); // floor(-0.5) = -1
        expect("fceil", 16, 0x8000, 0xb800); // ceil(-0.5) = -0
        expect("fround_even", 16, 0x4000, 0x4100); // rint(2.5) = 2
    }

    // ---- arithmetic against exact references -------------------------------------------------------

    interface Ref2 {
        long apply(long a, long b);
    }

    static void pairs(String name, Ref2 ref) {
        Op op = op(name);
        for (long a : OpHarness.F16_EDGES) {
            for (long b : OpHarness.F16_EDGES) OpHarness.expectNote("exact reference", op, 16, ref.apply(a, b), a, b);
        }
        SplittableRandom rnd = new SplittableRandom(name.hashCode());
        for (int i = 0; i < PAIRS; i++) {
            long a = OpHarness.randomFloat(rnd, 16);
            long b = i % 3 == 0
                    ? (a + rnd.nextInt(-3, 4)) & 0xffff ^ (rnd.nextBoolean() ? 0x8000 : 0)
                    : OpHarness.randomFloat(rnd, 16);
            OpHarness.expectNote("exact reference", op, 16, ref.apply(a, b), a, b);
        }
    }

    @Test
    void faddAgainstExactReference() {
        pairs("fadd", (a, b) -> ExactFloat.add(a, b, 16));
        // hand-computed: 2048 + 1 ties to even (2048), 2048 + 3 -> 2052, 65504 + 16 ties to inf (even)
        expect("fadd", 16, 0x6800, 0x6800, 0x3c00);
        expect("fadd", 16, 0x6802, 0x6800, 0x4200);
        expect("fadd", 16, 0x7c00, 0x7bff, 0x4c00);
        expect("fadd", 16, 0x7bff, 0x7bff, 0x4bfc); // 65504 + 15.97 stays below the tie
        expect("fadd", 16, 0x0000, 0x3c00, 0xbc00); // 1 - 1 = +0
        expect("fadd", 16, 0x8000, 0x8000, 0x8000); // -0 + -0 = -0
        expect("fadd", 16, 0x0002, 0x0001, 0x0001); // subnormals add exactly
        expect("fadd", 16, 0x7e00, 0x7c00, 0xfc00);
    }

    @Test
    void fsubAgainstExactReference() {
        pairs("fsub", (a, b) -> ExactFloat.sub(a, b, 16));
        expect("fsub", 16, 0x0000, 0x3c00, 0x3c00);
        expect("fsub", 16, 0x8000, 0x8000, 0x0000);
    }

    @Test
    void fmulAgainstExactReference() {
        pairs("fmul", (a, b) -> ExactFloat.mul(a, b, 16));
        expect("fmul", 16, 0x0000, 0x0001, 0x3800); // 2^-25 ties to even: +0
        expect("fmul", 16, 0x0002, 0x0001, 0x3e00); // 1.5 * 2^-24 ties to even: 2 * 2^-24
        expect("fmul", 16, 0x8000, 0x8001, 0x3400); // -2^-26 rounds to -0
        expect("fmul", 16, 0x7c00, 0x5c00, 0x5c00); // 256 * 256 = 65536: inf
        expect("fmul", 16, 0x7e00, 0x0000, 0x7c00); // 0 * inf
        expect("fmul", 16, 0x3c01, 0x3c01, 0x3c00); // (1 + 2^-10) * 1
        expect("fmul", 16, 0x3c02, 0x3c01, 0x3c01); // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9
    }

    @Test
    void fdivAgainstExactReference() {
        pairs("fdiv", (a, b) -> ExactFloat.div(a, b, 16));
        expect("fdiv", 16, 0x3555, 0x3c00, 0x4200); // 1/3
        expect("fdiv", 16, 0x7c00, 0x3c00, 0x0000); // 1/0
        expect("fdiv", 16, 0xfc00, 0x3c00, 0x8000); // 1/-0
        expect("fdiv", 16, 0x7e00, 0x0000, 0x0000); // 0/0
        expect("fdiv", 16, 0x8000, 0x3c00, 0xfc00); // 1/-inf
        expect("fdiv", 16, 0x0001, 0x0001, 0x3c00);
        expect("fdiv", 16, 0x0000, 0x0001, 0x4000); // 2^-25 ties to even: +0
        expect("fdiv", 16, 0x7bff, 0x7bff, 0x3c00);
    }

    @Test
    void ffmaAgainstExactReference() {
        Op op = op("ffma");
        SplittableRandom rnd = new SplittableRandom(16);
        long[] e = OpHarness.F16_EDGES;
        for (int i = 0; i < PAIRS; i++) {
            long a, b, c;
            if (i % 4 == 0) {
                a = e[rnd.nextInt(e.length)];
                b = e[rnd.nextInt(e.length)];
                c = e[rnd.nextInt(e.length)];
            } else {
                a = OpHarness.randomFloat(rnd, 16);
                b = OpHarness.randomFloat(rnd, 16);
                if (i % 4 == 1) {
                    // c close to -a*b: the fused result keeps the low product bits
                    long p = ExactFloat.mul(a, b, 16);
                    c = ((p + rnd.nextInt(-2, 3)) & 0xffff) ^ 0x8000;
                } else {
                    c = OpHarness.randomFloat(rnd, 16);
                }
            }
            OpHarness.expectNote("exact a*b+c", op, 16, ExactFloat.fma(a, b, c, 16), a, b, c);
        }
        // hand-computed: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20 = 2^-9 * (1 + 2^-11): a tie, to even -> 2^-9
        expect("ffma", 16, 0x1800, 0x3c01, 0x3c01, 0xbc00);
        // (1 + 2^-10) * (1 - 2^-11) - 1 = 2^-11 - 2^-21 = 2^-11 - 2 ulps: exact (0x0ffe); unfused, the product
        // rounds to 1 and the result is 0
        expect("ffma", 16, 0x0ffe, 0x3c01, 0x3bff, 0xbc00);
        expect("fadd", 16, 0x0000, ExactFloat.mul(0x3c01, 0x3bff, 16), 0xbc00);
        expect("ffma", 16, 0x0000, 0x3c00, 0x3c00, 0xbc00); // 1*1 - 1 = +0
        expect("ffma", 16, 0x8000, 0x8000, 0x3c00, 0x8000); // -0*1 + -0 = -0
        expect("ffma", 16, 0x7e00, 0x7c00, 0x0000, 0x3c00); // inf * 0 + 1 = NaN
        expect("ffma", 16, 0x7bfe, 0x5bff, 0x5bff, 0x0000); // 255.875^2 = 65472.015625 -> 65472
    }

    // ---- the other float ops at 16 bits: compositions of exact steps --------------------------------

    static final long ONE = 0x3c00;

    /** Exact floor of a half (NaN canonical, inf and zeros unchanged). */
    static long floorHalf(long h) {
        if (ExactFloat.isNaN(h, 16)) return 0x7e00;
        if (!ExactFloat.isFinite(h, 16) || ExactFloat.isZero(h, 16)) return h;
        BigDecimal f = ExactFloat.exact(h, 16).setScale(0, RoundingMode.FLOOR);
        return ExactFloat.round(f, 16, ExactFloat.Mode.NEAREST_EVEN, ExactFloat.isNegative(h, 16));
    }

    /** A double rounded once to a half (the README's rule for transcendentals), NaN canonical. */
    static long half(double d) {
        if (Double.isNaN(d)) return 0x7e00;
        if (Double.isInfinite(d)) return d > 0 ? 0x7c00 : 0xfc00;
        if (d == 0) return Double.doubleToRawLongBits(d) < 0 ? 0x8000 : 0;
        return ExactFloat.roundNearest(new BigDecimal(d), 16);
    }

    static double dv(long h) {
        return ExactFloat.approx(h, 16);
    }

    static long fremRef(long a, long b) {
        if (ExactFloat.isNaN(a, 16) || ExactFloat.isNaN(b, 16) || ExactFloat.isInf(a, 16) || ExactFloat.isZero(b, 16))
            return 0x7e00;
        if (ExactFloat.isInf(b, 16) || ExactFloat.isZero(a, 16)) return a;
        BigDecimal r = ExactFloat.exact(a, 16).remainder(ExactFloat.exact(b, 16)); // exact, sign of a
        return ExactFloat.round(r, 16, ExactFloat.Mode.NEAREST_EVEN, ExactFloat.isNegative(a, 16));
    }

    @Test
    void otherFloatOpsAtHalfPrecision() {
        SplittableRandom rnd = new SplittableRandom(1617);
        long[] e = OpHarness.F16_EDGES;
        for (int i = 0; i < PAIRS; i++) {
            long a = i % 3 == 0 ? e[rnd.nextInt(e.length)] : OpHarness.randomFloat(rnd, 16);
            long b = i % 3 == 1 ? e[rnd.nextInt(e.length)] : OpHarness.randomFloat(rnd, 16);
            long c = OpHarness.randomFloat(rnd, 16);
            // compositions of correctly rounded steps, as the README defines them
            OpHarness.expectNote("1 / a", op("frcp"), 16, ExactFloat.div(ONE, a, 16), a);
            long fmulz = ExactFloat.isZero(a, 16) || ExactFloat.isZero(b, 16) ? 0 : ExactFloat.mul(a, b, 16);
            OpHarness.expectNote("0 * x = +0", op("fmulz"), 16, fmulz, a, b);
            long lrp = ExactFloat.add(ExactFloat.mul(a, ExactFloat.sub(ONE, c, 16), 16), ExactFloat.mul(b, c, 16), 16);
            OpHarness.expectNote("a*(1-c) + b*c", op("flrp"), 16, lrp, a, b, c);
            long mod = ExactFloat.sub(a, ExactFloat.mul(b, floorHalf(ExactFloat.div(a, b, 16)), 16), 16);
            OpHarness.expectNote("a - b*floor(a/b)", op("fmod"), 16, mod, a, b);
            OpHarness.expectNote("a - floor(a)", op("ffract"), 16, ExactFloat.sub(a, floorHalf(a), 16), a);
            OpHarness.expectNote("exact remainder", op("frem"), 16, fremRef(a, b), a, b);
            long[] va = {a, b, c, OpHarness.randomFloat(rnd, 16)}, vb = new long[4];
            for (int k = 0; k < 4; k++) vb[k] = OpHarness.randomFloat(rnd, 16);
            long acc = ExactFloat.mul(va[0], vb[0], 16);
            for (int k = 1; k < 4; k++) {
                acc = ExactFloat.add(acc, ExactFloat.mul(va[k], vb[k], 16), 16);
                int n = k + 1;
                OpHarness.expectVec(
                        op("fdot" + n), 16, new long[][] {Arrays.copyOf(va, n), Arrays.copyOf(vb, n)}, new long[] {acc
                        });
                if (k == 2) {
                    long ph = ExactFloat.add(acc, vb[3], 16);
                    OpHarness.expectVec(op("fdph"), 16, new long[][] {Arrays.copyOf(va, 3), vb}, new long[] {ph});
                }
            }
            // selections and clamps
            double x = dv(a);
            long sat = Double.isNaN(x) || x <= 0 ? 0 : x >= 1 ? ONE : a;
            OpHarness.expect(op("fsat"), 16, sat, a);
            long satS = Double.isNaN(x) || x <= -1 ? 0xbc00 : x >= 1 ? ONE : a;
            OpHarness.expect(op("fsat_signed"), 16, satS, a);
            long pos = Double.isNaN(x) || x <= 0 ? 0 : a;
            OpHarness.expect(op("fclamp_pos"), 16, pos, a);
            OpHarness.expect(op("fcsel"), 16, x != 0 ? b : c, a, b, c);
            // transcendentals: StrictMath in double, rounded once
            OpHarness.expectNote("StrictMath, rounded once", op("fexp2"), 16, half(StrictMath.pow(2.0, x)), a);
            OpHarness.expectNote("StrictMath, rounded once", op("fsin"), 16, half(StrictMath.sin(x)), a);
            OpHarness.expectNote("StrictMath, rounded once", op("fcos"), 16, half(StrictMath.cos(x)), a);
            OpHarness.expectNote("StrictMath, rounded once", op("fpow"), 16, half(StrictMath.pow(x, dv(b))), a, b);
            OpHarness.expectNote("1/sqrt in double, rounded once", op("frsq"), 16, half(1.0 / Math.sqrt(x)), a);
            // ldexp: exact a * 2^k rounded once
            int k = rnd.nextInt(4) == 0 ? rnd.nextInt() : rnd.nextInt(-45, 45);
            long ld;
            if (ExactFloat.isNaN(a, 16)) ld = 0x7e00;
            else if (!ExactFloat.isFinite(a, 16) || ExactFloat.isZero(a, 16)) ld = a;
            else
                ld = ExactFloat.round(
                        ExactFloat.scaleByPowerOfTwo(ExactFloat.exact(a, 16), Math.max(-100, Math.min(100, k))),
                        16,
                        ExactFloat.Mode.NEAREST_EVEN,
                        ExactFloat.isNegative(a, 16));
            OpHarness.expectNote("exact a * 2^" + k, op("ldexp"), 16, ld, a, k & 0xffffffffL);
            // flog2: specials exact; otherwise within half an ulp of log2 (the rounding of a double
            // that itself differs from log(x)/log(2) in the last double bits)
            long lg = OpHarness.eval(op("flog2"), 16, a);
            if (Double.isNaN(x)
                    || x < 0
                    || x == 0
                    || Double.isInfinite(x)
                    || x == Math.scalb(1.0, Math.getExponent(x))) {
                long want = Double.isNaN(x) || x < 0
                        ? 0x7e00
                        : x == 0 ? 0xfc00 : Double.isInfinite(x) ? 0x7c00 : half(Math.getExponent(x));
                OpHarness.expectResult(op("flog2"), 16, new long[] {a}, want, lg, "log2 special / power of two");
            } else {
                double ref = StrictMath.log(x) / StrictMath.log(2.0);
                long r = half(ref);
                check(
                        lg == r || Math.abs(dv(lg) - ref) <= Math.abs(dv(r) - ref) + 1e-12,
                        () -> "flog2 @16 (" + hex(a, 16) + "): got " + hex(lg, 16) + ", log2 = " + ref + " rounds to "
                                + hex(r, 16));
            }
        }
        // the 0 * inf case that a separately computed 2^k would turn into NaN
        expect("ldexp", 16, 0x0000, 0x0000, 2000);
        expect("ldexp", 16, 0x8000, 0x8000, 0x7fffffffL);
        expect("ldexp", 16, 0x7c00, 0x7c00, 0x80000000L);
        expect("ldexp", 16, 0x7c00, 0x3c00, 16); // 2^16 overflows
        expect("ldexp", 16, 0x0001, 0x3c00, 0xffffffe8L); // 2^-24
        expect("ldexp", 16, 0x0000, 0x3c00, 0xffffffe7L); // 2^-25 ties to even: 0
        expect("ldexp", 16, 0x0002, 0x3e00, 0xffffffe8L); // 1.5 * 2^-24 ties to even: 2 * 2^-24
        expect("ldexp", 16, 0x0001, 0x3e00, 0xffffffe7L); // 0.75 * 2^-24 rounds to 2^-24
    }

    // ---- comparisons and min/max at 16 bits ---------------------------------------------------------

    @Test
    void comparisonsAndMinMax() {
        SplittableRandom rnd = new SplittableRandom(1616);
        Op flt = op("flt"),
                fge = op("fge"),
                feq = op("feq"),
                fneu = op("fneu"),
                fltu = op("fltu"),
                fgeu = op("fgeu"),
                fequ = op("fequ"),
                fneo = op("fneo"),
                funord = op("funord"),
                ford = op("ford"),
                fmin = op("fmin"),
                fmax = op("fmax");
        for (int i = 0; i < PAIRS; i++) {
            long a = OpHarness.randomFloat(rnd, 16);
            long b = i % 4 == 0 ? a ^ (rnd.nextBoolean() ? 0x8000 : 0) : OpHarness.randomFloat(rnd, 16);
            double x = ExactFloat.approx(a, 16), y = ExactFloat.approx(b, 16);
            boolean un = Double.isNaN(x) || Double.isNaN(y);
            OpHarness.expect(flt, 16, x < y ? 1 : 0, a, b);
            OpHarness.expect(fge, 16, x >= y ? 1 : 0, a, b);
            OpHarness.expect(feq, 16, x == y ? 1 : 0, a, b);
            OpHarness.expect(fneu, 16, x != y ? 1 : 0, a, b);
            OpHarness.expect(fltu, 16, un || x < y ? 1 : 0, a, b);
            OpHarness.expect(fgeu, 16, un || x >= y ? 1 : 0, a, b);
            OpHarness.expect(fequ, 16, un || x == y ? 1 : 0, a, b);
            OpHarness.expect(fneo, 16, !un && x != y ? 1 : 0, a, b);
            OpHarness.expect(funord, 16, un ? 1 : 0, a, b);
            OpHarness.expect(ford, 16, un ? 0 : 1, a, b);
            long min, max;
            if (Double.isNaN(x) && Double.isNaN(y)) {
                min = max = 0x7e00;
            } else if (Double.isNaN(x)) {
                min = max = b;
            } else if (Double.isNaN(y)) {
                min = max = a;
            } else if (x == y) { // equal values: only the zeros differ in bits; -0 < +0
                boolean an = (a & 0x8000) != 0;
                min = an ? a : b;
                max = an ? b : a;
            } else {
                min = x < y ? a : b;
                max = x < y ? b : a;
            }
            OpHarness.expect(fmin, 16, min, a, b);
            OpHarness.expect(fmax, 16, max, a, b);
        }
    }

    // ---- fquantize2f16 -----------------------------------------------------------------------------

    @Test
    void quantizeToHalfFlushesSubnormals() {
        // hand-computed
        expect("fquantize2f16", 32, 0x3f800000L, 0x3f800000L);
        expect("fquantize2f16", 32, 0x3eaaa000L, f32(1f / 3)); // 1/3 -> 0x3555 -> 0.33325195
        expect("fquantize2f16", 32, 0x477fe000L, f32(65504f));
        expect("fquantize2f16", 32, 0x7f800000L, f32(65520f)); // rounds to inf
        expect("fquantize2f16", 32, 0xff800000L, f32(-1e9f));
        expect("fquantize2f16", 32, 0x38800000L, f32(0x1p-14f)); // smallest normal half stays
        expect("fquantize2f16", 32, 0x00000000L, f32(0x1p-15f)); // a half subnormal: flushed
        expect("fquantize2f16", 32, 0x80000000L, f32(-0x1p-20f)); // flushed, sign kept
        expect("fquantize2f16", 32, 0x00000000L, f32(0x1p-24f));
        expect("fquantize2f16", 32, 0x00000000L, f32(Float.MIN_VALUE));
        expect("fquantize2f16", 32, 0x7fc00000L, 0xffc00001L);
        expect("fquantize2f16", 32, 0x45002000L, f32(2049.1f)); // 2049.1 -> 2050
        // rounding comes first: just below 2^-14 rounds up to the smallest normal, which is kept
        expect("fquantize2f16", 32, 0x38800000L, f32(0x1.ffep-15f));

        Op op = op("fquantize2f16");
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < PAIRS; i++) {
            long a;
            switch (i % 4) {
                case 0 -> a = OpHarness.randomFloat(rnd, 32);
                case 1 -> a = f32((float) ((rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(-28, 18))));
                case 2 ->
                    a = (rnd.nextLong() & 0x807fe000L)
                            | 0x00001000L
                            | ((long) rnd.nextInt(96, 145) << 23); // exact ties
                default -> a = OpHarness.F32_EDGES[rnd.nextInt(OpHarness.F32_EDGES.length)];
            }
            long h = ExactFloat.convert(a, 32, 16, ExactFloat.Mode.NEAREST_EVEN);
            if ((h & 0x7c00) == 0) h &= 0x8000; // flush subnormal halves, keep the sign
            long expected = halfToF32Bits((int) h);
            OpHarness.expectNote("round to half, flush, widen", op, 32, expected, a);
        }
    }

    // ---- narrowing against the exact reference -----------------------------------------------------

    @Test
    void narrowingToHalfIsCorrectlyRounded() {
        Op f2f16 = op("f2f16"), rtne = op("f2f16_rtne"), rtz = op("f2f16_rtz");
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < PAIRS; i++) {
            long a32;
            switch (i % 3) {
                case 0 -> a32 = OpHarness.randomFloat(rnd, 32);
                // near-ties: f32 values whose 13 dropped bits are 0x1000 +- 1, over the half exponent range
                case 1 ->
                    a32 = (rnd.nextLong() & 0x807fe000L)
                            | (0x1000 + rnd.nextInt(-1, 2))
                            | ((long) rnd.nextInt(95, 145) << 23);
                default -> a32 = f32((float) ((rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(-28, 18))));
            }
            long a64 = i % 2 == 0
                    ? OpHarness.randomFloat(rnd, 64)
                    : f64((rnd.nextDouble() - 0.5) * Math.scalb(1.0, rnd.nextInt(-28, 18)));
            long r32 = ExactFloat.convert(a32, 32, 16, ExactFloat.Mode.NEAREST_EVEN);
            long r64 = ExactFloat.convert(a64, 64, 16, ExactFloat.Mode.NEAREST_EVEN);
            OpHarness.expectNote("exact rounding", f2f16, 32, r32, a32);
            OpHarness.expectNote("exact rounding", rtne, 32, r32, a32);
            OpHarness.expectNote("exact rounding", f2f16, 64, r64, a64);
            OpHarness.expectNote("exact rounding", rtne, 64, r64, a64);
            OpHarness.expectNote(
                    "exact truncation", rtz, 32, ExactFloat.convert(a32, 32, 16, ExactFloat.Mode.TOWARD_ZERO), a32);
            OpHarness.expectNote(
                    "exact truncation", rtz, 64, ExactFloat.convert(a64, 64, 16, ExactFloat.Mode.TOWARD_ZERO), a64);
            // pack_half_2x16 rounds each f32 the same way (x in the low half)
            long b32 = OpHarness.randomFloat(rnd, 32);
            long rb = ExactFloat.convert(b32, 32, 16, ExactFloat.Mode.NEAREST_EVEN);
            OpHarness.expectVec(op("pack_half_2x16"), 0, new long[][] {{a32, b32}}, new long[] {r32 | (rb << 16)});
            OpHarness.expect("pack_half_2x16_split", 0, r32 | (rb << 16), a32, b32);
        }
    }

    // ---- decimal text <-> half ---------------------------------------------------------------------------

    @Test
    void decimalLiteralsRoundOnceToHalf() {
        // a decimal just above a half tie reads as exactly the tie in double: it must still round up
        check(Fp16.parse("2049.0000000000000001") == 0x6801, () -> "2049.0000000000000001 must round up to 2050");
        check(Fp16.parse("2048.9999999999999999") == 0x6800, () -> "2048.9999999999999999 must round down to 2048");
        check(Fp16.parse("2049") == 0x6800, () -> "2049 is a tie: to even, 2048");
        check(Fp16.parse("65520") == 0x7c00, () -> "65520 rounds to inf");
        check(Fp16.parse("65519.999") == 0x7bff, () -> "65519.999 rounds to 65504");
        check(Fp16.parse("0.000000059604644775390625") == 0x0001, () -> "2^-24 is 0x0001");
        check(Fp16.parse("-0.0") == 0x8000, () -> "-0.0 is 0x8000");
        check(Fp16.parse("0.1") == 0x2e66, () -> "0.1 is 0x2e66");
        SplittableRandom rnd = new SplittableRandom(1618);
        for (int i = 0; i < 5000; i++) {
            // a half tie (or a neighbour of one) written with many digits, or a random decimal
            BigDecimal v;
            if (i % 2 == 0) {
                long h = rnd.nextInt(0x7bff);
                BigDecimal lo = ExactFloat.exact(h, 16), hi = ExactFloat.exact(h + 1, 16);
                BigDecimal tie = lo.add(hi).divide(BigDecimal.valueOf(2));
                BigDecimal nudge = BigDecimal.ONE
                        .movePointLeft(rnd.nextInt(18, 30))
                        .multiply(BigDecimal.valueOf(rnd.nextInt(-1, 2)));
                v = tie.add(nudge);
            } else {
                v = new BigDecimal(rnd.nextLong() % 100000000L).movePointLeft(rnd.nextInt(0, 12));
            }
            if (rnd.nextBoolean()) v = v.negate();
            String text = v.toPlainString();
            long want = ExactFloat.round(v, 16, ExactFloat.Mode.NEAREST_EVEN, text.startsWith("-"));
            long got = Fp16.parse(text);
            check(got == want, () -> "Fp16.parse(\"" + text + "\") = " + hex(got, 16) + ", expected " + hex(want, 16));
        }
    }

    @Test
    void everyHalfFormatsToTextThatReadsBack() {
        for (int h = 0; h < 0x10000; h++) {
            if (Fp16.isNaN(h)) continue;
            String text = FloatBits.format(h, 16);
            int hh = h;
            int back = text.equals("inf") ? 0x7c00 : text.equals("-inf") ? 0xfc00 : Fp16.parse(text);
            check(
                    back == hh,
                    () -> "FloatBits.format(" + hex(hh, 16) + ", 16) = \"" + text + "\" reads back as "
                            + hex(back, 16));
        }
    }

    // ---- pack / unpack half ------------------------------------------------------------------------

    @Test
    void packAndUnpackHalf() {
        Op pack = op("pack_half_2x16"), unpack = op("unpack_half_2x16");
        OpHarness.expectVec(pack, 0, new long[][] {{f32(1f), f32(-2f)}}, new long[] {0xc0003c00L});
        OpHarness.expectVec(pack, 0, new long[][] {{f32(65504f), f32(65520f)}}, new long[] {0x7c007bffL});
        OpHarness.expectVec(pack, 0, new long[][] {{0x7fc00000L, 0xff800000L}}, new long[] {0xfc007e00L});
        OpHarness.expectVec(pack, 0, new long[][] {{f32(0x1p-24f), f32(-0f)}}, new long[] {0x80000001L});
        OpHarness.expectVec(unpack, 0, new long[][] {{0x7bff3c00L}}, new long[] {f32(1f), f32(65504f)});
        OpHarness.expectVec(unpack, 0, new long[][] {{0x80010000L}}, new long[] {0, f32(-0x1p-24f)});
        OpHarness.expectVec(unpack, 0, new long[][] {{0xfc007c00L}}, new long[] {0x7f800000L, 0xff800000L});
        // NaNs unpack as the canonical f32 NaN, whatever their sign or payload
        OpHarness.expectVec(unpack, 0, new long[][] {{0x7e017d00L}}, new long[] {0x7fc00000L, 0x7fc00000L});
        OpHarness.expectVec(unpack, 0, new long[][] {{0xfe00fe00L}}, new long[] {0x7fc00000L, 0x7fc00000L});
        expect("unpack_half_2x16_split_x", 0, 0x7fc00000L, 0xfe00);
        expect("unpack_half_2x16_split_y", 0, 0x7fc00000L, 0xfc010000L);
        expect("pack_half_2x16_split", 0, 0xc0003c00L, f32(1f), f32(-2f));
        // unpack then pack is the identity on every non-NaN half, in both lanes
        for (int h = 0; h < 0x10000; h++) {
            long word = h | ((long) (h ^ 0x8000) << 16);
            long[] f = OpHarness.evalVec(unpack, 0, new long[][] {{word}});
            check(
                    f[0] == halfToF32Bits(h) && f[1] == halfToF32Bits(h ^ 0x8000),
                    () -> "unpack_half_2x16 ("
                            + hex(word, 32) + ") = [" + hex(f[0], 32) + " " + hex(f[1], 32) + "], expected ["
                            + hex(halfToF32Bits((int) (word & 0xffff)), 32) + " "
                            + hex(halfToF32Bits((int) (word >>> 16)), 32) + "]");
            long expected = Fp16.isNaN(h) ? 0x7e007e00L : word;
            OpHarness.expectVec(pack, 0, new long[][] {f}, new long[] {expected});
        }
    }
}
