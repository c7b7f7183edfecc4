package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpHarness.check;
import static dev.lathe.ir.op.OpHarness.hex;
import static dev.lathe.ir.op.OpHarness.hexVectors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Structural checks of the op table: its size and names, legal bit sizes, that every op
 * evaluates at every legal size on random and edge inputs with results masked to the output
 * size, that vector evaluation is per component, and that the commutative and associative flags
 * hold bit-exactly (NaN inputs included).
 */
@ExtendWith(CountChecks.class)
class OpTableTest {

    /** Every op named in the op-table test brief (the "issue list"): all must exist. */
    static final String[] NAMED_OPS = {
        "mov",
        "vec2",
        "vec3",
        "vec4",
        "vec8",
        "vec16",
        "bcsel",
        "fadd",
        "fsub",
        "fmul",
        "fmulz",
        "fdiv",
        "ffma",
        "flrp",
        "fneg",
        "fabs",
        "fsat",
        "fsat_signed",
        "fclamp_pos",
        "fsign",
        "fmin",
        "fmax",
        "fmin3",
        "fmax3",
        "fmed3",
        "ffloor",
        "fceil",
        "ftrunc",
        "fround_even",
        "ffract",
        "fmod",
        "frem",
        "frcp",
        "frsq",
        "fsqrt",
        "fexp2",
        "flog2",
        "fpow",
        "fsin",
        "fcos",
        "ldexp",
        "fquantize2f16",
        "fisnan",
        "fisfinite",
        "fcsel",
        "fdot2",
        "fdot3",
        "fdot4",
        "fdph",
        "flt",
        "fge",
        "feq",
        "fneu",
        "fltu",
        "fgeu",
        "fequ",
        "fneo",
        "funord",
        "ford",
        "ball_fequal2",
        "ball_fequal3",
        "ball_fequal4",
        "bany_fnequal2",
        "bany_fnequal3",
        "bany_fnequal4",
        "iadd",
        "isub",
        "imul",
        "ineg",
        "iabs",
        "isign",
        "idiv",
        "udiv",
        "irem",
        "imod",
        "umod",
        "imin",
        "imax",
        "umin",
        "umax",
        "imin3",
        "imax3",
        "umin3",
        "umax3",
        "imed3",
        "umed3",
        "imul_high",
        "umul_high",
        "imul_2x32_64",
        "umul_2x32_64",
        "iadd_sat",
        "uadd_sat",
        "isub_sat",
        "usub_sat",
        "ihadd",
        "uhadd",
        "irhadd",
        "urhadd",
        "uabs_isub",
        "uabs_usub",
        "iadd3",
        "ilt",
        "ige",
        "ieq",
        "ine",
        "ult",
        "uge",
        "ball_iequal2",
        "ball_iequal3",
        "ball_iequal4",
        "bany_inequal2",
        "bany_inequal3",
        "bany_inequal4",
        "iand",
        "ior",
        "ixor",
        "inot",
        "ishl",
        "ishr",
        "ushr",
        "urol",
        "uror",
        "bit_count",
        "find_lsb",
        "ufind_msb",
        "ifind_msb",
        "uclz",
        "bitfield_reverse",
        "ubitfield_extract",
        "ibitfield_extract",
        "bitfield_insert",
        "bfm",
        "bitfield_select",
        "extract_u8",
        "extract_i8",
        "extract_u16",
        "extract_i16",
        "insert_u8",
        "insert_u16",
        "f2f16",
        "f2f16_rtne",
        "f2f16_rtz",
        "f2f32",
        "f2f64",
        "f2i8",
        "f2i16",
        "f2i32",
        "f2i64",
        "f2u8",
        "f2u16",
        "f2u32",
        "f2u64",
        "i2f16",
        "i2f32",
        "i2f64",
        "u2f16",
        "u2f32",
        "u2f64",
        "i2i8",
        "i2i16",
        "i2i32",
        "i2i64",
        "u2u8",
        "u2u16",
        "u2u32",
        "u2u64",
        "b2f16",
        "b2f32",
        "b2f64",
        "b2i8",
        "b2i16",
        "b2i32",
        "b2i64",
        "f2b1",
        "i2b1",
        "pack_64_2x32_split",
        "pack_64_2x32_split_x",
        "pack_64_2x32_split_y",
        "unpack_64_2x32_split_x",
        "unpack_64_2x32_split_y",
        "pack_64_2x32",
        "unpack_64_2x32",
        "pack_64_4x16",
        "unpack_64_4x16",
        "pack_32_2x16",
        "unpack_32_2x16",
        "pack_32_2x16_split",
        "unpack_32_2x16_split_x",
        "unpack_32_2x16_split_y",
        "pack_32_4x8",
        "unpack_32_4x8",
        "pack_half_2x16",
        "unpack_half_2x16",
        "pack_half_2x16_split",
        "unpack_half_2x16_split_x",
        "unpack_half_2x16_split_y",
        "pack_unorm_4x8",
        "unpack_unorm_4x8",
        "pack_snorm_4x8",
        "unpack_snorm_4x8",
        "pack_unorm_2x16",
        "unpack_unorm_2x16",
        "pack_snorm_2x16",
        "unpack_snorm_2x16",
    };

