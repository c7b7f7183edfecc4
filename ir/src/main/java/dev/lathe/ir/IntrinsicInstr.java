package dev.lathe.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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
    public IntrinsicInstr(
            Function fn, Intrinsic intrinsic, Variable var, int numComponents, int bitSize, Value... srcValues) {
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

    /**
     * What is wrong with this instruction's shape by the intrinsic table in a shader of
     * {@code stage} (its stage, variable kind, sources and result), in the order the validator
     * reports it; empty when nothing is. Whether the variable is declared is the validator's.
     */
    public List<ShapeProblem> shapeProblems(Stage stage) {
        List<ShapeProblem> out = new ArrayList<>();
        Intrinsic k = intrinsic;
        if (!k.isLegalIn(stage))
            out.add(new ShapeProblem(
                    "intrinsic-stage", k.spelling() + " is not available in " + stage.spelling() + " shaders"));
        Variable v = var;
        if (k.varKind() != null) {
            if (v == null || v.kind() != k.varKind()) {
                out.add(new ShapeProblem(
                        "intrinsic-variable",
                        k.spelling() + " needs a variable of kind "
                                + k.varKind().spelling()));
                return out;
            }
        } else if (v != null) {
            out.add(new ShapeProblem("intrinsic-variable", k.spelling() + " takes no variable"));
        }
        if (k.atomicOp() != null
                && v != null
                && v.kind() == Variable.Kind.SHARED
                && (v.type().components() != 1
                        || v.type().bitSize() != 32
                        || v.type().base() == BaseType.FLOAT)) {
            out.add(new ShapeProblem(
                    "intrinsic-variable",
                    k.spelling() + " needs 32-bit integer scalars, but @" + v.name() + " holds " + v.type()));
        }
        if (k.atomicOp() != null
                && v != null
                && v.kind() == Variable.Kind.IMAGE
                && v.format() != ImageFormat.R32UI
                && v.format() != ImageFormat.R32I) {
            out.add(new ShapeProblem(
                    "intrinsic-variable",
                    k.spelling() + " needs an r32ui or r32i image, but @" + v.name() + " is "
                            + v.format().spelling()));
        }
        List<Intrinsic.Role> roles = k.roles(v);
        if (roles.size() != numSrcs()) {
            out.add(new ShapeProblem(
                    "intrinsic-sources", k.spelling() + " takes " + roles.size() + " source(s), has " + numSrcs()));
            return out;
        }
        for (int s = 0; s < roles.size(); s++) {
            Value val = src(s).value();
            int[] shape = Intrinsic.srcShape(roles.get(s), v);
            if (shape == null) {
                if (val.bitSize() == 1)
                    out.add(new ShapeProblem("intrinsic-sources", "buffers cannot store 1-bit values"));
            } else if (val.numComponents() != shape[0] || val.bitSize() != shape[1]) {
                out.add(new ShapeProblem(
                        "intrinsic-sources",
                        "source " + (s + 1) + " ("
                                + roles.get(s).name().toLowerCase(Locale.ROOT).replace('_', ' ') + ") must be vec"
                                + shape[0] + " " + shape[1] + ", not vec" + val.numComponents() + " " + val.bitSize()));
            }
        }
        Value d = def();
        if (k.hasDest() != (d != null)) {
            out.add(new ShapeProblem(
                    "intrinsic-result", k.spelling() + (k.hasDest() ? " must define a value" : " defines no value")));
            return out;
        }
        if (d != null) {
            int[] shape = k.destShape(v);
            if (shape == null) {
                if (d.bitSize() == 1 || d.numComponents() > 4) {
                    out.add(new ShapeProblem(
                            "intrinsic-result", k.spelling() + " loads 1–4 components of 8, 16, 32 or 64 bits"));
                }
            } else if (d.numComponents() != shape[0] || d.bitSize() != shape[1]) {
                out.add(new ShapeProblem(
                        "intrinsic-result",
                        k.spelling() + " defines vec" + shape[0] + " " + shape[1] + ", not vec" + d.numComponents()
                                + " " + d.bitSize()));
            }
        }
        return out;
    }
}
