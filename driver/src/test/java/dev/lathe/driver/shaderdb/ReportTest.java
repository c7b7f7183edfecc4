package dev.lathe.driver.shaderdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report on small cases worked out by hand (t quantiles from tables: t(0.975, 3) = 3.1824, t(0.975, 4) = 2.7764). */
class ReportTest {
    static ResultsCsv.Row row(String name, long instructions, long loops, long waves) {
        Map<String, Long> v = new LinkedHashMap<>();
        for (String m : ResultsCsv.MEASUREMENTS) v.put(m, 0L);
        v.put("instructions", instructions);
        v.put("loops", loops);
        v.put("waves", waves);
        return new ResultsCsv.Row(name, "compute", v, 1000, null);
    }

    static List<ResultsCsv.Row> rows(long[] inst) {
        List<ResultsCsv.Row> r = new ArrayList<>();
        for (int i = 0; i < inst.length; i++) r.add(row("s" + i, inst[i], 0, 16));
        return r;
    }

    static String report(List<ResultsCsv.Row> b, List<ResultsCsv.Row> a, boolean summary, String... ms) {
        return Report.render(b, a, new Report.Options(List.of(ms), summary, false));
    }

    @Test
    void mixedChangesAreInconclusive() {
        // changes -1, -2, -5 (helped) and +4 (HURT), each 10%: mean -1, s = sqrt(14), sem = 1.8708,
        // h = 3.1824 * 1.8708 = 5.9538; relative mean -5%, s = 10%, sem = 5%, h = 15.91%
        String r = report(
                rows(new long[] {10, 20, 30, 40, 50}), rows(new long[] {9, 18, 30, 44, 45}), true, "instructions");
        assertEquals("""
                total instructions in shared programs: 150 -> 146 (-2.67%)
                instructions in affected programs: 120 -> 116 (-3.33%)
                helped: 3
                HURT: 1
                helped stats (abs) min: 1 max: 5 x\u0304: 2.67 x\u0303: 2
                helped stats (rel) min: 10.00% max: 10.00% x\u0304: 10.00% x\u0303: 10.00%
                HURT stats (abs)   min: 4 max: 4 x\u0304: 4.00 x\u0303: 4
                HURT stats (rel)   min: 10.00% max: 10.00% x\u0304: 10.00% x\u0303: 10.00%
                95% mean confidence interval for instructions value: -6.95 4.95
                95% mean confidence interval for instructions %-change: -20.91% 10.91%
                Inconclusive result (value mean confidence interval includes 0).

                LOST:   0
                GAINED: 0

                Total CPU time (seconds): 5 -> 5 (0.00%)
                """, r);
    }

    @Test
    void consistentImprovementIsHelped() {
        // changes -1 -2 -1 -2 -3: mean -1.8, s = sqrt(0.7), sem = 0.37417, h = 2.7764 * 0.37417 = 1.0389
        String r =
                report(rows(new long[] {10, 10, 10, 10, 10}), rows(new long[] {9, 8, 9, 8, 7}), false, "instructions");
        assertTrue(r.contains("95% mean confidence interval for instructions value: -2.84 -0.76\n"), r);
        assertTrue(r.contains("95% mean confidence interval for instructions %-change: -28.39% -7.61%\n"), r);
        assertTrue(r.contains("\nInstructions are helped.\n"), r);
        assertTrue(r.contains("helped stats (abs) min: 1 max: 3 x\u0304: 1.80 x\u0303: 2\n"), r);
        // per-shader lines, the largest relative help last (sorted by it, ascending)
        assertTrue(
                r.startsWith(
                        "instructions helped:   " + String.format("%-50s", "s0 compute: ") + "10 -> 9 (-10.00%)\n"),
                r);
        assertTrue(
                r.contains(
                        "instructions helped:   " + String.format("%-50s", "s4 compute: ") + "10 -> 7 (-30.00%)\n\n"),
                r);
        assertTrue(!r.contains("HURT stats"), "no HURT shaders, no HURT statistics: " + r);
    }

    @Test
    void wavesAreBetterHigherAndLoopChangesExcludeAShader() {
        List<ResultsCsv.Row> b = List.of(row("a", 10, 0, 8), row("b", 10, 1, 16), row("c", 10, 0, 16));
        List<ResultsCsv.Row> a = List.of(row("a", 10, 0, 16), row("b", 5, 2, 16), row("c", 12, 0, 16));
        String r = report(b, a, true, "waves", "instructions", "loops");
        // b changed its loops, so it counts for no other measurement, waves included
        assertTrue(
                r.contains(
                        "total waves in shared programs: 24 -> 32 (33.33%)\nwaves in affected programs: 8 -> 16 (100.00%)\nhelped: 1\nHURT: 0\n"),
                r);
        // b changed its loops: its instructions do not count, c's got worse
        assertTrue(
                r.contains(
                        "total instructions in shared programs: 20 -> 22 (10.00%)\ninstructions in affected programs: 10 -> 12 (20.00%)\nhelped: 0\nHURT: 1\n"),
                r);
        assertTrue(r.contains("total loops in shared programs: 1 -> 2 (100.00%)\n"), r);
        assertTrue(!r.contains("confidence interval"), "three or fewer changes give no interval: " + r);
    }

    @Test
    void failedShadersAreLostOrGained() {
        List<ResultsCsv.Row> b = List.of(row("a", 10, 0, 16), new ResultsCsv.Row("b", "compute", Map.of(), 1, "boom"));
        List<ResultsCsv.Row> a = List.of(new ResultsCsv.Row("a", "compute", Map.of(), 1, "broke"), row("b", 3, 0, 16));
        String r = report(b, a, false, "instructions");
        assertTrue(r.contains("LOST:   a compute\n\nGAINED: b compute\n\n"), r);
        assertTrue(r.contains("LOST:   1\nGAINED: 1\n"), r);
        assertTrue(r.contains("total instructions in shared programs: 0 -> 0\n"), r);
    }

    @Test
    void formattingFollowsReportPy() {
        assertEquals("<.01%", Report.percent(0.00005));
        assertEquals("0.00%", Report.percent(0));
        assertEquals("-0.67%", Report.percent(-0.0067));
        assertEquals("4179917 -> 4151747 (-0.67%)", Report.change(4179917, 4151747));
        assertEquals("0 -> 5", Report.change(0, 5));
        assertEquals("1.50", Report.number(1.5));
        assertEquals("2", Report.number(2.004));
    }

    @Test
    void csvRoundTripsAndBadFilesAreLocated() {
        List<ResultsCsv.Row> rows = List.of(
                row("x, y", 7, 0, 16), new ResultsCsv.Row("z", "fragment", Map.of(), 2.5, "bad \"thing\", here"));
        List<ResultsCsv.Row> back = ResultsCsv.read("r.csv", ResultsCsv.write(rows));
        assertEquals(rows.get(0).values(), back.get(0).values());
        assertEquals("x, y", back.get(0).name());
        assertEquals("bad \"thing\", here", back.get(1).error());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ResultsCsv.read("r.csv", "hello\n"));
        assertTrue(e.getMessage().startsWith("r.csv:1: "), e.getMessage());
        String bad = ResultsCsv.write(rows).replace(",7,", ",seven,");
        IllegalArgumentException n = assertThrows(IllegalArgumentException.class, () -> ResultsCsv.read("r.csv", bad));
        assertTrue(n.getMessage().startsWith("r.csv:2: instructions is 'seven'"), n.getMessage());
    }
}
