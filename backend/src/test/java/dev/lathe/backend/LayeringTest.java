package dev.lathe.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The backend's packages depend one way: the ISA description ({@code isa}) on nothing of the
 * backend's, programs on it, the compiler on both, and the simulator on all of them; nothing
 * but the simulator imports the simulator, so the compiler cannot lean on how it runs code.
 */
class LayeringTest {
    static final Path SOURCES = Path.of("src/main/java/dev/lathe/backend");

    @Test
    void onlyTheSimulatorKnowsTheSimulator() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), SOURCES.toAbsolutePath().toString());
        assertEquals(List.of(), importing("compile", "dev.lathe.backend.sim"));
        assertEquals(List.of(), importing("isa", "dev.lathe.backend.sim"));
        assertEquals(List.of(), importing("program", "dev.lathe.backend.sim"));
        assertEquals(List.of(), importing("isa", "dev.lathe.backend.compile"));
        assertEquals(List.of(), importing("isa", "dev.lathe.backend.program"));
    }

    /** The files of a package that name another package (imported or fully qualified). */
    private static List<String> importing(String pkg, String other) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
            for (Path f : files.sorted().toList()) {
                if (Files.readString(f).contains(other + ".")) out.add(pkg + "/" + f.getFileName());
            }
        }
        return out;
    }
}
