package dev.lathe.ir.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Malformed IR text: each case gives the exact position and a message fragment. */
class ParserErrorTest {

    private record Case(String name, String text, String lineCol, String message) {}

    private static final String H = "shader fragment\noutput vec4 f32 @frag location=0\n";

    private static final List<Case> CASES = List.of(
            new Case(
                    "missing header",
                    "function main {\n}\n",
                    "1:1",
                    "expected 'shader vertex|fragment|compute|geometry'"),
            new Case("unknown stage", "shader tessellation\n", "1:8", "unknown stage 'tessellation'"),
            new Case(
                    "geometry without its layout",
                    "shader geometry\nfunction main {\n}\n",
                    "2:1",
                    "a geometry shader says input(PRIMITIVE) output(STRIP, N)"),
            new Case(
                    "geometry input of the wrong length",
                    "shader geometry input(triangles) output(points, 1)\ninput f32 @x[2]\nfunction main {\n}\n",
                    "2:11",
                    "one element per vertex of its input (triangles): @x[3]"),
            new Case(
                    "an input array outside geometry",
                    "shader vertex\ninput f32 @x[2]\nfunction main {\n}\n",
                    "2:13",
                    "only a geometry shader's inputs are arrays"),
            new Case(
                    "workgroup size outside compute",
                    "shader vertex workgroup_size(1, 1, 1)\n",
                    "1:15",
                    "workgroup_size is only for compute shaders"),
            new Case(
                    "unknown float control",
                    "shader fragment float_controls(denorm_preserve24)\n",
                    "1:32",
                    "unknown float control 'denorm_preserve24'"),
            new Case("zero workgroup size", "shader compute workgroup_size(0, 1, 1)\n", "1:31", "must be positive"),
            new Case("unknown type", "shader fragment\ninput vec4 f33 @c\n", "2:12", "unknown type 'f33'"),
            new Case(
                    "bad vector size",
                    "shader fragment\ninput vec5 f32 @c\n",
                    "2:7",
                    "1, 2, 3, 4, 8 or 16 components, not 5"),
            new Case(
                    "duplicate declaration",
                    "shader fragment\ninput f32 @c\nuniform f32 @c\n",
                    "3:13",
                    "@c is already declared"),
            new Case("unknown attribute", "shader fragment\ninput f32 @c slot=3\n", "2:14", "unknown attribute 'slot'"),
            new Case(
                    "bad texture dimension",
                    "shader fragment\ntexture 4d f32 @t\n",
                    "2:9",
                    "unknown texture dimension '4d'"),
            new Case(
                    "shared outside compute",
                    "shader fragment\nshared f32 @s[4]\n",
                    "2:1",
                    "shared variables exist only in compute shaders"),
            new Case(
                    "image format of another type",
                    "shader compute\nimage 2d u32 @i rgba8\n",
                    "2:14",
                    "format rgba8 holds float texels, not u32"),
            new Case(
                    "two image formats",
                    "shader compute\nimage 2d f32 @i rgba8 r32f\n",
                    "2:17",
                    "an image has one format"),
            new Case(
                    "integer unorm texture",
                    "shader fragment\ntexture 2d u32 @t unorm\n",
                    "2:16",
                    "only f32 textures can be unorm"),
            new Case("no function", H, "3:1", "expected a declaration"),
            new Case("no main", "shader fragment\nfunction helper {\n}\n", "4:1", "no function named main"),
            new Case(
                    "missing close brace",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n",
                    "5:1",
                    "unexpected end of file: missing '}'"),
            new Case(
                    "unknown op",
                    H + "function main {\n  vec1 32 %a = fadd2 %b, %c\n}\n",
                    "4:16",
                    "unknown operation 'fadd2'"),
            new Case(
                    "wrong arity",
                    H + "function main {\n  vec1 32 %a = load_const (1.0)\n  vec1 32 %b = fadd %a\n}\n",
                    "5:16",
                    "fadd takes 2 source(s), got 1"),
            new Case(
                    "undefined value",
                    H + "function main {\n  vec1 32 %a = fneg %zz\n}\n",
                    "4:21",
                    "undefined value %zz"),
            new Case(
                    "defined twice",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n  vec1 32 %a = load_const (2)\n}\n",
                    "5:11",
                    "value %a is defined twice"),
            new Case(
                    "bad swizzle letters",
                    H + "function main {\n  vec4 32 %a = load_const (1, 2, 3, 4)\n  vec1 32 %b = fneg %a.q\n}\n",
                    "5:24",
                    "'q' is not a swizzle"),
            new Case(
                    "swizzle of the wrong length",
                    H + "function main {\n  vec4 32 %a = load_const (1, 2, 3, 4)\n  vec2 32 %b = fneg %a.xyz\n}\n",
                    "5:16",
                    "reads 2 component(s), but its swizzle has 3"),
            new Case(
                    "literal too large",
                    H + "function main {\n  vec1 8 %a = load_const (300)\n}\n",
                    "4:27",
                    "300 does not fit in 8 bits"),
            new Case(
                    "hex too large",
                    H + "function main {\n  vec1 16 %a = load_const (0x1ffff)\n}\n",
                    "4:28",
                    "0x1ffff does not fit in 16 bits"),
            new Case(
                    "float in a 1-bit constant",
                    H + "function main {\n  vec1 1 %a = load_const (1.5)\n}\n",
                    "4:27",
                    "a float needs 16, 32 or 64 bits"),
            new Case(
                    "boolean in a 32-bit constant",
                    H + "function main {\n  vec1 32 %a = load_const (true)\n}\n",
                    "4:28",
                    "true and false are 1-bit values"),
            new Case(
                    "wrong number of constants",
                    H + "function main {\n  vec2 32 %a = load_const (1)\n}\n",
                    "4:29",
                    "load_const has 1 value(s) for a 2-component result"),
            new Case(
                    "bad bit size",
                    H + "function main {\n  vec1 33 %a = load_const (1)\n}\n",
                    "4:8",
                    "invalid bit size 33"),
            new Case(
                    "unterminated comment", H + "/* never closed\nfunction main {\n}\n", "3:1", "unterminated comment"),
            new Case(
                    "stray character",
                    H + "function main {\n  vec1 32 %a = load_const (1) $\n}\n",
                    "4:31",
                    "unexpected character '$'"),
            new Case(
                    "label inside a block",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n  block b9:\n}\n",
                    "5:3",
                    "would start inside another block"),
            new Case(
                    "unknown phi block",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n  loop {\n"
                            + "    vec1 32 %p = phi b0: %a, b7: %p\n    break\n  }\n}\n",
                    "6:30",
                    "unknown block b7"),
            new Case(
                    "unknown variable",
                    H + "function main {\n  vec4 32 %a = load_input @nope\n}\n",
                    "4:27",
                    "unknown variable @nope"),
            new Case(
                    "wrong kind of variable",
                    H + "function main {\n  vec4 32 %a = load_input @frag\n}\n",
                    "4:27",
                    "load_input needs an input variable, but @frag is an output"),
            new Case(
                    "intrinsic result without a name",
                    "shader fragment\ninput vec4 f32 @c\nfunction main {\n  load_input @c\n}\n",
                    "4:3",
                    "load_input defines a value"),
            new Case(
                    "store with a result",
                    H + "function main {\n  vec4 32 %a = load_const (1.0, 1.0, 1.0, 1.0)\n"
                            + "  vec4 32 %b = store_output @frag, %a\n}\n",
                    "5:16",
                    "store_output does not define a value"),
            new Case(
                    "intrinsic source count",
                    H + "function main {\n  store_output @frag\n}\n",
                    "4:3",
                    "store_output @frag takes 1 source(s) (var value), got 0"),
            new Case(
                    "swizzled intrinsic source",
                    H + "function main {\n  vec4 32 %a = load_const (1.0, 1.0, 1.0, 1.0)\n"
                            + "  store_output @frag, %a.xyzw\n}\n",
                    "5:25",
                    "intrinsic sources take the whole value"),
            new Case(
                    "exact mark on a non-ALU",
                    H + "function main {\n  vec1 32 %a = !load_const (1)\n}\n",
                    "4:16",
                    "only ALU instructions can be marked exact"),
            new Case("ALU without a result", H + "function main {\n  fadd %a, %b\n}\n", "4:3", "fadd defines a value"),
            new Case(
                    "unknown flag",
                    H + "function main {\n  vec1 32 %a = load_const (1.0)\n  vec1 32 %b = fadd[fast] %a, %a\n}\n",
                    "5:21",
                    "unknown flag 'fast' (flags: nsz, nnan, ninf, reassoc, nsw, nuw)"),
            new Case(
                    "float flag on an integer op",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n  vec1 32 %b = iadd[nsz] %a, %a\n}\n",
                    "5:20",
                    "nsz applies to operations that read or produce floats, not to iadd"),
            new Case(
                    "wrap flag on a float op",
                    H + "function main {\n  vec1 32 %a = load_const (1.0)\n  vec1 32 %b = fadd[nsw] %a, %a\n}\n",
                    "5:20",
                    "nsw applies to iadd, isub, imul and ishl, not to fadd"),
            new Case(
                    "reassoc on an exact instruction",
                    H + "function main {\n  vec1 32 %a = load_const (1.0)\n  vec1 32 %b = !fadd[reassoc] %a, %a\n}\n",
                    "5:21",
                    "an exact ('!') instruction cannot carry reassoc"),
            new Case(
                    "flags on a non-ALU",
                    H + "function main {\n  vec1 32 %a = load_const[nsz] (1.0)\n}\n",
                    "4:26",
                    "only ALU instructions carry flags"),
            new Case(
                    "flag twice",
                    H + "function main {\n  vec1 32 %a = load_const (1.0)\n  vec1 32 %b = fadd[nsz, nsz] %a, %a\n}\n",
                    "5:26",
                    "flag nsz is written twice"),
            new Case(
                    "swizzle on an if condition",
                    H + "function main {\n  vec2 1 %c = load_const (true, false)\n" + "  if %c.x {\n  }\n}\n",
                    "5:8",
                    "an if condition takes a whole 1-component value"),
            new Case(
                    "phi with two sources for one block",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n  loop {\n"
                            + "    vec1 32 %p = phi b0: %a, b0: %a\n    break\n  }\n}\n",
                    "6:30",
                    "the phi already has a source for block b0"),
            new Case(
                    "function defined twice",
                    "shader fragment\nfunction main {\n}\nfunction main {\n}\n",
                    "4:10",
                    "function main is already defined"),
            // Lists far longer than any instruction takes: reported where the list goes wrong,
            // however many tokens it has (the lexer keeps only the last 1024).
            new Case(
                    "thousands of sources",
                    H + "function main {\n  vec1 32 %a = load_const (1.0)\n  vec1 32 %b = fadd " + "%a, ".repeat(3000)
                            + "%a\n}\n",
                    "5:277",
                    "too many sources: fadd takes 2"),
            new Case(
                    "thousands of intrinsic sources",
                    H + "function main {\n  vec4 32 %a = load_const (1.0, 1.0, 1.0, 1.0)\n" + "  store_output @frag"
                            + ", %a".repeat(3000) + "\n}\n",
                    "5:279",
                    "too many sources for store_output"),
            new Case(
                    "thousands of constants",
                    H + "function main {\n  vec2 32 %a = !load_const (" + "1, ".repeat(3000) + "1)\n}\n",
                    "4:9030",
                    "load_const has 3001 value(s) for a 2-component result"),
            new Case(
                    "defined twice, a long phi",
                    H + "function main {\n  vec1 32 %a = load_const (1)\n  loop {\n" + "    vec1 32 %a = phi "
                            + "b0: %a, ".repeat(2000) + "b0: %a\n    break\n  }\n}\n",
                    "6:13",
                    "value %a is defined twice"));

    @TestFactory
    Stream<DynamicTest> malformedTextGivesALocatedError() {
        return CASES.stream()
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
                    IrSyntaxException e = assertThrows(
                            IrSyntaxException.class,
                            () -> IrParser.parse("bad.ir", c.text()),
                            "expected a syntax error for: " + c.text());
                    Diagnostic d = e.diagnostic();
                    assertEquals("bad.ir", d.file());
                    assertEquals(c.lineCol(), d.line() + ":" + d.column(), "position of: " + d.headline());
                    assertTrue(
                            d.message().contains(c.message()),
                            "message: " + d.message() + "\nexpected to contain: " + c.message());
                }));
    }

    @Test
    void aPhiWithThousandsOfSourcesIsReadWhole() {
        // 1000 ifs make 3000 blocks; one phi names each as a predecessor (whether they are is the
        // validator's question). The parser holds the phi's first tokens across all 12,000 of its
        // own, and still names the value and places the instruction.
        int n = 1000;
        StringBuilder t = new StringBuilder(H + "function main {\n  vec1 1 %c = load_const (true)\n");
        for (int i = 0; i < n; i++) t.append("  if %c {\n  }\n");
        t.append("  vec1 1 %p = phi ");
        for (int i = 0; i < 3 * n; i++)
            t.append(i == 0 ? "" : ", ").append("b").append(i).append(": %c");
        t.append("\n  vec1 1 %q = inot %p\n}\n");
        dev.lathe.ir.Shader shader = IrParser.parse("long.ir", t.toString());
        dev.lathe.ir.PhiInstr phi = null;
        for (dev.lathe.ir.Block blk : shader.entryPoint().blocks()) {
            for (dev.lathe.ir.Instr in : blk.instrs()) if (in instanceof dev.lathe.ir.PhiInstr p) phi = p;
        }
        assertTrue(phi != null, "the phi was read");
        assertEquals(3 * n, phi.srcs().size());
        assertEquals(5 + 2 * n, phi.loc().line());
    }

    @Test
    void atLeastThirtyCases() {
        assertTrue(CASES.size() >= 30, "cases: " + CASES.size());
    }

    @Test
    void renderedDiagnosticShowsTheLineAndACaret() {
        IrSyntaxException e = assertThrows(
                IrSyntaxException.class,
                () -> IrParser.parse("x.ir", H + "function main {\n  vec1 32 %a = fadd2 %b, %c\n}\n"));
        assertEquals("""
                x.ir:4:16: error: unknown operation 'fadd2'
                    vec1 32 %a = fadd2 %b, %c
                                 ^""", e.diagnostic().render());
    }

    @Test
    void columnsCountCharactersAndTheCaretFollowsTheirWidth() {
        // An emoji (two UTF-16 units, two terminal columns) and a CJK character in a comment
        // before the mistake: the column counts each as one character, the caret as two cells.
        IrSyntaxException e = assertThrows(
                IrSyntaxException.class,
                () -> IrParser.parse("x.ir", H + "function main {\n  /* \uD83D\uDE00 \u5024 */ $\n}\n"));
        assertEquals(
                "x.ir:4:13: error: unexpected character '$'\n"
                        + "    /* \uD83D\uDE00 \u5024 */ $\n"
                        + " ".repeat(2 + 14) + "^",
                e.diagnostic().render());
        IrSyntaxException wide = assertThrows(
                IrSyntaxException.class, () -> IrParser.parse("x.ir", H + "function main {\n  \uFF05a\n}\n"));
        assertEquals(
                "x.ir:4:3: error: unexpected character '\uFF05' (U+FF05)",
                wide.diagnostic().headline());
    }

    @Test
    void combiningMarksAndInvisibleCharactersKeepTheCaretInPlace() {
        // e + a combining acute accent is one cell; a zero-width space is shown as '?'.
        Diagnostic d = Diagnostic.error("x.rules", 1, 8, "m", "e\u0301\u200B ab $");
        assertEquals("x.rules:1:8: error: m\n" + "  e\u0301? ab $\n" + " ".repeat(2 + 6) + "^", d.render());
    }

    @Test
    void longLinesShowAWindowMeasuredInColumns() {
        String line = "\u5024".repeat(100) + " $ " + "x".repeat(100);
        Diagnostic d = Diagnostic.error("x.ir", 1, 102, "m", line);
        String[] rows = d.render().split("\n");
        assertTrue(rows[1].startsWith("  ...") && rows[1].endsWith("..."), rows[1]);
        int caretCells = rows[2].indexOf('^');
        int cells = 0;
        for (int k = 0, cp; k < rows[1].length(); k += Character.charCount(cp)) {
            cp = rows[1].codePointAt(k);
            if (cp == '$') break;
            cells += cp == 0x5024 ? 2 : 1;
        }
        assertEquals(cells, caretCells, "the caret is under the '$':\n" + d.render());
    }
}
