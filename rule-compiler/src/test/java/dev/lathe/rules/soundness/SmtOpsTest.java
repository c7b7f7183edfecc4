package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.z3.BitVecExpr;
import com.microsoft.z3.BitVecNum;
import com.microsoft.z3.Context;
import com.microsoft.z3.Expr;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every op's SMT encoding against the op table: on edge and random operands at every legal
 * size, the solver evaluates the term over constants and the op table evaluates the op, and the
 * two must give the same bits; likewise every condition against {@code Predicate.holds}. This
 * is what makes a proof mean something about Lathe's ops.
 */
class SmtOpsTest {
    private static final int SAMPLES = 60;

    @Test
    void theEncodedOpsAreMostOfTheTable() {
        assertTrue(SmtOps.ENCODED.size() >= 150, "encoded: " + SmtOps.ENCODED.size());
    }

    /** An op added to the table is given an SMT encoding, or marked as tested only on purpose. */
    @Test
    void everyOpIsEncodedOrMarkedTestedOnly() {
        List<String> wrong = new ArrayList<>();
        for (Op op : Op.values()) {
            boolean encoded = SmtOps.ENCODED.contains(op), testedOnly = SmtOps.TESTED_ONLY.contains(op);
            if (!encoded && !testedOnly)
                wrong.add(op.opName()
                        + " has no SMT encoding (SmtOps.ENCODED) and no tested-only mark (SmtOps.TESTED_ONLY)");
            if (encoded && testedOnly) wrong.add(op.opName() + " is both encoded and marked tested only");
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @TestFactory
    Stream<DynamicTest> everyEncodingAgreesWithTheOpTable() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Op op : SmtOps.ENCODED) {
            List<Integer> sizes = op.hasUnsizedOperands() ? op.legalBitSizeList() : List.of(0);
            for (int n : sizes) {
                tests.add(DynamicTest.dynamicTest(op.opName() + (n == 0 ? "" : "@" + n), () -> crossCheck(op, n)));
            }
        }
        return tests.stream();
    }

    private static void crossCheck(Op op, int n) {
        SplittableRandom rnd = new SplittableRandom(op.ordinal() * 131L + n);
        try (Context ctx = new Context()) {
            SmtOps ops = new SmtOps(ctx);
            int k = op.numInputs();
            int[] bits = new int[k];
            List<List<Long>> edges = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                // one component of each source: a vecN's sources are 1-component
                bits[i] = op.input(i).isSized() ? op.input(i).bitSize() : n;
                edges.add(Values.edges(type(op, i, bits[i]), bits[i]));
            }
            for (int sample = 0; sample < SAMPLES; sample++) {
                long[][] srcs = new long[k][1];
                BitVecExpr[] terms = new BitVecExpr[k];
                for (int i = 0; i < k; i++) {
                    long v = sample < SAMPLES / 2
                            ? edges.get(i).get(rnd.nextInt(edges.get(i).size()))
                            : Values.random(rnd, type(op, i, bits[i]), bits[i]);
                    srcs[i][0] = v & Bits.mask(bits[i]);
                    terms[i] = ops.bv(srcs[i][0], bits[i]);
                }
                long want = op.evaluate(n, 1, srcs)[0];
                Expr<?> got = ops.apply(op, n, terms).simplify();
                assertTrue(got instanceof BitVecNum, op.opName() + ": the term did not reduce to a number: " + got);
                long have = ((BitVecNum) got).getBigInteger().longValue();
                StringBuilder in = new StringBuilder();
                for (int i = 0; i < k; i++)
                    in.append(i == 0 ? "" : ", ").append("0x").append(Long.toHexString(srcs[i][0]));
                assertEquals(Long.toHexString(want), Long.toHexString(have), op.opName() + "@" + n + "(" + in + ")");
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> everyConditionAgreesWithPredicateHolds() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Predicate p : Predicate.values()) {
            for (TypeClass t : List.of(TypeClass.FLOAT, TypeClass.INT, TypeClass.UINT)) {
                if (!p.appliesTo(t)) continue;
                for (int n : t == TypeClass.FLOAT ? List.of(16, 32, 64) : List.of(8, 16, 32, 64)) {
                    tests.add(DynamicTest.dynamicTest(p.spelling() + " " + t + "@" + n, () -> crossCheck(p, t, n)));
                }
            }
        }
        return tests.stream();
    }

    private static void crossCheck(Predicate p, TypeClass t, int n) {
        SplittableRandom rnd = new SplittableRandom(p.ordinal() * 977L + t.ordinal() * 31L + n);
        List<Long> edges = Values.edges(t, n);
        try (Context ctx = new Context()) {
            SmtOps ops = new SmtOps(ctx);
            for (int sample = 0; sample < SAMPLES; sample++) {
                long bound = p.takesLiteral() ? edges.get(rnd.nextInt(edges.size())) : 0;
                if (p == Predicate.ILT_CONST) bound = Bits.sext(bound, n);
                if (p == Predicate.ULT_CONST) bound = Bits.zext(bound, n);
                if (p == Predicate.IS_UNSIGNED_MULTIPLE_OF) bound = 1 + rnd.nextInt(64); // 0 is refused
                long x = (sample < SAMPLES / 2
                                ? edges.get(rnd.nextInt(edges.size()))
                                : Values.satisfying(rnd, p, t, n, bound))
                        & Bits.mask(n);
                boolean want = p.holds(x, n, t, bound);
                Expr<?> got = ops.holds(p, t, bound, ops.bv(x, n), n).simplify();
                assertTrue(
                        got.isTrue() || got.isFalse(),
                        p.spelling() + ": the term did not reduce to a truth value: " + got);
                assertEquals(
                        want,
                        got.isTrue(),
                        p.spelling() + " " + t + "@" + n + " of 0x" + Long.toHexString(x)
                                + (p.takesLiteral() ? ", bound " + bound : ""));
            }
        }
    }

    private static TypeClass type(Op op, int i, int bits) {
        TypeClass t = op.input(i).typeClass();
        if (t == TypeClass.ANY) return bits >= 16 ? TypeClass.FLOAT : TypeClass.UINT;
        return t;
    }
}
