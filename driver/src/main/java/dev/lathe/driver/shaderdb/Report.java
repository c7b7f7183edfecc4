package dev.lathe.driver.shaderdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Compares two corpus runs the way shader-db's {@code report.py} does, with the same rules
 * and the same text:
 *
 * <ul>
 *   <li>a shader counts for a measurement when it compiled in both runs, both have the
 *       measurement (a peer compiler's file may lack {@code cycles}; {@code sim-cycles} needs
 *       {@code --check}) and, unless the
 *       measurement is {@code loops}, its loop count did not change (unrolling makes the other
 *       numbers incomparable);
 *   <li>it is helped when the value went down (up for {@code waves}, where higher is better),
 *       HURT when the other way;
 *   <li>with more than three changed shaders, 95% mean confidence intervals of the change and of
 *       the relative change (Student t with n − 1 degrees of freedom), and the verdict: "are
 *       helped"/"are HURT" only when neither interval includes 0 and both agree in sign, else
 *       which test was inconclusive.
 * </ul>
 */
public final class Report {
    private Report() {}

    /** What to print. */
    public record Options(List<String> measurements, boolean summaryOnly, boolean changesOnly) {
        public static Options defaults() {
            return new Options(ResultsCsv.MEASUREMENTS, false, false);
        }
    }

    public static String render(List<ResultsCsv.Row> before, List<ResultsCsv.Row> after, Options o) {
        Map<String, ResultsCsv.Row> b = index(before), a = index(after);
        StringBuilder out = new StringBuilder();
        List<Summary> summaries = new ArrayList<>();
        for (String m : o.measurements()) {
            Summary s = new Summary(m);
            for (var e : b.entrySet()) {
                ResultsCsv.Row x = e.getValue(), y = a.get(e.getKey());
                if (y == null || !measured(x, m) || !measured(y, m)) continue;
                if (!m.equals("loops") && !value(x, "loops").equals(value(y, "loops"))) continue;
                long vb = value(x, m), va = value(y, m);
                s.totalBefore += vb;
                s.totalAfter += va;
                if (vb != va) {
                    s.affectedBefore += vb;
                    s.affectedAfter += va;
                    boolean hurt = (va > vb) ^ higherIsBetter(m);
                    (hurt ? s.hurt : s.helped).add(new Change(e.getKey(), vb, va));
                }
            }
            if (!o.summaryOnly()) {
                // the biggest relative help first
                s.helped.sort(Comparator.comparingDouble(
                        c -> c.before == 0 ? c.after : (double) (c.before - c.after) / c.before));
                for (Change c : s.helped)
                    out.append(m).append(" helped:   ").append(line(c)).append('\n');
                if (!s.helped.isEmpty()) out.append('\n');
                s.hurt.sort(Comparator.comparingDouble(
                        c -> c.before == 0 ? c.after : (double) (c.after - c.before) / c.before));
                for (Change c : s.hurt)
                    out.append(m).append(" HURT:   ").append(line(c)).append('\n');
                if (!s.hurt.isEmpty()) out.append('\n');
            }
            summaries.add(s);
        }
        List<String> lost = new ArrayList<>(), gained = new ArrayList<>();
        for (String k : b.keySet()) if (!a.containsKey(k)) lost.add(k);
        for (String k : a.keySet()) if (!b.containsKey(k)) gained.add(k);
        if (!o.summaryOnly()) {
            lost.sort(null);
            for (String p : lost) out.append("LOST:   ").append(p).append('\n');
            if (!lost.isEmpty()) out.append('\n');
            gained.sort(null);
            for (String p : gained) out.append("GAINED: ").append(p).append('\n');
            if (!gained.isEmpty()) out.append('\n');
        }
        boolean any = false;
        for (Summary s : summaries) {
            int helped = s.helped.size(), hurt = s.hurt.size();
            any |= helped + hurt > 0;
            if (helped + hurt == 0 && o.changesOnly()) continue;
            out.append("total ")
                    .append(s.m)
                    .append(" in shared programs: ")
                    .append(change(s.totalBefore, s.totalAfter))
                    .append('\n');
            out.append(s.m)
                    .append(" in affected programs: ")
                    .append(change(s.affectedBefore, s.affectedAfter))
                    .append('\n');
            out.append("helped: ").append(helped).append('\n');
            out.append("HURT: ").append(hurt).append('\n');
            if (helped > 2 || (helped > 0 && hurt > 0))
                stats(out, "helped stats (abs) ", "helped stats (rel) ", s.helped);
            if (hurt > 2 || (hurt > 0 && helped > 0)) stats(out, "HURT stats (abs)   ", "HURT stats (rel)   ", s.hurt);
            if (helped + hurt > 3) {
                List<Change> all = new ArrayList<>(s.helped);
                all.addAll(s.hurt);
                double[] abs = new double[all.size()], rel = new double[all.size()];
                for (int i = 0; i < all.size(); i++) {
                    Change c = all.get(i);
                    abs[i] = c.after - c.before;
                    rel[i] = c.before == 0 ? 0 : (double) (c.after - c.before) / c.before;
                }
                double[] va = interval(abs), vr = interval(rel);
                out.append("95% mean confidence interval for ")
                        .append(s.m)
                        .append(" value: ")
                        .append(fixed(va[0]))
                        .append(' ')
                        .append(fixed(va[1]))
                        .append('\n');
                out.append("95% mean confidence interval for ")
                        .append(s.m)
                        .append(" %-change: ")
                        .append(percent(vr[0]))
                        .append(' ')
                        .append(percent(vr[1]))
                        .append('\n');
                if (va[0] < 0 && va[1] > 0) {
                    out.append("Inconclusive result (value mean confidence interval includes 0).\n");
                } else if (vr[0] < 0 && vr[1] > 0) {
                    out.append("Inconclusive result (%-change mean confidence interval includes 0).\n");
                } else if ((va[0] < 0) != (vr[0] < 0)) {
                    out.append(
                            "Inconclusive result (value mean confidence interval and %-change mean confidence interval disagree).\n");
                } else if (va[0] < 0) {
                    out.append(capitalize(s.m)).append(" are helped.\n");
                } else {
                    out.append(capitalize(s.m)).append(" are HURT.\n");
                }
            }
            out.append('\n');
        }
        if (!lost.isEmpty() || !gained.isEmpty() || !o.changesOnly()) {
            out.append("LOST:   ").append(lost.size()).append('\n');
            out.append("GAINED: ").append(gained.size()).append('\n');
        } else if (!any) {
            out.append("No changes.\n");
        }
        out.append('\n');
        double tb = 0, ta = 0;
        for (ResultsCsv.Row r : before) tb += r.compileMs() / 1000;
        for (ResultsCsv.Row r : after) ta += r.compileMs() / 1000;
        out.append("Total CPU time (seconds): ").append(change(tb, ta)).append('\n');
        return out.toString();
    }

