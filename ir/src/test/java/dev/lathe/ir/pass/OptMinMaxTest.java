package dev.lathe.ir.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * opt_minmax on random programs made of the ops it removes and of ops that give their
 * operands known ranges (masks, shifts, conversions, saturations, comparisons): the outputs
 * never change, the IR stays valid, and the pass does fire on a good share of them, so the
 * comparison is not vacuous.
 */
class OptMinMaxTest {
    static final int PROGRAMS = 600;

    static final Set<Op> OPS = EnumSet.of(
            Op.FMIN,
            Op.FMAX,
            Op.FMIN3,
            Op.FMAX3,
            Op.FMED3,
            Op.FSAT,
            Op.FSAT_SIGNED,
            Op.FCLAMP_POS,
            Op.IMIN,
            Op.IMAX,
            Op.UMIN,
            Op.UMAX,
            Op.IMIN3,
            Op.IMAX3,
            Op.UMIN3,
            Op.UMAX3,
            Op.IMED3,
            Op.UMED3,
            Op.BCSEL,
            Op.FCSEL,
            Op.IAND,
            Op.USHR,
            Op.U2F32,
            Op.FFLOOR,
            Op.FABS,
            Op.FNEG,
            Op.FADD,
            Op.IADD,
            Op.ULT,
            Op.FLT,
            Op.ILT,
            Op.B2F32,
            Op.FSQRT,
            Op.FEXP2);

    @Test
    void keepsOutputsAndFiresOnRangeRichPrograms() {
        int fired = 0;
        for (long seed = 0; seed < PROGRAMS; seed++) {
            Options o = Options.mixed(seed).withRandomOps(OPS);
            Shader s = RandomProgramGenerator.generate(seed, o);
            String before = IrPrinter.print(s);
            ShaderOutputs expected = PassDifferentialTest.run(s, seed);
            boolean progress = new OptMinMax().run(s.entryPoint());
            long k = seed;
            assertEquals(List.of(), Validator.validate(s), () -> "seed " + k + "\nbefore:\n" + before);
            assertTrue(
                    expected.sameAs(PassDifferentialTest.run(s, seed)),
                    () -> "seed " + k + ": opt_minmax changed the outputs\nbefore:\n" + before + "\nafter:\n"
                            + IrPrinter.print(s));
            if (progress) fired++;
        }
        assertTrue(fired * 2 >= PROGRAMS, "opt_minmax fired on only " + fired + " of " + PROGRAMS + " programs");
    }
}
