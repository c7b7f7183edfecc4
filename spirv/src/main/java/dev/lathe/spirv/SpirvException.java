package dev.lathe.spirv;

/** A SPIR-V binary Lathe cannot read: the message starts with {@code FILE.spv: word N:}. */
public final class SpirvException extends RuntimeException {
    public SpirvException(String message) {
        super(message);
    }
}
