package dev.lathe.ir;

import dev.lathe.ir.op.Bits;
import java.util.List;

/** A constant vector: one raw bit pattern per component, masked to the bit size. */
public final class LoadConstInstr extends Instr {
    private final Value def;
    private final long[] values;

    public LoadConstInstr(Function fn, int bitSize, long... values) {
        this.values = values.clone();
        long m = Bits.mask(bitSize);
        for (int i = 0; i < this.values.length; i++) this.values[i] &= m;
        this.def = new Value(this, values.length, bitSize, fn.allocateValueIndex());
    }

    @Override
    public Value def() {
        return def;
    }

    /** The raw bits of component i. */
    public long value(int i) {
        return values[i];
    }

    public long[] values() {
        return values.clone();
    }

    @Override
    public List<Src> srcs() {
        return List.of();
    }

    @Override
    public String opName() {
        return "load_const";
    }

    @Override
    public boolean isRemovableWhenUnused() {
        return true;
    }
}
