package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.OperandType;
import dev.lathe.ir.op.TypeClass;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The precision model op by op: every op that reads a float has a bound (or is a pack, which the tracker reads by its own rule). */
class VulkanPrecisionTest {
    @Test
    void everyOpWithAFloatOperandHasABound() {
        List<String> missing = new ArrayList<>();
        for (Op op : Op.values()) {
            boolean readsFloat = false;
            for (int k = 0; k < op.numInputs(); k++) readsFloat |= op.input(k).typeClass() == TypeClass.FLOAT;
            if (!readsFloat || PrecisionTracker.PACKS.contains(op)) continue;
            // ops of fixed sizes (ffmaz, fcsel_gt: 32 bits) at their float operand's size
            int bits = !op.hasUnsizedOperands()
                    ? op.input(0).bitSize()
                    : op.isLegalBitSize(32) ? 32 : op.legalBitSizeList().get(0);
            List<double[]> srcs = new ArrayList<>();
            for (int k = 0; k < op.numInputs(); k++) {
                OperandType t = op.input(k);
                double[] v = t.typeClass() == TypeClass.FLOAT ? new double[] {1.5, 1.5} : new double[] {1, 1};
                for (int c = 0; c < Math.max(1, op.isHorizontal() ? t.components() : 1); c++) srcs.add(v);
            }
            if (VulkanPrecision.bound(op, bits, srcs.toArray(double[][]::new)) == null) {
                missing.add(
                        op.opName()
                                + " reads a float and has no bound in VulkanPrecision.bound (nor is it in PrecisionTracker.PACKS)");
            }
        }
        assertTrue(missing.isEmpty(), String.join("\n", missing));
    }

    @Test
    void vectorEqualityIsDecidedByAnyComponentApart() {
        double[] one = {1, 1}, near = {0.9, 1.1}, far = {5, 6};
        // a component surely apart decides it, whatever the others
        assertArrayEquals(
                new double[] {0, 0}, VulkanPrecision.bound(Op.BALL_FEQUAL2, 32, new double[][] {near, one, one, far}));
        assertArrayEquals(
                new double[] {1, 1}, VulkanPrecision.bound(Op.BANY_FNEQUAL2, 32, new double[][] {near, one, one, far}));
        // all equal points: equal
        assertArrayEquals(
                new double[] {1, 1}, VulkanPrecision.bound(Op.BALL_FEQUAL2, 32, new double[][] {one, one, one, one}));
        // a component that may or may not be equal, and none apart: no one answer
        assertNull(VulkanPrecision.bound(Op.BALL_FEQUAL2, 32, new double[][] {near, one, one, one}));
    }
}
