package dev.lathe.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.lathe.driver.ExternalTool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lathe rules import-nir} on a small rule file written in the form of Mesa's
 * nir_opt_algebraic.py (test resource {@code nir/nir_opt_algebraic.py}), then {@code rules check}
 * and {@code prove} on what it wrote, and the importer's errors. The importer runs python3; the
 * tests that need it are skipped where there is none (.ci/run installs it).
 */
class ImportNirTest {
    @TempDir
    Path dir;

    static boolean python;

    @BeforeAll
    static void findPython() {
        python = ExternalTool.available("python3");
    }

    private Path fixture() throws IOException {
        Path f = dir.resolve("mesa").resolve("nir_opt_algebraic.py");
        Files.createDirectories(f.getParent());
        try (InputStream in = ImportNirTest.class.getResourceAsStream("/nir/nir_opt_algebraic.py")) {
            Files.copy(in, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return f;
    }

    private Path imported() throws IOException {
        Path out = dir.resolve("imported");
        CliTest.Result r = CliTest.lathe("rules", "import-nir", fixture().toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        return out;
    }

    @Test
    void importsEachPassWithLinesGatesAndRefusals() throws IOException {
        assumeTrue(python, "python3 is not on the PATH");
        Path out = dir.resolve("imported");
        CliTest.Result r = CliTest.lathe("rules", "import-nir", fixture().toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("22 of 24 rules imported (91.7%); 2 refused"), r.out());
        String main = Files.readString(out.resolve("nir_opt_algebraic.rules"));
        String late = Files.readString(out.resolve("nir_opt_algebraic_late.rules"));
        // named after the tuple's line, which the comment cites (the generated matcher keeps it)
        assertTrue(main.contains("nir_21: fmul(a, 1.0) => a;  # nir_opt_algebraic.py:21\n"), main);
        // a flag, '~', an option gate, a helper function, ignore_exact, a swizzle, a bit size
        assertTrue(main.contains("nir_22: fadd[nsz](a, 0.0) => a;"), main);
        assertTrue(main.contains("nir_23: fadd(fmul(a, b), fmul(a, c)) ~~> fmul(a, fadd(b, c));"), main);
        assertTrue(main.contains("nir_24: fsat(fsat(a)) => fsat(a) if !option(lower_fsat);"), main);
        assertTrue(main.contains("nir_25: fmul(a, 2.0) => fadd(a, a);"), main);
        assertTrue(main.contains("nir_26: ine(iand(a, 1), 0) => ieq(iand(a, 1), 1);"), main);
        assertTrue(main.contains("nir_27: fdot2(vec2(a, 0.0), b) => fmul(a, b.x);"), main);
        assertTrue(main.contains("nir_28: iadd@64(a, 0) => a;"), main);
        // a newer Mesa's test mark is kept, not a reason to refuse
        assertTrue(main.contains("nir_33: imul(a, 1) => a;  # nir_opt_algebraic.py:33, marked XFAIL by NIR"), main);
        // loops: one rule per element, the second on a line named _2
        assertTrue(main.contains("nir_40: fmin(a, a) => a;") && main.contains("nir_40_2: fmax(a, a) => a;"), main);
        assertTrue(main.contains("nir_44_4: iand(a@64, 0) => 0;"), main);
        assertTrue(late.contains("pass nir_opt_algebraic_late;") && late.contains("nir_47: fneg(fneg(a)) => a;"), late);
        assertTrue(late.contains("if option(lower_fsat) || option(lower_fabs);"), late);
        // a duplicate never fires in NIR either: kept apart, to be checked all the same
        String never = Files.readString(out.resolve("nir_opt_algebraic_unreachable.rules"));
        assertTrue(
                never.contains("nir_36: fmul(a, 1.0) => a;  # nir_opt_algebraic.py:36; it duplicates nir_21"), never);
        assertFalse(main.contains("nir_36:"), main);
        // refused, each with its reason
        String refused = Files.readString(out.resolve("REFUSED.md"));
        assertTrue(refused.contains("`nir_opt_algebraic.py:32` fcos_amd is private to NIR's AMD backend"), refused);
        assertTrue(
                refused.contains("`nir_opt_algebraic.py:34` it uses nir_algebraic.NewConstruct(...), which the importer"
                        + " does not know"),
                refused);
        // importing again replaces the files, and the result compiles as the build compiles it
        assertEquals(
                0,
                CliTest.lathe("rules", "import-nir", fixture().toString(), "-o", out.toString())
                        .code());
        CliTest.Result check = CliTest.lathe("rules", "check", "--no-prove", "--bits", "32", out.toString());
        assertTrue(check.out().contains("by pass"), check.out());
    }

    @Test
    void checkReadsRefutationsUnderNirsSemantics() throws IOException {
        assumeTrue(python, "python3 is not on the PATH");
        Path out = imported();
        CliTest.Result r = CliTest.lathe("rules", "check", "--no-proof-cache", "--format", "json", out.toString());
        assertEquals(1, r.code(), r.err());
        JsonObject report = JsonParser.parseString(r.out()).getAsJsonObject();
        Map<String, JsonObject> byRule = new HashMap<>();
        for (var e : report.getAsJsonArray("rules")) {
            JsonObject o = e.getAsJsonObject();
            byRule.put(o.get("rule").getAsString(), o);
        }
        // wrong in NIR too: NIR masks a 64-bit shift's count by 63, so the shift is by 32
        JsonObject shift = byRule.get("nir_29");
        assertEquals("refuted", shift.get("proof").getAsString(), shift.toString());
        assertEquals("wrong-in-nir", shift.get("nir").getAsString(), shift.toString());
        // a field past the top bit: NIR's ubitfield_extract gives 0, Lathe's clips it
        JsonObject field = byRule.get("nir_30");
        assertEquals("differs-from-lathe", field.get("nir").getAsString(), field.toString());
        assertTrue(field.get("nirDetail").getAsString().contains("ubitfield_extract"), field.toString());
        // fcsel makes a NaN whose bits are open in Lathe, where bcsel keeps them; NIR treats every NaN alike
        JsonObject neg = byRule.get("nir_31");
        assertEquals("differs-from-lathe", neg.get("nir").getAsString(), neg.toString());
        assertTrue(neg.get("nirDetail").getAsString().startsWith("a NaN's bits"), neg.toString());
        // a sound rule has no reading; its comment cites the source line
        JsonObject one = byRule.get("nir_21");
        assertEquals("sound", one.get("sampling").getAsString());
        assertEquals("proved", one.get("proof").getAsString());
        assertTrue(one.get("nir").isJsonNull());
        assertEquals("nir_opt_algebraic.py:21", one.get("comment").getAsString());
        // counts by pass
        JsonObject late = report.getAsJsonObject("passes").getAsJsonObject("nir_opt_algebraic_late");
        assertEquals(2, late.get("rules").getAsInt(), late.toString());
        assertEquals(
                1,
                report.getAsJsonObject("passes")
                        .getAsJsonObject("nir_opt_algebraic_unreachable")
                        .get("rules")
                        .getAsInt());
        assertTrue(report.getAsJsonObject("total").get("wrongInNir").getAsInt() >= 1, report.toString());
    }

    @Test
    void proveWritesCsvAndTextSaysTheReading() throws IOException {
        assumeTrue(python, "python3 is not on the PATH");
        Path out = imported();
        CliTest.Result csv = CliTest.lathe("rules", "prove", "--no-proof-cache", "--format", "csv", out.toString());
        assertEquals(1, csv.code(), csv.err());
        Map<String, CSVRecord> rows = new HashMap<>();
        for (CSVRecord rec : CSVFormat.RFC4180
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .get()
                .parse(new java.io.StringReader(csv.out()))) rows.put(rec.get("rule"), rec);
        assertEquals("refuted", rows.get("nir_29").get("proof"));
        assertEquals("wrong-in-nir", rows.get("nir_29").get("nir"));
        assertEquals("nir_opt_algebraic", rows.get("nir_29").get("pass"));
        assertTrue(rows.get("nir_29").get("message").contains("rule nir_29 is unsound at 64 bits"), rows.toString());
        assertEquals("proved", rows.get("nir_47").get("proof"));
        CliTest.Result text = CliTest.lathe("rules", "prove", "--no-proof-cache", out.toString());
        assertTrue(
                text.out()
                        .contains("rule nir_29 is unsound at 64 bits: a = 1 (0x0000000000000001): pattern gives"
                                + " 4294967296 (0x0000000100000000), replacement gives 1 (0x0000000000000001) (refuted by the SMT"
                                + " solver) [wrong in NIR: a value (a = 1"),
                text.out());
        // --no-nir: the plain report
        CliTest.Result plain = CliTest.lathe("rules", "prove", "--no-proof-cache", "--no-nir", out.toString());
        assertFalse(plain.out().contains("wrong in NIR"), plain.out());
    }

    @Test
    void aMissingPythonIsSaid() throws IOException {
        Path out = dir.resolve("imported");
        CliTest.Result r = CliTest.lathe(
                "rules",
                "import-nir",
                fixture().toString(),
                "-o",
                out.toString(),
                "--python",
                dir.resolve("no-python3").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("is not on the PATH; the importer runs Mesa's Python with it"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void aFileThatIsNotARuleFileIsSaidWithItsLine() throws IOException {
        assumeTrue(python, "python3 is not on the PATH");
        Path out = dir.resolve("imported");
        Path broken = dir.resolve("broken.py");
        Files.writeString(broken, "import nir_algebraic\n\noptimizations = [\n   (('fmul', a, 1.0), a),\n]\n");
        CliTest.Result r = CliTest.lathe("rules", "import-nir", broken.toString(), "-o", out.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("broken.py:4: the file does not evaluate: NameError"), r.err());
        Files.writeString(broken, "optimizations = [\n   (('fmul', 'a', 1.0), 'a'),\n");
        r = CliTest.lathe("rules", "import-nir", broken.toString(), "-o", out.toString());
        assertTrue(r.code() == 1 && r.err().contains("broken.py:1: not Python"), r.err());
        Files.writeString(broken, "optimizations = [(('fmul', 'a', 1.0), 'a')]\n");
        r = CliTest.lathe("rules", "import-nir", broken.toString(), "-o", out.toString());
        assertTrue(r.code() == 1 && r.err().contains("makes no nir_algebraic.AlgebraicPass: not a rule file"), r.err());
        r = CliTest.lathe("rules", "import-nir", dir.resolve("none.py").toString(), "-o", out.toString());
        assertTrue(r.code() == 1 && r.err().contains("none.py: no such file"), r.err());
        assertFalse(Files.exists(out.resolve("REFUSED.md")));
    }
}
