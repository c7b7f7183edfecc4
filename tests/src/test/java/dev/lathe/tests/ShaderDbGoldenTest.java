package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lathe.driver.shaderdb.CorpusRunner;
import dev.lathe.driver.shaderdb.ResultsCsv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shader-db statistics of the bundled corpus, byte for byte, against the committed
 * {@code shaderdb/examples.csv}: a refactoring must not change them, and a change that improves
 * the code shows up here as a diff to commit with it. Regenerate with
 * {@code ./lathe shaderdb examples/shaders --no-times -o tests/src/test/resources/shaderdb/examples.csv}.
 */
class ShaderDbGoldenTest {
    @Test
    void theCorpusStatisticsAreTheCommittedOnes() throws IOException {
        Path root = ExamplesTest.root();
        List<Path> files = CorpusRunner.collect(List.of(root.resolve("examples/shaders")));
        List<ResultsCsv.Row> rows = new ArrayList<>();
        String prefix = root + "/";
        for (ResultsCsv.Row r : CorpusRunner.run(files, 2, null, done -> {})) {
            // named as the command names them when run from the project root
            rows.add(new ResultsCsv.Row(
                    r.name().startsWith(prefix) ? r.name().substring(prefix.length()) : r.name(),
                    r.stage(),
                    r.values(),
                    r.compileMs(),
                    r.error()));
        }
        String expected = Files.readString(root.resolve("tests/src/test/resources/shaderdb/examples.csv"));
        assertEquals(
                expected,
                ResultsCsv.write(rows, false),
                "the corpus statistics changed; if that is meant, regenerate the file "
                        + "(./lathe shaderdb examples/shaders --no-times -o tests/src/test/resources/shaderdb/examples.csv) and commit it");
    }
}
