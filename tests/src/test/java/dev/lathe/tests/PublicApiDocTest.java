package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DocumentationTool;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API that {@code docs/ARCHITECTURE.md} calls public and stable is documented: every class
 * its "Public and stable" section names exists, and javadoc finds a comment on every public
 * member and no broken comment. The section is the one list; this reads it.
 *
 * <p>Missing {@code @param}/{@code @return} tags are allowed: the house style is a summary
 * sentence that says what the parameters are, as Go's doc comments do.
 */
class PublicApiDocTest {
    private static final Pattern CLASS = Pattern.compile("`(dev\\.lathe\\.[a-z0-9.]+\\.[A-Z][A-Za-z0-9]*)`");

    @TempDir
    Path out;

    static Path root() {
        return Path.of(System.getProperty("lathe.root", "..")).toAbsolutePath().normalize();
    }

    /** The classes the section names, in order. */
    static Set<String> stableClasses() throws IOException {
        String doc = Files.readString(root().resolve("docs/ARCHITECTURE.md"));
        int start = doc.indexOf("\n## Public and stable\n");
        assertTrue(start >= 0, "docs/ARCHITECTURE.md has no 'Public and stable' section");
        int end = doc.indexOf("\n## ", start + 1);
        Matcher m = CLASS.matcher(doc.substring(start, end < 0 ? doc.length() : end));
        Set<String> names = new LinkedHashSet<>();
        while (m.find()) names.add(m.group(1));
        return names;
    }

    /** The source file of {@code className} in whichever module has it. */
    static Path source(String className) throws IOException {
        String rel = "src/main/java/" + className.replace('.', '/') + ".java";
        try (Stream<Path> modules = Files.list(root())) {
            for (Path m : modules.filter(Files::isDirectory).sorted().toList()) {
                if (Files.isRegularFile(m.resolve(rel))) return m.resolve(rel);
            }
        }
        return null;
    }

    @Test
    void theSectionNamesTheRuleAuthorsApi() throws IOException {
        Set<String> names = stableClasses();
        for (String expected : List.of(
                "dev.lathe.ir.IrBuilder",
                "dev.lathe.ir.pass.Pass",
                "dev.lathe.ir.rewrite.RuleSet",
                "dev.lathe.ir.pass.PassRegistry",
                "dev.lathe.driver.Passes",
                "dev.lathe.ir.interp.Interpreter")) {
            assertTrue(names.contains(expected), expected + " is not in the section: " + names);
        }
    }

    @Test
    void everyStableClassExistsAndIsDocumented() throws IOException {
        List<String> files = new ArrayList<>();
        for (String name : stableClasses()) {
            Path src = source(name);
            if (src == null) fail("docs/ARCHITECTURE.md names " + name + ", which no module has");
            files.add(src.toString());
        }
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        List<String> args = new ArrayList<>(List.of(
                "-Xdoclint:all",
                "-Xmaxwarns",
                "100000",
                "-Xmaxerrs",
                "100000",
                "-quiet",
                "-d",
                out.toString(),
                "-cp",
                System.getProperty("java.class.path")));
        args.addAll(files);
        StringWriter log = new StringWriter();
        int code = javadoc.getTask(log, null, null, null, args, null).call() ? 0 : 1;
        List<String> problems = new ArrayList<>();
        for (String line : log.toString().split("\n")) {
            if (line.contains(": error: ") || line.contains(": warning: no comment")) problems.add(line);
        }
        assertTrue(problems.isEmpty(), problems.size() + " undocumented or broken:\n" + String.join("\n", problems));
        assertEquals(0, code, log.toString());
    }
}
