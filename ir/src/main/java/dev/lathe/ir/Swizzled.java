package dev.lathe.ir;

/** A value read through a swizzle, for {@link IrBuilder#alu}. */
public record Swizzled(Value value, byte[] swizzle) implements AluOperand {
    /** Refuses a component the value does not have: a swizzle is checked when it is built. */
    public Swizzled {
        swizzle = swizzle.clone();
        for (byte c : swizzle) {
            if (c < 0 || c >= value.numComponents()) {
                throw new IllegalArgumentException(
                        "swizzle component " + c + " of " + value + ", which has " + value.numComponents());
            }
        }
    }

    @Override
    public byte[] swizzle() {
        return swizzle.clone();
    }
}