    /**
     * Two-source ops that are not flagged commutative although swapping their sources never
     * changes the result. A missing flag is not wrong (it only loses an optimisation), so these
     * are listed here rather than failing; a new unflagged op that commutes fails
     * {@link #unflaggedOpsDoNotCommute} until it is flagged or added here.
     */
    static final Set<String> COMMUTE_BUT_UNFLAGGED = Set.of();

    // ---- the table itself ----------------------------------------------------------------------

    @Test
    void tableHasAtLeast150UniquelyNamedOps() {
        Op[] ops = Op.values();
        assertTrue(ops.length >= 150, "only " + ops.length + " ops");
        Set<String> names = new HashSet<>();
        for (Op op : ops) {
            check(names.add(op.opName()), () -> "duplicate op name " + op.opName());
            check(Op.byName(op.opName()) == op, () -> "byName(" + op.opName() + ") does not find it");
            check(op.opName().matches("[a-z0-9_]+"), () -> "odd op name " + op.opName());
        }
        check(Op.byName("no_such_op") == null, () -> "byName of an unknown name is not null");
    }

    @Test
    void everyNamedOpExists() {
        List<String> missing = new ArrayList<>();
        for (String n : NAMED_OPS) {
            OpHarness.CHECKS.incrementAndGet();
            if (Op.byName(n) == null) missing.add(n);
        }
        assertEquals(List.of(), missing, "ops missing from the table");
    }

    @Test
    void signaturesAndLegalSizesAreConsistent() {
        for (Op op : Op.values()) {
            String name = op.opName();
            List<Integer> sizes = op.legalBitSizeList();
            check(
                    op.hasUnsizedOperands() == !sizes.isEmpty(),
                    () -> name + ": hasUnsizedOperands disagrees with its size list");
            boolean anyUnsized = !op.output().isSized();
            for (int i = 0; i < op.numInputs(); i++) anyUnsized |= !op.input(i).isSized();
            boolean unsized = anyUnsized;
            check(
                    op.hasUnsizedOperands() == unsized,
                    () -> name + ": unsized operands but no legal sizes, or the reverse");
            for (int b : sizes) {
                check(Bits.isValidBitSize(b), () -> name + ": illegal size " + b);
                for (int i = -1; i < op.numInputs(); i++) {
                    OperandType t = i < 0 ? op.output() : op.input(i);
                    if (!t.isSized() && t.typeClass() == TypeClass.FLOAT) {
                        check(b == 16 || b == 32 || b == 64, () -> name + ": float operand legal at " + b + " bits");
                    }
                    if (!t.isSized() && (t.typeClass() == TypeClass.INT || t.typeClass() == TypeClass.UINT)) {
                        check(b != 1 || isBitwiseOrEquality(name), () -> name + ": int operand legal at 1 bit");
                    }
                }
            }
            for (int i = 0; i < op.numInputs(); i++) {
                OperandType t = op.input(i);
                int ii = i;
                check(
                        t.isPerComponent() != op.isHorizontal(),
                        () -> name + ": source " + ii + " mixes per-component and fixed");
                if (t.isSized())
                    check(Bits.isValidBitSize(t.bitSize()), () -> name + ": source " + ii + " has a bad size");
            }
            // every comparison / predicate produces a 1-bit boolean
            if (op.output().typeClass() == TypeClass.BOOL) {
                check(op.outputBits(32) == 1, () -> name + ": boolean result is not 1 bit");
            }
            check(op.signature().equals(signatureOf(op)), () -> name + ": signature text " + op.signature());
            check(!op.description().isBlank(), () -> name + ": no description");
        }
    }

