package dev.lathe.driver.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fuzzers in the build: each target, a few thousand seeded cases, no failure (an internal
 * error, a message without its place, a translated module that does not validate, a round trip
 * that changes something, a miscompile). {@code lathe fuzz TARGET --cases N --seed S} runs longer
 * campaigns. And the runner itself: a failure is minimized and written out.
 */
class FuzzTest {
    @TempDir
    Path failures;

    static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("examples/shaders"))) p = p.getParent();
        if (p == null)
            throw new IllegalStateException(
                    "cannot find the project root from " + Path.of("").toAbsolutePath());
        return p;
    }

    @ParameterizedTest(name = "{0}: {1} cases")
    @CsvSource({"ir, 3000", "rules, 2000", "spirv, 3000", "machine, 3000"})
    void noFailures(String target, int cases) throws IOException {
        FuzzTarget t = FuzzTargets.create(target, FuzzTargets.defaultCorpus(target, root()), true);
        Fuzzer.Report r = new Fuzzer(t, 60_000, failures).run(20261125L, 0, cases);
        assertTrue(r.failures().isEmpty(), r::text);
        assertEquals(
                cases,
                r.categories().values().stream().mapToLong(Long::longValue).sum());
        // the campaign went past the first gate: some inputs were accepted and exercised further
        assertTrue(
                r.categories().keySet().stream().anyMatch(c -> !c.startsWith("rejected") && !c.startsWith("refused")),
                r::text);
    }

    /** A target that fails on any input holding the byte 'X': the failure must shrink to that byte. */
    static class NeedleTarget implements FuzzTarget {
        @Override
        public String name() {
            return "needle";
        }

        @Override
        public String extension() {
            return ".txt";
        }

        @Override
        public List<byte[]> seeds() {
            return List.of("line one\nline two\nline three\n".getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public byte[] mutate(byte[] seed, SplittableRandom r) {
            return "line one\nline Xtwo\nline three\n".getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String run(byte[] input) throws FuzzFailure {
            if (new String(input, StandardCharsets.UTF_8).contains("X"))
                throw new FuzzFailure("needle", "found the needle");
            return "fine";
        }
    }

    @Test
    void aFailureIsMinimizedAndWrittenWithItsCase() throws IOException {
        Fuzzer.Report r = new Fuzzer(new NeedleTarget(), 10_000, failures).run(5, 10, 2);
        assertEquals(2, r.failures().size());
        Fuzzer.Failure f = r.failures().get(0);
        assertEquals(10, f.caseNumber());
        assertEquals("X", new String(f.minimized(), StandardCharsets.UTF_8));
        assertEquals(failures.resolve("needle-5-10.txt"), f.written());
        assertEquals("X", Files.readString(f.written()));
        assertTrue(r.text().contains("FAILED case 10: found the needle"), r.text());
    }

    /** An internal error and a hang are failures too, not crashes of the runner. */
    @Test
    void exceptionsAndHangsAreFailures() {
        FuzzTarget throwing = new NeedleTarget() {
            @Override
            public String run(byte[] input) {
                throw new ArrayIndexOutOfBoundsException("boom");
            }
        };
        Object o = new Fuzzer(throwing, 10_000, null).attempt(new byte[] {1});
        assertTrue(
                o instanceof FuzzFailure f && f.kind().equals("internal error: ArrayIndexOutOfBoundsException"),
                String.valueOf(o));
        FuzzTarget hanging = new NeedleTarget() {
            @Override
            public String run(byte[] input) {
                while (true) Thread.onSpinWait();
            }
        };
        Object h = new Fuzzer(hanging, 200, null).attempt(new byte[] {1});
        assertTrue(h instanceof FuzzFailure f && f.kind().equals("timeout"), String.valueOf(h));
    }
}
