package dev.lathe.ir;

import dev.lathe.ir.op.Op;
import java.util.Arrays;
import java.util.List;

/**
 * An ALU operation from the op table. Each source reads its value through a swizzle of
 * {@link Op#inputComponents} components. The {@code exact} flag (printed as {@code !}) forbids
 * rewrites that are not bit-exact ({@code ~=>} rules).
 */
public final class AluInstr extends Instr {
    private final Op op;
    private final Src[] srcs;
    private final Value def;
    private boolean exact;

    /**
     * Creates an ALU instruction (not yet inserted). {@code swizzles[i]} may be null for the
     * identity of {@link Op#inputComponents} components.
     */
    public AluInstr(Function fn, Op op, int numComponents, int bitSize, Value[] srcValues, byte[][] swizzles) {
        if (srcValues.length != op.numInputs()) {
            throw new IllegalArgumentException(op.opName() + " takes " + op.numInputs() + " sources, got "
                    + srcValues.length);
        }
        this.op = op;
        this.def = new Value(this, numComponents, bitSize, fn.allocateValueIndex());
        this.srcs = new Src[srcValues.length];
        for (int i = 0; i < srcValues.length; i++) {
            byte[] sw = swizzles != null && swizzles[i] != null
                    ? swizzles[i]
                    : Src.identity(op.inputComponents(i, numComponents));
            srcs[i] = new Src(this, srcValues[i], sw);
        }
    }

    public Op op() {
        return op;
    }

    @Override
    public Value def() {
        return def;
    }

    public Src src(int i) {
        return srcs[i];
    }

    public int numSrcs() {
        return srcs.length;
    }

    @Override
    public List<Src> srcs() {
        return Arrays.asList(srcs);
    }

    public boolean isExact() {
        return exact;
    }

    public void setExact(boolean exact) {
        this.exact = exact;
    }

    /**
     * The bit size shared by the op's unsized operands: the result's size when the result is
     * unsized, else the first unsized source's; 0 when every operand is sized.
     */
    public int unsizedBitSize() {
        if (!op.output().isSized()) return def.bitSize();
        for (int i = 0; i < srcs.length; i++) {
            if (!op.input(i).isSized()) return srcs[i].value().bitSize();
        }
        return 0;
    }

    @Override
    public String opName() {
        return op.opName();
    }

    @Override
    public boolean isRemovableWhenUnused() {
        return true;
    }
}