    private static boolean isBitwiseOrEquality(String name) {
        return Set.of(
                                "iand",
                                "ior",
                                "ixor",
                                "inot",
                                "ieq",
                                "ine",
                                "ball_iequal2",
                                "ball_iequal3",
                                "ball_iequal4",
                                "bany_inequal2",
                                "bany_inequal3",
                                "bany_inequal4")
                        .contains(name)
                // the wider all/any comparisons, as the ones above
                || name.matches("ball_iequal(8|16)|bany_inequal(8|16)")
                // NIR's conversions take a 1-bit integer (a boolean's bit): sign- or zero-extended
                || name.matches("[iu]2[iuf](1|8|16|32|64)");
    }

    private static String signatureOf(Op op) {
        StringBuilder sb = new StringBuilder(op.output().toString()).append('(');
        for (int i = 0; i < op.numInputs(); i++) sb.append(i > 0 ? ", " : "").append(op.input(i));
        return sb.append(')').toString();
    }

    @Test
    void everyOpsEvaluationKindMatchesItsSignature() {
        // made on first use (OpEvals), so the check the constructor cannot make runs here for all of them
        for (Op op : Op.values()) {
            assertEquals(op.isHorizontal(), op.eval() instanceof Eval.Horizontal, op.opName());
            assertSame(op.eval(), op.eval(), op.opName() + ": made once");
        }
    }

    @Test
    void algebraicFlagsAreOnlyOnSymmetricSignatures() {
        for (Op op : Op.values()) {
            if (op.isCommutative()) {
                check(
                        op.numInputs() >= 2 && op.input(0).equals(op.input(1)),
                        () -> op.opName() + ": commutative, but its first two sources differ in type");
            }
            if (op.isAssociative()) {
                check(
                        op.isCommutative()
                                && op.numInputs() == 2
                                && !op.isHorizontal()
                                && op.output().equals(op.input(0)),
                        () -> op.opName() + ": associative, but not a closed binary operation");
            }
        }
        // the obvious ones are flagged
        for (String n : new String[] {
            "fadd",
            "fmul",
            "ffma",
            "iadd",
            "imul",
            "iand",
            "ior",
            "ixor",
            "ieq",
            "ine",
            "feq",
            "fneu",
            "fmin",
            "fmax",
            "imin",
            "imax",
            "umin",
            "umax",
            "fdot3",
            "umul_high"
        }) {
            check(OpHarness.op(n).isCommutative(), () -> n + " is not flagged commutative");
        }
        for (String n : new String[] {"fsub", "fdiv", "isub", "idiv", "ishl", "flt", "ilt", "ult", "fdph"}) {
            check(!OpHarness.op(n).isCommutative(), () -> n + " is flagged commutative");
        }
        for (String n :
                new String[] {"iadd", "imul", "iand", "ior", "ixor", "imin", "imax", "umin", "umax", "fmin", "fmax"}) {
            check(OpHarness.op(n).isAssociative(), () -> n + " is not flagged associative");
        }
        for (String n : new String[] {"fadd", "fmul", "isub", "iadd_sat", "ihadd"}) {
            check(!OpHarness.op(n).isAssociative(), () -> n + " is flagged associative");
        }
    }

    // ---- every op evaluates everywhere ---------------------------------------------------------

