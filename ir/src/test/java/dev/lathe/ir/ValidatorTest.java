package dev.lathe.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One negative test (at least) per validator check, plus the positive case. */
class ValidatorTest {

    private static final String FRAG_HEADER = """
            shader fragment
            input vec4 f32 @color location=0
            output vec4 f32 @frag location=0
            uniform f32 @arr[4]
            """;

    private static List<ValidationError> validateText(String body) {
        return Validator.validate(IrParser.parse("t.ir", FRAG_HEADER + body));
    }

    /** Asserts that exactly the named check fails, with the message fragment, at line:col when given. */
    private static ValidationError expect(List<ValidationError> errors, String check, String fragment, String lineCol) {
        for (ValidationError e : errors) {
            if (e.check().equals(check) && e.message().contains(fragment)) {
                if (lineCol != null) {
                    assertTrue(e.loc() != null, "no location on " + e);
                    assertEquals(lineCol, e.loc().line() + ":" + e.loc().column(), "location of " + e);
                }
                return e;
            }
        }
        fail("expected a '" + check + "' error containing '" + fragment + "', got " + errors);
        return null;
    }

    @Test
    void validProgramHasNoErrors() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec1 1 %t = flt %c.x, %c.y
                  if %t {
                    vec4 32 %a = fneg %c
                  } else {
                    vec4 32 %b = fabs %c
                  }
                  vec4 32 %p = phi b1: %a, b2: %b
                  store_output @frag, %p
                }
                """);
        assertTrue(errs.isEmpty(), errs.toString());
    }

    @Test
    void phiAfterNonPhi() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec1 1 %t = flt %c.x, %c.y
                  if %t {
                    vec4 32 %a = fneg %c
                  } else {
                    vec4 32 %b = fabs %c
                  }
                  vec4 32 %x = mov %c
                  vec4 32 %p = phi b1: %a, b2: %b
                  store_output @frag, %p
                }
                """);
        expect(errs, "phi-placement", "phis must start the block", "14:3");
    }

    @Test
    void phiMissingAndExtraSources() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec1 1 %t = flt %c.x, %c.y
                  if %t {
                    vec4 32 %a = fneg %c
                  } else {
                    vec4 32 %b = fabs %c
                  }
                  vec4 32 %p = phi b1: %a, b0: %c
                  store_output @frag, %p
                }
                """);
        expect(errs, "phi-sources", "not a predecessor", "13:3");
        expect(errs, "phi-sources", "no source for predecessor b2", "13:3");
    }

    @Test
    void phiSourceOfWrongSize() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec1 1 %t = flt %c.x, %c.y
                  if %t {
                    vec4 32 %a = fneg %c
                  } else {
                    vec1 32 %b = fabs %c.x
                  }
                  vec4 32 %p = phi b1: %a, b2: %b
                  store_output @frag, %p
                }
                """);
        expect(errs, "phi-sources", "but the phi is vec4 32", "13:3");
    }

    @Test
    void breakOutsideLoop() {
        List<ValidationError> errs = validateText("""
                function main {
                  break
                }
                """);
        expect(errs, "jump-placement", "outside of a loop", "6:3");
    }

    @Test
    void instructionAfterJump() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  return
                  store_output @frag, %c
                }
                """);
        expect(errs, "jump-placement", "must be the last instruction", "7:3");
    }

    @Test
    void useNotDominatedByDefinition() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec1 1 %t = flt %c.x, %c.y
                  if %t {
                    vec4 32 %a = fneg %c
                  } else {
                    vec4 32 %b = fabs %a
                  }
                  store_output @frag, %c
                }
                """);
        expect(errs, "ssa-dominance", "does not dominate", "11:5");
    }

    @Test
    void useBeforeDefinitionInTheSameBlock() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %a = fneg %c
                  vec4 32 %c = load_input @color
                  store_output @frag, %a
                }
                """);
        expect(errs, "ssa-dominance", "does not dominate", "6:3");
    }

    @Test
    void phiSourceMustDominateThePredecessorEnd() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec1 1 %t = flt %c.x, %c.y
                  if %t {
                    vec4 32 %a = fneg %c
                  } else {
                    vec4 32 %b = fabs %c
                  }
                  vec4 32 %p = phi b1: %b, b2: %a
                  store_output @frag, %p
                }
                """);
        expect(errs, "ssa-dominance", "does not dominate the end of predecessor b1", "13:3");
    }

    @Test
    void aluSourcesOfMismatchedBitSize() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec1 32 %a = load_const (1.0)
                  vec1 16 %b = load_const (1.0)
                  vec1 32 %c = fadd %a, %b
                }
                """);
        expect(errs, "alu-bit-size", "source 2 of fadd has 16 bits, expected 32", "8:3");
    }

    @Test
    void aluAtIllegalBitSize() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec1 8 %a = load_const (1)
                  vec1 8 %c = fadd %a, %a
                }
                """);
        expect(errs, "alu-bit-size", "fadd does not work on 8-bit values", "7:3");
    }

    @Test
    void aluFixedResultSize() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec1 32 %a = load_const (1.0)
                  vec1 16 %c = f2i32 %a
                }
                """);
        expect(errs, "alu-bit-size", "f2i32 produces 32-bit values, not 16", "7:3");
    }

    @Test
    void horizontalResultComponents() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec4 32 %c = load_input @color
                  vec2 32 %d = fdot3 %c.xyz, %c.yzw
                }
                """);
        expect(errs, "alu-components", "fdot3 produces 1 component(s), not 2", "7:3");
    }

    @Test
    void implicitSwizzleReadsMoreThanTheValueHas() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec2 32 %a = load_const (1.0, 2.0)
                  vec4 32 %c = fadd %a, %a
                }
                """);
        expect(errs, "swizzle", "reads component 2 of", "7:3");
    }

    @Test
    void swizzleOutOfRange() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec2 32 %a = load_const (1.0, 2.0)
                  vec1 32 %c = fneg %a.w
                }
                """);
        expect(errs, "swizzle", "reads component 3", "7:3");
    }

    @Test
    void ifConditionMustBeOneBit() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec1 32 %a = load_const (1)
                  if %a {
                  } else {
                  }
                }
                """);
        expect(errs, "if-condition", "must be vec1 1, not vec1 32", "7:3");
    }

    @Test
    void intrinsicInWrongStage() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec3 32 %id = load_local_invocation_id
                }
                """);
        expect(errs, "intrinsic-stage", "not available in fragment shaders", "6:3");
    }

    @Test
    void intrinsicSourceShape() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec2 32 %a = load_const (1.0, 2.0)
                  store_output @frag, %a
                  vec1 16 %i = load_const (1)
                  vec1 32 %u = load_uniform @arr, %i
                }
                """);
        expect(errs, "intrinsic-sources", "must be vec4 32, not vec2 32", "7:3");
        expect(errs, "intrinsic-sources", "(array index) must be vec1 32, not vec1 16", "9:3");
    }

    @Test
    void intrinsicResultShape() {
        List<ValidationError> errs = validateText("""
                function main {
                  vec3 32 %c = load_input @color
                }
                """);
        expect(errs, "intrinsic-result", "defines vec4 32, not vec3 32", "6:3");
    }

    @Test
    void intrinsicWithAForeignVariable() {
        Shader s = new Shader(Stage.FRAGMENT);
        s.addVariable(Variable.output("frag", VarType.f32(4), 0));
        Variable foreign = Variable.output("frag", VarType.f32(4), 0); // same name, never declared
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        b.storeOutput(foreign, b.f32(1, 2, 3, 4));
        expect(Validator.validate(s), "intrinsic-variable", "is not declared", null);
    }

    @Test
    void intrinsicWithTheWrongKindOfVariable() {
        Shader s = new Shader(Stage.FRAGMENT);
        Variable in = s.addVariable(Variable.input("color", VarType.f32(4), 0, false));
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value v = b.f32(1, 2, 3, 4);
        // the builder refuses it, so it goes into the block directly
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> b.storeOutput(in, v));
        assertTrue(refused.getMessage().contains("needs a variable of kind output"), refused.getMessage());
        fn.entryBlock().append(new IntrinsicInstr(fn, Intrinsic.STORE_OUTPUT, in, v));
        expect(Validator.validate(s), "intrinsic-variable", "needs a variable of kind output", null);
    }

    @Test
    void missingEntryPoint() {
        Shader s = new Shader(Stage.FRAGMENT);
        s.addFunction("helper");
        expect(Validator.validate(s), "entry-point", "no function named main", null);
    }

    @Test
    void sourceReadingARemovedDefinition() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        LoadConstInstr detached = new LoadConstInstr(fn, 32, 5); // never inserted
        b.alu(Op.INEG, detached.def());
        expect(Validator.validate(s), "value-defined", "whose definition is not in the function", null);
    }

    @Test
    void useListMissingASource() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value c = b.i32(5);
        Value n = b.alu(Op.INEG, c);
        ((AluInstr) n.parent()).src(0).unlink(); // corrupt: the source leaves the use list
        expect(Validator.validate(s), "use-lists", "missing from its use list", null);
    }

    @Test
    void useListHoldingAStaleSource() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value c = b.i32(5);
        AluInstr stale = new AluInstr(fn, Op.INEG, 1, 32, new Value[] {c}, null);
        stale.src(0).link(); // corrupt: a source of an instruction that is not in the IR
        expect(Validator.validate(s), "use-lists", "not in the IR", null);
    }

    @Test
    void brokenInstructionLinks() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        b.i32(1);
        Value two = b.i32(2);
        b.i32(3);
        two.parent().prev = null; // corrupt the doubly linked list
        expect(Validator.validate(s), "instr-links", "links are inconsistent", null);
    }

    @Test
    void listEndingWithAnIf() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        IfNode in = b.pushIf(b.bool(true));
        b.popIf(in);
        fn.body().unlink(in.mergeBlock()); // corrupt: the if is now last
        expect(Validator.validate(s), "cf-structure", "does not end with a block", null);
    }

    @Test
    void twoBlocksInARow() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        fn.body().append(new Block());
        expect(Validator.validate(s), "cf-structure", "two blocks in a row", null);
    }

    @Test
    void emptyLoopBody() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        LoopNode loop = fn.insertLoop(fn.entryBlock(), null);
        loop.body().unlink(loop.body().first());
        expect(Validator.validate(s), "cf-structure", "a loop body is empty", null);
    }

    @Test
    void errorsNameTheInstructionWithoutALocation() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value x = b.f32(1);
        Value y = b.f16(1);
        // the builder refuses fadd(x, y): build fadd(x, x), then point its second source at y
        assertThrows(IllegalArgumentException.class, () -> b.alu(Op.FADD, x, y));
        ((AluInstr) b.alu(Op.FADD, x, x).parent()).src(1).set(y);
        ValidationError e = expect(Validator.validate(s), "alu-bit-size", "source 2 of fadd has 16 bits", null);
        assertTrue(e.format().contains("function main, b0, 'vec1 32 %2 = fadd %0, %1'"), e.format());
        assertTrue(e.format().endsWith("[alu-bit-size]"), e.format());
    }
}
