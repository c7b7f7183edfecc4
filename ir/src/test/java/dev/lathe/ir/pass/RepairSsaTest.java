package dev.lathe.ir.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * repair_ssa on the shape a structured frontend makes of a loop that leaves early: the value
 * computed after a flagged break is used after the flag test, which the IR's dominance does not
 * see. The repair makes it valid without changing what the shader computes.
 */
class RepairSsaTest {
    static final String FLAGGED_BREAK = """
            shader fragment
            input f32 @a location=0
            output f32 @o location=0
            function main {
              local b1 @flag
                vec1 32 %a = load_input @a
                vec1 32 %zero = load_const (0.0)
                vec1 1 %false = load_const (false)
                vec1 1 %true = load_const (true)
              loop {
                  store_var @flag, %false
                loop {
                    vec1 1 %neg = flt %a, %zero
                  if %neg {
                      store_var @flag, %true
                      break
                  } else {
                  }
                    vec1 32 %x = fadd %a, %a
                    break
                }
                  vec1 1 %f = load_var @flag
                if %f {
                    store_output @o, %zero
                    break
                } else {
                }
                  vec1 32 %y = fmul %x, %x
                  store_output @o, %y
                  break
              }
            }
            """;

    @Test
    void makesTheFlaggedBreakShapeValidAndKeepsItsMeaning() {
        Shader s = IrParser.parse("flagged.ir", FLAGGED_BREAK);
        List<ValidationError> before = Validator.validate(s);
        assertTrue(before.stream().anyMatch(e -> e.check().equals("ssa-dominance")), before::toString);
        assertTrue(new RepairSsa().run(s.entryPoint()));
        assertEquals(List.of(), Validator.validate(s), () -> IrPrinter.print(s));
        assertFalse(new RepairSsa().run(s.entryPoint()), "a second run has nothing to repair");
        new VarsToSsa().run(s.entryPoint());
        assertEquals(List.of(), Validator.validate(s), () -> IrPrinter.print(s));
        assertEquals(36.0f, output(s, 3.0f));
        assertEquals(0.0f, output(s, -3.0f));
    }

    private static float output(Shader s, float a) {
        ShaderInputs in = new ShaderInputs().set("a", Float.floatToRawIntBits(a) & 0xffffffffL);
        return Float.intBitsToFloat((int) new Interpreter(s).run(in).output("o")[0]);
    }
}