    /** The unsized bit sizes to evaluate an op at: its legal sizes, or 0 when every operand is sized. */
    static List<Integer> sizesOf(Op op) {
        return op.hasUnsizedOperands() ? op.legalBitSizeList() : List.of(0);
    }

    private static final Map<String, long[]> EDGE_CACHE = new ConcurrentHashMap<>();

    /** Edge values for source i: float edges (at float sizes) and integer edges. */
    static long[] edgesFor(Op op, int i, int unsized) {
        return EDGE_CACHE.computeIfAbsent(op.opName() + "/" + i + "/" + unsized, k -> computeEdges(op, i, unsized));
    }

    private static long[] computeEdges(Op op, int i, int unsized) {
        int b = OpHarness.bitsOfInput(op, i, unsized);
        OperandType t = op.input(i);
        Set<Long> s = new LinkedHashSet<>();
        if (b == 16 || b == 32 || b == 64) {
            for (long v : OpHarness.floatEdges(b)) s.add(v);
        }
        if (t.typeClass() != TypeClass.FLOAT || s.isEmpty()) {
            for (long v : OpHarness.intEdges(b)) s.add(v);
        }
        return s.stream().mapToLong(Long::longValue).toArray();
    }

    static long randomFor(Op op, int i, int unsized, SplittableRandom rnd) {
        int b = OpHarness.bitsOfInput(op, i, unsized);
        TypeClass c = op.input(i).typeClass();
        boolean floaty = b >= 16 && (c == TypeClass.FLOAT || (c == TypeClass.ANY && rnd.nextBoolean()));
        return floaty ? OpHarness.randomFloat(rnd, b) : OpHarness.randomInt(rnd, b);
    }

    @TestFactory
    Stream<DynamicTest> everyOpEvaluatesAtEveryLegalSizeWithMaskedResults() {
        return Arrays.stream(Op.values())
                .map(op -> DynamicTest.dynamicTest(op.opName(), () -> {
                    SplittableRandom rnd = new SplittableRandom(op.ordinal() * 7919L + 1);
                    for (int unsized : sizesOf(op)) {
                        int[] comps = op.isHorizontal()
                                ? new int[] {op.output().components()}
                                : new int[] {1, 2, 3, 4, 8, 16};
                        for (int dest : comps) {
                            int rounds = dest == 1 ? 400 : 60;
                            for (int r = 0; r < rounds; r++) evaluateOnce(op, unsized, dest, rnd, r % 2 == 0);
                        }
                        if (!op.isHorizontal() && op.numInputs() <= 2) evaluateAllEdgeCombinations(op, unsized);
                    }
                }));
    }

    /** Evaluates once on random (or edge) inputs; checks the shape and masking of the result. */
    private static void evaluateOnce(Op op, int unsized, int dest, SplittableRandom rnd, boolean edges) {
        long[][] srcs = new long[op.numInputs()][];
        for (int i = 0; i < srcs.length; i++) {
            int n = op.inputComponents(i, dest);
            long[] e = edgesFor(op, i, unsized);
            srcs[i] = new long[n];
            for (int c = 0; c < n; c++) srcs[i][c] = edges ? e[rnd.nextInt(e.length)] : randomFor(op, i, unsized, rnd);
        }
        long[] out = evaluateChecked(op, unsized, dest, srcs);
        // per-component ops: component c of a vector result depends only on component c of the sources
        if (!op.isHorizontal() && dest > 1) {
            for (int c = 0; c < dest; c++) {
                long[][] one = new long[srcs.length][];
                for (int i = 0; i < srcs.length; i++) one[i] = new long[] {srcs[i][c]};
                long scalar = evaluateChecked(op, unsized, 1, one)[0];
                int cc = c;
                int ob = OpHarness.bitsOfOutput(op, unsized);
                check(
                        scalar == out[c],
                        () -> op.opName() + " @" + unsized + " vec" + dest + " "
                                + hexVectors(op, unsized, srcs) + ": component " + cc + " is " + hex(out[cc], ob)
                                + " but the scalar evaluation gives " + hex(scalar, ob));
            }
        }
    }

