package dev.lathe.ir;

/**
 * An ALU source as the builder takes it: a whole {@link Value}, or a value read through a
 * swizzle ({@link Swizzled}).
 */
public sealed interface AluOperand permits Value, Swizzled {
    Value value();

    /** The swizzle, or null to read the value's components in order. */
    byte[] swizzle();
}
