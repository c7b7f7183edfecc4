package com.example.shaders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MyPassesTest {
    /** program.ir, beside the pom (the directory tests run in). */
    static final String PROGRAM = read(Path.of("program.ir"));

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

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
