package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpHarness.expect;
import static dev.lathe.ir.op.OpHarness.expectVec;
import static dev.lathe.ir.op.OpHarness.f32;
import static dev.lathe.ir.op.OpHarness.f64;
import static dev.lathe.ir.op.OpHarness.op;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Conversions (float to int with saturation and NaN, int to float with round to nearest even
 * checked against exact BigDecimal rounding, integer resizing, booleans) and every pack/unpack
 * op against references written with shifts, {@link BigInteger} and the GLSL formulas, plus
 * hand-computed cases and round trips.
 */
@ExtendWith(CountChecks.class)
class ConversionAndPackTest {

    static final int[] FLOATS = {16, 32, 64};
    static final int[] INTS = {8, 16, 32, 64};

    static BigInteger pow2(int n) {
        return BigInteger.ONE.shiftLeft(n);
    }

    static long wrap(BigInteger v, int n) {
        return v.and(pow2(n).subtract(BigInteger.ONE)).longValue();
    }

    static BigInteger unsigned(long a, int n) {
        return BigInteger.valueOf(a).and(pow2(n).subtract(BigInteger.ONE));
    }

    static BigInteger signed(long a, int n) {
        BigInteger v = unsigned(a, n);
        return v.testBit(n - 1) ? v.subtract(pow2(n)) : v;
    }

    // ---- float to int ------------------------------------------------------------------------------

    /** Truncate toward zero, saturate to the destination range, NaN to 0 (exact, through BigDecimal). */
    static long f2intRef(long a, int fromBits, int toBits, boolean isSigned) {
        BigInteger lo = isSigned ? pow2(toBits - 1).negate() : BigInteger.ZERO;
        BigInteger hi = isSigned
                ? pow2(toBits - 1).subtract(BigInteger.ONE)
                : pow2(toBits).subtract(BigInteger.ONE);
        if (ExactFloat.isNaN(a, fromBits)) return 0;
        BigInteger v;
        if (ExactFloat.isInf(a, fromBits)) {
            v = ExactFloat.isNegative(a, fromBits) ? lo : hi;
        } else {
            v = ExactFloat.exact(a, fromBits).setScale(0, RoundingMode.DOWN).toBigIntegerExact();
        }
        return wrap(v.max(lo).min(hi), toBits);
    }