    /**
     * Plain totals over every shader both runs compiled (loop counts not compared: a peer that
     * unrolls is still measured against), as a Markdown table of the measurements with the
     * ratio after/before; then the shaders where {@code waves} went down, if it is measured.
     */
    public static String totals(List<ResultsCsv.Row> before, List<ResultsCsv.Row> after, List<String> measurements) {
        Map<String, ResultsCsv.Row> b = index(before), a = index(after);
        List<String> shared = new ArrayList<>();
        for (String k : b.keySet()) if (a.containsKey(k)) shared.add(k);
        StringBuilder out = new StringBuilder();
        out.append(shared.size()).append(" shaders compiled in both runs\n\n");
        out.append("| measure (totals) | before | after | after/before |\n|---|---:|---:|---:|\n");
        for (String m : measurements) {
            long tb = 0, ta = 0;
            int n = 0;
            for (String k : shared) {
                if (!measured(b.get(k), m) || !measured(a.get(k), m)) continue;
                tb += value(b.get(k), m);
                ta += value(a.get(k), m);
                n++;
            }
            if (n == 0) {
                out.append("| ").append(m).append(" | — | — | not measured in both |\n");
                continue;
            }
            out.append("| ")
                    .append(m)
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%,d", tb))
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%,d", ta))
                    .append(" | ")
                    .append(tb == 0 ? "—" : String.format(Locale.ROOT, "%.2f", (double) ta / tb))
                    .append(" |\n");
        }
        if (measurements.contains("waves")) {
            List<String> fewer = new ArrayList<>();
            for (String k : shared) {
                long wb = value(b.get(k), "waves"), wa = value(a.get(k), "waves");
                if (wa < wb) fewer.add(b.get(k).name() + " (" + wb + " -> " + wa + ")");
            }
            out.append("\nwaves lower after than before: ")
                    .append(fewer.isEmpty() ? "none" : String.join(", ", fewer))
                    .append('\n');
        }
        return out.toString();
    }

