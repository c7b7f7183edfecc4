package dev.lathe.ir;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.OperandType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An ALU operation from the op table. Each source reads its value through a swizzle of
 * {@link Op#inputComponents} components. The {@code exact} mark (printed as {@code !}) forbids
 * rewrites that are not bit-exact ({@code ~=>} and {@code ~~>} rules); the {@link AluFlags} are
 * what else the instruction allows (printed in brackets after the op: {@code fadd[nsz]}).
 */
public final class AluInstr extends Instr {
    private final Op op;
    private final Src[] srcs;
    private final Value def;
    private boolean exact;
    private AluFlags flags = AluFlags.NONE;

    /**
     * Creates an ALU instruction (not yet inserted). {@code swizzles[i]} may be null for the
     * identity of {@link Op#inputComponents} components.
     */
    public AluInstr(Function fn, Op op, int numComponents, int bitSize, Value[] srcValues, byte[][] swizzles) {
        if (srcValues.length != op.numInputs()) {
            throw new IllegalArgumentException(
                    op.opName() + " takes " + op.numInputs() + " sources, got " + srcValues.length);
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

    /** Marks the instruction exact (or not); an exact instruction drops {@code reassoc}. */
    public void setExact(boolean exact) {
        if (exact != this.exact) noteEdit();
        this.exact = exact;
        if (exact && flags.has(AluFlag.REASSOC)) flags = flags.without(AluFlag.REASSOC);
    }

    public AluFlags flags() {
        return flags;
    }

    public boolean has(AluFlag f) {
        return flags.has(f);
    }

    /**
     * Sets the flags; each must apply to the op ({@link AluFlag#appliesTo}), and an exact
     * instruction may not carry {@code reassoc}.
     */
    public void setFlags(AluFlags flags) {
        AluFlag bad = flags.firstNotApplicableTo(op);
        if (bad != null) throw new IllegalArgumentException(op.opName() + " cannot carry " + bad.spelling());
        if (exact && flags.has(AluFlag.REASSOC))
            throw new IllegalArgumentException("an exact instruction cannot carry reassoc");
        if (!flags.equals(this.flags)) noteEdit();
        this.flags = flags;
    }

    /** This instruction's exact mark and every flag of {@code other} that applies to its op. */
    public void copyFlagsFrom(AluInstr other) {
        setExact(other.exact);
        setFlags(other.flags.applicableTo(op));
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

    /**
     * What is wrong with this instruction's shape by the op table (bit sizes, component counts,
     * swizzles), in the order the validator reports it; empty when nothing is.
     */
    public List<ShapeProblem> shapeProblems() {
        List<ShapeProblem> out = new ArrayList<>();
        Value d = def();
        if (op.isHorizontal() && d.numComponents() != op.output().components()) {
            out.add(new ShapeProblem(
                    "alu-components",
                    op.opName() + " produces " + op.output().components() + " component(s), not " + d.numComponents()));
        }
        int unsized = unsizedBitSize();
        if (op.hasUnsizedOperands() && !op.isLegalBitSize(unsized)) {
            out.add(new ShapeProblem(
                    "alu-bit-size",
                    op.opName() + " does not work on " + unsized + "-bit values (legal: " + op.legalBitSizeList()
                            + ")"));
        }
        if (op.output().isSized() && d.bitSize() != op.output().bitSize()) {
            out.add(new ShapeProblem(
                    "alu-bit-size",
                    op.opName() + " produces " + op.output().bitSize() + "-bit values, not " + d.bitSize()));
        }
        for (int k = 0; k < numSrcs(); k++) {
            Src s = src(k);
            OperandType t = op.input(k);
            int want = t.isSized() ? t.bitSize() : unsized;
            if (s.value().bitSize() != want) {
                out.add(new ShapeProblem(
                        "alu-bit-size",
                        "source " + (k + 1) + " of " + op.opName() + " has "
                                + s.value().bitSize() + " bits, expected " + want
                                + (t.isSized() ? "" : " (the instruction's bit size)")));
            }
            int comps = op.inputComponents(k, d.numComponents());
            if (s.numComponentsRead() != comps) {
                out.add(new ShapeProblem(
                        "alu-components",
                        "source " + (k + 1) + " of " + op.opName() + " reads " + s.numComponentsRead()
                                + " component(s), expected " + comps));
            }
            for (int c = 0; c < s.numComponentsRead(); c++) {
                if (s.component(c) >= s.value().numComponents()) {
                    out.add(new ShapeProblem(
                            "swizzle",
                            "source " + (k + 1) + " swizzle reads component " + s.component(c) + " of " + s.value()
                                    + ", which has " + s.value().numComponents()));
                    break;
                }
            }
        }
        return out;
    }
}
