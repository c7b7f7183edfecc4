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
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException | ClassCastException e) {
            // the IR builder refusing something the module asked for: still the module's fault
            throw new SpirvException(file + ": word 0: cannot translate: " + e.getMessage());
        }
    }
}