    private record Change(String shader, long before, long after) {}

    private static final class Summary {
        final String m;
        long totalBefore, totalAfter, affectedBefore, affectedAfter;
        final List<Change> helped = new ArrayList<>(), hurt = new ArrayList<>();

        Summary(String m) {
            this.m = m;
        }
    }

    /** Shaders by "name stage", only those that compiled. */
    private static Map<String, ResultsCsv.Row> index(List<ResultsCsv.Row> rows) {
        Map<String, ResultsCsv.Row> m = new LinkedHashMap<>();
        for (ResultsCsv.Row r : rows) if (r.ok()) m.put(r.name() + " " + r.stage(), r);
        return m;
    }

    /** Whether the row has measurement {@code m} (a peer's file may lack some; sim-cycles needs --check). */
    private static boolean measured(ResultsCsv.Row r, String m) {
        return r.values().containsKey(m);
    }

    private static Long value(ResultsCsv.Row r, String m) {
        Long v = r.values().get(m);
        if (v == null) throw new IllegalArgumentException("no measurement '" + m + "' for " + r.name());
        return v;
    }

    static boolean higherIsBetter(String m) {
        return m.equals("waves");
    }

    private static void stats(StringBuilder out, String absLabel, String relLabel, List<Change> cs) {
        double[] abs = new double[cs.size()], rel = new double[cs.size()];
        for (int i = 0; i < cs.size(); i++) {
            Change c = cs.get(i);
            abs[i] = Math.abs(c.before - c.after);
            rel[i] = c.before == 0 ? 0 : Math.abs(c.before - c.after) / (double) c.before;
        }
        out.append(absLabel)
                .append("min: ")
                .append((long) min(abs))
                .append(" max: ")
                .append((long) max(abs))
                .append(" x\u0304: ")
                .append(fixed(mean(abs)))
                .append(" x\u0303: ")
                .append((long) median(abs))
                .append('\n');
        out.append(relLabel)
                .append("min: ")
                .append(percent(min(rel)))
                .append(" max: ")
                .append(percent(max(rel)))
                .append(" x\u0304: ")
                .append(percent(mean(rel)))
                .append(" x\u0303: ")
                .append(percent(median(rel)))
                .append('\n');
    }

    /** The 95% confidence interval of the mean: mean ± t(0.975, n-1) · s/√n. */
    static double[] interval(double[] x) {
        int n = x.length;
        double m = mean(x), ss = 0;
        for (double v : x) ss += (v - m) * (v - m);
        double sem = Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
        double h = sem * TDistribution.of(n - 1).inverseCumulativeProbability(0.975);
        return new double[] {m - h, m + h};
    }

    static double mean(double[] x) {
        double s = 0;
        for (double v : x) s += v;
        return s / x.length;
    }

    static double median(double[] x) {
        double[] c = x.clone();
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    private static double min(double[] x) {
        return Arrays.stream(x).min().orElse(0);
    }

    private static double max(double[] x) {
        return Arrays.stream(x).max().orElse(0);
    }

    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** A fraction as a percentage with two decimals; "<.01%" for a change too small to show. */
    static String percent(double frac) {
        if (Math.abs(frac) > 0 && Math.abs(frac) < 0.0001) return "<.01%";
        return String.format(Locale.ROOT, "%.2f%%", frac * 100);
    }

    /** A count: whole when the fraction is below 0.01, else two decimals. */
    static String number(double n) {
        return n - Math.floor(n) < 0.01 ? Long.toString((long) Math.floor(n)) : fixed(n);
    }

    static String change(double b, double a) {
        String s = number(b) + " -> " + number(a);
        if (b != 0 && a != 0) s += " (" + percent(a / b - 1.0) + ")";
        return s;
    }

    private static String line(Change c) {
        StringBuilder p = new StringBuilder(c.shader()).append(": ");
        while (p.length() < 50) p.append(' ');
        return p + change(c.before(), c.after());
    }

    private static String capitalize(String m) {
        return m.isEmpty() ? m : Character.toUpperCase(m.charAt(0)) + m.substring(1);
    }
}
