package dev.lathe.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed SPIR-V of every example GLSL shader is what glslangValidator makes of it now
 * (so nobody edits a shader and forgets {@code build.sh}). Needs glslangValidator: where it is
 * missing the test is skipped, and says so.
 */
class GlslBuildTest {
    static boolean glslang() {
        try {
            return new ProcessBuilder("glslangValidator", "--version")
                            .redirectErrorStream(true)
                            .start()
                            .waitFor()
                    == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The bundled shaders, found from the working directory up. */
    static Path shaders() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("examples/shaders"))) p = p.getParent();
        return p.resolve("examples/shaders");
    }

    @Test
    void committedSpirvIsUpToDate() throws IOException {
        assumeTrue(glslang(), "glslangValidator is not installed (apt-get install glslang-tools)");
        List<Path> sources;
        try (Stream<Path> s = Files.list(shaders())) {
            sources = s.filter(p -> ShaderSources.isGlsl(p.toString())).sorted().toList();
        }
        for (Path src : sources) {
            Path spv = src.resolveSibling(src.getFileName() + ".spv");
            assertArrayEquals(
                    ShaderSources.glslang(src, null),
                    Files.readAllBytes(spv),
                    src + " changed: run examples/shaders/build.sh");
        }
    }
}
