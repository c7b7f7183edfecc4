package dev.lathe.spirv;

import dev.lathe.ir.Shader;
import dev.lathe.spirv.SpirvModule.Instruction;

/**
 * SPIR-V in, Lathe IR out: {@link SpirvReader} checks the words, {@link ModuleInfo} gathers
 * declarations, {@link SpirvToIr} translates the entry point. Every problem is a
 * {@link SpirvException} naming the file and the word offset.
 */
public final class SpirvFrontend {
    /**
     * How many blocks a run-time sized array of uniform blocks ({@code uniform U { … } u[];})
     * holds in the IR, whose uniforms have a length: the application binds as many as it likes,
     * and eight covers the descriptor-indexing samples; an index past them is Vulkan's undefined
     * (noted for the oracle), where the IR reads zero. The oracle binds as many.
     */
    public static final int RUN_TIME_UNIFORM_BLOCKS = 8;

    private SpirvFrontend() {}

    public static Shader read(String file, byte[] bytes) {
        SpirvModule m = SpirvReader.read(file, bytes);
        ModuleInfo info = ModuleInfo.read(m);
        SpirvToIr t = null;
        try {
            t = new SpirvToIr(info);
            return t.run();
        } catch (SpirvException e) {
            throw e;
        } catch (IllegalArgumentException
                | IllegalStateException
                | IndexOutOfBoundsException
                | ClassCastException
                | NullPointerException e) {
            // the IR builder refusing what a malformed module asked for (an operand of the wrong
            // kind or shape): still the module's fault, reported at the instruction being read
            Instruction at = t != null && t.current != null ? t.current : null;
            String what = e.getMessage() == null ? "an operand of the wrong kind or shape" : e.getMessage();
            if (at == null) throw new SpirvException(file + ": cannot translate the module: " + what);
            throw m.error(at, SpirvNames.opcode(at.opcode()) + " cannot be translated: " + what);
        }
    }
}
