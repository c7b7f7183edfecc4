package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpHarness.expect;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The integer ops at 8, 16, 32 and 64 bits against references written with {@link BigInteger}
 * (exact signed and unsigned values, wrapped modulo 2^bits at the end) or bit-by-bit loops, on
 * every pair of edge values and thousands of random values, plus the README's edge cases
 * spelled out.
 */
@ExtendWith(CountChecks.class)
class IntOpsReferenceTest {

    static final int[] SIZES = {8, 16, 32, 64};
    static final int RANDOM = 3000;

    // ---- exact values ------------------------------------------------------------------------------

    static BigInteger pow2(int n) {
        return BigInteger.ONE.shiftLeft(n);
    }

    /** The pattern read as an unsigned n-bit integer. */
    static BigInteger u(long a, int n) {
        return BigInteger.valueOf(a).and(pow2(n).subtract(BigInteger.ONE));
    }

    /** The pattern read as a signed (two's complement) n-bit integer. */
    static BigInteger s(long a, int n) {
        BigInteger v = u(a, n);
        return v.testBit(n - 1) ? v.subtract(pow2(n)) : v;
    }

    /** v modulo 2^n, as a pattern. */
    static long wrap(BigInteger v, int n) {
        return v.and(pow2(n).subtract(BigInteger.ONE)).longValue();
    }

    static long bool(boolean b) {
        return b ? 1 : 0;
    }

    static BigInteger clampSigned(BigInteger v, int n) {
        BigInteger lo = pow2(n - 1).negate(), hi = pow2(n - 1).subtract(BigInteger.ONE);
        return v.max(lo).min(hi);
    }

    static boolean bit(long x, int i) {
        return i < 64 && ((x >>> i) & 1) != 0;
    }

    interface R1 {
        long apply(long a, int n);
    }

    interface R2 {
        long apply(long a, long b, int n);
    }

    interface R3 {
        long apply(long a, long b, long c, int n);
    }

    // ---- drivers -----------------------------------------------------------------------------------

    static void unary(String name, R1 ref) {
        Op op = OpHarness.op(name);
        for (int n : SIZES) {
            SplittableRandom rnd = new SplittableRandom(name.hashCode() + n);
            for (long a : OpHarness.intEdges(n)) OpHarness.expect(op, n, ref.apply(a, n), a);
            for (int i = 0; i < RANDOM; i++) {
                long a = OpHarness.randomInt(rnd, n);
                OpHarness.expect(op, n, ref.apply(a, n), a);
            }
        }
    }

    static void binary(String name, R2 ref) {
        binary(name, SIZES, ref);
    }

    static void binary(String name, int[] sizes, R2 ref) {
        Op op = OpHarness.op(name);
        for (int n : sizes) {
            SplittableRandom rnd = new SplittableRandom(name.hashCode() * 3L + n);
            long[] e = OpHarness.intEdges(n);
            for (long a : e) {
                for (long b : e) OpHarness.expect(op, n, ref.apply(a, b, n), a, b);
            }
            for (int i = 0; i < RANDOM; i++) {
                long a = OpHarness.randomInt(rnd, n), b = OpHarness.randomInt(rnd, n);
                OpHarness.expect(op, n, ref.apply(a, b, n), a, b);
            }
        }
    }

    static void ternary(String name, R3 ref) {
        Op op = OpHarness.op(name);
        for (int n : SIZES) {
            SplittableRandom rnd = new SplittableRandom(name.hashCode() * 5L + n);
            long[] e = OpHarness.intEdges(n);
            for (int i = 0; i < 2 * RANDOM; i++) {
                long a, b, c;
                if (i % 2 == 0) {
                    a = e[rnd.nextInt(e.length)];
                    b = e[rnd.nextInt(e.length)];
                    c = e[rnd.nextInt(e.length)];
                } else {
                    a = OpHarness.randomInt(rnd, n);
                    b = OpHarness.randomInt(rnd, n);
                    c = OpHarness.randomInt(rnd, n);
                }
                OpHarness.expect(op, n, ref.apply(a, b, c, n), a, b, c);
            }
        }
    }

