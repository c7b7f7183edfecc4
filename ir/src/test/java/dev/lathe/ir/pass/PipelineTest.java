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
        assertTrue(p.steps().get(1) instanceof Pipeline.Loop l && l.body().size() == 2, p.toString());
        assertEquals("dce, loop(copy_prop, cse), dce", p.toString());
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
        PassRegistry withMachine = PassRegistry.standard()
                .register(new PassRegistry.Entry("isel", ProgramForm.IR, ProgramForm.VIRTUAL, () -> null));
        assertEquals(
                "pipeline at character 6: 'isel' is a machine pass (it takes ir code and gives virtual code); an IR"
                        + " pipeline runs IR passes only in \"dce, isel\"",
                assertThrows(IllegalArgumentException.class, () -> Pipeline.parse("dce, isel", withMachine))
                        .getMessage());
    }

    @Test
    void aPipelineParsedWithoutARegistryIsCheckedWhenItRuns() {
        Pipeline p = Pipeline.parse("dce, loop(nope)");
        assertEquals(java.util.List.of("dce", "nope"), p.order());
        assertTrue(p.unknownPass(PassRegistry.standard()).startsWith("unknown pass 'nope' (known: constant_fold, "));
        assertEquals(null, Pipeline.parse("dce, loop(cse)").unknownPass(PassRegistry.standard()));
    }
}