    private static void evaluateAllEdgeCombinations(Op op, int unsized) {
        long[] e0 = edgesFor(op, 0, unsized);
        if (op.numInputs() == 1) {
            for (long a : e0) evaluateChecked(op, unsized, 1, new long[][] {{a}});
            return;
        }
        long[] e1 = edgesFor(op, 1, unsized);
        for (long a : e0) {
            for (long b : e1) evaluateChecked(op, unsized, 1, new long[][] {{a}, {b}});
        }
    }

    private static long[] evaluateChecked(Op op, int unsized, int dest, long[][] srcs) {
        long[] out;
        try {
            out = op.evaluate(unsized, dest, srcs);
        } catch (RuntimeException e) {
            throw new AssertionError(
                    op.opName() + " @" + unsized + " " + hexVectors(op, unsized, srcs) + " threw " + e, e);
        }
        long mask = Bits.mask(OpHarness.bitsOfOutput(op, unsized));
        OpHarness.CHECKS.incrementAndGet();
        if (out.length != dest) {
            throw new AssertionError(
                    op.opName() + " @" + unsized + ": " + out.length + " components, expected " + dest);
        }
        for (long v : out) {
            if ((v & ~mask) != 0) {
                throw new AssertionError(op.opName() + " @" + unsized + " " + hexVectors(op, unsized, srcs)
                        + ": result " + hex(v, 64) + " is not masked to " + op.outputBits(unsized) + " bits");
            }
        }
        return out;
    }

    // ---- algebraic flags -----------------------------------------------------------------------

    private static long[][] randomSources(Op op, int unsized, SplittableRandom rnd, boolean edges) {
        int dest = op.isHorizontal() ? op.output().components() : 1;
        long[][] srcs = new long[op.numInputs()][];
        for (int i = 0; i < srcs.length; i++) {
            int n = op.inputComponents(i, dest);
            long[] e = edgesFor(op, i, unsized);
            srcs[i] = new long[n];
            for (int c = 0; c < n; c++) srcs[i][c] = edges ? e[rnd.nextInt(e.length)] : randomFor(op, i, unsized, rnd);
        }
        return srcs;
    }

    /** The first counterexample to commutativity among the samples, or null. */
    private static String commutationFailure(Op op, int unsized, SplittableRandom rnd, int samples) {
        int dest = op.isHorizontal() ? op.output().components() : 1;
        int ob = OpHarness.bitsOfOutput(op, unsized);
        for (int s = 0; s < samples; s++) {
            long[][] srcs = randomSources(op, unsized, rnd, s % 3 == 0);
            if (s % 5 == 1) srcs[1] = srcs[0].clone(); // equal operands
            long[][] swapped = srcs.clone();
            swapped[0] = srcs[1];
            swapped[1] = srcs[0];
            long[] x = op.evaluate(unsized, dest, srcs);
            long[] y = op.evaluate(unsized, dest, swapped);
            OpHarness.CHECKS.incrementAndGet();
            if (!Arrays.equals(x, y)) {
                return op.opName() + " @" + unsized + " " + hexVectors(op, unsized, srcs) + " gives "
                        + Arrays.stream(x).mapToObj(v -> hex(v, ob)).toList() + " but with sources 0 and 1 swapped "
                        + Arrays.stream(y).mapToObj(v -> hex(v, ob)).toList();
            }
        }
        return null;
    }

    @TestFactory
    Stream<DynamicTest> commutativeOpsCommuteBitExactly() {
        return Arrays.stream(Op.values())
                .filter(Op::isCommutative)
                .map(op -> DynamicTest.dynamicTest(op.opName(), () -> {
                    SplittableRandom rnd = new SplittableRandom(op.ordinal() * 31L + 5);
                    for (int unsized : sizesOf(op)) {
                        String failure = commutationFailure(op, unsized, rnd, 2000);
                        assertTrue(failure == null, failure);
                        if (!op.isHorizontal() && op.numInputs() == 2) {
                            long[] e0 = edgesFor(op, 0, unsized);
                            int ob = OpHarness.bitsOfOutput(op, unsized);
                            for (long a : e0) {
                                for (long b : e0) {
                                    long x = OpHarness.eval(op, unsized, a, b), y = OpHarness.eval(op, unsized, b, a);
                                    check(
                                            x == y,
                                            () -> op.opName() + " @" + unsized + " (" + hex(a, ob) + ", " + hex(b, ob)
                                                    + ") = " + hex(x, ob) + " but swapped = " + hex(y, ob));
                                }
                            }
                        }
                    }
                }));
    }

