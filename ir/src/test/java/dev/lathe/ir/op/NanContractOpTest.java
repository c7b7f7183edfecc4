package dev.lathe.ir.op;

import static dev.lathe.ir.op.OpHarness.bitsOfInput;
import static dev.lathe.ir.op.OpHarness.bitsOfOutput;
import static dev.lathe.ir.op.OpHarness.hex;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The op table's half of the NaN contract (ir/README.md, "NaN"): an op that reads a source as a
 * float depends only on whether it is NaN, never on a NaN's sign or payload — except through a
 * float result, which may be any NaN anyway. So a NaN whose bits the contract leaves open cannot
 * leak into exact bits by any op but those that read bits ({@link Op#readsBits}), which the
 * provenance tracking records. Each op, each float source, each size: random other operands,
 * the source replaced by five different NaNs; results must be equal, or (float results) all NaN.
 */
class NanContractOpTest {
    static long[] nans(int bits) {
        return switch (bits) {
            case 16 -> new long[] {0x7e00, 0xfe00, 0x7c01, 0x7fff, 0xfd55};
            case 32 -> new long[] {0x7fc00000L, 0xffc00000L, 0x7f800001L, 0x7fffffffL, 0xffa5a5a5L};
            default ->
                new long[] {
                    0x7ff8000000000000L,
                    0xfff8000000000000L,
                    0x7ff0000000000001L,
                    0x7fffffffffffffffL,
                    0xfff5a5a5a5a5a5a5L
                };
        };
    }

    @TestFactory
    Stream<DynamicTest> floatSourcesOnlyShowWhetherTheyAreNaN() {
        return Arrays.stream(Op.values())
                .filter(op -> {
                    for (int i = 0; i < op.numInputs(); i++)
                        if (op.input(i).typeClass() == TypeClass.FLOAT) return true;
                    return false;
                })
                .map(op -> DynamicTest.dynamicTest(op.opName(), () -> {
                    SplittableRandom rnd = new SplittableRandom(op.ordinal());
                    for (int unsized : OpTableTest.sizesOf(op)) {
                        int dest = op.isHorizontal() ? op.output().components() : 1;
                        int ob = bitsOfOutput(op, unsized);
                        boolean floatOut = op.computesFloat();
                        for (int k = 0; k < op.numInputs(); k++) {
                            if (op.input(k).typeClass() != TypeClass.FLOAT) continue;
                            int kb = bitsOfInput(op, k, unsized);
                            for (int sample = 0; sample < 200; sample++) {
                                long[][] srcs = new long[op.numInputs()][];
                                for (int i = 0; i < srcs.length; i++) {
                                    srcs[i] = new long[op.inputComponents(i, dest)];
                                    for (int c = 0; c < srcs[i].length; c++)
                                        srcs[i][c] = OpTableTest.randomFor(op, i, unsized, rnd);
                                }
                                int comp = rnd.nextInt(srcs[k].length);
                                long[] first = null;
                                for (long nan : nans(kb)) {
                                    srcs[k][comp] = nan;
                                    long[] out = op.evaluate(unsized, dest, srcs);
                                    if (first == null) {
                                        first = out;
                                        continue;
                                    }
                                    for (int c = 0; c < out.length; c++) {
                                        boolean same = out[c] == first[c]
                                                || floatOut
                                                        && FloatBits.isNaN(out[c], ob)
                                                        && FloatBits.isNaN(first[c], ob);
                                        long a = first[c], b = out[c];
                                        int kk = k;
                                        assertTrue(
                                                same,
                                                () -> op.opName() + " @" + unsized + ": source " + kk
                                                        + " a NaN of other bits changes the result from " + hex(a, ob)
                                                        + " to " + hex(b, ob) + " (sources " + Arrays.deepToString(srcs)
                                                        + ")");
                                    }
                                }
                            }
                        }
                    }
                }));
    }
}
