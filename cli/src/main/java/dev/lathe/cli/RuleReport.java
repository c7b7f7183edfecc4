package dev.lathe.cli;

import com.google.gson.stream.JsonWriter;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.soundness.NirReading;
import dev.lathe.rules.soundness.Proof;
import dev.lathe.rules.soundness.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * What {@code lathe rules check} and {@code prove} found, rule by rule, and counted by pass (a
 * rule file's {@code pass} name: for imported NIR rules, NIR's pass): the text lines as they come,
 * or, with {@code --format json} or {@code csv}, one record per rule for tools, written at the
 * end. A column with nothing to say (no proof asked for, no NIR reading) is empty, or null in JSON.
 */
final class RuleReport {
    enum Format {
        text,
        json,
        csv
    }

    /** One rule's answers: the sampling verdict and the proof (either null when not asked), the NIR reading. */
    record Entry(CheckedRule rule, String pass, Verdict verdict, Proof proof, NirReading nir) {}

    /** The counts of one pass, or of all. */
    static final class Counts {
        int rules, sound, unsound, unchecked, proved, refuted, unknown, tested, encoding, wrongInNir, differs;

        void add(Entry e) {
            rules++;
            if (e.verdict() != null) {
                switch (e.verdict().kind()) {
                    case SOUND -> sound++;
                    case UNSOUND -> unsound++;
                    case UNCHECKED -> unchecked++;
                }
            }
            if (e.proof() != null) {
                switch (e.proof().kind()) {
                    case PROVED -> proved++;
                    case REFUTED -> refuted++;
                    case UNKNOWN -> unknown++;
                    case TESTED -> tested++;
                    case ENCODING_MISMATCH -> encoding++;
                }
            }
            if (e.nir() != null) {
                if (e.nir().kind() == NirReading.Kind.WRONG_IN_NIR) wrongInNir++;
                else differs++;
            }
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Counts> byPass = new LinkedHashMap<>();
    private final Counts all = new Counts();
    private final boolean checked, proved, nir;

    /**
     * @param checked whether rules were sampled ({@code check})
     * @param proved  whether they were proved
     * @param nir     whether refutations are read under NIR's semantics
     */
    RuleReport(boolean checked, boolean proved, boolean nir) {
        this.checked = checked;
        this.proved = proved;
        this.nir = nir;
    }

    void add(Entry e) {
        entries.add(e);
        all.add(e);
        byPass.computeIfAbsent(e.pass(), k -> new Counts()).add(e);
    }

    Counts all() {
        return all;
    }

    /** The words a text line ends with for a NIR reading ("" without one). */
    static String nirSuffix(NirReading r) {
        return r == null ? "" : " [" + r.text() + "]";
    }

    /** The table by pass, for the text format (nothing for a single pass). */
    void printPasses(PrintWriter out) {
        if (byPass.size() < 2 && !nir) return;
        StringBuilder head = new StringBuilder(String.format("%-50s %6s", "by pass", "rules"));
        if (checked) head.append(String.format(" %6s %7s %9s", "sound", "UNSOUND", "unchecked"));
        if (proved) head.append(String.format(" %6s %7s %7s %6s", "proved", "REFUTED", "unknown", "tested"));
        if (nir) head.append(String.format(" %12s %18s", "wrong in NIR", "differs from Lathe"));
        out.println(head);
        for (var e : byPass.entrySet()) out.println(row(e.getKey(), e.getValue()));
        if (byPass.size() > 1) out.println(row("total", all));
    }

    private String row(String name, Counts c) {
        StringBuilder b = new StringBuilder(String.format("%-50s %6d", name, c.rules));
        if (checked) b.append(String.format(" %6d %7d %9d", c.sound, c.unsound, c.unchecked));
        if (proved) b.append(String.format(" %6d %7d %7d %6d", c.proved, c.refuted + c.encoding, c.unknown, c.tested));
        if (nir) b.append(String.format(" %12d %18d", c.wrongInNir, c.differs));
        return b.toString();
    }

    private static String verdictName(Verdict v) {
        return v == null ? null : v.kind().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String proofName(Proof p) {
        if (p == null) return null;
        return p.kind() == Proof.Kind.ENCODING_MISMATCH
                ? "encoding-mismatch"
                : p.kind().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Every rule, then the counts by pass and in all, as one JSON object. */
    void writeJson(PrintWriter out) {
        try {
            JsonWriter w = new JsonWriter(out);
            w.setIndent(" ");
            w.beginObject();
            w.name("rules").beginArray();
            for (Entry e : entries) {
                CheckedRule r = e.rule();
                w.beginObject();
                w.name("file").value(r.file());
                w.name("line").value(r.line());
                w.name("rule").value(r.name());
                w.name("pass").value(e.pass());
                w.name("text").value(r.text());
                w.name("comment").value(r.comment().isEmpty() ? null : r.comment());
                w.name("sampling").value(verdictName(e.verdict()));
                w.name("samplingMessage")
                        .value(e.verdict() == null ? null : e.verdict().message());
                w.name("proof").value(proofName(e.proof()));
                w.name("proofMessage")
                        .value(e.proof() == null ? null : e.proof().message());
                w.name("nir").value(e.nir() == null ? null : e.nir().tag());
                w.name("nirDetail").value(e.nir() == null ? null : e.nir().detail());
                w.endObject();
            }
            w.endArray();
            w.name("passes").beginObject();
            for (var p : byPass.entrySet()) {
                w.name(p.getKey());
                counts(w, p.getValue());
            }
            w.endObject();
            w.name("total");
            counts(w, all);
            w.endObject();
            w.flush();
            out.println();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void counts(JsonWriter w, Counts c) throws IOException {
        w.beginObject();
        w.name("rules").value(c.rules);
        if (checked) {
            w.name("sound").value(c.sound);
            w.name("unsound").value(c.unsound);
            w.name("unchecked").value(c.unchecked);
        }
        if (proved) {
            w.name("proved").value(c.proved);
            w.name("refuted").value(c.refuted);
            w.name("unknown").value(c.unknown);
            w.name("tested").value(c.tested);
            w.name("encodingMismatch").value(c.encoding);
        }
        if (nir) {
            w.name("wrongInNir").value(c.wrongInNir);
            w.name("differsFromLathe").value(c.differs);
        }
        w.endObject();
    }

    static final String[] CSV_HEADER = {
        "file", "line", "rule", "pass", "comment", "sampling", "proof", "nir", "nir_detail", "message"
    };

    /** One CSV record per rule (RFC 4180), the message being the proof's line where there is one. */
    void writeCsv(PrintWriter out) {
        try {
            CSVPrinter p = new CSVPrinter(
                    out, CSVFormat.RFC4180.builder().setHeader(CSV_HEADER).get());
            for (Entry e : entries) {
                CheckedRule r = e.rule();
                String message =
                        e.proof() != null && (e.verdict() == null || e.proof().wrong())
                                ? e.proof().message()
                                : e.verdict() != null ? e.verdict().message() : "";
                p.printRecord(
                        r.file(),
                        r.line(),
                        r.name(),
                        e.pass(),
                        r.comment(),
                        orEmpty(verdictName(e.verdict())),
                        orEmpty(proofName(e.proof())),
                        e.nir() == null ? "" : e.nir().tag(),
                        e.nir() == null ? "" : e.nir().detail(),
                        message);
            }
            p.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
