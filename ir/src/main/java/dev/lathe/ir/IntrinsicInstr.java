package dev.lathe.ir;

import java.util.Arrays;
import java.util.List;

/** An intrinsic call: a variable it names (or none), whole-value sources, and maybe a result. */
public final class IntrinsicInstr extends Instr {
    private final Intrinsic intrinsic;
    private final Variable var;
    private final Src[] srcs;
    private final Value def;

    /** Creates an intrinsic without a result. */
    public IntrinsicInstr(Function fn, Intrinsic intrinsic, Variable var, Value... srcValues) {
        this(fn, intrinsic, var, 0, 0, srcValues);
    }

    /**
     * Creates an intrinsic. {@code numComponents} and {@code bitSize} give the result's shape
     * (both 0 when it has no result).
     */
    public IntrinsicInstr(Function fn, Intrinsic intrinsic, Variable var, int numComponents, int bitSize,
                          Value... srcValues) {
        this.intrinsic = intrinsic;
        this.var = var;
        this.srcs = new Src[srcValues.length];
        for (int i = 0; i < srcValues.length; i++) srcs[i] = new Src(this, srcValues[i], null);
        this.def = numComponents == 0 ? null : new Value(this, numComponents, bitSize, fn.allocateValueIndex());
    }

    public Intrinsic intrinsic() {
        return intrinsic;
    }

    /** The variable this intrinsic names, or null. */
    public Variable var() {
        return var;
    }

    public Src src(int i) {
        return srcs[i];
    }

    public int numSrcs() {
        return srcs.length;
    }

    @Override
    public Value def() {
        return def;
    }

    @Override
    public List<Src> srcs() {
        return Arrays.asList(srcs);
    }

    @Override
    public String opName() {
        return intrinsic.spelling();
    }

    @Override
    public boolean isRemovableWhenUnused() {
        return intrinsic.effect() != Intrinsic.Effect.SIDE_EFFECT;
    }
}
