package com.example.shaders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.shaders.rules.GeneratedRules;
import dev.lathe.backend.sim.Simulator;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.Passes;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.text.IrParser;
import org.junit.jupiter.api.Test;

/** The project's pass in Lathe's pass registry: named in a pipeline, compiled to machine code, simulated. */
class MyPassesInTheCompilerTest {
    @Test
    void theRegistryHasThePassAndTheCompilerRunsIt() {
        Passes passes = new Passes(GeneratedRules.all());
        assertTrue(passes.registry().names().contains("mine"), passes.registry().names().toString());

        Shader shader = IrParser.parse("program.ir", MyPassesTest.PROGRAM);
        Shader reference = IrParser.parse("program.ir", MyPassesTest.PROGRAM);
        Compiler.Options options = Compiler.Options.verifying().withRules(GeneratedRules.all())
                .withPipeline("mine, " + Pipelines.DEFAULT);
        Compiler.Result compiled = Compiler.compile(shader, options);
        Simulator machine = new Simulator(compiled.machine().program());
        for (long x : new long[] {0, 1, 7, 0x7fffffff, 0xffffffffL}) {
            ShaderInputs in = new ShaderInputs().set("x", x);
            assertEquals(new Interpreter(reference).run(in).output("o")[0], machine.run(in).outputs().output("o")[0], "x = " + x);
        }
    }
}
