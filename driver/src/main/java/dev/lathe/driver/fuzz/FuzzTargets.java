package dev.lathe.driver.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fuzz targets by name, with the files they start from. */
public final class FuzzTargets {
    private FuzzTargets() {}

    public static final List<String> NAMES = List.of("ir", "rules", "spirv", "machine");

    /** Where each target finds its seed files by default, relative to the project's root. */
    public static List<Path> defaultCorpus(String target, Path root) {
        return switch (target) {
            case "ir" -> List.of(root.resolve("examples/ir"), root.resolve("tests/src/test/resources/filetests"));
            case "rules" -> List.of(root.resolve("rules"), root.resolve("backend/rules"));
            case "spirv" -> List.of(root.resolve("examples/shaders"));
            default -> List.of();
        };
    }

    /**
     * The target called {@code name}, seeded from the files under {@code corpus} with its
     * extension; {@code spirvVal}: whether the SPIR-V target asks spirv-val (when installed).
     */
    public static FuzzTarget create(String name, List<Path> corpus, boolean spirvVal) throws IOException {
        return switch (name) {
            case "ir" -> new IrFuzzTarget(files(corpus, ".ir"));
            case "rules" -> new RuleFuzzTarget(files(corpus, ".rules"));
            case "spirv" -> {
                List<byte[]> modules = files(corpus, ".spv");
                if (modules.isEmpty())
                    throw new IllegalArgumentException(
                            "no .spv files under " + corpus + " to start from (give --corpus DIR)");
                yield new SpirvFuzzTarget(modules, spirvVal);
            }
            case "machine" -> new MachineFuzzTarget();
            default ->
                throw new IllegalArgumentException(
                        "unknown fuzz target '" + name + "' (one of " + String.join(", ", NAMES) + ")");
        };
    }

    /** Every file under the directories (or the files themselves) ending in {@code ext}, in a stable order. */
    static List<byte[]> files(List<Path> corpus, String ext) throws IOException {
        List<Path> found = new ArrayList<>();
        for (Path p : corpus) {
            if (Files.isRegularFile(p) && p.toString().endsWith(ext)) {
                found.add(p);
            } else if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    s.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(ext))
                            .forEach(found::add);
                }
            }
        }
        found.sort(null);
        List<byte[]> out = new ArrayList<>();
        for (Path p : found) out.add(Files.readAllBytes(p));
        return out;
    }
}
