package dev.lathe.ir.analysis.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Facts kept through rewrites that change bits: after a value is replaced by another one
 * (reported as an inexact rewrite: the new value's bits may differ) and the facts are
 * refreshed, every element is exactly what a fresh analysis of the changed function gives.
 * Elements were asked for before the change, so stale ones would show: values computed from
 * the old one, values narrowed by a branch that now tests something else, phis narrowed at a
 * predecessor, loops holding any of them.
 */
class RewrittenFactsTest {

    @Test
    void afterInexactReplacementsAndRefreshTheFactsAreFresh() {
        long compared = 0, conditions = 0;
        for (long seed = 0; seed < 150; seed++) {
            Shader s = RandomProgramGenerator.generate(seed, Options.mixed(seed));
            Function fn = s.entryPoint();
            Random rnd = new Random(seed);
            RangeFacts facts = RangeFacts.analyze(fn);
            askAll(fn, facts, rnd);
            for (int change = 0; change < 3; change++) {
                // x replaced by w, defined before it in the same block: still valid SSA
                List<AluInstr[]> pairs = new ArrayList<>();
                for (Block b : fn.blocks()) {
                    List<Instr> defs = new ArrayList<>();
                    for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                        if (i.def() == null) continue;
                        for (Instr w : defs) {
                            if (i instanceof AluInstr x
                                    && w instanceof AluInstr wa
                                    && x.def().hasUses()
                                    && w.def().bitSize() == x.def().bitSize()
                                    && w.def().numComponents() == x.def().numComponents()) {
                                pairs.add(new AluInstr[] {wa, x});
                            }
                        }
                        defs.add(i);
                    }
                }
                if (pairs.isEmpty()) break;
                // branch conditions are few: replace one every other time there is one
                List<AluInstr[]> conds =
                        pairs.stream().filter(pr -> pr[1].def().isUsedByIf()).toList();
                List<AluInstr[]> from = !conds.isEmpty() && rnd.nextBoolean() ? conds : pairs;
                AluInstr[] pick = from.get(rnd.nextInt(from.size()));
                Value old = pick[1].def(), now = pick[0].def();
                if (old.isUsedByIf()) conditions++;
                List<Instr> moved = new ArrayList<>();
                for (Src u = old.firstUse(); u != null; u = u.nextUse()) {
                    if (u.instr() != null && !moved.contains(u.instr())) moved.add(u.instr());
                }
                old.replaceAllUsesWith(now);
                facts.rewritten(pick[1], now, false, moved);
                facts.refresh();
                RangeAnalysis fresh = RangeAnalysis.run(fn);
                List<Value> values = values(fn);
                Collections.shuffle(values, rnd);
                for (Value v : values) {
                    for (int c = 0; c < v.numComponents(); c++) {
                        int comp = c;
                        long fseed = seed;
                        assertEquals(
                                fresh.range(v, c),
                                facts.range(v, c),
                                () -> "seed " + fseed + ": " + IrPrinter.instrToString(v.parent()) + " component "
                                        + comp + "\n" + IrPrinter.print(s));
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 25_000, "only " + compared + " elements compared");
        assertTrue(conditions > 30, "only " + conditions + " branch conditions replaced");
    }

    /**
     * An inexact rewrite of a branch condition: what the old condition narrowed is dropped at
     * once, phis narrowed at the branch's blocks included — the rule pass asks again before
     * any refresh. Here the phi of {@code y} from the then-side was negative while the branch
     * tested {@code y < 0}; once it tests {@code 0 < y}, it may be 5.
     */
    @Test
    void inexactConditionRewriteDropsWhatItsBranchesNarrowed() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                uniform f32 @y
                output f32 @a location=0
                function main {
                  block entry:
                    vec1 32 %y = load_uniform @y
                    vec1 32 %zero = load_const (0.0)
                    vec1 32 %m1 = load_const (-1.0)
                    vec1 1 %pos = flt %zero, %y
                    vec1 1 %neg = flt %y, %zero
                  if %neg {
                    block t:
                      vec1 32 %in_t = fneg %y
                  } else {
                    block e:
                      vec1 32 %in_e = fneg %m1
                  }
                  block m:
                    vec1 32 %p = phi t: %y, e: %m1
                    store_output @a, %p
                }
                """);
        Function fn = s.entryPoint();
        RangeFacts facts = RangeFacts.analyze(fn);
        List<Value> defs = values(fn); // y, zero, m1, pos, neg, in_t, in_e, p
        Value pos = defs.get(3), neg = defs.get(4), inT = defs.get(5), p = defs.get(7);
        long five = FloatBits.fromDouble(5.0, 32), minusFive = FloatBits.fromDouble(-5.0, 32);
        assertTrue(!facts.range(p, 0).contains(five), "before: " + facts.range(p, 0));
        assertTrue(!facts.range(inT, 0).contains(minusFive), "before: " + facts.range(inT, 0)); // -y, y < 0
        neg.replaceAllUsesWith(pos);
        facts.rewritten((AluInstr) neg.parent(), pos, false, List.of());
        assertTrue(facts.range(p, 0).contains(five), "phi after: " + facts.range(p, 0));
        assertTrue(facts.range(inT, 0).contains(minusFive), "then-side after: " + facts.range(inT, 0));
        facts.refresh();
        RangeAnalysis fresh = RangeAnalysis.run(fn);
        assertEquals(fresh.range(p, 0), facts.range(p, 0));
        assertEquals(fresh.range(inT, 0), facts.range(inT, 0));
    }

    private static void askAll(Function fn, RangeFacts facts, Random rnd) {
        List<Value> values = values(fn);
        Collections.shuffle(values, rnd);
        for (Value v : values) {
            for (int c = 0; c < v.numComponents(); c++) facts.range(v, c);
        }
    }

    private static List<Value> values(Function fn) {
        List<Value> out = new ArrayList<>();
        for (Instr i : fn.instructions()) {
            if (i.def() != null) out.add(i.def());
        }
        return out;
    }
}
