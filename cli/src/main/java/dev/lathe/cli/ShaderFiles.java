package dev.lathe.cli;

import dev.lathe.driver.ShaderSources;
import dev.lathe.ir.Shader;
import dev.lathe.ir.text.Utf8Text;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/** Loading shaders for the commands: reading, parsing and validating, with located messages. */
final class ShaderFiles {
    private ShaderFiles() {}

    static String readText(Path path) {
        try {
            return Utf8Text.decode(Files.readAllBytes(path), path.toString());
        } catch (NoSuchFileException e) {
            throw new CliException(path + ": no such file");
        } catch (Utf8Text.Malformed e) {
            throw new CliException(e.getMessage());
        } catch (IOException e) {
            throw new CliException(path + ": cannot read: " + e.getMessage());
        }
    }

    /** Reads a shader by its extension (.ir, .spv, GLSL); problems become a located message. */
    static Shader parse(Path path, SourceOptions source) {
        try {
            return ShaderSources.load(path, source.targetEnv);
        } catch (ShaderSources.SourceException e) {
            throw new CliException(e.getMessage());
        }
    }

    /** Parses and validates; validation errors are listed one per line. */
    static Shader load(Path path, SourceOptions source) {
        Shader s = parse(path, source);
        List<ValidationError> errors = Validator.validate(s);
        if (!errors.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (ValidationError e : errors) {
                if (sb.length() > 0) sb.append('\n');
                sb.append(e.loc() == null ? path + ": " : "").append(e.format());
            }
            throw new CliException(sb.toString());
        }
        return s;
    }
}
