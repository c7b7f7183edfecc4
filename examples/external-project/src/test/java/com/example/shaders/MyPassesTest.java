package com.example.shaders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import org.junit.jupiter.api.Test;

class MyPassesTest {
    static final String PROGRAM = """
            shader fragment

            uniform u32 @x location=0
            output u32 @o location=0

            function main {
                vec1 32 %x = load_uniform @x
                vec1 32 %two = load_const (2)
                vec1 32 %n = ineg %x
                vec1 32 %nn = ineg %n
                vec1 32 %m = imul %nn, %two
                store_output @o, %m
            }
            """;

    @Test
    void theRulesFireAndKeepTheResult() {
        Shader before = IrParser.parse("program.ir", PROGRAM);
        Shader after = IrParser.parse("program.ir", PROGRAM);
        assertTrue(MyPasses.mine().run(after.entryPoint()), "the pass made no progress");
        String text = IrPrinter.print(after);
        assertTrue(text.contains("ishl"), text);      // mul_two
        assertFalse(text.contains("imul"), text);
        for (long x : new long[] {0, 1, 7, 0x7fffffff, 0xffffffffL}) {
            ShaderInputs in = new ShaderInputs().set("x", x);
            assertEquals(new Interpreter(before).run(in).output("o")[0], new Interpreter(after).run(in).output("o")[0], "x = " + x);
        }
    }
}