    /** Float inputs of a size: edges, randoms, and values around every integer range boundary. */
    static long[] floatInputs(int bits, SplittableRandom rnd) {
        Set<Long> out = new LinkedHashSet<>();
        for (long v : OpHarness.floatEdges(bits)) out.add(v);
        for (int i = 0; i < 1500; i++) out.add(OpHarness.randomFloat(rnd, bits));
        double[] specials = {
            0.5, -0.5, 0.9, -0.9, 0.99999, -0.99999, 1.5, -1.5, 255.9, 256, -128.5, -129, 127.5, 65535.5, 65536,
            -32768.5, -32769, 32767.9
        };
        for (double d : specials) out.add(ExactFloat.roundNearest(new BigDecimal(d), bits));
        for (int k : new int[] {7, 8, 15, 16, 31, 32, 63, 64}) {
            for (int sgn : new int[] {1, -1}) {
                for (int delta : new int[] {-1, 0, 1}) {
                    BigInteger v = pow2(k).add(BigInteger.valueOf(delta)).multiply(BigInteger.valueOf(sgn));
                    long p = ExactFloat.fromInteger(v, bits);
                    out.add(p);
                    out.add((p + 1) & Bits.mask(bits)); // the neighbouring patterns
                    out.add((p - 1) & Bits.mask(bits));
                }
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void floatToIntTruncatesSaturatesAndZeroesNaN() {
        SplittableRandom rnd = new SplittableRandom(21);
        for (int from : FLOATS) {
            for (long a : floatInputs(from, rnd)) {
                for (int to : INTS) {
                    OpHarness.expectNote(
                            "exact truncate + saturate", op("f2i" + to), from, f2intRef(a, from, to, true), a);
                    OpHarness.expectNote(
                            "exact truncate + saturate", op("f2u" + to), from, f2intRef(a, from, to, false), a);
                }
            }
        }
        // spelled out
        expect("f2i32", 32, 0x7fffffffL, f32(3e9f));
        expect("f2i32", 32, 0x80000000L, f32(-3e9f));
        expect("f2i32", 32, 0x80000000L, f32(-2147483648f));
        expect("f2i32", 32, 0, 0x7fc00000L);
        expect("f2i32", 32, 0, 0xffc00000L);
        expect("f2i32", 32, 0xfffffffeL, f32(-2.9f)); // toward zero
        expect("f2i8", 32, 0x7f, f32(200f));
        expect("f2i8", 32, 0x80, f32(-200f));
        expect("f2i8", 32, 0x81, f32(-127.9f));
        expect("f2u8", 32, 0xff, f32(255.9f));
        expect("f2u8", 32, 0, f32(-1f)); // negative to unsigned: 0
        expect("f2u8", 32, 0, f32(-0.9f));
        expect("f2u32", 32, 0, 0xff800000L);
        expect("f2u32", 32, 0xffffffffL, 0x7f800000L);
        expect("f2u32", 32, 0xffffff00L, f32(4294967040f)); // the largest float below 2^32
        expect("f2u32", 64, 0xffffffffL, f64(4294967295.9));
        expect("f2u64", 64, 0xfffffffffffff800L, f64(0x1.fffffffffffffp63)); // the largest double below 2^64
        expect("f2u64", 64, 0x8000000000000000L, f64(0x1p63));
        expect("f2u64", 64, -1L, f64(0x1p64));
        expect("f2u64", 32, 0xffffff0000000000L, f32(0x1.fffffep63f));
        expect("f2i64", 64, Long.MAX_VALUE, f64(0x1p63));
        expect("f2i64", 64, Long.MIN_VALUE, f64(-0x1p63));
        expect("f2i64", 64, 0xfffffffffffffc00L, f64(-1024.75));
        expect("f2i16", 16, 0x7fff, 0x7bff); // 65504 saturates
        expect("f2u16", 16, 0xffe0, 0x7bff); // 65504 fits
        expect("f2i64", 16, 0xffffffffffff0020L, 0xfbff); // -65504
        expect("f2u64", 16, 0, 0x7e00);
    }

    // ---- int to float ------------------------------------------------------------------------------

    /** Integers that need rounding: a random p-bit significand, shifted, plus an exact tie +-1. */
    static List<BigInteger> roundingCases(SplittableRandom rnd, int precision, boolean unsigned64) {
        List<BigInteger> out = new ArrayList<>();
        int maxBits = unsigned64 ? 64 : 63;
        for (int i = 0; i < 300; i++) {
            int width = rnd.nextInt(precision + 1, maxBits + 1); // total significant bits of the integer
            int shift = width - precision; // bits below the kept significand
            BigInteger m = BigInteger.valueOf(rnd.nextLong() & ((1L << (precision - 1)) - 1))
                    .setBit(precision - 1);
            BigInteger base = m.shiftLeft(shift);
            BigInteger half = pow2(shift - 1);
            for (BigInteger low : new BigInteger[] {
                half,
                half.subtract(BigInteger.ONE),
                half.add(BigInteger.ONE),
                BigInteger.ZERO,
                pow2(shift).subtract(BigInteger.ONE)
            }) {
                if (low.signum() < 0 || low.bitLength() > shift) continue;
                out.add(base.add(low));
            }
        }
        return out;
    }

    @Test
    void intToFloatRoundsToNearestEven() {
        SplittableRandom rnd = new SplittableRandom(22);
        for (int from : INTS) {
            Set<Long> in = new LinkedHashSet<>();
            for (long v : OpHarness.intEdges(from)) in.add(v);
            for (int i = 0; i < 2000; i++) in.add(OpHarness.randomInt(rnd, from));
            if (from == 64) {
                for (int p : new int[] {11, 24, 53}) {
                    for (BigInteger v : roundingCases(rnd, p, true)) {
                        in.add(v.longValue()); // as unsigned, and (if >= 2^63) as a negative signed value
                        in.add(v.shiftRight(1).negate().longValue());
                    }
                }
            }
            if (from == 32) {
                for (BigInteger v : roundingCases(rnd, 24, false)) {
                    if (v.bitLength() <= 32) in.add(v.longValue() & 0xffffffffL);
                }
            }
            for (long a : in) {
                for (int to : FLOATS) {
                    OpHarness.expectNote(
                            "exact rounding", op("i2f" + to), from, ExactFloat.fromInteger(signed(a, from), to), a);
                    OpHarness.expectNote(
                            "exact rounding", op("u2f" + to), from, ExactFloat.fromInteger(unsigned(a, from), to), a);
                }
            }
        }
        // spelled out
        expect("u2f64", 64, 0x43f0000000000000L, -1L); // 2^64 - 1 rounds to 2^64
        expect("u2f32", 64, 0x5f800000L, -1L);
        expect("u2f16", 64, 0x7c00, -1L);
        expect("u2f64", 64, 0x43e0000000000000L, 0x8000000000000001L); // 2^63 + 1 -> 2^63
        expect("u2f64", 64, 0x43e0000000000000L, 0x8000000000000400L); // 2^63 + 2^10: a tie, to even
        expect("u2f64", 64, 0x43e0000000000001L, 0x8000000000000401L); // just above the tie
        expect("u2f64", 64, 0x43e0000000000002L, 0x8000000000000c00L); // 2^63 + 3*2^10: tie, to even (up)
        expect("u2f32", 64, 0x5f000000L, 0x8000008000000000L); // 2^63 + 2^39: a tie for f32, to even
        expect("u2f32", 64, 0x5f000001L, 0x8000008000000001L);
        expect("i2f64", 64, 0x4340000000000000L, (1L << 53) + 1); // tie -> 2^53
        expect("i2f64", 64, 0x4340000000000002L, (1L << 53) + 3); // tie -> 2^53 + 4
        expect("i2f64", 64, 0xc340000000000000L, -((1L << 53) + 1));
        expect("i2f64", 64, 0xc3e0000000000000L, Long.MIN_VALUE);
        expect("i2f64", 64, 0x43e0000000000000L, Long.MAX_VALUE); // 2^63 - 1 rounds up to 2^63
        expect("i2f32", 64, 0xdf000000L, Long.MIN_VALUE);
        expect("i2f32", 32, 0x4b800000L, 16777217); // 2^24 + 1: tie -> 2^24
        expect("i2f32", 32, 0x4b800002L, 16777219); // 2^24 + 3: tie -> 2^24 + 4
        expect("i2f32", 32, 0xcf000000L, 0x80000000L);
        expect("u2f32", 32, 0x4f800000L, 0xffffffffL); // 2^32 - 1 rounds to 2^32
        expect("i2f16", 32, 0x7bff, 65519);
        expect("i2f16", 32, 0x7c00, 65520);
        expect("i2f16", 32, 0xfc00, -65520L & 0xffffffffL);
        expect("i2f16", 32, 0x6800, 2049);
        expect("i2f16", 32, 0x6802, 2051);
        expect("i2f16", 8, 0xd800, 0x80); // -128
        expect("u2f16", 8, 0x5bf8, 0xff); // 255
        expect("i2f16", 64, 0xfc00, Long.MIN_VALUE);
        expect("u2f16", 16, 0x7c00, 0xffff); // 65535 rounds to inf
        expect("u2f16", 16, 0x7bff, 0xffdf); // 65503 -> 65504
        expect("i2f32", 8, 0, 0); // +0, not -0
        expect("i2f64", 16, 0xbff0000000000000L, 0xffff);
    }

    // ---- integer resizing and booleans -----------------------------------------------------------------

    @Test
    void integerResizeSignAndZeroExtendOrTruncate() {
        SplittableRandom rnd = new SplittableRandom(23);
        for (int from : INTS) {
            Set<Long> in = new LinkedHashSet<>();
            for (long v : OpHarness.intEdges(from)) in.add(v);
            for (int i = 0; i < 1000; i++) in.add(OpHarness.randomInt(rnd, from));
            for (long a : in) {
                for (int to : INTS) {
                    OpHarness.expect(op("i2i" + to), from, wrap(signed(a, from), to), a);
                    OpHarness.expect(op("u2u" + to), from, wrap(unsigned(a, from), to), a);
                }
                OpHarness.expect(op("i2b1"), from, unsigned(a, from).signum() != 0 ? 1 : 0, a);
            }
        }
        expect("i2i32", 8, 0xffffff80L, 0x80);
        expect("u2u32", 8, 0x80, 0x80);
        expect("i2i64", 32, 0xffffffff80000000L, 0x80000000L);
        expect("u2u64", 32, 0x80000000L, 0x80000000L);
        expect("i2i8", 32, 0x34, 0x12345634L);
        expect("u2u16", 64, 0xcdefL, 0x0123456789abcdefL);
        expect("i2i16", 64, 0xcdefL, 0x0123456789abcdefL);
        expect("i2b1", 64, 1, Long.MIN_VALUE);
        expect("i2b1", 8, 0, 0);
    }

    @Test
    void booleanConversions() {
        for (int b = 0; b <= 1; b++) {
            expect("b2f16", 0, b == 1 ? 0x3c00 : 0, b);
            expect("b2f32", 0, b == 1 ? 0x3f800000L : 0, b);
            expect("b2f64", 0, b == 1 ? 0x3ff0000000000000L : 0, b);
            for (int n : INTS) expect("b2i" + n, 0, b, b);
        }
        SplittableRandom rnd = new SplittableRandom(24);
        for (int n : FLOATS) {
            for (long a : floatInputs(n, rnd)) {
                // a != 0.0: NaN is true, both zeros are false
                OpHarness.expect(op("f2b1"), n, ExactFloat.isZero(a, n) ? 0 : 1, a);
            }
        }
        expect("f2b1", 32, 0, 0x80000000L);
        expect("f2b1", 32, 1, 0x7fc00000L);
        expect("f2b1", 16, 1, 0x0001);
        expect("f2b1", 64, 0, 0x8000000000000000L);
    }

    // ---- integer packing -----------------------------------------------------------------------------

    @Test
    void integerPacksAgainstShifts() {
        SplittableRandom rnd = new SplittableRandom(25);
        for (int i = 0; i < 3000; i++) {
            long x = OpHarness.randomInt(rnd, 64), y = OpHarness.randomInt(rnd, 64);
            long lo = x & 0xffffffffL, hi = y & 0xffffffffL;
            long joined = unsigned(lo, 32).or(unsigned(hi, 32).shiftLeft(32)).longValue();
            expect("pack_64_2x32_split", 0, joined, lo, hi);
            expectVec(op("pack_64_2x32"), 0, new long[][] {{lo, hi}}, new long[] {joined});
            expect("unpack_64_2x32_split_x", 0, x & 0xffffffffL, x);
            expect("unpack_64_2x32_split_y", 0, x >>> 32, x);
            expectVec(op("unpack_64_2x32"), 0, new long[][] {{x}}, new long[] {x & 0xffffffffL, x >>> 32});
            // _x replaces the low half of a, _y the high half
            expect("pack_64_2x32_split_x", 0, (x & 0xffffffff00000000L) | lo, x, lo);
            expect("pack_64_2x32_split_y", 0, (x & 0xffffffffL) | (hi << 32), x, hi);
            long[] q = {x & 0xffff, (x >>> 16) & 0xffff, (x >>> 32) & 0xffff, x >>> 48};
            expectVec(op("unpack_64_4x16"), 0, new long[][] {{x}}, q);
            expectVec(op("pack_64_4x16"), 0, new long[][] {q}, new long[] {x});
            long w = x & 0xffffffffL;
            long[] h = {w & 0xffff, w >>> 16};
            expectVec(op("unpack_32_2x16"), 0, new long[][] {{w}}, h);
            expectVec(op("pack_32_2x16"), 0, new long[][] {h}, new long[] {w});
            expect("pack_32_2x16_split", 0, w, h[0], h[1]);
            expect("unpack_32_2x16_split_x", 0, h[0], w);
            expect("unpack_32_2x16_split_y", 0, h[1], w);
            long[] bytes = {w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24};
            expectVec(op("unpack_32_4x8"), 0, new long[][] {{w}}, bytes);
            expectVec(op("pack_32_4x8"), 0, new long[][] {bytes}, new long[] {w});
            // round trips through the op table only
            long[] parts = OpHarness.evalVec(op("unpack_64_2x32"), 0, new long[][] {{x}});
            expectVec(op("pack_64_2x32"), 0, new long[][] {parts}, new long[] {x});
            long px = OpHarness.eval(op("unpack_64_2x32_split_x"), 0, x),
                    py = OpHarness.eval(op("unpack_64_2x32_split_y"), 0, x);
            expect("pack_64_2x32_split", 0, x, px, py);
            expect("pack_64_2x32_split_y", 0, x, OpHarness.eval(op("pack_64_2x32_split_x"), 0, 0, px), py);
        }
        expect("pack_64_2x32_split", 0, 0x0123456789abcdefL, 0x89abcdefL, 0x01234567L);
        expect("pack_64_2x32_split_x", 0, 0x01234567deadbeefL, 0x0123456789abcdefL, 0xdeadbeefL);
        expect("pack_64_2x32_split_y", 0, 0xdeadbeef89abcdefL, 0x0123456789abcdefL, 0xdeadbeefL);
        expect("unpack_64_2x32_split_x", 0, 0x89abcdefL, 0x0123456789abcdefL);
        expect("unpack_64_2x32_split_y", 0, 0x01234567L, 0x0123456789abcdefL);
        expectVec(op("pack_32_4x8"), 0, new long[][] {{0x44, 0x33, 0x22, 0x11}}, new long[] {0x11223344L});
        expectVec(op("unpack_32_4x8"), 0, new long[][] {{0x11223344L}}, new long[] {0x44, 0x33, 0x22, 0x11});
        expectVec(
                op("pack_64_4x16"), 0, new long[][] {{0xcdef, 0x89ab, 0x4567, 0x0123}}, new long[] {0x0123456789abcdefL
                });
    }

    // ---- GLSL unorm / snorm ------------------------------------------------------------------------------

    /** round(clamp(c, lo, 1) * max), the product in f32, rounded half to even; NaN gives 0. */
    static long normRef(long c32, boolean snorm, int fieldBits) {
        float c = Float.intBitsToFloat((int) c32);
        float max = snorm ? (float) ((1 << (fieldBits - 1)) - 1) : (float) ((1 << fieldBits) - 1);
        float clamped = c != c ? 0f : Math.min(1f, Math.max(snorm ? -1f : 0f, c));
        float scaled = clamped * max;
        long q = new BigDecimal(scaled).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
        return q & ((1L << fieldBits) - 1);
    }

    static long randomComponent(SplittableRandom rnd) {
        return switch (rnd.nextInt(5)) {
            case 0 -> OpHarness.randomFloat(rnd, 32);
            case 1 -> f32((float) rnd.nextInt(0, 256) / 255f + (rnd.nextFloat() - 0.5f) / 512f);
            case 2 -> f32((rnd.nextInt(-255, 256) + 0.5f) / 255f); // ties after scaling (approximately)
            case 3 -> f32((rnd.nextInt(-127, 128) + 0.5f) / 127f);
            default -> f32(rnd.nextFloat() * 2.4f - 1.2f);
        };
    }

    @Test
    void unormSnormPacksFollowTheGlslFormula() {
        SplittableRandom rnd = new SplittableRandom(26);
        for (int i = 0; i < 4000; i++) {
            long[] c = {randomComponent(rnd), randomComponent(rnd), randomComponent(rnd), randomComponent(rnd)};
            long u8 = 0, s8 = 0;
            for (int k = 0; k < 4; k++) {
                u8 |= normRef(c[k], false, 8) << (8 * k);
                s8 |= normRef(c[k], true, 8) << (8 * k);
            }
            expectVec(op("pack_unorm_4x8"), 0, new long[][] {c}, new long[] {u8});
            expectVec(op("pack_snorm_4x8"), 0, new long[][] {c}, new long[] {s8});
            long[] c2 = {c[0], c[1]};
            expectVec(op("pack_unorm_2x16"), 0, new long[][] {c2}, new long[] {
                normRef(c[0], false, 16) | normRef(c[1], false, 16) << 16
            });
            expectVec(op("pack_snorm_2x16"), 0, new long[][] {c2}, new long[] {
                normRef(c[0], true, 16) | normRef(c[1], true, 16) << 16
            });
        }
        long nan = 0x7fc00000L, half = f32(0.5f), one = f32(1f), mone = f32(-1f);
        // hand-computed: 0.5 * 255 = 127.5 -> 128 (even); NaN -> 0; clamping
        expectVec(op("pack_unorm_4x8"), 0, new long[][] {{half, one, 0, nan}}, new long[] {0x0000ff80L});
        expectVec(op("pack_unorm_4x8"), 0, new long[][] {{f32(2f), f32(-0.3f), 0x7f800000L, 0xff800000L}}, new long[] {
            0x00ff00ffL
        });
        // 1/255 -> 1, 0.75 * 255 = 191.25 -> 191, 0.25 * 255 = 63.75 -> 64, -NaN -> 0
        expectVec(
                op("pack_unorm_4x8"),
                0,
                new long[][] {{f32(1f / 255f), f32(0.75f), f32(0.25f), 0xffc00000L}},
                new long[] {0x0040bf01L});
        // snorm: -1 -> 0x81, 1 -> 0x7f, 0.5 * 127 = 63.5 -> 64, -0.5 -> -64 = 0xc0
        expectVec(op("pack_snorm_4x8"), 0, new long[][] {{mone, one, 0, nan}}, new long[] {0x00007f81L});
        expectVec(op("pack_snorm_4x8"), 0, new long[][] {{half, f32(-0.5f), f32(-2f), 0x7f800000L}}, new long[] {
            0x7f81c040L
        });
        expectVec(
                op("pack_snorm_4x8"),
                0,
                new long[][] {{0x80000000L, 0xff800000L, f32(2f / 127f), f32(-2f / 127f)}},
                new long[] {0xfe028100L});
        expectVec(op("pack_unorm_2x16"), 0, new long[][] {{half, one}}, new long[] {0xffff8000L});
        expectVec(op("pack_unorm_2x16"), 0, new long[][] {{nan, f32(-1f)}}, new long[] {0});
        expectVec(op("pack_snorm_2x16"), 0, new long[][] {{mone, one}}, new long[] {0x7fff8001L});
        expectVec(op("pack_snorm_2x16"), 0, new long[][] {{half, nan}}, new long[] {0x00004000L});
    }

    @Test
    void unormSnormUnpacksAndRoundTrips() {
        Op pu8 = op("pack_unorm_4x8"),
                uu8 = op("unpack_unorm_4x8"),
                ps8 = op("pack_snorm_4x8"),
                us8 = op("unpack_snorm_4x8");
        Op pu16 = op("pack_unorm_2x16"),
                uu16 = op("unpack_unorm_2x16"),
                ps16 = op("pack_snorm_2x16"),
                us16 = op("unpack_snorm_2x16");
        // every byte value in every lane
        for (int v = 0; v < 256; v++) {
            long word = v | (long) (v ^ 0x5a) << 8 | (long) (255 - v) << 16 | (long) ((v * 7) & 0xff) << 24;
            long[] un = new long[4], sn = new long[4];
            long snormBack = 0;
            for (int k = 0; k < 4; k++) {
                int f = (int) (word >>> (8 * k)) & 0xff;
                un[k] = f32(f / 255f);
                sn[k] = f32(Math.max(-1f, (byte) f / 127f));
                snormBack |= (long) (f == 0x80 ? 0x81 : f) << (8 * k); // -128 unpacks as -1, which packs as -127
            }
            expectVec(uu8, 0, new long[][] {{word}}, un);
            expectVec(us8, 0, new long[][] {{word}}, sn);
            expectVec(pu8, 0, new long[][] {OpHarness.evalVec(uu8, 0, new long[][] {{word}})}, new long[] {word});
            expectVec(ps8, 0, new long[][] {OpHarness.evalVec(us8, 0, new long[][] {{word}})}, new long[] {snormBack});
        }
        // every 16-bit value in the low lane, random high lanes
        SplittableRandom rnd = new SplittableRandom(27);
        for (int v = 0; v < 0x10000; v++) {
            int hi = rnd.nextInt(0x10000);
            long word = v | (long) hi << 16;
            long[] un = {f32(v / 65535f), f32(hi / 65535f)};
            long[] sn = {f32(Math.max(-1f, (short) v / 32767f)), f32(Math.max(-1f, (short) hi / 32767f))};
            expectVec(uu16, 0, new long[][] {{word}}, un);
            expectVec(us16, 0, new long[][] {{word}}, sn);
            expectVec(pu16, 0, new long[][] {un}, new long[] {word});
            long back = (v == 0x8000 ? 0x8001 : v) | (long) (hi == 0x8000 ? 0x8001 : hi) << 16;
            expectVec(ps16, 0, new long[][] {sn}, new long[] {back});
        }
        // hand-computed
        expectVec(uu8, 0, new long[][] {{0x00ff8000L}}, new long[] {0, f32(128f / 255f), f32(1f), 0});
        check(f32(128f / 255f) == 0x3f008081L, "128/255 in f32 is 0x3f008081");
        expectVec(us8, 0, new long[][] {{0x7f8180c0L}}, new long[] {f32(-64f / 127f), f32(-1f), f32(-1f), f32(1f)});
        expectVec(uu16, 0, new long[][] {{0xffff0000L}}, new long[] {0, f32(1f)});
        expectVec(us16, 0, new long[][] {{0x80007fffL}}, new long[] {f32(1f), f32(-1f)});
    }

    static void check(boolean ok, String message) {
        OpHarness.check(ok, () -> message);
    }
}
