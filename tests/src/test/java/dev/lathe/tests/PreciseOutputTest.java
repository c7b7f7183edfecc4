package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The precise-output blocks of golden files: read, compared, and rewritten as blessing does. */
class PreciseOutputTest {
    static final String FILE = "// test optimize dce\nshader fragment\n// PRECISE-OUTPUT:\n// | a\n// |\n// | b\n";

    @Test
    void theBlockIsTheLinesAfterTheMarker() {
        assertTrue(PreciseOutput.wanted(FILE));
        assertFalse(PreciseOutput.wanted("// test optimize dce\nshader fragment\n"));
        assertEquals(List.of("a", "", "b"), PreciseOutput.expected(FILE));
    }

    @Test
    void aDifferenceNamesItsLineAndHowToAcceptIt(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("g.ir");
        Files.writeString(f, FILE);
        assertNull(PreciseOutput.check(f, FILE, "a\n\nb\n", false));
        String d = PreciseOutput.check(f, FILE, "a\n\nc\n", false);
        assertTrue(d.contains("line 3: expected 'b', got 'c'") && d.contains("-Dlathe.bless"), d);
        assertTrue(PreciseOutput.check(f, FILE, "a\n", false).contains("line 2"));
        // a file that keeps no block is not compared
        assertNull(PreciseOutput.check(f, "// test optimize dce\n", "anything\n", true));
        // blessing writes the output into the file's block
        assertNull(PreciseOutput.check(f, FILE, "a\n\nc\n", true));
        assertEquals(List.of("a", "", "c"), PreciseOutput.expected(Files.readString(f)));
    }

    @Test
    void blessingRewritesOnlyTheBlock() {
        String b = PreciseOutput.blessed(FILE, "x\n\ny\n");
        assertEquals("// test optimize dce\nshader fragment\n// PRECISE-OUTPUT:\n// | x\n// |\n// | y\n", b);
        assertEquals(List.of("x", "", "y"), PreciseOutput.expected(b));
    }
}
