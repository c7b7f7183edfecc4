package dev.lathe.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The importer's Java half on dump rows as the dumper writes them: translation, names after the
 * source line, marks, refusals, and the rules NIR's order hides kept in a file of their own. (The
 * whole importer, python3 included, is tested in the CLI's ImportNirTest.)
 */
class NirImportTest {
    private static final String HEAD = "pass\tline\tsearch\treplace\tcondition\textra\tproblem\n";

    private static NirImport.Result translate(String rows) {
        return NirImport.translate(NirImport.rows(HEAD + rows), "mesa/nir_opt_algebraic.py");
    }

    @Test
    void rowsBecomeNamedRulesPerPass() {
        NirImport.Result r = translate("""
                opt\t10\t('fmul', 'a', 1.0)\t'a'\t\t\t
                opt\t11\t('imin', 'a', 'a')\t'a'\t\t\t
                opt\t11\t('imax', 'a', 'a')\t'a'\t\t\t
                opt\t12\t('fsat', ('fsat', 'a'))\t('fsat', 'a')\t!options->lower_fsat\t\t
                opt\t13\t('imul', 'a', 1)\t'a'\ttrue\tnir_algebraic.TestStatus.XFAIL\t
                late\t20\t('fneg', ('fneg', 'a'))\t'a'\t\t\t
                """);
        assertEquals(List.of("opt", "late"), List.copyOf(r.passes().keySet()));
        List<NirImport.Imported> opt = r.passes().get("opt");
        assertEquals(
                List.of("nir_10", "nir_11", "nir_11_2", "nir_12", "nir_13"),
                opt.stream().map(NirImport.Imported::name).toList());
        assertEquals(
                "fsat(fsat(a)) => fsat(a) if !option(lower_fsat);", opt.get(3).rule());
        assertEquals("XFAIL", opt.get(4).mark());
        String file = NirImport.passFile(r, "opt", 0);
        assertTrue(file.startsWith(NirImport.HEADER), file);
        assertTrue(file.contains("pass opt;\n"), file);
        assertTrue(file.contains("nir_13: imul(a, 1) => a;  # nir_opt_algebraic.py:13, marked XFAIL by NIR\n"), file);
        RuleCompiler.Result compiled = RuleCompiler.compile("opt.rules", file);
        assertTrue(compiled.ok(), compiled.renderAll());
        assertEquals("nir_opt_algebraic.py:10", compiled.file().rules().get(0).comment());
        assertEquals(6, r.imported());
        assertEquals(0, r.refused().size());
    }

    @Test
    void whatCannotBeSaidIsRefusedWithItsReason() {
        NirImport.Result r = translate("""
                opt\t10\t('fcos_amd', 'a')\t'a'\t\t\t
                opt\t11\t\t\t\t\tit uses nir_algebraic.NewThing, which the importer does not know
                opt\t12\t('iadd', 'a', 0)\t'a'\t\t'something'\t
                opt\t13\t('iadd', 'a', 'b')\t('iadd', 'b', 'a')\t\t\t
                bad-name\t14\t('iadd', 'a', 0)\t'a'\t\t\t
                """);
        assertEquals(0, r.imported());
        List<String> reasons =
                r.refused().stream().map(NirImport.Refused::reason).toList();
        assertTrue(reasons.get(0).contains("fcos_amd is private to NIR's AMD backend"), reasons.get(0));
        assertTrue(reasons.get(1).contains("nir_algebraic.NewThing"), reasons.get(1));
        assertTrue(reasons.get(2).contains("elements past its condition ('something')"), reasons.get(2));
        assertTrue(reasons.get(3).startsWith("it does not compile: "), reasons.get(3));
        assertTrue(reasons.get(4).contains("'bad-name' is not a name"), reasons.get(4));
        String md = NirImport.refusedFile(r);
        assertTrue(md.contains("5 of its 5 rules are not imported"), md);
        assertTrue(md.contains("- `nir_opt_algebraic.py:10` fcos_amd is private"), md);
    }

    @Test
    void rulesNirsOrderHidesAreKeptApart() {
        NirImport.Result r = translate("""
                opt\t10\t('iadd', 'a', 0)\t'a'\t\t\t
                opt\t11\t('iadd@32', 'a', 0)\t'a'\t\t\t
                opt\t12\t('iadd', 'a', 0)\t'a'\t\t\t
                opt\t13\t('imul', 'a', 1)\t'a'\t\t\t
                """);
        List<NirImport.Imported> opt = r.passes().get("opt");
        assertEquals(4, opt.size());
        assertEquals(
                List.of(0, 1, 1, 0),
                List.of(
                        opt.get(0).layer(),
                        opt.get(1).layer(),
                        opt.get(2).layer(),
                        opt.get(3).layer()),
                opt.toString());
        String never = NirImport.passFile(r, "opt", 1);
        assertTrue(never.contains("pass opt_unreachable;"), never);
        assertTrue(
                never.contains("nir_11: iadd@32(a, 0) => a;  # nir_opt_algebraic.py:11; it can never fire: nir_10"),
                never);
        assertTrue(never.contains("nir_12: iadd(a, 0) => a;  # nir_opt_algebraic.py:12; it duplicates nir_10"), never);
        assertTrue(RuleCompiler.compile("n.rules", never).ok(), never);
        assertTrue(
                RuleCompiler.compile("o.rules", NirImport.passFile(r, "opt", 0)).ok());
        assertEquals("opt_unreachable", NirImport.fileName("opt", 1));
        assertTrue(opt.get(1).unreachable().startsWith("it can never fire: nir_10 comes first"));
    }

    @Test
    void aDumpItCannotReadIsSaid() {
        assertThrows(NirImport.BadDump.class, () -> NirImport.rows("no header\n"));
        NirImport.BadDump e = assertThrows(NirImport.BadDump.class, () -> NirImport.rows(HEAD + "opt\t1\tx\n"));
        assertTrue(e.getMessage().contains("row 1 of the dump has 3 columns"), e.getMessage());
        // escapes as the dumper writes them
        NirImport.Row row = NirImport.rows(HEAD + "opt\t5\t('iadd', 'a', 0)\t'a'\ta\\\\b\\tc\t\t\n")
                .get(0);
        assertEquals("a\\b\tc", row.condition());
    }
}
