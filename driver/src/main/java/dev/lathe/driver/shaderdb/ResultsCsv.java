package dev.lathe.driver.shaderdb;

import dev.lathe.backend.compile.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The corpus results file: one CSV row per shader, in a stable order, with every statistic of
 * the shader-db line, the compile time and (for a shader that failed) the message.
 */
public final class ResultsCsv {
    private ResultsCsv() {}

    /** The statistics in shader-db's line order, as column names. */
    public static final List<String> MEASUREMENTS = List.of(
            "instructions",
            "nops",
            "non-nops",
            "mov",
            "cov",
            "dwords",
            "full",
            "constlen",
            "cat0",
            "cat1",
            "cat2",
            "cat3",
            "cat4",
            "cat5",
            "cat6",
            "cat7",
            "stp",
            "ldp",
            "sstall",
            "(ss)",
            "systall",
            "(sy)",
            "waves",
            "loops",
            "cycles",
            "preamble",
            "spills",
            "fills",
            "spill-cost",
            "sim-cycles");

    /**
     * The column of the simulated cycles: with {@code --check N}, the mean over the N input sets
     * of the cycles the simulator counted running the binary (branches and loops followed);
     * empty without it.
     */
    public static final String SIMULATED_CYCLES = "sim-cycles";

    /**
     * One shader's row: its statistics (empty when it failed), compile time, error or null, and
     * with {@code --check} what the differential check compared (not part of the file).
     */
    public record Row(
            String name,
            String stage,
            Map<String, Long> values,
            double compileMs,
            String error,
            DifferentialCheck.Outcome check) {
        public Row(String name, String stage, Map<String, Long> values, double compileMs, String error) {
            this(name, stage, values, compileMs, error, null);
        }

        public boolean ok() {
            return error == null;
        }
    }

    public static Map<String, Long> values(Stats s) {
        Map<String, Long> v = new LinkedHashMap<>();
        long[] all = {
            s.instructions(),
            s.nops(),
            s.nonNops(),
            s.mov(),
            s.cov(),
            s.dwords(),
            s.full(),
            s.constlen(),
            s.cat()[0],
            s.cat()[1],
            s.cat()[2],
            s.cat()[3],
            s.cat()[4],
            s.cat()[5],
            s.cat()[6],
            s.cat()[7],
            s.stp(),
            s.ldp(),
            s.sstall(),
            s.ss(),
            s.systall(),
            s.sy(),
            s.waves(),
            s.loops(),
            s.cycles(),
            s.preamble(),
            s.spills(),
            s.fills(),
            s.spillCost()
        };
        for (int i = 0; i < all.length; i++) v.put(MEASUREMENTS.get(i), all[i]);
        return v;
    }

    public static String write(List<Row> rows) {
        return write(rows, true);
    }

    /**
     * The CSV; without {@code times} the compile-ms column is left empty, so two runs of the
     * same compiler on the same shaders give byte-identical files whatever the thread count.
     */
    public static String write(List<Row> rows, boolean times) {
        StringBuilder sb = new StringBuilder("name,stage");
        for (String m : MEASUREMENTS) sb.append(',').append(m);
        sb.append(",compile-ms,error\n");
        for (Row r : rows) {
            sb.append(quote(r.name())).append(',').append(r.stage());
            for (String m : MEASUREMENTS) {
                sb.append(',');
                Long v = r.values().get(m);
                if (v != null) sb.append(v);
            }
            sb.append(',');
            if (times) sb.append(String.format(Locale.ROOT, "%.3f", r.compileMs()));
            sb.append(',');
            if (r.error() != null) sb.append(quote(r.error()));
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String quote(String s) {
        String one = s.replace('\n', ' ').replace('\r', ' ');
        if (one.indexOf(',') < 0 && one.indexOf('"') < 0) return one;
        return '"' + one.replace("\"", "\"\"") + '"';
    }

    /** Reads a results file; a malformed one is an IllegalArgumentException naming the file and line. */
    public static List<Row> read(String file, String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || !lines[0].startsWith("name,stage,")) {
            throw new IllegalArgumentException(
                    file + ":1: not a lathe shaderdb results file (expected a 'name,stage,…' header)");
        }
        List<String> header = fields(lines[0], file, 1);
        List<Row> rows = new ArrayList<>();
        for (int n = 1; n < lines.length; n++) {
            if (lines[n].isBlank()) continue;
            List<String> f = fields(lines[n], file, n + 1);
            if (f.size() != header.size()) {
                throw new IllegalArgumentException(
                        file + ":" + (n + 1) + ": " + f.size() + " fields, the header has " + header.size());
            }
            Map<String, Long> values = new LinkedHashMap<>();
            double ms = 0;
            String error = null;
            for (int k = 2; k < f.size(); k++) {
                String col = header.get(k), v = f.get(k);
                if (col.equals("error")) {
                    error = v.isEmpty() ? null : v;
                } else if (!v.isEmpty()) {
                    try {
                        if (col.equals("compile-ms")) ms = Double.parseDouble(v);
                        else values.put(col, Long.parseLong(v));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(
                                file + ":" + (n + 1) + ": " + col + " is '" + v + "', not a number");
                    }
                }
            }
            rows.add(new Row(f.get(0), f.get(1), values, ms, error));
        }
        return rows;
    }

    private static List<String> fields(String line, String file, int n) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (quoted) throw new IllegalArgumentException(file + ":" + n + ": unclosed quote");
        out.add(cur.toString().replace("\r", ""));
        return out;
    }
}
