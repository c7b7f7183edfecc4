package dev.lathe.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.analysis.BlockOrder;
import dev.lathe.ir.analysis.DominanceFrontiers;
import dev.lathe.ir.analysis.DominatorTree;
import dev.lathe.ir.analysis.LoopNesting;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnalysisTest {

    private static final String LOOPS = """
            shader fragment
            output f32 @o
            function main {
              block entry:
                vec1 32 %zero = load_const (0)
              loop {
                block outer:
                  vec1 32 %i = phi entry: %zero, outer_latch: %i1
                  vec1 32 %n = load_const (3)
                  vec1 1 %done = uge %i, %n
                if %done {
                  block brk:
                    break
                } else {
                  block go:
                }
                block inner_pre:
                  vec1 32 %i1 = iadd %i, %n
                loop {
                  block inner:
                    vec1 1 %t = load_const (true)
                  if %t {
                    block ib:
                      break
                  } else {
                    block ic:
                      continue
                  }
                  block dead:
                }
                block outer_latch:
              }
              block exit:
            }
            """;

    private static Block block(Function fn, String label) {
        for (Block b : fn.blocks()) {
            if (label.equals(b.label())) return b;
        }
        throw new AssertionError("no block " + label);
    }

    @Test
    void dominatorsOfADiamond() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                function main {
                  block top:
                    vec1 1 %c = load_const (true)
                  if %c {
                    block left:
                  } else {
                    block right:
                  }
                  block join:
                }
                """);
        Function fn = s.entryPoint();
        DominatorTree dom = DominatorTree.compute(fn);
        Block top = block(fn, "top"), left = block(fn, "left"), right = block(fn, "right"), join = block(fn, "join");
        assertSame(top, dom.idom(left));
        assertSame(top, dom.idom(right));
        assertSame(top, dom.idom(join));
        assertSame(join, dom.idom(fn.endBlock()));
        assertTrue(dom.dominates(top, join));
        assertFalse(dom.dominates(left, join));
        assertSame(top, dom.nearestCommonDominator(left, right));
        DominanceFrontiers df = DominanceFrontiers.compute(fn, dom);
        assertEquals(List.of(join), df.frontier(left));
        assertEquals(List.of(join), df.frontier(right));
        assertEquals(List.of(), df.frontier(top));
        assertEquals(List.of(top, left, right, join), fn.blocks());
        assertEquals(List.of(left, right), top.successors());
        assertEquals(List.of(left, right), join.predecessors());
    }

    @Test
    void loopsDominanceFrontiersAndNesting() {
        Shader s = IrParser.parse("t.ir", LOOPS);
        assertTrue(Validator.validate(s).isEmpty(), Validator.validate(s).toString());
        Function fn = s.entryPoint();
        Block entry = block(fn, "entry"), outer = block(fn, "outer"), innerPre = block(fn, "inner_pre");
        Block inner = block(fn, "inner"),
                ic = block(fn, "ic"),
                dead = block(fn, "dead"),
                latch = block(fn, "outer_latch");
        Block exit = block(fn, "exit"), brk = block(fn, "brk");
        DominatorTree dom = DominatorTree.compute(fn);
        assertSame(entry, dom.idom(outer));
        assertSame(brk, dom.idom(exit), "the exit is reached only through the header's break");
        assertSame(outer, dom.idom(brk));
        assertSame(block(fn, "ib"), dom.idom(latch), "the latch follows the inner loop: only its break reaches it");
        assertFalse(dom.isReachable(dead), "code after an if whose sides both jump is unreachable");
        assertEquals(List.of(entry, latch), outer.predecessors());
        assertEquals(
                List.of(innerPre, ic, dead),
                inner.predecessors(),
                "the continue is a back edge; unreachable blocks keep their structural edges");
        assertEquals(List.of(brk), exit.predecessors());
        DominanceFrontiers df = DominanceFrontiers.compute(fn, dom);
        assertEquals(List.of(outer), df.frontier(latch));
        assertEquals(List.of(inner), df.frontier(ic));
        assertTrue(df.frontier(inner).contains(inner));
        LoopNesting ln = LoopNesting.compute(fn);
        assertEquals(0, ln.depth(entry));
        assertEquals(1, ln.depth(outer));
        assertEquals(2, ln.depth(inner));
        assertEquals(1, ln.depth(latch));
        assertEquals(0, ln.depth(exit));
        assertSame(inner.parent().owner(), ln.innermostLoop(ic));
        List<Block> rpo = BlockOrder.compute(fn).reversePostorder();
        assertSame(entry, rpo.get(0));
        assertFalse(rpo.contains(dead));
        assertTrue(rpo.indexOf(outer) < rpo.indexOf(inner) && rpo.indexOf(inner) < rpo.indexOf(latch));
    }

    /** Dominance from its definition: a dominates b iff every path from the entry to b passes a. */
    @Test
    void dominatorTreeMatchesTheDefinitionOnRandomPrograms() {
        for (long seed = 0; seed < 60; seed++) {
            Shader s = RandomProgramGenerator.generate(seed);
            Function fn = s.entryPoint();
            DominatorTree dom = DominatorTree.compute(fn);
            List<Block> all = new ArrayList<>(fn.blocks());
            all.add(fn.endBlock());
            Set<Block> reachable = reach(fn, null);
            for (Block a : all) {
                Set<Block> without = reach(fn, a);
                for (Block b : all) {
                    boolean expected = reachable.contains(b) && (a == b || !without.contains(b));
                    assertEquals(
                            expected, dom.dominates(a, b), "seed " + seed + ": b" + a.index() + " dom b" + b.index());
                }
            }
        }
    }

    private static Set<Block> reach(Function fn, Block avoid) {
        Set<Block> seen = new HashSet<>();
        List<Block> work = new ArrayList<>();
        if (fn.entryBlock() != avoid) {
            work.add(fn.entryBlock());
            seen.add(fn.entryBlock());
        }
        while (!work.isEmpty()) {
            Block b = work.remove(work.size() - 1);
            for (Block s : b.successors()) {
                if (s != avoid && seen.add(s)) work.add(s);
            }
        }
        return seen;
    }

    /** 20,000 nested ifs and loops: parse, print, validate, analyse and run without recursion. */
    @Test
    void deepNestingDoesNotOverflowTheStack() {
        int depth = 20_000;
        StringBuilder sb = new StringBuilder("shader fragment\noutput u32 @o\nfunction main {\n");
        sb.append("  vec1 32 %k = load_const (1)\n  vec1 1 %t = load_const (true)\n");
        for (int i = 0; i < depth; i++) sb.append(i % 2 == 0 ? "if %t {\n" : "loop {\n");
        sb.append("store_output @o, %k\n");
        for (int i = depth - 1; i >= 0; i--) sb.append(i % 2 == 0 ? "} else {\n}\n" : "break\n}\n");
        sb.append("}\n");
        Shader s = IrParser.parse("deep.ir", sb.toString());
        assertTrue(Validator.validate(s).isEmpty());
        String printed = IrPrinter.print(s);
        assertEquals(printed, IrPrinter.print(IrParser.parse("deep2.ir", printed)));
        Function fn = s.entryPoint();
        DominatorTree dom = DominatorTree.compute(fn);
        DominanceFrontiers.compute(fn, dom);
        LoopNesting ln = LoopNesting.compute(fn);
        Block deepest = ((IntrinsicInstr) findStore(fn)).block();
        assertEquals(depth / 2, ln.depth(deepest));
        assertEquals(depth, dom.depth(deepest));
        ShaderOutputs out = new Interpreter(s).run(new ShaderInputs());
        assertEquals(1, out.output("o")[0]);
    }

    private static Instr findStore(Function fn) {
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (i instanceof IntrinsicInstr) return i;
            }
        }
        throw new AssertionError("no store");
    }

    @Test
    void unreachableBlocksHaveNoDominator() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                function main {
                  block entry:
                  loop {
                    block head:
                      vec1 1 %t = load_const (true)
                    if %t {
                      return
                    } else {
                    }
                  }
                  block after:
                }
                """);
        assertTrue(Validator.validate(s).isEmpty(), Validator.validate(s).toString());
        Function fn = s.entryPoint();
        DominatorTree dom = DominatorTree.compute(fn);
        Block after = block(fn, "after");
        assertTrue(after.predecessors().isEmpty(), "a loop without break never exits");
        assertFalse(dom.isReachable(after));
        assertNull(dom.idom(after));
        assertTrue(dom.dominates(after, after));
        assertFalse(dom.dominates(block(fn, "entry"), after));
        assertNull(dom.idom(fn.entryBlock()));
        assertTrue(dom.isReachable(fn.endBlock()), "the return reaches the end block");
        assertSame(
                block(fn, "head"),
                DominanceFrontiers.compute(fn, dom).frontier(block(fn, "head")).get(0));
    }
}
