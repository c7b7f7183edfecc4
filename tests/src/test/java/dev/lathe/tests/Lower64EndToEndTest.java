package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.OpProgram;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The target statement of the fp64 lowering: every op of the op table on 64-bit operands is
 * selected natively or lowered by the default pipeline (lower_doubles, lower_int64, the
 * {@code lower} rules), so none stops with "not supported by the target", and the compiled code, simulated on special and random operands, gives the
 * interpreter's results on the original program under the NaN contract.
 */
class Lower64EndToEndTest {
    static final int GROUP = 64, GROUPS = 2;

    @TestFactory
    Stream<DynamicTest> every64BitOpCompilesAndComputesWhatTheInterpreterDoes() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Op op : Op.values()) {
            if (op.isHorizontal()) continue;
            if (op.hasUnsizedOperands() ? !op.isLegalBitSize(64) : !touches64(op)) continue;
            tests.add(DynamicTest.dynamicTest(op.opName() + "@64", () -> check(op)));
        }
        return tests.stream();
    }

    /** An op of fixed sizes with a 64-bit operand ({@code umul_2x32_64}). */
    static boolean touches64(Op op) {
        if (op.outputBits(0) == 64) return true;
        for (int i = 0; i < op.numInputs(); i++) if (op.inputBits(i, 0) == 64) return true;
        return false;
    }

    static void check(Op op) {
        String text = OpProgram.text(op, 64, GROUP);
        // a CompileException ("not supported by the target") fails the test with the op's name: the file is OP.ir
        MachineCompiler.Result r = Compiler.compile(
                        IrParser.parse(op.opName() + ".ir", text), Compiler.Options.verifying())
                .machine();
        Shader reference = IrParser.parse(op.opName() + ".ir", text);
        SplittableRandom rnd = new SplittableRandom(op.ordinal());
        List<long[]> sets = new ArrayList<>();
        long[] special = {
            0,
            Long.MIN_VALUE,
            1,
            -1,
            0x3ff0000000000000L,
            0x7ff0000000000000L,
            0x7ff8000000000000L,
            0x0000000000000001L,
            0x000fffffffffffffL,
            0x3fefffffffffffffL,
            0x4330000000000000L,
            0x7fefffffffffffffL,
            63,
            64,
            32,
            0xffffffffL
        };
        for (int k = 0; k < GROUP * GROUPS; k++) {
            long[] set = new long[op.numInputs()];
            for (int i = 0; i < set.length; i++) {
                long v = rnd.nextInt(3) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextLong() >> rnd.nextInt(64);
                set[i] = op.inputBits(i, 64) == 64 ? v : v & 0xffffffffL;
            }
            sets.add(set);
        }
        ShaderOutputs.Comparison c = simulatedAgainstInterpreted(op, reference, r, sets);
        assertNotEquals(ShaderOutputs.Comparison.Kind.BROKEN, c.kind(), () -> op.opName() + "@64: " + c.detail());
    }

    /**
     * An {@link OpProgram} of {@code op} run on {@code sets} (one long per source slot) by the
     * interpreter on {@code reference} and by the simulator on {@code r}'s binary, compared under
     * the NaN contract.
     */
    static ShaderOutputs.Comparison simulatedAgainstInterpreted(
            Op op, Shader reference, MachineCompiler.Result r, List<long[]> sets) {
        int slots = OpProgram.slots(op);
        ShaderInputs in = new ShaderInputs()
                .setBufferWords("in", OpProgram.inputWords(sets, slots, GROUP * GROUPS))
                .setBufferWords("out", new long[GROUP * GROUPS * 2 * OpProgram.results(op)]);
        ShaderOutputs want = new Interpreter(reference).trackNans().dispatch(in, GROUPS, 1, 1);
        ShaderOutputs got =
                new Simulator(r.program()).dispatch(in, GROUPS, 1, 1).outputs();
        return want.compareUnderNanContract(got);
    }
}
