package dev.lathe.ir.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * For 600 seeded random programs: the generator's IR validates, print(parse(print(p))) equals
 * print(p), the parsed copy validates, and both copies compute the same outputs.
 */
class RoundTripTest {

    static Options optionsFor(long seed) {
        Options o = Options.standard();
        return switch ((int) (seed % 4)) {
            case 0 -> o;
            case 1 -> o.withStage(Stage.COMPUTE);
            case 2 -> o.withWideSizes(false).withTargetInstructions(120);
            default -> Options.straightLine(40);
        };
    }

    @org.junit.jupiter.api.Test
    void floatControlsRoundTripInNameOrder() {
        String text = "shader compute workgroup_size(8, 1, 1) float_controls(rounding_mode_rte16, denorm_preserve32)\n"
                + "\nfunction main {\n}\n";
        Shader s = IrParser.parse("t.ir", text);
        assertEquals(List.of("denorm_preserve32", "rounding_mode_rte16"), List.copyOf(s.floatControls()));
        String printed = IrPrinter.print(s);
        assertTrue(
                printed.startsWith(
                        "shader compute workgroup_size(8, 1, 1) float_controls(denorm_preserve32, rounding_mode_rte16)\n"),
                printed);
        assertEquals(printed, IrPrinter.print(IrParser.parse("t.ir", printed)));
    }

    @TestFactory
    Stream<DynamicTest> randomProgramsRoundTrip() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int batch = 0; batch < 12; batch++) {
            int first = batch * 50;
            tests.add(DynamicTest.dynamicTest("seeds " + first + ".." + (first + 49), () -> {
                for (long seed = first; seed < first + 50; seed++) checkSeed(seed);
            }));
        }
        return tests.stream();
    }

    private static void checkSeed(long seed) {
        Shader s = RandomProgramGenerator.generate(seed, optionsFor(seed));
        List<ValidationError> errs = Validator.validate(s);
        assertTrue(
                errs.isEmpty(),
                () -> "seed " + seed + ": generated IR is invalid: " + errs + "\n" + IrPrinter.print(s));
        String text = IrPrinter.print(s);
        Shader parsed;
        try {
            parsed = IrParser.parse("seed" + seed + ".ir", text);
        } catch (IrSyntaxException e) {
            throw new AssertionError("seed " + seed + ": printed IR does not parse: "
                    + e.diagnostic().render() + "\n" + text);
        }
        List<ValidationError> errs2 = Validator.validate(parsed);
        assertTrue(errs2.isEmpty(), () -> "seed " + seed + ": parsed IR is invalid: " + errs2);
        assertEquals(text, IrPrinter.print(parsed), "seed " + seed + ": print(parse(print(p))) differs");
        ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed);
        ShaderOutputs a = run(s, in);
        ShaderOutputs b = run(parsed, RandomProgramGenerator.randomInputs(parsed, seed));
        assertTrue(a.sameAs(b), () -> "seed " + seed + ": the reparsed program computes something else");
    }

    static ShaderOutputs run(Shader s, ShaderInputs in) {
        Interpreter interp = new Interpreter(s);
        return s.stage() == Stage.COMPUTE ? interp.dispatch(in, 2, 1, 1) : interp.run(in);
    }

    @org.junit.jupiter.api.Test
    void flagsAndTheExactMarkSurviveARoundTrip() {
        String text = """
                shader fragment

                input vec4 f32 @x location=0
                input vec4 i32 @i location=1
                output vec4 f32 @o location=0
                output vec4 i32 @p location=1

                function main {
                  block b0:
                    vec4 32 %0 = load_input @x
                    vec4 32 %1 = load_input @i
                    vec4 32 %2 = fadd[nsz,nnan,ninf,reassoc] %0, %0
                    vec4 32 %3 = !fmul[nsz] %2, %0
                    vec4 32 %4 = iadd[nsw,nuw] %1, %1
                    vec4 32 %5 = ishl[nuw] %4, %1
                    store_output @o, %3
                    store_output @p, %5
                }
                """;
        Shader s = IrParser.parse("flags.ir", text);
        assertEquals(List.of(), Validator.validate(s));
        assertEquals(text, IrPrinter.print(s));
    }
}
