package dev.lathe.ir.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.CfNode;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.validate.Validator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * dead_cf on constant {@code if … else} chains nested n deep does work linear in n, counted in
 * node visits and deletions (never in time): four times the depth may cost at most five times
 * the operations (a quadratic pass costs sixteen). Both sides are tried: a true condition drops
 * the nested else side at once, a false one keeps it and inlines level after level.
 */
class DeadCfGrowthTest {
    static String nested(int depth, boolean condition) {
        StringBuilder sb = new StringBuilder("shader fragment\noutput f32 @o location=0\nfunction main {\n");
        sb.append("    vec1 1 %c = load_const (").append(condition).append(")\n");
        for (int k = 0; k < depth; k++) sb.append("  if %c {\n  } else {\n");
        sb.append("    vec1 32 %x = load_const (1.0)\n    store_output @o, %x\n");
        for (int k = 0; k < depth; k++) sb.append("  }\n");
        return sb.append("}\n").toString();
    }

    static long work(int depth, boolean condition) {
        Shader s = IrParser.parse("nested.ir", nested(depth, condition));
        DeadCf pass = new DeadCf();
        assertTrue(pass.run(s.entryPoint()));
        assertEquals(List.of(), Validator.validate(s));
        for (CfNode n : DeadCf.nodesInOrder(s.entryPoint())) assertTrue(!(n instanceof IfNode), "an if is left");
        return pass.work();
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void workGrowsLinearlyWithTheNestingDepth(boolean condition) {
        long small = work(1000, condition), large = work(4000, condition);
        assertTrue(large <= 5 * small, "depth 1000: " + small + " operations, depth 4000: " + large);
    }
}
