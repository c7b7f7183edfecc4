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
 * two must give the same bits. This is what makes a proof mean something about Lathe's ops.
 */
class SmtOpsTest {
    private static final int SAMPLES = 60;

    @Test
    void theEncodedOpsAreMostOfTheTable() {
        assertTrue(SmtOps.ENCODED.size() >= 150, "encoded: " + SmtOps.ENCODED.size());
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
                Expr<?> got = ops.apply(op, n, terms, bits).simplify();
                assertTrue(got instanceof BitVecNum, op.opName() + ": the term did not reduce to a number: " + got);
                long have = ((BitVecNum) got).getBigInteger().longValue();
                StringBuilder in = new StringBuilder();
                for (int i = 0; i < k; i++) in.append(i == 0 ? "" : ", ").append("0x").append(Long.toHexString(srcs[i][0]));
                assertEquals(Long.toHexString(want), Long.toHexString(have), op.opName() + "@" + n + "(" + in + ")");
            }
        }
    }

    private static TypeClass type(Op op, int i, int bits) {
        TypeClass t = op.input(i).typeClass();
        if (t == TypeClass.ANY) return bits >= 16 ? TypeClass.FLOAT : TypeClass.UINT;
        return t;
    }
}
