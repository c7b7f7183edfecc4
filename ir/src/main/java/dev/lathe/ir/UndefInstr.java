package dev.lathe.ir;

import java.util.List;

/**
 * An undefined value. Passes may assume any bits for it; the interpreter reads it as zero so
 * runs stay deterministic.
 */
public final class UndefInstr extends Instr {
    private final Value def;

    public UndefInstr(Function fn, int numComponents, int bitSize) {
        this.def = new Value(this, numComponents, bitSize, fn.allocateValueIndex());
    }

    @Override
    public Value def() {
        return def;
    }

    @Override
    public List<Src> srcs() {
        return List.of();
    }

    @Override
    public String opName() {
        return "undef";
    }

    @Override
    public boolean isRemovableWhenUnused() {
        return true;
    }
}