    /** 32-bit shift counts / offsets: every value up to 2n+2, the 32-bit extremes and random ones. */
    static long[] counts(int n, SplittableRandom rnd) {
        List<Long> out = new ArrayList<>();
        for (long k = 0; k <= 2L * n + 2; k++) out.add(k);
        for (long k : new long[] {
            0x7fffffffL, 0x80000000L, 0xffffffffL, 0xfffffffeL, 0xffffffe0L, 0x100000000L - n, 96, 128, 255, 256, 257
        }) {
            out.add(k);
        }
        for (int i = 0; i < 20; i++) out.add(rnd.nextLong() & 0xffffffffL);
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** An op whose second source is a 32-bit count: every value against every count. */
    static void withCount(String name, R2 ref) {
        Op op = OpHarness.op(name);
        for (int n : SIZES) {
            SplittableRandom rnd = new SplittableRandom(name.hashCode() * 7L + n);
            long[] ks = counts(n, rnd);
            List<Long> xs = new ArrayList<>();
            for (long a : OpHarness.intEdges(n)) xs.add(a);
            for (int i = 0; i < 60; i++) xs.add(OpHarness.randomInt(rnd, n));
            for (long a : xs) {
                for (long k : ks) OpHarness.expect(op, n, ref.apply(a, k, n), a, k);
            }
        }
    }

    static DynamicTest t(String name, Runnable r) {
        return DynamicTest.dynamicTest(name, r::run);
    }

    // ---- arithmetic ----------------------------------------------------------------------------------

    static long idivRef(long a, long b, int n) {
        if (s(b, n).signum() == 0) return 0;
        return wrap(s(a, n).divide(s(b, n)), n); // BigInteger division truncates toward zero
    }

    static long iremRef(long a, long b, int n) {
        if (s(b, n).signum() == 0) return 0;
        return wrap(s(a, n).remainder(s(b, n)), n); // sign of the dividend
    }

    static long imodRef(long a, long b, int n) {
        BigInteger y = s(b, n);
        if (y.signum() == 0) return 0;
        BigInteger r = s(a, n).mod(y.abs()); // in [0, |y|)
        if (y.signum() < 0 && r.signum() != 0) r = r.add(y); // sign of the divisor
        return wrap(r, n);
    }

    static BigInteger median(BigInteger a, BigInteger b, BigInteger c) {
        BigInteger[] v = {a, b, c};
        Arrays.sort(v);
        return v[1];
    }

    @TestFactory
    Stream<DynamicTest> arithmeticMatchesBigInteger() {
        List<DynamicTest> ts = new ArrayList<>();
        ts.add(t("iadd", () -> binary("iadd", (a, b, n) -> wrap(s(a, n).add(s(b, n)), n))));
        ts.add(t("isub", () -> binary("isub", (a, b, n) -> wrap(s(a, n).subtract(s(b, n)), n))));
        ts.add(t("imul", () -> binary("imul", (a, b, n) -> wrap(s(a, n).multiply(s(b, n)), n))));
        ts.add(t("ineg", () -> unary("ineg", (a, n) -> wrap(s(a, n).negate(), n))));
        ts.add(t("iabs", () -> unary("iabs", (a, n) -> wrap(s(a, n).abs(), n))));
        ts.add(t("isign", () -> unary("isign", (a, n) -> wrap(BigInteger.valueOf(s(a, n).signum()), n))));
        ts.add(t("idiv", () -> binary("idiv", IntOpsReferenceTest::idivRef)));
        ts.add(t("irem", () -> binary("irem", IntOpsReferenceTest::iremRef)));
        ts.add(t("imod", () -> binary("imod", IntOpsReferenceTest::imodRef)));
        ts.add(t(
                "udiv",
                () -> binary("udiv", (a, b, n) -> u(b, n).signum() == 0 ? 0 : wrap(u(a, n).divide(u(b, n)), n))));
        ts.add(t("umod", () -> binary("umod", (a, b, n) -> u(b, n).signum() == 0 ? 0 : wrap(u(a, n).mod(u(b, n)), n))));
        ts.add(t("imin", () -> binary("imin", (a, b, n) -> wrap(s(a, n).min(s(b, n)), n))));
        ts.add(t("imax", () -> binary("imax", (a, b, n) -> wrap(s(a, n).max(s(b, n)), n))));
        ts.add(t("umin", () -> binary("umin", (a, b, n) -> wrap(u(a, n).min(u(b, n)), n))));
        ts.add(t("umax", () -> binary("umax", (a, b, n) -> wrap(u(a, n).max(u(b, n)), n))));
        ts.add(t(
                "imin3",
                () -> ternary("imin3", (a, b, c, n) -> wrap(s(a, n).min(s(b, n)).min(s(c, n)), n))));
        ts.add(t(
                "imax3",
                () -> ternary("imax3", (a, b, c, n) -> wrap(s(a, n).max(s(b, n)).max(s(c, n)), n))));
        ts.add(t(
                "umin3",
                () -> ternary("umin3", (a, b, c, n) -> wrap(u(a, n).min(u(b, n)).min(u(c, n)), n))));
        ts.add(t(
                "umax3",
                () -> ternary("umax3", (a, b, c, n) -> wrap(u(a, n).max(u(b, n)).max(u(c, n)), n))));
        ts.add(t("imed3", () -> ternary("imed3", (a, b, c, n) -> wrap(median(s(a, n), s(b, n), s(c, n)), n))));
        ts.add(t("umed3", () -> ternary("umed3", (a, b, c, n) -> wrap(median(u(a, n), u(b, n), u(c, n)), n))));
        ts.add(t(
                "iadd3",
                () -> ternary("iadd3", (a, b, c, n) -> wrap(s(a, n).add(s(b, n)).add(s(c, n)), n))));
        ts.add(t(
                "imul_high",
                () -> binary(
                        "imul_high", (a, b, n) -> wrap(s(a, n).multiply(s(b, n)).shiftRight(n), n))));
        ts.add(t(
                "umul_high",
                () -> binary(
                        "umul_high", (a, b, n) -> wrap(u(a, n).multiply(u(b, n)).shiftRight(n), n))));
        ts.add(t(
                "imul_2x32_64",
                () -> binary("imul_2x32_64", new int[] {0}, (a, b, n) -> wrap(s(a, 32).multiply(s(b, 32)), 64))));
        ts.add(t(
                "umul_2x32_64",
                () -> binary("umul_2x32_64", new int[] {0}, (a, b, n) -> wrap(u(a, 32).multiply(u(b, 32)), 64))));
        ts.add(t("iadd_sat", () -> binary("iadd_sat", (a, b, n) -> wrap(clampSigned(s(a, n).add(s(b, n)), n), n))));
        ts.add(t(
                "isub_sat", () -> binary("isub_sat", (a, b, n) -> wrap(clampSigned(s(a, n).subtract(s(b, n)), n), n))));
        ts.add(t(
                "uadd_sat",
                () -> binary(
                        "uadd_sat", (a, b, n) -> wrap(u(a, n).add(u(b, n)).min(pow2(n).subtract(BigInteger.ONE)), n))));
        ts.add(t(
                "usub_sat",
                () -> binary(
                        "usub_sat", (a, b, n) -> wrap(u(a, n).subtract(u(b, n)).max(BigInteger.ZERO), n))));
        // shiftRight on BigInteger is floor division by 2
        ts.add(t(
                "ihadd",
                () -> binary("ihadd", (a, b, n) -> wrap(s(a, n).add(s(b, n)).shiftRight(1), n))));
        ts.add(t(
                "uhadd",
                () -> binary("uhadd", (a, b, n) -> wrap(u(a, n).add(u(b, n)).shiftRight(1), n))));
        ts.add(t(
                "irhadd",
                () -> binary(
                        "irhadd",
                        (a, b, n) ->
                                wrap(s(a, n).add(s(b, n)).add(BigInteger.ONE).shiftRight(1), n))));
        ts.add(t(
                "urhadd",
                () -> binary(
                        "urhadd",
                        (a, b, n) ->
                                wrap(u(a, n).add(u(b, n)).add(BigInteger.ONE).shiftRight(1), n))));
        ts.add(t(
                "uabs_isub",
                () -> binary(
                        "uabs_isub", (a, b, n) -> wrap(s(a, n).subtract(s(b, n)).abs(), n))));
        ts.add(t(
                "uabs_usub",
                () -> binary(
                        "uabs_usub", (a, b, n) -> wrap(u(a, n).subtract(u(b, n)).abs(), n))));
        return ts.stream();
    }

    // ---- comparisons -------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> comparisonsSignedAndUnsigned() {
        List<DynamicTest> ts = new ArrayList<>();
        ts.add(t("ilt", () -> binary("ilt", (a, b, n) -> bool(s(a, n).compareTo(s(b, n)) < 0))));
        ts.add(t("ige", () -> binary("ige", (a, b, n) -> bool(s(a, n).compareTo(s(b, n)) >= 0))));
        ts.add(t("ult", () -> binary("ult", (a, b, n) -> bool(u(a, n).compareTo(u(b, n)) < 0))));
        ts.add(t("uge", () -> binary("uge", (a, b, n) -> bool(u(a, n).compareTo(u(b, n)) >= 0))));
        ts.add(t("ieq", () -> binary("ieq", new int[] {1, 8, 16, 32, 64}, (a, b, n) -> bool(u(a, n).equals(u(b, n))))));
        ts.add(t(
                "ine", () -> binary("ine", new int[] {1, 8, 16, 32, 64}, (a, b, n) -> bool(!u(a, n).equals(u(b, n))))));
        ts.add(t("ball_iequal / bany_inequal", IntOpsReferenceTest::vectorEquality));
        return ts.stream();
    }

