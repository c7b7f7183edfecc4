package dev.lathe.driver;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrSyntaxException;
import dev.lathe.ir.text.Utf8Text;
import dev.lathe.spirv.SpirvException;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reading a shader by its extension: {@code .ir} (the text format), {@code .spv} (SPIR-V),
 * {@code .vert}/{@code .frag}/{@code .comp} (GLSL, compiled to SPIR-V with
 * {@code glslangValidator -V} when it is on the PATH). Every failure is a
 * {@link SourceException} with a located, one-line message.
 */
public final class ShaderSources {
    private ShaderSources() {}

    /** A shader file that cannot be read. */
    public static final class SourceException extends RuntimeException {
        public SourceException(String message) {
            super(message);
        }
    }

    public static boolean isShader(Path p) {
        String n = p.getFileName().toString();
        return n.endsWith(".ir") || n.endsWith(".spv") || isGlsl(n);
    }

    /** GLSL sources by extension, and the stage each is. */
    private static final Map<String, Stage> GLSL_STAGES =
            Map.of(".vert", Stage.VERTEX, ".frag", Stage.FRAGMENT, ".comp", Stage.COMPUTE);

    public static boolean isGlsl(String n) {
        return stageOfGlsl(n) != null;
    }

    /** The stage a GLSL file name says ({@code x.frag}), or null when it names no GLSL file. */
    public static Stage stageOfGlsl(String n) {
        for (Map.Entry<String, Stage> e : GLSL_STAGES.entrySet()) if (n.endsWith(e.getKey())) return e.getValue();
        return null;
    }

    /** The stage a shader file name says: GLSL's extension, also before {@code .spv} ({@code x.frag.spv}); else null. */
    public static Stage stageOfName(String n) {
        return stageOfGlsl(n.endsWith(".spv") ? n.substring(0, n.length() - 4) : n);
    }

    public static Shader load(Path path) {
        return load(path, null);
    }

    /**
     * The Vulkan target environments glslang is asked for, oldest first: GLSL that needs a newer
     * one (GL_EXT_ray_tracing, SPIR-V 1.4 features) is compiled again for the next.
     */
    public static final List<String> AUTO_TARGET_ENVS = List.of("vulkan1.1", "vulkan1.2", "vulkan1.3");

    /** What {@code --target-env} accepts (glslang's names). */
    public static final List<String> TARGET_ENVS = List.of(
            "vulkan1.0",
            "vulkan1.1",
            "vulkan1.2",
            "vulkan1.3",
            "spirv1.0",
            "spirv1.1",
            "spirv1.2",
            "spirv1.3",
            "spirv1.4",
            "spirv1.5",
            "spirv1.6");

    /**
     * Reads a shader; GLSL is compiled for {@code targetEnv} (one of {@link #TARGET_ENVS}), or,
     * when it is null, for the first of {@link #AUTO_TARGET_ENVS} glslang accepts it for.
     */
    public static Shader load(Path path, String targetEnv) {
        if (targetEnv != null && !TARGET_ENVS.contains(targetEnv)) {
            throw new SourceException(
                    "unknown target environment '" + targetEnv + "' (one of " + String.join(", ", TARGET_ENVS) + ")");
        }
        String name = path.toString();
        try {
            if (name.endsWith(".ir")) {
                try {
                    return IrParser.parse(name, Utf8Text.decode(Files.readAllBytes(path), name));
                } catch (IrSyntaxException e) {
                    throw new SourceException(e.diagnostic().render());
                } catch (Utf8Text.Malformed e) {
                    throw new SourceException(e.getMessage());
                }
            }
            if (name.endsWith(".spv")) return spirv(name, Files.readAllBytes(path));
            if (isGlsl(name)) return spirv(name, glslang(path, targetEnv));
        } catch (NoSuchFileException e) {
            throw new SourceException(name + ": no such file");
        } catch (IOException e) {
            throw new SourceException(name + ": cannot read: " + e.getMessage());
        }
        throw new SourceException(name + ": unsupported input (expected .ir, .spv, .vert, .frag or .comp)");
    }

    /**
     * The SPIR-V a shader file is, or compiles to (GLSL as {@link #load(Path, String)} compiles
     * it); null for textual IR, which has none.
     */
    public static byte[] spirvOf(Path path, String targetEnv) {
        String name = path.toString();
        try {
            if (name.endsWith(".spv")) return Files.readAllBytes(path);
            if (isGlsl(name)) return glslang(path, targetEnv);
            return null;
        } catch (NoSuchFileException e) {
            throw new SourceException(name + ": no such file");
        } catch (IOException e) {
            throw new SourceException(name + ": cannot read: " + e.getMessage());
        }
    }

    private static Shader spirv(String name, byte[] bytes) {
        try {
            return SpirvFrontend.read(name, bytes);
        } catch (SpirvException e) {
            throw new SourceException(e.getMessage());
        }
    }

    /**
     * Compiles GLSL with glslangValidator into a temporary file and returns the SPIR-V: for
     * {@code targetEnv}, or for the oldest automatic environment glslang does not refuse as too
     * old (its message names the "targeted SPIR-V version").
     */
    public static byte[] glslang(Path source, String targetEnv) throws IOException {
        Path out = Files.createTempFile("lathe-", ".spv");
        try {
            List<String> envs = targetEnv != null ? List.of(targetEnv) : AUTO_TARGET_ENVS;
            String failure = null;
            for (String env : envs) {
                ExternalTool.Result r;
                try {
                    r = ExternalTool.run(
                            60,
                            "glslangValidator",
                            "-V",
                            "--target-env",
                            env,
                            "--quiet",
                            "-o",
                            out.toString(),
                            source.toString());
                } catch (ExternalTool.ToolException e) {
                    throw new SourceException(source
                            + ": GLSL needs glslangValidator on the PATH (Debian: apt-get install glslang-tools), "
                            + "or give the .spv (" + e.getMessage() + ")");
                }
                if (r.ok()) return Files.readAllBytes(out);
                failure = "glslangValidator --target-env " + env + " failed: "
                        + r.output().replace('\n', ' ');
                if (!r.output().contains("targeted SPIR-V version")) break;
            }
            throw new SourceException(source + ": " + failure);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
