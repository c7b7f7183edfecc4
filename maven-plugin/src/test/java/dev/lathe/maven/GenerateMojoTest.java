package dev.lathe.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The goal as Maven runs it, on a project in a temporary directory: the mojo is configured the
 * way Maven injects parameters (its fields, at their documented defaults) and its log is recorded.
 */
class GenerateMojoTest {
    @TempDir
    Path base;

    MavenProject project;
    GenerateMojo mojo;
    List<String> log;

    /** Maven's log, recorded as "LEVEL message". */
    private final class RecordingLog extends SystemStreamLog {
        @Override
        public void info(CharSequence content) {
            log.add("INFO " + content);
        }

        @Override
        public void warn(CharSequence content) {
            log.add("WARN " + content);
        }

        @Override
        public void error(CharSequence content) {
            log.add("ERROR " + content);
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        Model model = new Model();
        model.setBuild(new Build());
        project = new MavenProject(model);
        project.getBuild().setDirectory(base.resolve("target").toString());
        project.setFile(base.resolve("pom.xml").toFile());
        mojo = new GenerateMojo();
        log = new ArrayList<>();
        mojo.setLog(new RecordingLog());
        set("project", project);
        set("rulesDirectory", base.resolve("src/main/rules").toFile());
        set("citeFrom", base.toFile());
        set("outputDirectory", base.resolve("target/generated-sources/lathe").toFile());
        set(
                "testOutputDirectory",
                base.resolve("target/generated-test-sources/lathe").toFile());
        set("packageName", "com.example.rules");
        set("generateTests", true);
        set("samples", 100);
        set("seed", 6782L);
        set("prove", false);
        set("proofTimeoutMs", 4000);
        set("proofCache", base.resolve("target/lathe-proof-cache").toFile());
        set("skip", false);
    }

    private void set(String field, Object value) throws ReflectiveOperationException {
        Field f = GenerateMojo.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(mojo, value);
    }

    private Path rules(String name, String text) throws IOException {
        return Files.writeString(
                Files.createDirectories(base.resolve("src/main/rules")).resolve(name), text);
    }

    private Path generated(String simpleName) {
        return base.resolve("target/generated-sources/lathe/com/example/rules/" + simpleName + ".java");
    }

    private Path generatedTest(String simpleName) {
        return base.resolve("target/generated-test-sources/lathe/com/example/rules/" + simpleName + ".java");
    }

    @Test
    void generatesTheMatchersAndTestsAndAddsBothRoots() throws Exception {
        rules("my.rules", "pass mine;\ndouble_ineg: ineg(ineg(a)) => a;\n");
        mojo.execute();
        assertTrue(Files.isRegularFile(generated("MineRules")));
        assertTrue(Files.isRegularFile(generated("GeneratedRules")));
        assertTrue(Files.readString(generatedTest("MineRulesSoundnessTest")).contains("double_ineg_fires"));
        assertTrue(project.getCompileSourceRoots()
                .contains(base.resolve("target/generated-sources/lathe").toString()));
        assertTrue(project.getTestCompileSourceRoots()
                .contains(base.resolve("target/generated-test-sources/lathe").toString()));
        assertTrue(
                log.contains("INFO lathe: generated the matchers of 1 rule file into "
                        + base.resolve("target/generated-sources/lathe")),
                log.toString());
    }

    @Test
    void anUnchangedRuleFileIsNotGeneratedAgain() throws Exception {
        Path file = rules("my.rules", "pass mine;\ndouble_ineg: ineg(ineg(a)) => a;\n");
        mojo.execute();
        long written = Files.getLastModifiedTime(generated("MineRules")).toMillis();
        log.clear();
        mojo.execute();
        assertEquals(List.of("INFO lathe: 1 rule file unchanged, nothing to generate"), log);
        assertEquals(written, Files.getLastModifiedTime(generated("MineRules")).toMillis());

        // a change of a rule file, or of a setting that shapes the output, generates again
        Files.writeString(file, "pass mine;\ndouble_ineg: ineg(ineg(a)) => a;\ndouble_inot: inot(inot(a)) => a;\n");
        log.clear();
        mojo.execute();
        assertTrue(Files.readString(generated("MineRules")).contains("double_inot"));
        set("samples", 200);
        log.clear();
        mojo.execute();
        assertTrue(
                Files.readString(generatedTest("MineRulesSoundnessTest")).contains(", 6782L, 200, false, "),
                "the new sample count is in the tests");
        assertFalse(log.contains("INFO lathe: 1 rule file unchanged, nothing to generate"), log.toString());

        // a deleted output is generated again even when the stamp matches
        Files.delete(generated("MineRules"));
        Path dir = base.resolve("target/generated-sources/lathe");
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        mojo.execute();
        assertTrue(Files.isRegularFile(generated("MineRules")));
    }

