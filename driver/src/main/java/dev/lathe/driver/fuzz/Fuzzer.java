package dev.lathe.driver.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a mutation fuzzer: case {@code k} of seed {@code s} picks a seed input and mutates it with
 * a random source made from (s, k) alone, so any case can be run again by its numbers. Each case
 * runs on a worker thread with a time limit (a hang is a failure). A failure is minimized — a
 * length-keeping mutant by reverting units to the seed's, a text by deleting lines, then
 * characters — while it fails the same way, and written to {@code failures/<target>-<seed>-<case><ext>}.
 */
public final class Fuzzer {
    /** A failing case: its number, what failed, the minimized input and where it was written (or null). */
    public record Failure(long caseNumber, FuzzFailure failure, byte[] minimized, Path written) {}

    /** What a run did: cases per category, and the failures. */
    public record Report(String target, long seed, long cases, Map<String, Long> categories, List<Failure> failures) {
        /** A few lines: the counts, then each failure with its case and file. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            sb.append("fuzz ")
                    .append(target)
                    .append(": ")
                    .append(cases)
                    .append(" cases (seed ")
                    .append(seed)
                    .append("), ")
                    .append(failures.size())
                    .append(failures.size() == 1 ? " failure\n" : " failures\n");
            for (Map.Entry<String, Long> e : categories.entrySet())
                sb.append(String.format("  %7d  %s%n", e.getValue(), e.getKey()));
            for (Failure f : failures) {
                sb.append("FAILED case ")
                        .append(f.caseNumber())
                        .append(": ")
                        .append(f.failure().getMessage());
                if (f.written() != null)
                    sb.append("\n  minimized input (")
                            .append(f.minimized().length)
                            .append(" bytes): ")
                            .append(f.written());
                sb.append('\n');
            }
            return sb.toString();
        }
    }

    private final FuzzTarget target;
    private final long timeLimitMillis;
    private final Path failureDir;
    private ExecutorService worker = newWorker();

    /**
     * @param failureDir where minimized failures go, or null to keep them in the report only
     */
    public Fuzzer(FuzzTarget target, long timeLimitMillis, Path failureDir) {
        this.target = target;
        this.timeLimitMillis = timeLimitMillis;
        this.failureDir = failureDir;
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            // a deep stack, so that only really unbounded recursion overflows
            Thread t = new Thread(null, r, "fuzz-case", 64L << 20);
            t.setDaemon(true);
            return t;
        });
    }

    /** The random source of case {@code k} of seed {@code s}. */
    static SplittableRandom random(long seed, long k) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + k * 0xC2B2AE3D27D4EB4FL + 1);
    }

    /** The input of case {@code k}. */
    public byte[] input(long seed, long k) {
        List<byte[]> seeds = target.seeds();
        SplittableRandom r = random(seed, k);
        return target.mutate(seeds.get(r.nextInt(seeds.size())), r);
    }

    /** Runs cases {@code first} to {@code first + cases - 1}. */
    public Report run(long seed, long first, long cases) {
        Map<String, Long> categories = new TreeMap<>();
        List<Failure> failures = new ArrayList<>();
        List<byte[]> seeds = target.seeds();
        try {
            for (long k = first; k < first + cases; k++) {
                SplittableRandom r = random(seed, k);
                byte[] origin = seeds.get(r.nextInt(seeds.size()));
                byte[] input = target.mutate(origin, r);
                Object outcome = attempt(input);
                if (outcome instanceof String category) {
                    categories.merge(category, 1L, Long::sum);
                    continue;
                }
                FuzzFailure f = (FuzzFailure) outcome;
                categories.merge("FAILED: " + f.kind(), 1L, Long::sum);
                byte[] small = minimize(origin, input, f.kind());
                failures.add(new Failure(k, f, small, write(seed, k, small)));
            }
        } finally {
            worker.shutdownNow();
            worker = newWorker();
        }
        return new Report(target.name(), seed, cases, categories, failures);
    }

    /** One input through the oracle: its category, or the failure. */
    public Object attempt(byte[] input) {
        Future<String> f = worker.submit(() -> target.run(input));
        try {
            return f.get(timeLimitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            worker.shutdownNow(); // the stuck thread is left behind; a new one takes the next case
            worker = newWorker();
            return new FuzzFailure("timeout", "did not finish in " + timeLimitMillis + " ms");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            return c instanceof FuzzFailure ff ? ff : FuzzFailure.internal(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new FuzzFailure("interrupted", "interrupted");
        }
    }

    private boolean failsTheSameWay(byte[] input, String kind) {
        return attempt(input) instanceof FuzzFailure f && f.kind().equals(kind);
    }

    /** At most this many runs go into minimizing one failure. */
    static final int MINIMIZE_BUDGET = 400;

    byte[] minimize(byte[] origin, byte[] failing, String kind) {
        int[] budget = {MINIMIZE_BUDGET};
        byte[] cur = failing;
        if (target.keepsLength() && origin.length == failing.length) {
            // revert each changed unit to the seed's while the failure stays
            int u = target.unit();
            for (int at = 0; at + u <= cur.length && budget[0] > 0; at += u) {
                if (Arrays.equals(cur, at, at + u, origin, at, at + u)) continue;
                byte[] next = cur.clone();
                System.arraycopy(origin, at, next, at, u);
                budget[0]--;
                if (failsTheSameWay(next, kind)) cur = next;
            }
            return cur;
        }
        cur = deleteChunks(cur, kind, budget, true);
        return deleteChunks(cur, kind, budget, false);
    }

    /** Delta debugging: drops chunks of lines (or of characters) while the failure stays. */
    private byte[] deleteChunks(byte[] input, String kind, int[] budget, boolean lines) {
        List<String> parts = split(new String(input, StandardCharsets.UTF_8), lines);
        int chunk = Math.max(1, parts.size() / 2);
        while (chunk >= 1 && budget[0] > 0) {
            boolean progress = false;
            for (int at = 0; at < parts.size() && budget[0] > 0; ) {
                List<String> next = new ArrayList<>(parts.subList(0, at));
                next.addAll(parts.subList(Math.min(parts.size(), at + chunk), parts.size()));
                budget[0]--;
                if (!next.isEmpty() && failsTheSameWay(String.join("", next).getBytes(StandardCharsets.UTF_8), kind)) {
                    parts = next;
                    progress = true;
                } else {
                    at += chunk;
                }
            }
            if (!progress) chunk /= 2;
        }
        return String.join("", parts).getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> split(String text, boolean lines) {
        List<String> out = new ArrayList<>();
        if (!lines) {
            text.codePoints().forEach(c -> out.add(new String(Character.toChars(c))));
            return out;
        }
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                out.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) out.add(text.substring(start));
        return out;
    }

    private Path write(long seed, long k, byte[] input) {
        if (failureDir == null) return null;
        try {
            Files.createDirectories(failureDir);
            Path p = failureDir.resolve(target.name() + "-" + seed + "-" + k + target.extension());
            Files.write(p, input);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
