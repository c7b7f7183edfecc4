package dev.lathe.driver.fuzz;

import dev.lathe.backend.compile.CompileException;
import dev.lathe.driver.Compiler;
import dev.lathe.driver.ExternalTool;
import dev.lathe.driver.shaderdb.DifferentialCheck;
import dev.lathe.ir.Shader;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import dev.lathe.spirv.SpirvException;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * SPIR-V binaries. Seeds: the given modules (the bundled shaders). Mutations change one to three
 * words after the header. The oracle: a module Lathe refuses gets a message naming a word
 * offset; a module it translates must give IR that validates; and when {@code spirv-val}
 * (Debian's spirv-tools) is there and accepts the mutant, it is a valid module, so it must
 * compile (or be refused by the target with a message) and the binary must agree with the
 * interpreter under the NaN contract: a disagreement is a miscompile.
 */
public final class SpirvFuzzTarget extends SeededTarget {
    static final String FILE = "fuzz.spv";
    private final boolean spirvVal;

    /**
     * @param checkValid whether to ask spirv-val about translated mutants (when it is installed)
     */
    public SpirvFuzzTarget(List<byte[]> modules, boolean checkValid) {
        super("spirv", ".spv", modules, null);
        if (modules.isEmpty()) throw new IllegalArgumentException("no SPIR-V modules to start from");
        this.spirvVal = checkValid && ExternalTool.available("spirv-val");
    }

    @Override
    public boolean keepsLength() {
        return true;
    }

    @Override
    public int unit() {
        return 4;
    }

    @Override
    public byte[] mutate(byte[] seed, SplittableRandom r) {
        return Mutations.words(seed, r, 5);
    }

    @Override
    public String run(byte[] input) throws FuzzFailure {
        Shader s;
        try {
            s = SpirvFrontend.read(FILE, input);
        } catch (SpirvException e) {
            Located.requireWord(e.getMessage(), FILE, "a refused module");
            return "refused with a located message";
        }
        List<ValidationError> errors = Validator.validate(s);
        if (!errors.isEmpty()) {
            throw new FuzzFailure(
                    "a translated module does not validate",
                    "the translated IR does not validate: " + errors.get(0).format());
        }
        if (!spirvVal || isSeed(input)) return "translated";
        if (!validSpirv(input)) return "translated (spirv-val refuses it)";
        DifferentialCheck.Outcome o;
        try {
            o = DifferentialCheck.run(s, Compiler.Options.defaults(), 2, 20_000);
        } catch (CompileException e) {
            return "valid; refused by the target";
        }
        if (o.difference() != null) {
            if (o.compared() == 0 && o.difference().startsWith("no input set was compared"))
                return "valid; the reference fails on its inputs";
            throw new FuzzFailure("miscompile", "miscompile of a module spirv-val accepts: " + o.difference());
        }
        return "valid; compiled and checked";
    }

    private boolean isSeed(byte[] input) {
        for (byte[] s : seeds) if (Arrays.equals(s, input)) return true;
        return false;
    }

    private static boolean validSpirv(byte[] input) {
        try {
            Path f = Files.createTempFile("lathe-fuzz-", ".spv");
            try {
                Files.write(f, input);
                return ExternalTool.run(30, "spirv-val", "--target-env", "vulkan1.3", f.toString())
                        .ok();
            } finally {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ExternalTool.ToolException e) {
            return false;
        }
    }
}
