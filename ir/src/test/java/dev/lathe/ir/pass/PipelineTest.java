package dev.lathe.ir.pass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Pipeline text (`lathe opt --passes`): what it parses to, and the message for each mistake. */
class PipelineTest {

    private static String problem(String text) {
        return assertThrows(IllegalArgumentException.class, () -> Pipeline.parse(text, PassRegistry.standard()))
                .getMessage();
    }

    @Test
    void passesAndLoopsParse() {
        Pipeline p = Pipeline.parse(" dce, loop(copy_prop, cse ), dce ", PassRegistry.standard());
        assertEquals(3, p.steps().size());
        assertTrue(p.steps().get(1) instanceof Pipeline.LoopStep l && l.steps().size() == 2, p.toString());
    }

    @Test
    void eachMistakeIsNamedWithItsPosition() {
        assertEquals("the pipeline is empty", problem(""));
        assertEquals("the pipeline is empty", problem("  "));
        assertEquals("pipeline at character 5: a pass name is missing before ',' in \"dce,,cse\"", problem("dce,,cse"));
        assertEquals("pipeline at character 5: a pass name is missing at the end in \"dce,\"", problem("dce,"));
        assertEquals("pipeline at character 9: 'loop(' is not closed in \"loop(dce\"", problem("loop(dce"));
        assertEquals("pipeline at character 4: ')' without 'loop(' in \"dce)\"", problem("dce)"));
        assertEquals("pipeline at character 5: ',' is missing before this pass in \"dce cse\"", problem("dce cse"));
        assertTrue(
                problem("dce, nope").startsWith("pipeline at character 6: unknown pass 'nope' (known: "),
                problem("dce, nope"));
        assertEquals("pipeline at character 4: unexpected ';' in \"dce;\"", problem("dce;"));
    }
}
