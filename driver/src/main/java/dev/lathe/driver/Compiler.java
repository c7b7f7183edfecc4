package dev.lathe.driver;

import dev.lathe.backend.compile.CompileException;
import dev.lathe.backend.compile.MachineCompiler;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.DefaultPipeline;
import dev.lathe.ir.pass.PassException;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.Pipeline;

/**
 * Shader in, machine code out: the IR optimization pipeline (the default one, or the one given),
 * then the backend. The shader is changed in place.
 */
public final class Compiler {
    private Compiler() {}

    public static MachineCompiler.Result compile(Shader shader) {
        return compile(shader, DefaultPipeline.TEXT);
    }

    /** {@code pipeline}: a pipeline text over {@link Passes}; a wrong one is an IllegalArgumentException. */
    public static MachineCompiler.Result compile(Shader shader, String pipeline) {
        Pipeline p = Pipeline.parse(pipeline, new Passes().registry());
        try {
            new PassManager(PassManager.Options.defaults(), null).run(shader, p);
        } catch (PassException e) {
            throw new CompileException(e.getMessage());
        }
        return MachineCompiler.compile(shader);
    }
}
