package dev.lathe.maven;

import dev.lathe.rules.RuleCompilerMain;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * {@code lathe:generate}: compiles the {@code *.rules} files of a directory into one matcher class
 * per file (and {@code GeneratedRules}, which lists them) under {@code outputDirectory}, and one
 * soundness test class per file (a sampling check, a proof and a firing test per rule) under
 * {@code testOutputDirectory}, and adds both as source roots. A rule file with errors fails the
 * build with each diagnostic at its {@code file:line:col}; a rule the SMT prover refutes fails
 * it with its counterexample.
 *
 * <p>Incremental: a stamp under {@code target/} holds a digest of the rule files and of every
 * setting that shapes the output; when it matches and the outputs are there, nothing is done.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class GenerateMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** Where the {@code *.rules} files are. */
    @Parameter(property = "lathe.rulesDirectory", defaultValue = "${project.basedir}/src/main/rules")
    private File rulesDirectory;

    /** The directory rule locations are cited from (diagnostics, generated code), where the tests read the files. */
    @Parameter(property = "lathe.citeFrom", defaultValue = "${project.basedir}")
    private File citeFrom;

    /** Where the matcher classes go. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/lathe")
    private File outputDirectory;

    /** Where the soundness tests go. */
    @Parameter(defaultValue = "${project.build.directory}/generated-test-sources/lathe")
    private File testOutputDirectory;

    /** The Java package of the generated classes. */
    @Parameter(property = "lathe.package", required = true)
    private String packageName;

    /** Whether to generate the per-rule soundness tests (they need {@code lathe-rule-compiler} and JUnit 5 on the test class path). */
    @Parameter(property = "lathe.generateTests", defaultValue = "true")
    private boolean generateTests;

    /** Random inputs per bit size for each rule's sampling check. */
    @Parameter(property = "lathe.samples", defaultValue = "10000")
    private int samples;

    /** The sampling check's seed: the same seed gives the same inputs. */
    @Parameter(property = "lathe.seed", defaultValue = "6782")
    private long seed;

    /** Whether to prove every rule with the SMT solver before generating (a refuted rule fails the build). */
    @Parameter(property = "lathe.prove", defaultValue = "true")
    private boolean prove;

    /** The prover's budget per rule and bit size, in milliseconds. */
    @Parameter(property = "lathe.proof.timeout-ms", defaultValue = "4000")
    private int proofTimeoutMs;

    /** Where proofs are kept, so that an unchanged rule is not proved again. */
    @Parameter(property = "lathe.proof.cache", defaultValue = "${project.build.directory}/lathe-proof-cache")
    private File proofCache;

    /** Skips generation (the source roots are still added). */
    @Parameter(property = "lathe.skip", defaultValue = "false")
    private boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        project.addCompileSourceRoot(outputDirectory.getAbsolutePath());
        if (generateTests) project.addTestCompileSourceRoot(testOutputDirectory.getAbsolutePath());
        if (skip) {
            getLog().info("lathe: skipped");
            return;
        }
        if (!rulesDirectory.isDirectory()) {
            throw new MojoFailureException("lathe: no rules directory " + rulesDirectory
                    + " (put *.rules files there, or set <rulesDirectory> in the plugin's configuration)");
        }
        List<Path> files = ruleFiles();
        Path stamp = Path.of(project.getBuild().getDirectory(), "lathe", "generate.stamp");
        String digest = digest(files);
        if (upToDate(stamp, digest)) {
            getLog().info("lathe: " + files.size() + " rule file" + (files.size() == 1 ? "" : "s")
                    + " unchanged, nothing to generate");
            return;
        }
        // a rule file removed since the last run must not leave its classes behind
        clean(outputDirectory.toPath());
        if (generateTests) clean(testOutputDirectory.toPath());
        List<String> args = new ArrayList<>(List.of(
                "--rules",
                rulesDirectory.getPath(),
                "--out",
                outputDirectory.getPath(),
                "--package",
                packageName,
                "--cite-from",
                citeFrom.getPath(),
                "--prove",
                Boolean.toString(prove),
                "--proof-cache",
                proofCache.getPath(),
                "--proof-timeout-ms",
                Integer.toString(proofTimeoutMs),
                "--samples",
                Integer.toString(samples),
                "--seed",
                Long.toString(seed)));
        if (generateTests) args.addAll(List.of("--tests-out", testOutputDirectory.getPath()));
        MavenLog log = new MavenLog();
        int code = RuleCompilerMain.run(args.toArray(String[]::new), log);
        if (code != 0) {
            deleteQuietly(stamp);
            throw new MojoFailureException("lathe: the rule files have errors"
                    + (log.firstError == null ? "" : "; the first: " + log.firstError));
        }
        try {
            Files.createDirectories(stamp.getParent());
            Files.writeString(stamp, digest);
        } catch (IOException e) {
            throw new MojoExecutionException("lathe: cannot write " + stamp + ": " + e.getMessage(), e);
        }
        getLog().info("lathe: generated the matchers of " + files.size() + " rule file" + (files.size() == 1 ? "" : "s")
                + " into " + outputDirectory);
    }

    private List<Path> ruleFiles() throws MojoExecutionException {
        try (Stream<Path> s = Files.list(rulesDirectory.toPath())) {
            return s.filter(p -> p.toString().endsWith(".rules")).sorted().toList();
        } catch (IOException e) {
            throw new MojoExecutionException("lathe: cannot read " + rulesDirectory + ": " + e.getMessage(), e);
        }
    }

    /** A digest of the rule files (names and contents), the settings and the plugin's version. */
    private String digest(List<Path> files) throws MojoExecutionException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            String settings = String.join(
                    "\n",
                    packageName,
                    citeFrom.getAbsolutePath(),
                    Boolean.toString(generateTests),
                    Integer.toString(samples),
                    Long.toString(seed),
                    Boolean.toString(prove),
                    Integer.toString(proofTimeoutMs),
                    proofCache.getAbsolutePath(),
                    toolVersion());
            md.update(settings.getBytes(StandardCharsets.UTF_8));
            for (Path f : files) {
                md.update(("\n" + f.getFileName() + "\n").getBytes(StandardCharsets.UTF_8));
                md.update(Files.readAllBytes(f));
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new MojoExecutionException("lathe: cannot read the rule files: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What identifies the generator: the size and time of the jars (or class directories) of the
     * plugin, the rule compiler and the IR, so that a rebuilt Lathe of the same version number (a
     * snapshot) regenerates.
     */
    private static String toolVersion() throws IOException {
        StringBuilder out = new StringBuilder();
        for (Class<?> c :
                new Class<?>[] {GenerateMojo.class, RuleCompilerMain.class, dev.lathe.ir.rewrite.RuleSet.class}) {
            Path p;
            try {
                p = Path.of(
                        c.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (java.net.URISyntaxException | NullPointerException e) {
                out.append("?;");
                continue;
            }
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    long newest = 0, count = 0;
                    for (Path f : s.filter(Files::isRegularFile).toList()) {
                        newest = Math.max(newest, Files.getLastModifiedTime(f).toMillis());
                        count++;
                    }
                    out.append(p)
                            .append(':')
                            .append(count)
                            .append(':')
                            .append(newest)
                            .append(';');
                }
            } else {
                out.append(p)
                        .append(':')
                        .append(Files.size(p))
                        .append(':')
                        .append(Files.getLastModifiedTime(p).toMillis())
                        .append(';');
            }
        }
        return out.toString();
    }

    private boolean upToDate(Path stamp, String digest) {
        try {
            return Files.isRegularFile(stamp)
                    && Files.readString(stamp).equals(digest)
                    && outputDirectory.isDirectory()
                    && (!generateTests || testOutputDirectory.isDirectory());
        } catch (IOException e) {
            return false;
        }
    }

    /** The compiler's messages in Maven's log at their levels; keeps the first error's first line for the failure. */
    private final class MavenLog implements RuleCompilerMain.Log {
        String firstError;

        @Override
        public void error(String message) {
            getLog().error(message);
            if (firstError == null) firstError = message.lines().findFirst().orElse(message);
        }

        @Override
        public void warn(String message) {
            getLog().warn(message);
        }

        @Override
        public void info(String message) {
            getLog().info(message);
        }
    }

    private static void clean(Path dir) throws MojoExecutionException {
        if (!Files.isDirectory(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        } catch (IOException e) {
            throw new MojoExecutionException("lathe: cannot clean " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // the next run regenerates anyway when the stamp does not match
        }
    }
}
