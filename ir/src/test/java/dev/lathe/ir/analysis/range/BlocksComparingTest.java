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
 * the condition, or through inots, or as an operand of the comparison under them), each once
 * and in program order.
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

    /** Whether condition {@code cond} is {@code v} or, through at most four inots, {@code v} or a comparison reading it. */
    private static boolean reads(Value cond, Value v) {
        for (int depth = 0; depth <= 4; depth++) {
            if (cond == v) return true;
            if (!(cond.parent() instanceof AluInstr c) || !c.isInserted()) return false;
            if (c.op() != Op.INOT) return BranchFacts.narrowsBy(cond) && (c.src(0).value() == v || c.src(1).value() == v);
            cond = c.src(0).value();
        }
        return false;
    }
}
