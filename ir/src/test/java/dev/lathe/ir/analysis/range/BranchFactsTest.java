package dev.lathe.ir.analysis.range;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Value;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Branch narrowing against real runs: for every comparison, size, operand order and a random
 * constant, programs that read the compared value in the then-list, the else-list, and after
 * an {@code if} whose then-list breaks out of a loop; every value read there, for edge and
 * random inputs, must lie in the narrowed element.
 */
class BranchFactsTest {
    static final Op[] INT_COMPARISONS = {Op.ILT, Op.IGE, Op.ULT, Op.UGE, Op.IEQ, Op.INE};
    static final Op[] FLOAT_COMPARISONS = {Op.FLT, Op.FGE, Op.FLTU, Op.FGEU, Op.FEQ, Op.FNEU};

    @TestFactory
    Stream<DynamicTest> narrowedOperandsHoldEveryValueARunReads() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Op op : INT_COMPARISONS) {
            for (int bits : new int[] {8, 32, 64}) tests.add(test(op, bits, "u" + bits));
        }
        for (Op op : FLOAT_COMPARISONS) {
            for (int bits : new int[] {16, 32, 64}) tests.add(test(op, bits, "f" + bits));
        }
        return tests.stream();
    }

    /**
     * Conditions made like {@code &&}, {@code ||} and {@code !}: x compared with two random
     * constants by two random comparisons, joined by iand or ior, perhaps under an inot.
     */
    @TestFactory
    Stream<DynamicTest> combinedConditionsHoldEveryValueARunReads() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Op join : new Op[] {Op.IAND, Op.IOR}) {
            for (boolean negated : new boolean[] {false, true}) {
                for (int bits : new int[] {8, 32})
                    tests.add(combined(join, negated, bits, "u" + bits, INT_COMPARISONS));
                tests.add(combined(join, negated, 32, "f32", FLOAT_COMPARISONS));
            }
        }
        return tests.stream();
    }

    private static DynamicTest combined(Op join, boolean negated, int bits, String type, Op[] comparisons) {
        String name = (negated ? "inot " : "") + join.opName() + " " + type;
        return DynamicTest.dynamicTest(name, () -> {
            Random rnd =
                    new Random(RangeTransferSoundnessTest.SEED + join.ordinal() * 7919L + bits + (negated ? 1 : 0));
            long checks = 0;
            for (int trial = 0; trial < 60; trial++) {
                Op a = comparisons[rnd.nextInt(comparisons.length)], b = comparisons[rnd.nextInt(comparisons.length)];
                long k1 = RangeTransferSoundnessTest.value(bits, rnd), k2 = RangeTransferSoundnessTest.value(bits, rnd);
                String text = program(a, bits, type, k1, rnd.nextBoolean())
                        .replace(
                                "    vec1 1 %c = ",
                                "    vec1 " + bits + " %k2 = load_const (" + IrPrinter.constant(k2, bits) + ")\n"
                                        + "    vec1 1 %c2 = " + b.opName() + " "
                                        + (rnd.nextBoolean() ? "%x, %k2" : "%k2, %x") + "\n"
                                        + "    vec1 1 %c1 = ")
                        .replace(
                                "  if %c {",
                                negated
                                        ? "    vec1 1 %j = " + join.opName()
                                                + " %c1, %c2\n    vec1 1 %c = inot %j\n  if %c {"
                                        : "    vec1 1 %c = " + join.opName() + " %c1, %c2\n  if %c {");
                Shader s = IrParser.parse("t.ir", text);
                RangeFacts facts = RangeFacts.analyze(s.entryPoint());
                for (int run = 0; run < 16; run++) {
                    long x = switch (run % 4) {
                        case 0 -> k1;
                        case 1 -> k2;
                        case 2 -> Bits.trunc((rnd.nextBoolean() ? k1 : k2) + (rnd.nextBoolean() ? 1 : -1), bits);
                        default -> RangeTransferSoundnessTest.value(bits, rnd);
                    };
                    checks += run(s, facts, x);
                }
            }
            assertTrue(checks > 1000, "only " + checks + " reads checked");
        });
    }

    private static DynamicTest test(Op op, int bits, String type) {
        return DynamicTest.dynamicTest(op.opName() + " " + bits, () -> {
            Random rnd = new Random(RangeTransferSoundnessTest.SEED + op.ordinal() * 131L + bits);
            long checks = 0;
            for (int trial = 0; trial < 40; trial++) {
                long k = RangeTransferSoundnessTest.value(bits, rnd);
                for (boolean xFirst : new boolean[] {true, false}) {
                    Shader s = IrParser.parse("t.ir", program(op, bits, type, k, xFirst));
                    RangeFacts facts = RangeFacts.analyze(s.entryPoint());
                    for (int run = 0; run < 24; run++) {
                        long x = switch (run % 4) {
                            case 0 -> k;
                            case 1 -> Bits.trunc(k + (rnd.nextBoolean() ? 1 : -1), bits);
                            default -> RangeTransferSoundnessTest.value(bits, rnd);
                        };
                        checks += run(s, facts, x);
                    }
                }
            }
            assertTrue(checks > 1000, "only " + checks + " reads checked");
        });
    }

    /** x compared with constant k; x read (by a mov) in then, else, and after a breaking if. */
    static String program(Op op, int bits, String type, long k, boolean xFirst) {
        String cmp = xFirst ? "%x, %k" : "%k, %x";
        return "shader fragment\n"
                + "uniform " + type + " @x\n"
                + "output " + type + " @a location=0\n"
                + "output " + type + " @b location=1\n"
                + "output " + type + " @c location=2\n"
                + "function main {\n"
                + "  block entry:\n"
                + "    vec1 " + bits + " %x = load_uniform @x\n"
                + "    vec1 " + bits + " %k = load_const (" + IrPrinter.constant(k, bits) + ")\n"
                + "    vec1 1 %c = " + op.opName() + " " + cmp + "\n"
                + "  if %c {\n"
                + "    block t:\n"
                + "      vec1 " + bits + " %in_then = mov %x\n"
                + "      store_output @a, %in_then\n"
                + "  } else {\n"
                + "    block e:\n"
                + "      vec1 " + bits + " %in_else = mov %x\n"
                + "      store_output @b, %in_else\n"
                + "  }\n"
                + "  loop {\n"
                + "    block head:\n"
                + "      vec1 1 %d = " + op.opName() + " " + cmp + "\n"
                + "    if %d {\n"
                + "      block out:\n"
                + "        break\n"
                + "    }\n"
                + "    block body:\n"
                + "      vec1 " + bits + " %after = mov %x\n"
                + "      store_output @c, %after\n"
                + "      break\n"
                + "  }\n"
                + "  block end:\n"
                + "}\n";
    }

    /** One run with uniform x; returns how many reads were checked. */
    private static int run(Shader s, RangeFacts facts, long x) {
        int[] checks = {0};
        Map<Value, long[]> latest = new HashMap<>();
        new Interpreter(s)
                .observe((d, v) -> {
                    if (d.parent() instanceof AluInstr alu && alu.op() == Op.MOV) {
                        Value read = alu.src(0).value();
                        Range r = facts.rangeAt(read, 0, alu);
                        long seen = latest.get(read)[0];
                        checks[0]++;
                        if (!r.contains(seen)) {
                            fail("x = " + RangeTransferSoundnessTest.show(seen, read.bitSize()) + " read by "
                                    + where(alu) + " is not in " + r + "\n" + IrPrinter.print(s));
                        }
                    }
                    latest.put(d, v);
                })
                .run(new ShaderInputs().set("x", x));
        return checks[0];
    }

    private static String where(Instr i) {
        return IrPrinter.instrToString(i) + " in block " + i.block().index();
    }
}