    static void vectorEquality() {
        SplittableRandom rnd = new SplittableRandom(8);
        for (int n : new int[] {1, 8, 16, 32, 64}) {
            for (int k = 2; k <= 4; k++) {
                Op all = OpHarness.op("ball_iequal" + k), any = OpHarness.op("bany_inequal" + k);
                for (int i = 0; i < 1000; i++) {
                    long[] a = new long[k], b = new long[k];
                    boolean eq = true;
                    for (int c = 0; c < k; c++) {
                        a[c] = OpHarness.randomInt(rnd, n);
                        b[c] = rnd.nextInt(4) != 0 ? a[c] : OpHarness.randomInt(rnd, n);
                        eq &= u(a[c], n).equals(u(b[c], n));
                    }
                    OpHarness.expectVec(all, n, new long[][] {a, b}, new long[] {bool(eq)});
                    OpHarness.expectVec(any, n, new long[][] {a, b}, new long[] {bool(!eq)});
                }
            }
        }
    }

    @Test
    void signedVersusUnsignedComparisonsSpelledOut() {
        expect("ilt", 8, 1, 0x80, 0x7f); // -128 < 127
        expect("ult", 8, 0, 0x80, 0x7f); // 128 > 127
        expect("ige", 16, 0, 0xffff, 0x0000); // -1 < 0
        expect("uge", 16, 1, 0xffff, 0x0000);
        expect("ilt", 64, 1, Long.MIN_VALUE, Long.MAX_VALUE);
        expect("ult", 64, 0, Long.MIN_VALUE, Long.MAX_VALUE);
        expect("ult", 64, 1, 0, -1L);
        expect("ilt", 64, 0, 0, -1L);
        expect("ieq", 1, 1, 1, 1);
        expect("ine", 1, 1, 0, 1);
        expect("imin", 32, 0xffffffffL, 0xffffffffL, 1);
        expect("umin", 32, 1, 0xffffffffL, 1);
        expect("imax", 8, 0x7f, 0x80, 0x7f);
        expect("umax", 8, 0x80, 0x80, 0x7f);
    }

