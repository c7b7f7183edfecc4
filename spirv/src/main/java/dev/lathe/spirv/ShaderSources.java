package dev.lathe.spirv;

import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrSyntaxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

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

    static boolean isGlsl(String n) {
        return n.endsWith(".vert") || n.endsWith(".frag") || n.endsWith(".comp");
    }

    public static Shader load(Path path) {
        String name = path.toString();
        try {
            if (name.endsWith(".ir")) {
                try {
                    return IrParser.parse(name, dev.lathe.ir.text.Utf8Text.decode(Files.readAllBytes(path), name));
                } catch (IrSyntaxException e) {
                    throw new SourceException(e.diagnostic().render());
                } catch (dev.lathe.ir.text.Utf8Text.Malformed e) {
                    throw new SourceException(e.getMessage());
                }
            }
            if (name.endsWith(".spv")) return spirv(name, Files.readAllBytes(path));
            if (isGlsl(name)) return spirv(name, glslang(path));
        } catch (NoSuchFileException e) {
            throw new SourceException(name + ": no such file");
        } catch (IOException e) {
            throw new SourceException(name + ": cannot read: " + e.getMessage());
        }
        throw new SourceException(name + ": unsupported input (expected .ir, .spv, .vert, .frag or .comp)");
    }

    private static Shader spirv(String name, byte[] bytes) {
        try {
            return SpirvFrontend.read(name, bytes);
        } catch (SpirvException e) {
            throw new SourceException(e.getMessage());
        }
    }

    /** Compiles GLSL with glslangValidator into a temporary file and returns the SPIR-V. */
    static byte[] glslang(Path source) throws IOException {
        Path out = Files.createTempFile("lathe-", ".spv");
        try {
            ExternalTool.Result r;
            try {
                r = ExternalTool.run(60, "glslangValidator", "-V", "--target-env", "vulkan1.1", "--quiet", "-o", out.toString(), source.toString());
            } catch (ExternalTool.ToolException e) {
                throw new SourceException(source + ": GLSL needs glslangValidator on the PATH (Debian: apt-get install glslang-tools), "
                        + "or give the .spv (" + e.getMessage() + ")");
            }
            if (!r.ok()) throw new SourceException(source + ": glslangValidator failed: " + r.output().replace('\n', ' '));
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
