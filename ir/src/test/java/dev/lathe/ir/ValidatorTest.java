package dev.lathe.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The validator's checks on broken IR that only the builder can make (a removed definition, use
 * lists out of step, a list ending with an if, …). The checks the text format can spell are file
 * tests: {@code tests/src/test/resources/filetests/verify/}, one file per check, each with its
 * expected {@code // ERROR:} lines.
 */
class ValidatorTest {

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
