package dev.lathe.ir;

/** A value read through a swizzle, for {@link IrBuilder#alu}. */
public record Swizzled(Value value, byte[] swizzle) implements AluOperand {
    public Swizzled {
        swizzle = swizzle.clone();
    }

    @Override
    public byte[] swizzle() {
        return swizzle.clone();
    }
}
