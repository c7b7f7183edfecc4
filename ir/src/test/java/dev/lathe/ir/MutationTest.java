package dev.lathe.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every mutation helper keeps def→use lists exact (the validator checks them after each step). */
class MutationTest {

    private static void valid(Shader s) {
        assertTrue(Validator.validate(s).isEmpty(), () -> Validator.validate(s) + "\n" + IrPrinter.print(s));
    }

    @Test
    void buildingRecordsEveryUse() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value x = b.f32(2);
        Value y = b.alu(Op.FMUL, x, x);
        Value z = b.alu(Op.FADD, y, x);
        assertEquals(3, x.useCount());
        assertEquals(1, y.useCount());
        assertEquals(0, z.useCount());
        assertEquals(
                List.of(((AluInstr) y.parent()).src(0), ((AluInstr) y.parent()).src(1), ((AluInstr) z.parent()).src(1)),
                x.uses());
        valid(s);
    }

    @Test
    void ifConditionsAreUses() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value c = b.bool(true);
        Value d = b.bool(false);
        IfNode in = b.pushIf(c);
        b.popIf(in);
        assertEquals(1, c.useCount());
        assertTrue(c.isUsedByIf());
        assertSame(in, c.uses().get(0).owner());
        c.replaceAllUsesWith(d);
        assertEquals(0, c.useCount());
        assertSame(d, in.condition().value());
        valid(s);
    }

    @Test
    void removeRefusesADefinitionThatIsStillUsed() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value x = b.i32(1);
        Value y = b.alu(Op.INEG, x);
        assertThrows(IllegalStateException.class, () -> x.parent().remove());
        y.parent().remove();
        assertEquals(0, x.useCount(), "removing an instruction drops its sources from use lists");
        x.parent().remove();
        assertTrue(fn.entryBlock().isEmpty());
        valid(s);
    }

    @Test
    void rewritingASourceMovesItBetweenUseLists() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value x = b.i32(1, 2);
        Value y = b.i32(3, 4);
        AluInstr add = (AluInstr) b.alu(Op.IADD, x, x).parent();
        add.src(1).set(y, new byte[] {1, 0});
        assertEquals(1, x.useCount());
        assertEquals(1, y.useCount());
        assertEquals("vec2 32 %2 = iadd %0, %1.yx", IrPrinter.instrToString(add));
        valid(s);
    }

    @Test
    void insertBeforeAfterAndMoveKeepUses() {
        Shader s = new Shader(Stage.FRAGMENT);
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value x = b.i32(7);
        Value last = b.alu(Op.INEG, x);
        AluInstr mid = new AluInstr(fn, Op.INOT, 1, 32, new Value[] {x}, null);
        mid.insertBefore(last.parent());
        assertEquals(2, x.useCount());
        AluInstr after = new AluInstr(fn, Op.IABS, 1, 32, new Value[] {mid.def()}, null);
        after.insertAfter(mid);
        assertSame(after, mid.next());
        assertSame(last.parent(), after.next());
        // Move the constant to the end of the block: uses stay, dominance breaks, the validator says so.
        x.parent().moveToEnd(fn.entryBlock());
        assertEquals(2, x.useCount());
        assertFalse(Validator.validate(s).isEmpty());
        x.parent().moveBefore(fn.entryBlock().firstInstr());
        valid(s);
    }

    @Test
    void insertIfSplitsABlockAndRetargetsPhis() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                output vec4 f32 @frag
                function main {
                  vec1 1 %c = load_const (true)
                  if %c {
                    vec4 32 %a = load_const (1.0, 1.0, 1.0, 1.0)
                    vec4 32 %a2 = fneg %a
                  } else {
                    vec4 32 %b = load_const (2.0, 2.0, 2.0, 2.0)
                  }
                  vec4 32 %p = phi b1: %a2, b2: %b
                  store_output @frag, %p
                }
                """);
        Function fn = s.entryPoint();
        Block thenBlock = fn.blocks().get(1);
        Instr splitAt = thenBlock.lastInstr(); // fneg moves after the new if
        IfNode inner = fn.insertIf(
                thenBlock, splitAt, ((LoadConstInstr) fn.entryBlock().firstInstr()).def());
        Block moved = inner.mergeBlock();
        assertSame(splitAt.block(), moved);
        PhiInstr phi = (PhiInstr) fn.blocks().get(fn.blocks().size() - 1).firstInstr();
        assertTrue(phi.srcFor(moved) != null, "the merge phi now reads along the edge from the split-off block");
        assertEquals(2, ((LoadConstInstr) fn.entryBlock().firstInstr()).def().useCount());
        valid(s);
    }

    @Test
    void deleteNodeDropsEverythingInside() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                output vec4 f32 @frag
                function main {
                  vec1 1 %c = load_const (true)
                  vec4 32 %k = load_const (1.0, 1.0, 1.0, 1.0)
                  if %c {
                    vec4 32 %a = fneg %k
                    store_output @frag, %a
                  } else {
                  }
                  store_output @frag, %k
                }
                """);
        Function fn = s.entryPoint();
        IfNode in = (IfNode) fn.entryBlock().next();
        Value c = in.condition().value();
        Value k = ((Instr) fn.entryBlock().lastInstr()).def();
        assertEquals(2, k.useCount());
        Block merge = in.mergeBlock();
        fn.deleteNode(in);
        assertEquals(0, c.useCount());
        assertEquals(1, k.useCount());
        // Restore the structure: move the merge block's instructions up and drop the empty block.
        for (Instr i : merge.instrList()) i.moveToEnd(fn.entryBlock());
        fn.body().unlink(merge);
        valid(s);
        assertEquals(1, fn.blocks().size());
    }

    @Test
    void deleteNodeRefusesValuesUsedOutside() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                output vec4 f32 @frag
                function main {
                  loop {
                    vec4 32 %a = load_const (1.0, 1.0, 1.0, 1.0)
                    break
                  }
                  store_output @frag, %a
                }
                """);
        Function fn = s.entryPoint();
        assertThrows(
                IllegalStateException.class, () -> fn.deleteNode(fn.entryBlock().next()));
    }

    @Test
    void builderPushIfInTheMiddleOfABlockSplitsIt() {
        Shader s = new Shader(Stage.FRAGMENT);
        Variable frag = s.addVariable(Variable.output("frag", VarType.f32(1), 0));
        Function fn = s.addFunction("main");
        IrBuilder b = new IrBuilder(fn);
        Value x = b.f32(1);
        b.storeOutput(frag, x);
        b.before(fn.entryBlock().lastInstr());
        IfNode in = b.pushIf(b.bool(true));
        b.popIf(in);
        assertTrue(in.mergeBlock().firstInstr() instanceof IntrinsicInstr, "the store moved after the if");
        valid(s);
    }
}