    /** Two-source ops without the flag: swapping the sources must change the result somewhere. */
    @Test
    void unflaggedOpsDoNotCommute() {
        Set<String> commuting = new TreeSet<>();
        for (Op op : Op.values()) {
            if (op.isCommutative() || op.numInputs() < 2 || !op.input(0).equals(op.input(1))) continue;
            boolean allCommute = true;
            SplittableRandom rnd = new SplittableRandom(op.ordinal());
            for (int unsized : sizesOf(op)) {
                if (commutationFailure(op, unsized, rnd, 600) != null) allCommute = false;
            }
            if (allCommute) commuting.add(op.opName());
        }
        assertEquals(
                new TreeSet<>(COMMUTE_BUT_UNFLAGGED),
                commuting,
                "two-source ops that commute on every sample but are not flagged commutative");
    }

    @TestFactory
    Stream<DynamicTest> associativeOpsAreAssociativeExactly() {
        return Arrays.stream(Op.values())
                .filter(Op::isAssociative)
                .map(op -> DynamicTest.dynamicTest(op.opName(), () -> {
                    SplittableRandom rnd = new SplittableRandom(op.ordinal() * 131L + 7);
                    for (int unsized : sizesOf(op)) {
                        int ob = OpHarness.bitsOfOutput(op, unsized);
                        long[] e = edgesFor(op, 0, unsized);
                        for (int s = 0; s < 4000; s++) {
                            long a, b, c;
                            if (s % 2 == 0) {
                                a = e[rnd.nextInt(e.length)];
                                b = e[rnd.nextInt(e.length)];
                                c = e[rnd.nextInt(e.length)];
                            } else {
                                a = randomFor(op, 0, unsized, rnd);
                                b = randomFor(op, 0, unsized, rnd);
                                c = randomFor(op, 0, unsized, rnd);
                            }
                            long left = OpHarness.eval(op, unsized, OpHarness.eval(op, unsized, a, b), c);
                            long right = OpHarness.eval(op, unsized, a, OpHarness.eval(op, unsized, b, c));
                            check(
                                    left == right,
                                    () -> op.opName() + " @" + unsized + " a=" + hex(a, ob) + " b=" + hex(b, ob)
                                            + " c=" + hex(c, ob) + ": (a op b) op c = " + hex(left, ob)
                                            + " but a op (b op c) = "
                                            + hex(right, ob));
                        }
                    }
                }));
    }

    @Test
    void dataMovementKeepsEveryBit() {
        SplittableRandom rnd = new SplittableRandom(99);
        for (int unsized : new int[] {1, 8, 16, 32, 64}) {
            for (int s = 0; s < 500; s++) {
                long a = OpHarness.randomInt(rnd, unsized), b = OpHarness.randomInt(rnd, unsized);
                OpHarness.expect("mov", unsized, a, a);
                OpHarness.expect("bcsel", unsized, a, 1, a, b);
                OpHarness.expect("bcsel", unsized, b, 0, a, b);
            }
            for (int n : new int[] {2, 3, 4, 8, 16}) {
                long[][] srcs = new long[n][];
                long[] expected = new long[n];
                for (int i = 0; i < n; i++) {
                    expected[i] = OpHarness.randomInt(rnd, unsized);
                    srcs[i] = new long[] {expected[i]};
                }
                OpHarness.expectVec(OpHarness.op("vec" + n), unsized, srcs, expected);
            }
        }
        // NaN payloads survive mov and bcsel
        OpHarness.expect("mov", 32, 0x7f800001L, 0x7f800001L);
        OpHarness.expect("bcsel", 16, 0xfd01L, 1, 0xfd01L, 0);
    }
}
