package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpHarness.asF32;
import static dev.lathe.ir.op.OpHarness.asF64;
import static dev.lathe.ir.op.OpHarness.canon32;
import static dev.lathe.ir.op.OpHarness.canon64;
import static dev.lathe.ir.op.OpHarness.check;
import static dev.lathe.ir.op.OpHarness.expect;
import static dev.lathe.ir.op.OpHarness.f32;
import static dev.lathe.ir.op.OpHarness.f64;
import static dev.lathe.ir.op.OpHarness.hex;
import static dev.lathe.ir.op.OpHarness.op;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The f32 and f64 ops against Java's own IEEE float/double arithmetic ({@code a + b},
 * {@link Math#fma}, {@link Math#sqrt}, {@link Math#floor}, {@link Math#rint}, casts …), on every
 * pair of edge values (0, -0, ±1, ±inf, NaNs with payloads, MIN/MAX normal, subnormals …) and on
 * thousands of seeded random values. Results are compared bit for bit; where Java gives a NaN the
 * op must give the canonical NaN of its size (README: every float result that is NaN is
 * canonical, except fneg/fabs).
 */
@ExtendWith(CountChecks.class)
class FloatOpsReferenceTest {

    static final int RANDOM = 3000;

    interface F2 {
        float apply(float a, float b);
    }

    interface F1 {
        float apply(float a);
    }

    interface F3 {
        float apply(float a, float b, float c);
    }

    interface D2 {
        double apply(double a, double b);
    }

    interface D1 {
        double apply(double a);
    }

    interface D3 {
        double apply(double a, double b, double c);
    }

    interface B2 {
        boolean apply(double a, double b);
    }

    // ---- drivers -------------------------------------------------------------------------------

    /** Checks a unary op on every edge value and RANDOM random values. */
    static void unary(String name, int bits, LongUnaryOperator ref) {
        Op op = op(name);
        for (long a : OpHarness.floatEdges(bits)) OpHarness.expect(op, bits, ref.applyAsLong(a), a);
        SplittableRandom rnd = new SplittableRandom(name.hashCode() * 17L + bits);
        for (int i = 0; i < RANDOM; i++) {
            long a = OpHarness.randomFloat(rnd, bits);
            OpHarness.expect(op, bits, ref.applyAsLong(a), a);
        }
    }

    /** Checks a binary op on every pair of edge values and RANDOM random pairs. */
    static void binary(String name, int bits, LongBinaryOperator ref) {
        Op op = op(name);
        long[] e = OpHarness.floatEdges(bits);
        for (long a : e) {
            for (long b : e) OpHarness.expect(op, bits, ref.applyAsLong(a, b), a, b);
        }
        SplittableRandom rnd = new SplittableRandom(name.hashCode() * 31L + bits);
        for (int i = 0; i < RANDOM; i++) {
            long a = OpHarness.randomFloat(rnd, bits);
            long b = i % 4 == 0 ? nearby(rnd, a, bits) : OpHarness.randomFloat(rnd, bits);
            OpHarness.expect(op, bits, ref.applyAsLong(a, b), a, b);
        }
    }

    interface L3 {
        long apply(long a, long b, long c);
    }

    static void ternary(String name, int bits, L3 ref) {
        Op op = op(name);
        long[] e = OpHarness.floatEdges(bits);
        SplittableRandom rnd = new SplittableRandom(name.hashCode() * 131L + bits);
        for (int i = 0; i < 2 * RANDOM; i++) {
            long a, b, c;
            if (i % 2 == 0) {
                a = e[rnd.nextInt(e.length)];
                b = e[rnd.nextInt(e.length)];
                c = e[rnd.nextInt(e.length)];
            } else {
                a = OpHarness.randomFloat(rnd, bits);
                b = OpHarness.randomFloat(rnd, bits);
                c = i % 3 == 0 ? nearby(rnd, a, bits) : OpHarness.randomFloat(rnd, bits);
            }
            OpHarness.expect(op, bits, ref.apply(a, b, c), a, b, c);
        }
    }

    /** A value close to a (its negation or a neighbour), to provoke cancellation and ties. */
    static long nearby(SplittableRandom rnd, long a, int bits) {
        long sign = 1L << (bits - 1);
        return switch (rnd.nextInt(4)) {
            case 0 -> a ^ sign;
            case 1 -> (a + 1) & Bits.mask(bits);
            case 2 -> ((a - 1) & Bits.mask(bits)) ^ sign;
            default -> (a ^ (rnd.nextLong() & 0xff)) & Bits.mask(bits);
        };
    }

    static LongBinaryOperator r32(F2 f) {
        return (a, b) -> canon32(f.apply(asF32(a), asF32(b)));
    }

    static LongUnaryOperator r32(F1 f) {
        return a -> canon32(f.apply(asF32(a)));
    }

    static L3 r32(F3 f) {
        return (a, b, c) -> canon32(f.apply(asF32(a), asF32(b), asF32(c)));
    }

    static LongBinaryOperator r64(D2 f) {
        return (a, b) -> canon64(f.apply(asF64(a), asF64(b)));
    }

    static LongUnaryOperator r64(D1 f) {
        return a -> canon64(f.apply(asF64(a)));
    }

    static L3 r64(D3 f) {
        return (a, b, c) -> canon64(f.apply(asF64(a), asF64(b), asF64(c)));
    }

    static DynamicTest t(String name, Runnable r) {
        return DynamicTest.dynamicTest(name, r::run);
    }

    // ---- arithmetic ----------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> arithmeticMatchesJava() {
        List<DynamicTest> ts = new ArrayList<>();
        ts.add(t("fadd 32", () -> binary("fadd", 32, r32((a, b) -> a + b))));
        ts.add(t("fadd 64", () -> binary("fadd", 64, r64((a, b) -> a + b))));
        ts.add(t("fsub 32", () -> binary("fsub", 32, r32((a, b) -> a - b))));
        ts.add(t("fsub 64", () -> binary("fsub", 64, r64((a, b) -> a - b))));
        ts.add(t("fmul 32", () -> binary("fmul", 32, r32((a, b) -> a * b))));
        ts.add(t("fmul 64", () -> binary("fmul", 64, r64((a, b) -> a * b))));
        ts.add(t("fdiv 32", () -> binary("fdiv", 32, r32((a, b) -> a / b))));
        ts.add(t("fdiv 64", () -> binary("fdiv", 64, r64((a, b) -> a / b))));
        // Java's % is C fmod: the exact remainder of truncated division, with the dividend's sign
        ts.add(t("frem 32", () -> binary("frem", 32, r32((a, b) -> a % b))));
        ts.add(t("frem 64", () -> binary("frem", 64, r64((a, b) -> a % b))));
        ts.add(t("fmulz 32", () -> binary("fmulz", 32, r32((a, b) -> a == 0f || b == 0f ? 0f : a * b))));
        ts.add(t("fmulz 64", () -> binary("fmulz", 64, r64((a, b) -> a == 0.0 || b == 0.0 ? 0.0 : a * b))));
        ts.add(t("ffma 32", () -> ternary("ffma", 32, r32((F3) Math::fma))));
        ts.add(t("ffma 64", () -> ternary("ffma", 64, r64((D3) Math::fma))));
        // flrp(a, b, c) = a*(1-c) + b*c, every step rounded to the size
        ts.add(t("flrp 32", () -> ternary("flrp", 32, r32((a, b, c) -> a * (1f - c) + b * c))));
        ts.add(t("flrp 64", () -> ternary("flrp", 64, r64((a, b, c) -> a * (1.0 - c) + b * c))));
        // fmod(a, b) = a - b*floor(a/b), every step rounded
        ts.add(t("fmod 32", () -> binary("fmod", 32, r32((a, b) -> a - b * (float) Math.floor(a / b)))));
        ts.add(t("fmod 64", () -> binary("fmod", 64, r64((a, b) -> a - b * Math.floor(a / b)))));
        ts.add(t("frcp 32", () -> unary("frcp", 32, r32(a -> 1f / a))));
        ts.add(t("frcp 64", () -> unary("frcp", 64, r64(a -> 1.0 / a))));
        // sqrt in double is correctly rounded, and rounding it to float is too (53 >= 2*24 + 2)
        ts.add(t("fsqrt 32", () -> unary("fsqrt", 32, r32(a -> (float) Math.sqrt(a)))));
        ts.add(t("fsqrt 64", () -> unary("fsqrt", 64, r64(Math::sqrt))));
        ts.add(t("fsqrt 64 exact", () -> unary("fsqrt", 64, a -> ExactFloat.sqrt(a, 64))));
        ts.add(t("ffloor 32", () -> unary("ffloor", 32, r32(a -> (float) Math.floor(a)))));
        ts.add(t("ffloor 64", () -> unary("ffloor", 64, r64(Math::floor))));
        ts.add(t("fceil 32", () -> unary("fceil", 32, r32(a -> (float) Math.ceil(a)))));
        ts.add(t("fceil 64", () -> unary("fceil", 64, r64(Math::ceil))));
        ts.add(t(
                "ftrunc 32",
                () -> unary("ftrunc", 32, r32(a -> Math.abs(a) < 0x1p23f ? Math.copySign((float) (long) a, a) : a))));
        ts.add(t(
                "ftrunc 64",
                () -> unary("ftrunc", 64, r64(a -> Math.abs(a) < 0x1p52 ? Math.copySign((double) (long) a, a) : a))));
        ts.add(t("fround_even 32", () -> unary("fround_even", 32, r32(a -> (float) Math.rint(a)))));
        ts.add(t("fround_even 64", () -> unary("fround_even", 64, r64(Math::rint))));
        ts.add(t("ffract 32", () -> unary("ffract", 32, r32(a -> a - (float) Math.floor(a)))));
        ts.add(t("ffract 64", () -> unary("ffract", 64, r64(a -> a - Math.floor(a)))));
        // documented as computed in double with StrictMath and rounded once
        ts.add(t("fexp2 32", () -> unary("fexp2", 32, r32(a -> (float) StrictMath.pow(2.0, a)))));
        ts.add(t("fexp2 64", () -> unary("fexp2", 64, r64(a -> StrictMath.pow(2.0, a)))));
        ts.add(t("fpow 32", () -> binary("fpow", 32, r32((a, b) -> (float) StrictMath.pow(a, b)))));
        ts.add(t("fpow 64", () -> binary("fpow", 64, r64(StrictMath::pow))));
        ts.add(t("fsin 32", () -> unary("fsin", 32, r32(a -> (float) StrictMath.sin(a)))));
        ts.add(t("fsin 64", () -> unary("fsin", 64, r64(StrictMath::sin))));
        ts.add(t("fcos 32", () -> unary("fcos", 32, r32(a -> (float) StrictMath.cos(a)))));
        ts.add(t("fcos 64", () -> unary("fcos", 64, r64(StrictMath::cos))));
        ts.add(t("frsq 32", () -> unary("frsq", 32, r32(a -> (float) (1.0 / Math.sqrt(a))))));
        ts.add(t("frsq 64", () -> unary("frsq", 64, r64(a -> 1.0 / Math.sqrt(a)))));
        // sign-bit operations keep NaN payloads: reference written on the bits for NaN
        ts.add(t("fneg 32", () -> unary("fneg", 32, a -> Float.isNaN(asF32(a)) ? a ^ 0x80000000L : f32(-asF32(a)))));
        ts.add(t(
                "fneg 64", () -> unary("fneg", 64, a -> Double.isNaN(asF64(a)) ? a ^ Long.MIN_VALUE : f64(-asF64(a)))));
        ts.add(t(
                "fabs 32",
                () -> unary("fabs", 32, a -> Float.isNaN(asF32(a)) ? a & 0x7fffffffL : f32(Math.abs(asF32(a))))));
        ts.add(t(
                "fabs 64",
                () -> unary("fabs", 64, a -> Double.isNaN(asF64(a)) ? a & Long.MAX_VALUE : f64(Math.abs(asF64(a))))));
        ts.add(t("fsign 32", () -> unary("fsign", 32, r32(a -> Math.signum(a)))));
        ts.add(t("fsign 64", () -> unary("fsign", 64, r64(a -> Math.signum(a)))));
        for (int bits : new int[] {32, 64}) {
            ts.add(t("fsat " + bits, () -> unary("fsat", bits, a -> fsatRef(a, bits))));
            ts.add(t("fsat_signed " + bits, () -> unary("fsat_signed", bits, a -> fsatSignedRef(a, bits))));
            ts.add(t("fclamp_pos " + bits, () -> unary("fclamp_pos", bits, a -> maxNum(a, 0, bits))));
            ts.add(t("fmin " + bits, () -> binary("fmin", bits, (a, b) -> minNum(a, b, bits))));
            ts.add(t("fmax " + bits, () -> binary("fmax", bits, (a, b) -> maxNum(a, b, bits))));
            ts.add(t("fmin3 " + bits, () -> ternary("fmin3", bits, (a, b, c) -> minNum(minNum(a, b, bits), c, bits))));
            ts.add(t("fmax3 " + bits, () -> ternary("fmax3", bits, (a, b, c) -> maxNum(maxNum(a, b, bits), c, bits))));
            ts.add(t("fmed3 " + bits, () -> ternary("fmed3", bits, (a, b, c) -> med3Ref(a, b, c, bits))));
            ts.add(t("fcsel " + bits, () -> ternary("fcsel", bits, (a, b, c) -> value(a, bits) != 0.0 ? b : c)));
            ts.add(t("fisnan " + bits, () -> unary("fisnan", bits, a -> Double.isNaN(value(a, bits)) ? 1 : 0)));
            ts.add(t(
                    "fisfinite " + bits, () -> unary("fisfinite", bits, a -> Double.isFinite(value(a, bits)) ? 1 : 0)));
            ts.add(t("ldexp " + bits, () -> ldexpAgainstExact(bits)));
            ts.add(t("flog2 " + bits, () -> flog2WithinOneUlp(bits)));
        }
        return ts.stream();
    }

    static double value(long a, int bits) {
        return bits == 32 ? asF32(a) : asF64(a);
    }

    static long canon(double v, int bits) {
        return bits == 32 ? canon32((float) v) : canon64(v);
    }

    /** IEEE minNum: a NaN operand loses; -0 below +0 (Java's Math.min orders zeros that way). */
    static long minNum(long a, long b, int bits) {
        double x = value(a, bits), y = value(b, bits);
        if (Double.isNaN(x) && Double.isNaN(y)) return canon(Double.NaN, bits);
        if (Double.isNaN(x)) return b;
        if (Double.isNaN(y)) return a;
        return canon(Math.min(x, y), bits);
    }

    static long maxNum(long a, long b, int bits) {
        double x = value(a, bits), y = value(b, bits);
        if (Double.isNaN(x) && Double.isNaN(y)) return canon(Double.NaN, bits);
        if (Double.isNaN(x)) return b;
        if (Double.isNaN(y)) return a;
        return canon(Math.max(x, y), bits);
    }

    static long fsatRef(long a, int bits) {
        double x = value(a, bits);
        if (Double.isNaN(x) || x <= 0) return 0; // NaN and -0 give +0
        if (x >= 1) return canon(1.0, bits);
        return a;
    }

    static long fsatSignedRef(long a, int bits) {
        double x = value(a, bits);
        if (Double.isNaN(x) || x <= -1) return canon(-1.0, bits);
        if (x >= 1) return canon(1.0, bits);
        return a;
    }

    /** The median by sorting (with -0 < +0); a NaN counts as missing as in the minNum/maxNum formula. */
    static long med3Ref(long a, long b, long c, int bits) {
        boolean an = Double.isNaN(value(a, bits)), bn = Double.isNaN(value(b, bits)), cn = Double.isNaN(value(c, bits));
        if (!an && !bn && !cn) {
            double[] v = {value(a, bits), value(b, bits), value(c, bits)};
            Arrays.sort(v); // Arrays.sort orders -0.0 before 0.0
            return canon(v[1], bits);
        }
        // fmax(fmin(a, b), fmin(fmax(a, b), c)), written with the reference minNum/maxNum
        return maxNum(minNum(a, b, bits), minNum(maxNum(a, b, bits), c, bits), bits);
    }

    /** ldexp against the exact value a * 2^e rounded once (integer arithmetic only). */
    static void ldexpAgainstExact(int bits) {
        Op op = op("ldexp");
        SplittableRandom rnd = new SplittableRandom(4242 + bits);
        int[] exps = {
            0,
            1,
            -1,
            2,
            -2,
            10,
            -10,
            126,
            127,
            128,
            -126,
            -127,
            -149,
            -150,
            -151,
            1023,
            1024,
            -1022,
            -1074,
            -1075,
            -1076,
            2000,
            -2000,
            5000,
            -5000,
            Integer.MAX_VALUE,
            Integer.MIN_VALUE,
            300,
            -300
        };
        List<long[]> cases = new ArrayList<>();
        for (long a : OpHarness.floatEdges(bits)) {
            for (int e : exps) cases.add(new long[] {a, e & 0xffffffffL});
        }
        for (int i = 0; i < 1500; i++) {
            long a = OpHarness.randomFloat(rnd, bits);
            int e = rnd.nextInt(4) == 0 ? exps[rnd.nextInt(exps.length)] : rnd.nextInt(-1200, 1200);
            cases.add(new long[] {a, e & 0xffffffffL});
        }
        for (long[] c : cases) {
            long a = c[0];
            int e = (int) c[1];
            long expected;
            if (ExactFloat.isNaN(a, bits)) {
                expected = ExactFloat.format(bits).canonicalNaN();
            } else if (ExactFloat.isInf(a, bits) || ExactFloat.isZero(a, bits)) {
                expected = a; // inf * 2^e = inf, 0 * 2^e = 0 (signs kept)
            } else {
                int ee = Math.max(-3000, Math.min(3000, e)); // beyond +-3000 every size over/underflows alike
                BigDecimal exact = ExactFloat.scaleByPowerOfTwo(ExactFloat.exact(a, bits), ee);
                expected = ExactFloat.round(exact, bits, ExactFloat.Mode.NEAREST_EVEN, ExactFloat.isNegative(a, bits));
            }
            OpHarness.expectNote("exact a * 2^" + e, op, bits, expected, a, c[1]);
        }
    }

    /**
     * flog2 is documented as e + log(m)/ln 2 in double, rounded once; independently, it must be
     * close to StrictMath.log(x)/log(2) (exact for powers of two) and have the IEEE special
     * values. "Close": within one ulp at 32 bits; at 64 bits within 4 ulps outside [0.5, 2] and,
     * inside it (GLSL's split, where the documented formula cancels: e = -1 and log(m)/ln 2 is
     * near 1 just below x = 1), within an absolute 2^-51.
     */
    static void flog2WithinOneUlp(int bits) {
        Op op = op("flog2");
        SplittableRandom rnd = new SplittableRandom(77 + bits);
        List<Long> in = new ArrayList<>();
        for (long a : OpHarness.floatEdges(bits)) in.add(a);
        for (int i = 0; i < RANDOM; i++) in.add(OpHarness.randomFloat(rnd, bits));
        for (long a : in) {
            double x = value(a, bits);
            long got = OpHarness.eval(op, bits, a);
            if (Double.isNaN(x) || x < 0) {
                OpHarness.expectResult(op, bits, new long[] {a}, canon(Double.NaN, bits), got, "log2 of NaN/negative");
            } else if (x == 0) {
                OpHarness.expectResult(op, bits, new long[] {a}, canon(Double.NEGATIVE_INFINITY, bits), got, "log2(0)");
            } else if (Double.isInfinite(x)) {
                OpHarness.expectResult(op, bits, new long[] {a}, canon(x, bits), got, "log2(inf)");
            } else if (x == Math.scalb(1.0, Math.getExponent(x))) {
                OpHarness.expectResult(op, bits, new long[] {a}, canon(Math.getExponent(x), bits), got, "power of two");
            } else {
                double ref = StrictMath.log(x) / StrictMath.log(2.0);
                double g = value(got, bits);
                double ulp = bits == 32 ? Math.ulp((float) ref) : Math.ulp(ref);
                int slack = bits == 32 ? 1 : 4; // the double reference itself is off by a few ulps at 64 bits
                double tolerance = bits == 64 && x >= 0.5 && x <= 2 ? 0x1p-51 : slack * ulp;
                check(
                        Math.abs(g - ref) <= tolerance,
                        () -> "flog2 @" + bits + " (" + hex(a, bits) + "): got " + g + " (" + hex(got, bits)
                                + "), reference " + ref + ", tolerance " + tolerance);
            }
        }
    }

    // ---- conversions against Java casts ----------------------------------------------------------

    @Test
    void floatToIntMatchesJavaCasts() {
        // Java's (int)/(long) casts truncate, saturate and map NaN to 0: exactly f2i32/f2i64
        SplittableRandom rnd = new SplittableRandom(11);
        for (int bits : new int[] {32, 64}) {
            List<Long> in = new ArrayList<>();
            for (long a : OpHarness.floatEdges(bits)) in.add(a);
            for (int i = 0; i < RANDOM; i++) {
                in.add(OpHarness.randomFloat(rnd, bits));
                // values around the integer ranges
                double v = (rnd.nextDouble() * 2 - 1) * Math.scalb(1.0, rnd.nextInt(0, 66));
                in.add(bits == 32 ? f32((float) v) : f64(v));
            }
            for (long a : in) {
                double x = value(a, bits);
                expect("f2i32", bits, (int) x & 0xffffffffL, a);
                expect("f2i64", bits, (long) x, a);
                expect("f2i16", bits, Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, (long) x)) & 0xffff, a);
                expect("f2i8", bits, Math.max(Byte.MIN_VALUE, Math.min(Byte.MAX_VALUE, (long) x)) & 0xff, a);
                expect("f2u32", bits, Math.max(0, Math.min(0xffffffffL, (long) x)), a);
                expect("f2u16", bits, Math.max(0, Math.min(0xffffL, (long) x)), a);
                expect("f2u8", bits, Math.max(0, Math.min(0xffL, (long) x)), a);
                if (bits == 32) {
                    expect("f2f64", 32, canon64(asF32(a)), a); // widening: exact (NaN canonical)
                } else {
                    expect("f2f32", 64, canon32((float) asF64(a)), a); // narrowing: nearest even
                }
            }
        }
    }

    @Test
    void intToFloatMatchesJavaCasts() {
        // (float) long and (double) long round to nearest even
        SplittableRandom rnd = new SplittableRandom(12);
        for (int bits : new int[] {8, 16, 32, 64}) {
            List<Long> in = new ArrayList<>();
            for (long v : OpHarness.intEdges(bits)) in.add(v);
            for (int i = 0; i < RANDOM; i++) in.add(OpHarness.randomInt(rnd, bits));
            for (long a : in) {
                long s = Bits.sext(a, bits);
                expect("i2f32", bits, f32((float) s), a);
                expect("i2f64", bits, f64((double) s), a);
                if (bits < 64) {
                    long u = Bits.zext(a, bits);
                    expect("u2f32", bits, f32((float) u), a);
                    expect("u2f64", bits, f64((double) u), a);
                }
            }
        }
    }

    // ---- comparisons -----------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> comparisonsMatchJavaOperators() {
        List<DynamicTest> ts = new ArrayList<>();
        for (int bits : new int[] {32, 64}) {
            ts.add(t("flt " + bits, () -> cmp("flt", bits, (x, y) -> x < y)));
            ts.add(t("fge " + bits, () -> cmp("fge", bits, (x, y) -> x >= y)));
            ts.add(t("feq " + bits, () -> cmp("feq", bits, (x, y) -> x == y)));
            ts.add(t("fneu " + bits, () -> cmp("fneu", bits, (x, y) -> x != y)));
            ts.add(t("fltu " + bits, () -> cmp("fltu", bits, (x, y) -> !(x >= y))));
            ts.add(t("fgeu " + bits, () -> cmp("fgeu", bits, (x, y) -> !(x < y))));
            ts.add(t("fequ " + bits, () -> cmp("fequ", bits, (x, y) -> !(x < y) && !(x > y))));
            ts.add(t("fneo " + bits, () -> cmp("fneo", bits, (x, y) -> x < y || x > y)));
            ts.add(t("funord " + bits, () -> cmp("funord", bits, (x, y) -> x != x || y != y)));
            ts.add(t("ford " + bits, () -> cmp("ford", bits, (x, y) -> x == x && y == y)));
        }
        ts.add(t("ball_fequal / bany_fnequal", FloatOpsReferenceTest::vectorComparisons));
        return ts.stream();
    }

    static void cmp(String name, int bits, B2 ref) {
        if (bits == 32) {
            binary(name, 32, (a, b) -> ref.apply(asF32(a), asF32(b)) ? 1 : 0);
        } else {
            binary(name, 64, (a, b) -> ref.apply(asF64(a), asF64(b)) ? 1 : 0);
        }
    }

    static void vectorComparisons() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int bits : new int[] {32, 64}) {
            long[] e = OpHarness.floatEdges(bits);
            for (int n = 2; n <= 4; n++) {
                Op all = op("ball_fequal" + n), any = op("bany_fnequal" + n);
                for (int s = 0; s < 2000; s++) {
                    long[] a = new long[n], b = new long[n];
                    boolean eq = true;
                    for (int i = 0; i < n; i++) {
                        a[i] = s % 2 == 0 ? e[rnd.nextInt(e.length)] : OpHarness.randomFloat(rnd, bits);
                        b[i] = rnd.nextInt(3) != 0
                                ? a[i]
                                : (s % 2 == 0 ? e[rnd.nextInt(e.length)] : OpHarness.randomFloat(rnd, bits));
                        eq &= value(a[i], bits) == value(b[i], bits);
                    }
                    long[][] in = {a, b};
                    OpHarness.expectVec(all, bits, in, new long[] {eq ? 1 : 0});
                    OpHarness.expectVec(any, bits, in, new long[] {eq ? 0 : 1});
                }
            }
        }
    }

    // ---- dot products ----------------------------------------------------------------------------

    @Test
    void dotProductsAreLeftToRightInTheOperandSize() {
        SplittableRandom rnd = new SplittableRandom(6);
        for (int s = 0; s < RANDOM; s++) {
            boolean edgy = s % 3 == 0;
            float[] a = new float[4], b = new float[4];
            double[] da = new double[4], db = new double[4];
            long[] a32 = new long[4], b32 = new long[4], a64 = new long[4], b64 = new long[4];
            for (int i = 0; i < 4; i++) {
                a32[i] = edgy
                        ? OpHarness.F32_EDGES[rnd.nextInt(OpHarness.F32_EDGES.length)]
                        : OpHarness.randomFloat(rnd, 32);
                b32[i] = OpHarness.randomFloat(rnd, 32);
                a64[i] = edgy
                        ? OpHarness.F64_EDGES[rnd.nextInt(OpHarness.F64_EDGES.length)]
                        : OpHarness.randomFloat(rnd, 64);
                b64[i] = OpHarness.randomFloat(rnd, 64);
                a[i] = asF32(a32[i]);
                b[i] = asF32(b32[i]);
                da[i] = asF64(a64[i]);
                db[i] = asF64(b64[i]);
            }
            for (int n = 2; n <= 4; n++) {
                float acc = a[0] * b[0];
                double dacc = da[0] * db[0];
                for (int i = 1; i < n; i++) {
                    acc = acc + a[i] * b[i];
                    dacc = dacc + da[i] * db[i];
                }
                Op op = op("fdot" + n);
                OpHarness.expectVec(
                        op, 32, new long[][] {Arrays.copyOf(a32, n), Arrays.copyOf(b32, n)}, new long[] {canon32(acc)});
                OpHarness.expectVec(
                        op, 64, new long[][] {Arrays.copyOf(a64, n), Arrays.copyOf(b64, n)}, new long[] {canon64(dacc)
                        });
            }
            float ph = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + b[3];
            double dph = da[0] * db[0] + da[1] * db[1] + da[2] * db[2] + db[3];
            OpHarness.expectVec(op("fdph"), 32, new long[][] {Arrays.copyOf(a32, 3), b32}, new long[] {canon32(ph)});
            OpHarness.expectVec(op("fdph"), 64, new long[][] {Arrays.copyOf(a64, 3), b64}, new long[] {canon64(dph)});
        }
    }

    // ---- spelled-out edge cases -------------------------------------------------------------------

    static final long P0 = 0x00000000L, N0 = 0x80000000L, ONE = 0x3f800000L, MONE = 0xbf800000L;
    static final long NAN = 0x7fc00000L, NNAN = 0xffc00000L, SNAN = 0x7f800001L, INF = 0x7f800000L, NINF = 0xff800000L;
    static final long HALF = 0x3f000000L, TWO = 0x40000000L, DENORM = 0x00000001L, NDENORM = 0x80000001L;

    @Test
    void minMaxSignedZerosAndNaNs() {
        for (String n : new String[] {"fmin", "fmax"}) {
            boolean min = n.equals("fmin");
            expect(n, 32, min ? N0 : P0, P0, N0);
            expect(n, 32, min ? N0 : P0, N0, P0);
            expect(n, 32, N0, N0, N0);
            expect(n, 32, P0, P0, P0);
            // a NaN operand loses, whichever side it is on
            expect(n, 32, ONE, NAN, ONE);
            expect(n, 32, ONE, ONE, NAN);
            expect(n, 32, MONE, SNAN, MONE);
            expect(n, 32, N0, NNAN, N0);
            expect(n, 32, NINF, NINF, NAN);
            expect(n, 32, INF, 0x7fffffffL, INF);
            // NaN only when both are NaN, and then canonical
            expect(n, 32, NAN, NAN, NAN);
            expect(n, 32, NAN, SNAN, NNAN);
            expect(n, 32, NAN, 0xffffffffL, 0x7f800001L);
            expect(n, 64, 0x7ff8000000000000L, 0xfff0000000000001L, 0x7ff0000000000001L);
            expect(n, 16, 0x7e00, 0xfc01, 0x7c01);
            expect(n, 16, min ? 0x8000 : 0x0000, 0x0000, 0x8000);
            expect(n, 64, min ? 0x8000000000000000L : 0, 0x8000000000000000L, 0);
            expect(n, 32, min ? MONE : ONE, ONE, MONE);
            expect(n, 32, min ? NDENORM : DENORM, DENORM, NDENORM);
            expect(n, 32, min ? NINF : INF, INF, NINF);
        }
    }

    @Test
    void saturateSignClampSpelledOut() {
        expect("fsat", 32, P0, NAN);
        expect("fsat", 32, P0, NNAN);
        expect("fsat", 32, P0, SNAN);
        expect("fsat", 32, P0, N0);
        expect("fsat", 32, P0, P0);
        expect("fsat", 32, P0, NINF);
        expect("fsat", 32, P0, MONE);
        expect("fsat", 32, P0, NDENORM);
        expect("fsat", 32, DENORM, DENORM);
        expect("fsat", 32, ONE, INF);
        expect("fsat", 32, ONE, TWO);
        expect("fsat", 32, ONE, ONE);
        expect("fsat", 32, HALF, HALF);
        expect("fsat", 32, 0x3f7fffffL, 0x3f7fffffL);
        expect("fsat", 16, 0x0000, 0x7e00);
        expect("fsat", 16, 0x0000, 0x8000);
        expect("fsat", 16, 0x3c00, 0x7c00);
        expect("fsat", 64, 0L, 0x8000000000000000L);
        expect("fsat", 64, 0L, 0x7ff8000000000000L);
        expect("fsat", 64, 0x3ff0000000000000L, 0x4000000000000000L);

        expect("fsat_signed", 32, MONE, NAN);
        expect("fsat_signed", 32, N0, N0);
        expect("fsat_signed", 32, MONE, NINF);
        expect("fsat_signed", 32, ONE, INF);
        expect("fsat_signed", 32, 0xbf000000L, 0xbf000000L);

        expect("fclamp_pos", 32, P0, NAN);
        expect("fclamp_pos", 32, P0, N0);
        expect("fclamp_pos", 32, P0, MONE);
        expect("fclamp_pos", 32, INF, INF);
        expect("fclamp_pos", 32, TWO, TWO);

        expect("fsign", 32, ONE, TWO);
        expect("fsign", 32, MONE, 0xc0000000L);
        expect("fsign", 32, P0, P0);
        expect("fsign", 32, N0, N0);
        expect("fsign", 32, ONE, DENORM);
        expect("fsign", 32, MONE, NDENORM);
        expect("fsign", 32, ONE, INF);
        expect("fsign", 32, MONE, NINF);
        expect("fsign", 32, NAN, NAN);
        expect("fsign", 32, NAN, NNAN);
        expect("fsign", 32, NAN, SNAN);
        expect("fsign", 16, 0x3c00, 0x0001);
        expect("fsign", 16, 0x8000, 0x8000);
        expect("fsign", 16, 0x7e00, 0xfd00);
        expect("fsign", 64, 0xbff0000000000000L, 0xfff0000000000000L);
        expect("fsign", 64, 0x8000000000000000L, 0x8000000000000000L);

        // fneg / fabs flip or clear only the sign bit, payloads included
        expect("fneg", 32, 0xff800001L, SNAN);
        expect("fneg", 32, N0, P0);
        expect("fabs", 32, 0x7fc00000L, NNAN);
        expect("fabs", 32, P0, N0);
        expect("fneg", 16, 0x7d23, 0xfd23);
        expect("fabs", 64, 0x7ff0000000000123L, 0xfff0000000000123L);
    }

    @Test
    void specialValuesSpelledOut() {
        // frcp / frsq of zeros, sqrt / log of negatives
        expect("frcp", 32, INF, P0);
        expect("frcp", 32, NINF, N0);
        expect("frsq", 32, INF, P0);
        expect("frsq", 32, NINF, N0);
        expect("frsq", 32, P0, INF);
        expect("frsq", 32, NAN, MONE);
        expect("fsqrt", 32, NAN, MONE);
        expect("fsqrt", 32, N0, N0);
        expect("fsqrt", 32, NAN, NINF);
        expect("flog2", 32, NINF, P0);
        expect("flog2", 32, NINF, N0);
        expect("flog2", 32, NAN, MONE);
        expect("flog2", 32, 0x40400000L, 0x41000000L); // log2(8) = 3
        expect("flog2", 32, 0xc3150000L, DENORM); // log2(2^-149) = -149
        expect("fexp2", 32, 0x41000000L, 0x40400000L); // 2^3 = 8
        expect("fexp2", 32, P0, NINF);
        expect("fexp2", 32, ONE, N0);
        expect("fpow", 32, 0x44800000L, TWO, 0x41200000L); // 2^10 = 1024
        expect("fpow", 32, ONE, NAN, P0); // pow(x, 0) = 1 even for NaN
        expect("fsin", 32, N0, N0);
        expect("fcos", 32, ONE, N0);
        expect("fsin", 32, NAN, INF);
        // NaN results are canonical even from NaN payload inputs
        expect("fadd", 32, NAN, SNAN, ONE);
        expect("fmul", 32, NAN, 0xffc00123L, ONE);
        expect("fadd", 32, NAN, INF, NINF);
        expect("fmul", 32, NAN, P0, INF);
        expect("fdiv", 32, NAN, P0, N0);
        expect("ffma", 32, NAN, INF, P0, ONE);
        expect("ffma", 64, 0x7ff8000000000000L, 0x7ff0000000000000L, 0, 0x3ff0000000000000L);
        expect("fadd", 64, 0x7ff8000000000000L, 0xfff0000000000001L, 0);
        expect("ffract", 32, NAN, INF);
        expect("ffract", 32, P0, N0);
        expect("ftrunc", 32, N0, 0xbf000000L); // trunc(-0.5) = -0
        expect("fround_even", 32, TWO, 0x40200000L); // rint(2.5) = 2
        expect("fround_even", 32, 0xc0800000L, 0xc0600000L); // rint(-3.5) = -4
        expect("fround_even", 32, N0, 0xbf000000L); // rint(-0.5) = -0
        // fmulz: zero times anything is +0
        expect("fmulz", 32, P0, P0, INF);
        expect("fmulz", 32, P0, NAN, N0);
        expect("fmulz", 32, P0, N0, ONE);
        expect("fmulz", 32, P0, MONE, P0); // -1 * +0 is +0 as well
        expect("fmulz", 32, NAN, INF, NAN);
        expect("fmulz", 32, 0xc0000000L, MONE, TWO);
        // rounding: 1 + 2^-24 ties to even (1), 1 + 3*2^-24 ties to even (1 + 2^-22); subnormal products
        expect("fadd", 32, ONE, ONE, 0x33800000L);
        expect("fadd", 32, 0x3f800002L, ONE, 0x34400000L);
        expect("fmul", 32, P0, DENORM, HALF); // 2^-150 ties to even: 0
        expect("fmul", 32, 0x00000002L, DENORM, 0x3fc00000L); // 1.5 * 2^-149 ties to even: 2 * 2^-149
        // fma keeps the low bits that a separate multiply would lose
        // (1 + 2^-23) * (1 - 2^-23) - 1 = -2^-46 exactly; an unfused multiply would round the product to 1 and give 0
        expect("ffma", 32, 0xa8800000L, 0x3f800001L, 0x3f7ffffeL, MONE);
        expect("ffma", 64, 0xb970000000000000L, 0x3ff0000000000001L, 0x3feffffffffffffeL, 0xbff0000000000000L);
        expect("fcsel", 32, ONE, NAN, ONE, TWO); // NaN condition selects b
        expect("fcsel", 32, TWO, N0, ONE, TWO); // -0 condition selects c
    }
}
