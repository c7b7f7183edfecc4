package dev.lathe.ir.analysis.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Value;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The analysis computed on demand: whatever is asked first, an element is the one the
 * whole-function analysis gives, and deep chains of values do not grow the Java stack.
 */
class OnDemandRangeTest {

    /**
     * Asking for a few values in a random order (so that loops, branch operands and values
     * waiting on the stack are met in every order) gives exactly the elements of asking for
     * all of them in program order.
     */
    @Test
    void anyOrderOfQuestionsGivesTheSameElements() {
        long compared = 0;
        for (long seed = 0; seed < 300; seed++) {
            Options o =
                    seed % 2 == 0 ? Options.mixed(seed) : Options.mixed(seed).withRandomOps(EnumSet.allOf(Op.class));
            Shader s = RandomProgramGenerator.generate(seed, o);
            Function fn = s.entryPoint();
            RangeAnalysis whole = RangeAnalysis.run(fn);
            List<Value> values = new ArrayList<>();
            for (Instr i : fn.instructions()) {
                if (i.def() != null) values.add(i.def());
            }
            Collections.shuffle(values, new Random(seed));
            RangeAnalysis lazy = RangeAnalysis.onDemand(fn);
            for (Value v : values) {
                for (int comp = 0; comp < v.numComponents(); comp++) {
                    int c = comp;
                    Range want = whole.range(v, c);
                    Range got = lazy.range(v, c);
                    long fseed = seed;
                    assertEquals(
                            want,
                            got,
                            () -> "seed " + fseed + ": " + IrPrinter.instrToString(v.parent()) + " component " + c
                                    + "\n" + IrPrinter.print(s));
                    compared++;
                }
            }
        }
        assertTrue(compared > 20_000, "only " + compared + " elements compared");
    }

    /** The last of 200,000 chained additions, asked first: the walk keeps its own stack. */
    @Test
    void aDeepChainDoesNotOverflowTheStack() {
        int n = 200_000;
        StringBuilder sb = new StringBuilder("""
                shader fragment
                output u32 @o location=0
                function main {
                  block entry:
                    vec1 32 %one = load_const (1)
                    vec1 32 %v0 = load_const (0)
                """);
        for (int k = 1; k <= n; k++)
            sb.append("    vec1 32 %v")
                    .append(k)
                    .append(" = iadd %v")
                    .append(k - 1)
                    .append(", %one\n");
        sb.append("    store_output @o, %v").append(n).append("\n}\n");
        Shader s = IrParser.parse("chain.ir", sb.toString());
        Function fn = s.entryPoint();
        Value last = null;
        for (Instr i : fn.instructions()) {
            if (i.def() != null) last = i.def();
        }
        RangeAnalysis a = RangeAnalysis.onDemand(fn);
        assertEquals(
                "s[" + n + ", " + n + "] u[" + n + ", " + n + "]",
                a.range(last, 0).describe(false, true));
        assertEquals(n + 2, a.evaluations(), "each value evaluated once");
    }

    /** Asking about one value computes its cone only, not the rest of the function. */
    @Test
    void aQuestionComputesOnlyWhatItNeeds() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                uniform u32 @n
                output u32 @o location=0
                output u32 @p location=1
                function main {
                  block entry:
                    vec1 32 %a = load_const (7)
                    vec1 32 %b = load_const (5)
                    vec1 32 %sum = iadd %a, %b
                    vec1 32 %n = load_uniform @n
                    vec1 32 %x = imul %n, %n
                    vec1 32 %y = iadd %x, %n
                    vec1 32 %z = ixor %y, %x
                    store_output @o, %sum
                    store_output @p, %z
                }
                """);
        Function fn = s.entryPoint();
        RangeAnalysis a = RangeAnalysis.onDemand(fn);
        assertEquals(
                "s[12, 12] u[12, 12]",
                a.range(RangeAnalysisTest.value(fn, "iadd"), 0).describe(false, true));
        assertEquals(3, a.evaluations());
    }
}
