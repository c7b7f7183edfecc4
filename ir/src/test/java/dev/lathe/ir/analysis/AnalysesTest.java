package dev.lathe.ir.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.analysis.range.RangeKeeper;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The analysis cache of a function: every mutator counts its edit, and a stale analysis is never handed out. */
class AnalysesTest {
    static final String PROGRAM = """
            shader fragment
            uniform i32 @x
            output i32 @out location=0
            function main {
              block entry:
                vec1 32 %x = load_uniform @x
                vec1 32 %zero = load_const (0)
                vec1 1 %neg = ilt %x, %zero
              if %neg {
                block then:
                  vec1 32 %a = ineg %x
                  vec1 32 %m = mov %a
              } else {
                block else:
                  vec1 32 %b = iadd %x, %zero
              }
              block merge:
                vec1 32 %p = phi then: %m, else: %b
                vec1 32 %y = imax %p, %zero
                store_output @out, %y
            }
            """;

    static Function parse() {
        Shader s = IrParser.parse("a.ir", PROGRAM);
        assertEquals(List.of(), Validator.validate(s));
        return s.entryPoint();
    }

    static Instr defining(Function fn, String opName, int nth) {
        int seen = 0;
        for (Instr i : fn.instructions()) if (i.opName().equals(opName) && seen++ == nth) return i;
        throw new AssertionError("no " + opName);
    }

    /** {@code edit} changes the function: its edit count grows, its structure count only when {@code structural}. */
    static void countsAnEdit(String what, boolean structural, Consumer<Function> edit) {
        Function fn = parse();
        long edits = fn.edits(), structure = fn.structureEdits();
        edit.accept(fn);
        assertTrue(fn.edits() > edits, what + " was not counted as an edit");
        assertEquals(structural, fn.structureEdits() > structure, what + ": structure count");
    }

    @Test
    void everyMutatorCountsItsEdit() {
        countsAnEdit(
                "Src.set",
                false,
                fn -> ((AluInstr) defining(fn, "imax", 0))
                        .src(1)
                        .set(defining(fn, "load_uniform", 0).def()));
        countsAnEdit(
                "Src.setSwizzle",
                false,
                fn -> ((AluInstr) defining(fn, "imax", 0)).src(1).setSwizzle(new byte[] {0}));
        countsAnEdit("an if's condition", false, fn -> {
            IfNode in = null;
            for (dev.lathe.ir.CfNode n : fn.body()) if (n instanceof IfNode f) in = f;
            Value t = new LoadConstInstr(fn, 1, new long[] {1}).def();
            ((LoadConstInstr) t.parent()).insertBefore(defining(fn, "ilt", 0));
            long before = fn.edits();
            in.condition().set(t);
            assertTrue(fn.edits() > before);
        });
        countsAnEdit(
                "insertBefore",
                false,
                fn -> new LoadConstInstr(fn, 32, new long[] {5}).insertBefore(defining(fn, "imax", 0)));
        countsAnEdit("remove", false, fn -> {
            Instr mov = defining(fn, "mov", 0);
            mov.def().replaceAllUsesWith(defining(fn, "ineg", 0).def());
            long before = fn.edits();
            mov.remove();
            assertTrue(fn.edits() > before);
        });
        countsAnEdit(
                "moveBefore", false, fn -> defining(fn, "load_const", 0).moveBefore(defining(fn, "load_uniform", 0)));
        countsAnEdit("setExact", false, fn -> ((AluInstr) defining(fn, "imax", 0)).setExact(true));
        countsAnEdit(
                "PhiInstr.removeSrc",
                false,
                fn -> ((PhiInstr) defining(fn, "phi", 0)).removeSrc(fn.blocks().get(2)));
        countsAnEdit(
                "PhiInstr.retargetSrc",
                false,
                fn -> ((PhiInstr) defining(fn, "phi", 0))
                        .retargetSrc(fn.blocks().get(2), fn.blocks().get(1)));
        countsAnEdit(
                "a jump",
                true,
                fn -> new dev.lathe.ir.IrBuilder(fn).atEnd(fn.blocks().get(1)).ret());
    }

    @Test
    void dominatorsAndLoopsLastUntilTheStructureChanges() {
        Function fn = parse();
        Analyses a = fn.analyses();
        DominatorTree dom = a.dominators();
        LoopNesting loops = a.loops();
        new LoadConstInstr(fn, 32, new long[] {5}).insertBefore(defining(fn, "imax", 0));
        assertSame(dom, a.dominators(), "an instruction edit keeps the dominator tree");
        assertSame(loops, a.loops());
        assertEquals(1, a.computations(Analyses.Kind.DOMINATORS));
        fn.invalidateCfg();
        assertNull(a.currentDominators());
        assertNotSame(dom, a.dominators(), "a structure edit makes a new one");
        assertEquals(2, a.computations(Analyses.Kind.DOMINATORS));
        assertNotSame(loops, a.loops());
    }

    @Test
    void rangeFactsLastThroughReportedEditsOnly() {
        Function fn = parse();
        Analyses a = fn.analyses();
        RangeFacts facts = a.ranges();
        assertSame(facts, a.current());
        assertSame(facts, a.ranges(), "nothing changed: the same facts");
        assertEquals(1, a.computations(Analyses.Kind.RANGES));

        // a replacement reported through a keeper: kept
        Instr mov = defining(fn, "mov", 0);
        RangeKeeper keeper = RangeKeeper.of(fn);
        keeper.replaceAllUses(mov.def(), defining(fn, "ineg", 0).def());
        mov.remove();
        keeper.done();
        assertSame(facts, a.current());

        // an edit nobody reports: the facts are never handed out again
        ((AluInstr) defining(fn, "imax", 0))
                .src(1)
                .set(defining(fn, "load_uniform", 0).def());
        assertNull(a.current());
        RangeFacts fresh = a.ranges();
        assertNotSame(facts, fresh);
        assertEquals(2, a.computations(Analyses.Kind.RANGES));
        a.keep(facts); // handing back facts that are not the cached ones changes nothing
        assertSame(fresh, a.current());

        // a change of structure: facts handed back are not kept (their loops and blocks are the old ones)
        fn.invalidateCfg();
        assertNull(a.current());
        a.keep(fresh);
        assertNull(a.current());
        assertNotSame(fresh, a.ranges());
    }
}
