package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.lathe.backend.compile.CompileException;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.compile.Target;
import dev.lathe.driver.Compiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.OpProgram;
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
 * Every op of the op table has a way onto the target at every size up to 32 bits (64-bit
 * operands: {@link Lower64EndToEndTest}): selection takes it ({@code Target.IR3_LIKE.selectedOps()},
 * checked op by op in {@code TargetClaimsTest}) or the default pipeline lowers it (the
 * {@code lower} rules), and the compiled code, simulated on special and random operands, gives
 * the interpreter's results under the NaN contract. An op added to the table fails here, with
 * the compiler's "not supported by the target" message, until the target selects or lowers it.
 */
class EveryOpOnTheTargetTest {
    static final int GROUP = Lower64EndToEndTest.GROUP, GROUPS = Lower64EndToEndTest.GROUPS;

    /**
     * The ops the target has no way to compute yet, with why: compiling one stops with "not
     * supported by the target". A listed op that compiles fails the test, so the list stays true.
     */
    static final java.util.Map<String, String> NO_WAY = java.util.Map.of(
            "frem@16", "C's fmod, exact: no rounded expression of it is exact (the frontend's OpFRem gives this op)",
            "frem@32", "C's fmod, exact: no rounded expression of it is exact (the frontend's OpFRem gives this op)",
            "ldexp@16",
                    "one rounding of a * 2^b; two scalings round twice for a subnormal result (the frontend expands GLSL's ldexp itself)",
            "ldexp@32",
                    "one rounding of a * 2^b; two scalings round twice for a subnormal result (the frontend expands GLSL's ldexp itself)");

    @TestFactory
    Stream<DynamicTest> everyOpIsSelectedOrLowered() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Op op : Op.values()) {
            for (int bits : sizes(op)) {
                String name = op.opName() + (op.hasUnsizedOperands() ? "@" + bits : "");
                tests.add(DynamicTest.dynamicTest(
                        name + (Target.IR3_LIKE.selectedOps().contains(op) ? " (selected)" : " (lowered)"),
                        () -> check(op, bits, name)));
            }
        }
        return tests.stream();
    }

    /** The sizes up to 32 bits the op is legal at (0 for an op of fixed sizes); none for a fixed-size op with a 64-bit operand. */
    static List<Integer> sizes(Op op) {
        if (op.hasUnsizedOperands())
            return op.legalBitSizeList().stream().filter(b -> b <= 32).toList();
        if (Lower64EndToEndTest.touches64(op)) return List.of();
        return List.of(0);
    }

    static void check(Op op, int bits, String name) {
        String text = OpProgram.text(op, bits, GROUP);
        MachineCompiler.Result r;
        try {
            r = Compiler.compile(IrParser.parse(name + ".ir", text), Compiler.Options.verifying())
                    .machine();
        } catch (CompileException e) {
            if (NO_WAY.containsKey(name) && e.getMessage().contains("not supported by the target: " + op.opName()))
                return;
            throw new AssertionError(
                    name + " has no way onto the target: " + e.getMessage()
                            + " (give a machine op its semantics, or write a rule in backend/rules/lower.rules)",
                    e);
        }
        if (NO_WAY.containsKey(name))
            throw new AssertionError(name + " compiles now: take it off NO_WAY (" + NO_WAY.get(name) + ")");
        Shader reference = IrParser.parse(name + ".ir", text);
        SplittableRandom rnd = new SplittableRandom(op.ordinal() * 64L + bits);
        int slots = OpProgram.slots(op);
        long[] special = {
            0,
            1,
            -1,
            2,
            31,
            32,
            0x80000000L,
            0x7fffffffL,
            0x3f800000L,
            0xbf800000L,
            0x7f800000L,
            0x7fc00000L,
            0x00000001L,
            0x3c00L,
            0xfc00L,
            0x7e00L,
            0x8000L,
            0x80L,
            0xffL,
            0xffffL
        };
        List<long[]> sets = new ArrayList<>();
        for (int k = 0; k < GROUP * GROUPS; k++) {
            long[] set = new long[slots];
            for (int i = 0; i < slots; i++)
                set[i] =
                        (rnd.nextInt(3) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextLong() >> rnd.nextInt(64))
                                & 0xffffffffL;
            sets.add(set);
        }
        ShaderOutputs.Comparison c = Lower64EndToEndTest.simulatedAgainstInterpreted(op, reference, r, sets);
        assertNotEquals(ShaderOutputs.Comparison.Kind.BROKEN, c.kind(), () -> name + ": " + c.detail());
    }
}