    @Test
    void aRemovedRuleFileLeavesNoClassBehind() throws Exception {
        rules("my.rules", "pass mine;\ndouble_ineg: ineg(ineg(a)) => a;\n");
        Path other = rules("other.rules", "pass other;\nxor_self: ixor(a, a) => 0;\n");
        mojo.execute();
        assertTrue(Files.isRegularFile(generated("OtherRules")));
        Files.delete(other);
        mojo.execute();
        assertFalse(Files.exists(generated("OtherRules")));
        assertFalse(Files.exists(generatedTest("OtherRulesSoundnessTest")));
        assertFalse(Files.readString(generated("GeneratedRules")).contains("OtherRules"));
        assertTrue(Files.isRegularFile(generated("MineRules")));
    }

    @Test
    void aBrokenRuleFailsWithItsLocationAtErrorLevel() throws Exception {
        rules("my.rules", "pass mine;\nbroken: iadd(a, 0) => b;\n");
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "lathe: the rule files have errors; the first: src/main/rules/my.rules:2:23: error: "),
                e.getMessage());
        assertTrue(
                log.stream().anyMatch(l -> l.startsWith("ERROR src/main/rules/my.rules:2:23: error: ")),
                log.toString());
        assertFalse(Files.exists(base.resolve("target/lathe/generate.stamp")), "a failed run leaves no stamp");
        assertFalse(Files.exists(generated("MineRules")));
    }

    @Test
    void aRefutedRuleFailsWithItsCounterexampleAndTheSummaryIsAnError() throws Exception {
        rules("my.rules", "pass mine;\nwrong: ixor(a, 1) => iadd(a, 1);\n");
        set("prove", true);
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
        assertTrue(e.getMessage().contains("rule wrong is unsound at "), e.getMessage());
        assertTrue(log.stream().anyMatch(l -> l.startsWith("ERROR 1 rule is wrong")), log.toString());
        assertTrue(log.stream().anyMatch(l -> l.startsWith("INFO rule proofs: ")), log.toString());
    }

    @Test
    void aMissingRulesDirectoryIsAClearFailure() {
        MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
        assertEquals(
                "lathe: no rules directory " + base.resolve("src/main/rules")
                        + " (put *.rules files there, or set <rulesDirectory> in the plugin's configuration)",
                e.getMessage());
    }

    @Test
    void skipAddsTheRootsAndGeneratesNothing() throws Exception {
        rules("my.rules", "pass mine;\ndouble_ineg: ineg(ineg(a)) => a;\n");
        set("skip", true);
        mojo.execute();
        assertEquals(List.of("INFO lathe: skipped"), log);
        assertFalse(Files.exists(generated("MineRules")));
        assertTrue(project.getCompileSourceRoots()
                .contains(base.resolve("target/generated-sources/lathe").toString()));
    }

    @Test
    void withoutTestsNoTestRootIsAdded() throws Exception {
        rules("my.rules", "pass mine;\ndouble_ineg: ineg(ineg(a)) => a;\n");
        set("generateTests", false);
        mojo.execute();
        assertTrue(Files.isRegularFile(generated("MineRules")));
        assertFalse(Files.exists(base.resolve("target/generated-test-sources")));
        assertTrue(
                project.getTestCompileSourceRoots().isEmpty(),
                project.getTestCompileSourceRoots().toString());
    }
}