    // ---- bitwise -----------------------------------------------------------------------------------

    static long rotl(long x, long k, int n) {
        int s = (int) (k % n);
        long out = 0;
        for (int i = 0; i < n; i++) {
            if (bit(x, i)) out |= 1L << ((i + s) % n);
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> bitwiseMatchesReferences() {
        List<DynamicTest> ts = new ArrayList<>();
        int[] withBool = {1, 8, 16, 32, 64};
        ts.add(t("iand", () -> binary("iand", withBool, (a, b, n) -> wrap(u(a, n).and(u(b, n)), n))));
        ts.add(t("ior", () -> binary("ior", withBool, (a, b, n) -> wrap(u(a, n).or(u(b, n)), n))));
        ts.add(t("ixor", () -> binary("ixor", withBool, (a, b, n) -> wrap(u(a, n).xor(u(b, n)), n))));
        ts.add(t("inot", () -> {
            unary("inot", (a, n) -> wrap(u(a, n).not(), n));
            expect("inot", 1, 0, 1);
            expect("inot", 1, 1, 0);
        }));
        // counts are taken modulo the bit size
        ts.add(t("ishl", () -> withCount("ishl", (a, k, n) -> wrap(s(a, n).shiftLeft((int) (k % n)), n))));
        ts.add(t("ishr", () -> withCount("ishr", (a, k, n) -> wrap(s(a, n).shiftRight((int) (k % n)), n))));
        ts.add(t("ushr", () -> withCount("ushr", (a, k, n) -> wrap(u(a, n).shiftRight((int) (k % n)), n))));
        ts.add(t("urol", () -> withCount("urol", IntOpsReferenceTest::rotl)));
        ts.add(t("uror", () -> withCount("uror", (a, k, n) -> rotl(a, n - k % n, n))));
        ts.add(t("bit_count", () -> unary("bit_count", (a, n) -> u(a, n).bitCount())));
        ts.add(t(
                "find_lsb",
                () -> unary("find_lsb", (a, n) -> u(a, n).signum() == 0 ? 0xffffffffL : u(a, n).getLowestSetBit())));
        ts.add(t(
                "ufind_msb",
                () -> unary("ufind_msb", (a, n) -> u(a, n).signum() == 0 ? 0xffffffffL : u(a, n).bitLength() - 1)));
        ts.add(t(
                "ifind_msb",
                () -> unary("ifind_msb", (a, n) -> {
                    BigInteger v = s(a, n);
                    BigInteger m = v.signum() < 0 ? v.not() : v; // the highest bit unlike the sign
                    return m.signum() == 0 ? 0xffffffffL : m.bitLength() - 1;
                })));
        ts.add(t("uclz", () -> unary("uclz", (a, n) -> n - u(a, n).bitLength())));
        ts.add(t(
                "bitfield_reverse",
                () -> unary("bitfield_reverse", (a, n) -> {
                    long out = 0;
                    for (int i = 0; i < n; i++) {
                        if (bit(a, i)) out |= 1L << (n - 1 - i);
                    }
                    return out;
                })));
        ts.add(t(
                "bitfield_select",
                () -> ternary(
                        "bitfield_select",
                        (m, a, b, n) ->
                                wrap(u(m, n).and(u(a, n)).or(u(m, n).not().and(u(b, n))), n))));
        return ts.stream();
    }

    @Test
    void shiftsAndBitSearchesSpelledOut() {
        expect("ishl", 32, 2, 1, 33); // 33 mod 32 = 1
        expect("ishl", 32, 1, 1, 32);
        expect("ishl", 8, 0x80, 1, 15);
        expect("ishl", 64, Long.MIN_VALUE, 1, 63);
        expect("ishl", 64, 2, 1, 65);
        expect("ushr", 32, 1, 0x80000000L, 63);
        expect("ishr", 8, 0xc0, 0x80, 9);
        expect("ishr", 64, -1L, Long.MIN_VALUE, 63);
        expect("ushr", 16, 0x8000, 0x8000, 0xffffffe0L); // count 2^32 - 32: 0 mod 16
        expect("urol", 8, 0x03, 0x81, 1);
        expect("uror", 8, 0x80, 0x01, 9);
        expect("urol", 64, 1, Long.MIN_VALUE, 1);
        expect("uror", 32, 0x80000000L, 1, 0xffffffe1L);
        expect("find_lsb", 32, 0xffffffffL, 0);
        expect("find_lsb", 64, 63, Long.MIN_VALUE);
        expect("find_lsb", 8, 7, 0x80);
        expect("ufind_msb", 8, 0xffffffffL, 0);
        expect("ufind_msb", 8, 7, 0x80);
        expect("ufind_msb", 64, 63, -1L);
        expect("ifind_msb", 32, 0xffffffffL, 0);
        expect("ifind_msb", 32, 0xffffffffL, 0xffffffffL); // -1
        expect("ifind_msb", 32, 0, 1);
        expect("ifind_msb", 32, 0, 0xfffffffeL); // -2: bit 0 is the highest unlike the sign
        expect("ifind_msb", 32, 30, 0x80000000L);
        expect("ifind_msb", 8, 6, 0x7f);
        expect("uclz", 16, 16, 0);
        expect("uclz", 64, 63, 1);
        expect("uclz", 8, 0, 0x80);
        expect("bit_count", 64, 64, -1L);
        expect("bit_count", 8, 8, 0xff);
        expect("bitfield_reverse", 8, 0x80, 0x01);
        expect("bitfield_reverse", 32, 0x0000ffffL, 0xffff0000L);
        expect("bitfield_reverse", 64, 1, Long.MIN_VALUE);
    }

    // ---- bitfields -----------------------------------------------------------------------------------

    /** [offset, offset + width) of the field, or null: off and count are unsigned 32-bit. */
    static int[] field(long off, long count, int n) {
        long o = off & 0xffffffffL, c = count & 0xffffffffL;
        if (c == 0 || o >= n) return null;
        long end = Math.min(o + c, n);
        return new int[] {(int) o, (int) (end - o)};
    }

    static long extractRef(long x, long off, long count, int n, boolean signed) {
        int[] f = field(off, count, n);
        if (f == null) return 0;
        long v = 0;
        for (int i = 0; i < f[1]; i++) {
            if (bit(x, f[0] + i)) v |= 1L << i;
        }
        if (signed && bit(v, f[1] - 1)) {
            for (int i = f[1]; i < 64; i++) v |= 1L << i;
        }
        return v;
    }

    static long insertRef(long base, long ins, long off, long count, int n) {
        int[] f = field(off, count, n);
        if (f == null) return base;
        long v = base;
        for (int i = 0; i < f[1]; i++) {
            long b = 1L << (f[0] + i);
            v = bit(ins, i) ? v | b : v & ~b;
        }
        return v;
    }

    static long[] fieldParams(SplittableRandom rnd, int n) {
        long[] special = {0, 1, 2, n - 1, n, n + 1, 2L * n, 31, 32, 33, 0xffffffffL, 0x80000000L, 0x7fffffffL};
        return new long[] {
            rnd.nextInt(3) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextInt(0, n + 2),
            rnd.nextInt(3) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextInt(0, n + 2),
        };
    }

    @Test
    void bitfieldExtractAndInsertAgainstBitLoops() {
        Op ue = OpHarness.op("ubitfield_extract"),
                ie = OpHarness.op("ibitfield_extract"),
                bi = OpHarness.op("bitfield_insert");
        for (int n : SIZES) {
            SplittableRandom rnd = new SplittableRandom(n * 101L);
            for (int i = 0; i < 2 * RANDOM; i++) {
                long x = OpHarness.randomInt(rnd, n), y = OpHarness.randomInt(rnd, n);
                long[] p = fieldParams(rnd, n);
                OpHarness.expect(ue, n, extractRef(x, p[0], p[1], n, false), x, p[0], p[1]);
                OpHarness.expect(ie, n, extractRef(x, p[0], p[1], n, true), x, p[0], p[1]);
                OpHarness.expect(bi, n, insertRef(x, y, p[0], p[1], n), x, y, p[0], p[1]);
            }
            // every (offset, count) in a small square, on one value
            long x = 0xdeadbeefcafef00dL & Bits.mask(n);
            for (long off = 0; off <= n + 1; off++) {
                for (long cnt = 0; cnt <= n + 1; cnt++) {
                    OpHarness.expect(ue, n, extractRef(x, off, cnt, n, false), x, off, cnt);
                    OpHarness.expect(ie, n, extractRef(x, off, cnt, n, true), x, off, cnt);
                    OpHarness.expect(bi, n, insertRef(x, ~x, off, cnt, n), x, ~x, off, cnt);
                }
            }
        }
    }

    @Test
    void bitfieldEdgeCasesSpelledOut() {
        expect("ubitfield_extract", 32, 0xbe, 0xdeadbeefL, 8, 8);
        expect("ubitfield_extract", 32, 0, 0xdeadbeefL, 8, 0); // count 0
        expect("ubitfield_extract", 32, 0, 0xdeadbeefL, 32, 8); // offset >= bits
        expect("ubitfield_extract", 32, 0, 0xdeadbeefL, 0xffffffffL, 8); // offset -1 read unsigned: huge
        expect("ubitfield_extract", 32, 0xd, 0xdeadbeefL, 28, 8); // field past the top stops there
        expect("ubitfield_extract", 32, 0xdeadbeefL, 0xdeadbeefL, 0, 0xffffffffL); // count -1: whole value
        expect("ubitfield_extract", 8, 0xff, 0xff, 0, 8);
        expect("ibitfield_extract", 32, 0xfffffffdL, 0xdeadbeefL, 28, 8); // 0xd as 4 bits = -3
        expect("ibitfield_extract", 32, 0xffffffbeL, 0xdeadbeefL, 8, 8); // 0xbe as a byte = -66
        expect("ibitfield_extract", 32, 0x3e, 0xdeadbeefL, 8, 7);
        expect("ibitfield_extract", 32, 0xdeadbeefL, 0xdeadbeefL, 0, 32);
        expect("ibitfield_extract", 8, 0xff, 0x80, 7, 1);
        expect("ibitfield_extract", 8, 0, 0x80, 7, 0);
        expect("ibitfield_extract", 64, -1L, Long.MIN_VALUE, 63, 5);
        expect("bitfield_insert", 32, 0xfffff00fL, 0xffffffffL, 0, 4, 8);
        expect("bitfield_insert", 32, 0xffffffffL, 0xffffffffL, 0, 4, 0); // empty field: base
        expect("bitfield_insert", 32, 0xffffffffL, 0xffffffffL, 0, 32, 8); // offset >= bits: base
        expect("bitfield_insert", 32, 0xf0000000L, 0, 0xff, 28, 8); // stops at the top
        expect("bitfield_insert", 32, 0x12345678L, 0xffffffffL, 0x12345678L, 0, 32);
        expect("bitfield_insert", 16, 0x0ab0, 0, 0xfab, 4, 8);
        expect("bfm", 0, 0, 32, 0); // (1 << 0) - 1 = 0
        expect("bfm", 0, 0xf0, 4, 4);
        expect("bfm", 0, 0xfffffffeL, 31, 1);
        expect("bfm", 0, 0x7fffffffL, 31, 0);
        expect("bfm", 0, 0xf, 36, 0); // 36 & 31 = 4
        expect("bfm", 0, 0xf0000000L, 8, 28); // 0xff << 28, 32-bit
        expect("bfm", 0, 0x10, 1, 36);
        expect("bitfield_select", 32, 0xf00fL, 0xff00L, 0xf000L, 0x0f0fL);
    }

    @Test
    void bfmAgainstBitLoop() {
        SplittableRandom rnd = new SplittableRandom(77);
        for (int i = 0; i < RANDOM; i++) {
            long bits = rnd.nextBoolean() ? rnd.nextInt(0, 70) : rnd.nextLong() & 0xffffffffL;
            long off = rnd.nextBoolean() ? rnd.nextInt(0, 70) : rnd.nextLong() & 0xffffffffL;
            int count = (int) (bits % 32), o = (int) (off % 32);
            long v = 0;
            for (int b = o; b < o + count && b < 32; b++) v |= 1L << b;
            OpHarness.expect("bfm", 0, v, bits, off);
        }
    }

    // ---- extract / insert of bytes and half-words --------------------------------------------------------

    @Test
    void extractAndInsertFields() {
        SplittableRandom rnd = new SplittableRandom(9);
        for (int n : SIZES) {
            for (int i = 0; i < RANDOM; i++) {
                long a = OpHarness.randomInt(rnd, n);
                long idx = rnd.nextInt(3) == 0 ? OpHarness.randomInt(rnd, n) : rnd.nextInt(0, 10);
                for (int fb : new int[] {8, 16}) {
                    if (fb > n) continue;
                    int count = n / fb;
                    int k = u(idx, n).mod(BigInteger.valueOf(count)).intValue(); // field number mod the count
                    long field = 0;
                    for (int b = 0; b < fb; b++) {
                        if (bit(a, k * fb + b)) field |= 1L << b;
                    }
                    long signed = wrap(s(field, fb), n);
                    long moved = 0;
                    for (int b = 0; b < fb; b++) {
                        if (bit(a, b)) moved |= 1L << (k * fb + b);
                    }
                    OpHarness.expect("extract_u" + fb, n, field, a, idx);
                    OpHarness.expect("extract_i" + fb, n, signed, a, idx);
                    OpHarness.expect("insert_u" + fb, n, moved, a, idx);
                }
            }
        }
        expect("extract_u8", 32, 0x33, 0x11223344L, 1);
        expect("extract_u8", 32, 0x33, 0x11223344L, 5); // 5 mod 4
        expect("extract_u8", 32, 0x11, 0x11223344L, 0xffffffffL); // 2^32 - 1 mod 4 = 3
        expect("extract_i8", 16, 0xffff, 0x80ff, 0);
        expect("extract_i8", 16, 0xff80, 0x80ff, 1);
        expect("extract_u8", 8, 0xab, 0xab, 7); // one field
        expect("extract_i16", 32, 0xffff8000L, 0x80001234L, 1);
        expect("extract_u16", 64, 0x8000, 0x8000800000000000L, 2);
        expect("insert_u8", 32, 0x00ff0000L, 0x1ffL, 2);
        expect("insert_u16", 32, 0x12340000L, 0xabcd1234L, 1);
        expect("insert_u16", 64, 0x1234000000000000L, 0xabcd1234L, 7); // 7 mod 4 = 3
    }

    // ---- the README's undefined-in-C cases ---------------------------------------------------------

    @Test
    void divisionEdgeCasesSpelledOut() {
        for (int n : SIZES) {
            long min = Bits.minSigned(n) & Bits.mask(n), m1 = Bits.mask(n);
            expect("idiv", n, min, min, m1); // MIN / -1 = MIN
            expect("irem", n, 0, min, m1); // MIN % -1 = 0
            expect("imod", n, 0, min, m1);
            for (String op : new String[] {"idiv", "udiv", "irem", "imod", "umod"}) {
                expect(op, n, 0, 7, 0);
                expect(op, n, 0, min, 0);
                expect(op, n, 0, m1, 0);
            }
            expect("idiv", n, (-2L) & m1, 7, (-3L) & m1); // toward zero
            expect("idiv", n, (-2L) & m1, (-7L) & m1, 3);
            expect("irem", n, (-1L) & m1, (-7L) & m1, 3); // sign of the dividend
            expect("irem", n, 1, 7, (-3L) & m1);
            expect("imod", n, 2, (-7L) & m1, 3); // sign of the divisor
            expect("imod", n, (-2L) & m1, 7, (-3L) & m1);
            expect("imod", n, (-1L) & m1, (-7L) & m1, (-3L) & m1);
            expect("imod", n, 0, (-6L) & m1, 3);
            expect("udiv", n, 1, m1, (Bits.maxSigned(n) + 1) & m1); // (2^n - 1) / 2^(n-1)
            expect("umod", n, Bits.maxSigned(n), m1, (Bits.maxSigned(n) + 1) & m1);
            expect("iabs", n, min, min); // wraps
            expect("ineg", n, min, min);
            expect("isign", n, m1, min);
            expect("iadd_sat", n, Bits.maxSigned(n), Bits.maxSigned(n), 1);
            expect("iadd_sat", n, min, min, m1);
            expect("isub_sat", n, min, min, 1);
            expect("isub_sat", n, Bits.maxSigned(n), 0, min); // 0 - MIN saturates
            expect("uadd_sat", n, m1, m1, 1);
            expect("usub_sat", n, 0, 0, 1);
            expect("ihadd", n, (-2L) & m1, m1, (-2L) & m1); // floor(-1.5) = -2
            expect("irhadd", n, m1, m1, (-2L) & m1); // ceil(-1.5) = -1
            expect("ihadd", n, Bits.maxSigned(n), Bits.maxSigned(n), Bits.maxSigned(n)); // no overflow
            expect("irhadd", n, min, min, min);
            expect("uhadd", n, m1, m1, m1);
            expect("urhadd", n, m1, m1, (m1 - 1) & m1);
            expect("uhadd", n, (m1 - 1) & m1, m1, (m1 - 2) & m1); // floor((2^n - 1 + 2^n - 3) / 2)
            expect("uabs_isub", n, m1, Bits.maxSigned(n), min); // MAX - MIN = 2^n - 1
            expect("uabs_usub", n, m1, 0, m1);
        }
        expect("imul_high", 32, 0x40000000L, 0x80000000L, 0x80000000L); // MIN * MIN = 2^62
        expect("umul_high", 32, 0xfffffffeL, 0xffffffffL, 0xffffffffL);
        expect("umul_high", 64, 0xfffffffffffffffeL, -1L, -1L);
        expect("imul_high", 64, -1L, -1L, 1);
        expect("imul_high", 64, 0, -1L, -1L);
        expect("imul_high", 8, 0xc0, 0x80, 0x7f); // -128 * 127 = -16256 = 0xc080 in 16 bits
        expect("umul_high", 8, 0x3f, 0x80, 0x7f); // 128 * 127 = 16256 = 0x3f80
    }
}
