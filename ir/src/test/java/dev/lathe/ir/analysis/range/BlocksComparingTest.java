package dev.lathe.ir.analysis.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Value;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The blocks a value's comparisons are assumed in, found from its uses and read off one
 * interval per assumption, are exactly those whose chain of assumptions names the value (as
 * the condition, or through inots, iands and iors, or as an operand of a comparison under
 * them), each once and in program order.
 */
class BlocksComparingTest {

    @Test
    void intervalsGiveTheBlocksWhoseAssumptionsNameTheValue() {
        long nonEmpty = 0;
        for (long seed = 0; seed < 200; seed++) {
            Options o = Options.mixed(seed);
            Shader s = RandomProgramGenerator.generate(seed, o);
            Function fn = s.entryPoint();
            BranchFacts facts = BranchFacts.compute(fn);
            for (Instr i : fn.instructions()) {
                Value v = i.def();
                if (v == null) continue;
                List<Block> want = new ArrayList<>();
                for (Block b : fn.blocks()) {
                    boolean names = false;
                    for (BranchFacts.Assume a = facts.assumed(b); a != null; a = a.next()) names |= reads(a.cond(), v);
                    if (names) want.add(b);
                }
                long fseed = seed;
                assertEquals(want, facts.blocksComparing(v), () -> "seed " + fseed + ", value %" + v.index());
                if (!want.isEmpty()) nonEmpty++;
            }
        }
        assertTrue(nonEmpty > 500, "only " + nonEmpty + " values compared in some block");
    }

    /**
     * Whether condition {@code cond} is {@code v} or, through at most four inots and 1-bit iands
     * and iors (whichever way the branch goes), {@code v} or a comparison reading it.
     */
    private static boolean reads(Value cond, Value v) {
        return reads(cond, v, 0);
    }

    private static boolean reads(Value cond, Value v, int depth) {
        if (cond == v) return true;
        if (!(cond.parent() instanceof AluInstr c) || !c.isInserted()) return false;
        boolean combines = c.op() == Op.INOT
                || (c.op() == Op.IAND || c.op() == Op.IOR) && c.def().bitSize() == 1;
        if (!combines)
            return BranchFacts.narrowsBy(cond)
                    && (c.src(0).value() == v || c.src(1).value() == v);
        if (depth == 4) return false;
        for (int j = 0; j < c.srcs().size(); j++) {
            if (reads(c.src(j).value(), v, depth + 1)) return true;
        }
        return false;
    }
}
