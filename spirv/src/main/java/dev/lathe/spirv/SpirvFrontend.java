package dev.lathe.spirv;

import dev.lathe.ir.Shader;

/**
 * SPIR-V in, Lathe IR out: {@link SpirvReader} checks the words, {@link ModuleInfo} gathers
 * declarations, {@link SpirvToIr} translates the entry point. Every problem is a
 * {@link SpirvException} naming the file and the word offset.
 */
public final class SpirvFrontend {
    private SpirvFrontend() {}

    public static Shader read(String file, byte[] bytes) {
        SpirvModule m = SpirvReader.read(file, bytes);
        try {
            return new SpirvToIr(new ModuleInfo(m)).run();
        } catch (SpirvException e) {
            throw e;
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException | ClassCastException | NullPointerException e) {
            // the IR builder refusing what a malformed module asked for (an operand of the wrong
            // kind or shape): still the module's fault, reported as such rather than as a crash
            throw new SpirvException(file + ": word 0: cannot translate a malformed module (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
    }
}
