package dev.lathe.cli;

import dev.lathe.backend.compile.CompileException;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.backend.program.Program;
import dev.lathe.backend.program.ProgramBinary;
import dev.lathe.backend.program.ProgramException;
import dev.lathe.backend.program.ProgramText;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.ShaderSources;
import dev.lathe.ir.Shader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Loading and writing machine programs ({@code .s} assembly, {@code .bin} binaries) for the commands. */
final class ProgramFiles {
    private ProgramFiles() {}

    static Program load(Path path, SourceOptions source) {
        return load(path, source, Compiler.Options.defaults());
    }

    /** {@link #load(Path, SourceOptions)}, a shader compiled as {@code options} say (the machine switches of {@code lathe sim}). */
    static Program load(Path path, SourceOptions source, Compiler.Options options) {
        String name = path.toString();
        try {
            if (name.endsWith(".s")) return ProgramText.parse(name, ShaderFiles.readText(path));
            if (name.endsWith(".bin")) return ProgramBinary.read(name, readBytes(path));
        } catch (ProgramException e) {
            throw new CliException(e.getMessage());
        }
        if (ShaderSources.isShader(path))
            return compile(path, options, source).machine().program();
        throw new CliException(name
                + ": unsupported input (expected a shader — .ir, .spv, .vert, .frag, .comp — or a .s or .bin program)");
    }

    /** Compiles a shader (validated first) with the default pipeline. */
    static MachineCompiler.Result compile(Path path, SourceOptions source) {
        return compile(path, Compiler.Options.defaults(), source).machine();
    }

    /** Compiles a shader (validated first) as {@code options} say; wrong options are refused before the shader is read. */
    static Compiler.Result compile(Path path, Compiler.Options options, SourceOptions source) {
        checkOptions(options);
        return compileChecked(path, options, source);
    }

    /** Refuses a wrong {@code --passes} or {@code --print-after}, naming the option. */
    static void checkOptions(Compiler.Options options) {
        try {
            Compiler.checkPipeline(options);
        } catch (IllegalArgumentException e) {
            throw new CliException("--passes: " + e.getMessage());
        }
        try {
            Compiler.checkPrintAfter(options);
        } catch (IllegalArgumentException e) {
            throw new CliException("--print-after: " + e.getMessage());
        }
    }

    /** {@link #compile} with options {@link #checkOptions} accepted (several files: checked once, not once per file). */
    static Compiler.Result compileChecked(Path path, Compiler.Options options, SourceOptions source) {
        Shader s = ShaderFiles.load(path, source);
        try {
            return Compiler.compile(s, options);
        } catch (CompileException e) {
            throw new CliException(
                    e.getMessage().startsWith(path.toString()) ? e.getMessage() : path + ": " + e.getMessage());
        }
    }

    static byte[] readBytes(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new CliException(path + ": no such file");
        } catch (IOException e) {
            throw new CliException(path + ": cannot read: " + e.getMessage());
        }
    }

    static void write(Path path, byte[] bytes) {
        try {
            Files.write(path, bytes);
        } catch (IOException e) {
            throw new CliException(path + ": cannot write: " + e.getMessage());
        }
    }

    /** FILE.s -> FILE.bin and the like. */
    static Path withExtension(Path p, String ext) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return p.resolveSibling((dot > 0 ? n.substring(0, dot) : n) + ext);
    }
}
