package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The file tests, as Cranelift's filetests are: one tree,
 * {@code src/test/resources/filetests/}, one file per case, named for what it tests, whose first
 * line says what kind of test it is:
 *
 * <ul>
 *   <li>{@code // test optimize PIPELINE}: the IR after the pipeline (validated after every pass)
 *       against the file's {@code CHECK} lines ({@link OptimizeFiles#check});
 *   <li>{@code // test compile [SWITCHES]}: the assembly of the whole compiler against the
 *       {@code CHECK} lines and the file's precise output, the binary against the interpreter
 *       ({@link CompileFiles#check});
 *   <li>{@code // test verify}: the validator's errors against the file's {@code // ERROR:}
 *       lines ({@link VerifyFiles#check});
 *   <li>{@code // test run [interpreter] [PATH]}: the program run in the interpreter and the
 *       simulator, once per {@code // run:} line, against its {@code // expect:} lines
 *       ({@link RunFiles#check}).
 * </ul>
 *
 * A newcomer adds a case by dropping a file into the tree ({@code tests/README.md});
 * {@code -Dlathe.bless} rewrites the precise outputs.
 */
class FileTests {
    private static final Pattern HEADER = Pattern.compile("// test (\\w+)(.*)");

    static Path root() {
        return ExamplesTest.root().resolve("tests/src/test/resources/filetests");
    }

    /** Every file of the tree, in path order. */
    static List<Path> files() throws IOException {
        try (Stream<Path> s = Files.walk(root())) {
            return s.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** A file's first line: the kind of test and what follows it on the line. */
    record Header(String kind, String args) {
        static Header of(Path f, String text) {
            String first = text.lines().findFirst().orElse("");
            Matcher m = HEADER.matcher(first.strip());
            if (!m.matches())
                fail(f + ":1: a file test starts with its header, '// test optimize PIPELINE', "
                        + "'// test compile [SWITCHES]', '// test verify' or '// test run'; found '" + first + "'");
            return new Header(m.group(1), m.group(2).strip());
        }
    }

    @TestFactory
    Stream<DynamicNode> filetests() throws IOException {
        // one container per directory, so a report reads like the tree
        Map<String, List<DynamicNode>> byDir = new TreeMap<>();
        Path root = root();
        for (Path f : files()) {
            String dir = root.relativize(f.getParent()).toString();
            byDir.computeIfAbsent(dir, d -> new ArrayList<>())
                    .add(DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(f)));
        }
        List<DynamicNode> out = new ArrayList<>();
        byDir.forEach((dir, tests) -> out.add(DynamicContainer.dynamicContainer(dir.isEmpty() ? "." : dir, tests)));
        return out.stream();
    }

    static void run(Path f) throws Exception {
        String text = Files.readString(f);
        Header h = Header.of(f, text);
        // a .run file names the shader it runs (IR or SPIR-V) and holds only its cases
        boolean runOfAShader = f.toString().endsWith(".run") && h.kind().equals("run");
        if (!f.toString().endsWith(".ir") && !runOfAShader)
            fail(f + ": a file test is an .ir file, or a .run file whose '// test run PATH' names its shader");
        switch (h.kind()) {
            case "optimize" -> {
                if (h.args().isEmpty()) fail(f + ":1: '// test optimize' needs the pipeline to run");
                OptimizeFiles.check(f, text, h.args());
            }
            case "compile" -> CompileFiles.check(f, text, h.args());
            case "verify" -> VerifyFiles.check(f, text);
            case "run" -> RunFiles.check(f, text, h.args());
            default -> fail(f + ":1: unknown kind of test '" + h.kind() + "' (optimize, compile, verify, run)");
        }
    }

    @Test
    void atLeastSixGoldenTestsPerPass() throws IOException {
        for (String pass : OptimizeFiles.registry().irNames()) {
            Path dir = OptimizeFiles.passesDir().resolve(pass);
            long n = Files.isDirectory(dir)
                    ? Files.list(dir).filter(p -> p.toString().endsWith(".ir")).count()
                    : 0;
            assertTrue(n >= 6, "filetests/optimize/" + pass + " has " + n + " golden tests; at least 6 are required");
        }
    }

    /** Each kind has its cases, so a broken dispatcher cannot pass by running nothing. */
    @Test
    void everyKindHasCases() throws IOException {
        Map<String, Integer> count = new TreeMap<>();
        for (Path f : files()) count.merge(Header.of(f, Files.readString(f)).kind(), 1, Integer::sum);
        assertTrue(count.getOrDefault("optimize", 0) >= 100, count.toString());
        assertTrue(count.getOrDefault("compile", 0) >= 10, count.toString());
        assertTrue(count.getOrDefault("verify", 0) >= 15, count.toString());
        assertTrue(count.getOrDefault("run", 0) >= 10, count.toString());
    }

    /**
     * A file without a header, with an unknown kind, whose errors are not the validator's, or whose
     * run prints something else, fails, saying why.
     */
    @Test
    void aWrongFileFailsSayingWhy(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        String program =
                "shader fragment\noutput f32 @o location=0\nfunction main {\n  vec1 32 %a = load_const (1.0)\n  store_output @o, %a\n}\n";
        Path none = Files.writeString(tmp.resolve("none.ir"), program);
        Path unknown = Files.writeString(tmp.resolve("unknown.ir"), "// test frobnicate\n" + program);
        Path wrong = Files.writeString(
                tmp.resolve("wrong.ir"), "// test verify\n" + program + "// ERROR: ssa-dominance 5:3: nothing\n");
        Path right = Files.writeString(tmp.resolve("right.ir"), "// test verify\n" + program);
        assertTrue(failure(none).contains(":1: a file test starts with its header"), failure(none));
        assertTrue(failure(unknown).contains("unknown kind of test 'frobnicate'"), failure(unknown));
        assertTrue(failure(wrong).contains("expected, not found: Expected[check=ssa-dominance"), failure(wrong));
        run(right);
        Path ran = Files.writeString(
                tmp.resolve("ran.ir"), "// test run\n" + program + "// run:\n// expect: @o = f32 (1.0)\n");
        run(ran);
        Path wrongRun = Files.writeString(
                tmp.resolve("wrong_run.ir"), "// test run\n" + program + "// run:\n// expect: @o = f32 (2.0)\n");
        assertTrue(failure(wrongRun).contains("(interpreter): expected the line"), failure(wrongRun));
    }

    private static String failure(Path f) {
        return org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class, () -> run(f))
                .getMessage();
    }
}
