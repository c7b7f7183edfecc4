package dev.lathe.ir;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.util.EnumSet;
import java.util.Set;

/**
 * A permission an ALU instruction carries: what the program's author allows the compiler to
 * assume about it. Every flag only widens what an instruction may compute, so dropping one is
 * always correct (a pass that cannot keep a flag drops it), and the interpreter, which computes
 * the IEEE result, computes one of the allowed results. Printed after the op name in the IR text
 * ({@code fadd[nsz,nnan] %a, %b}); rules may require them ({@code fadd[nsz](a, 0.0) => a}).
 *
 * <ul>
 *   <li>{@code nsz}: a zero operand or a zero result may have either sign (SPIR-V's
 *       {@code FPFastMathMode NSZ}, NIR's {@code nsz});
 *   <li>{@code nnan} / {@code ninf}: the author promises that no operand and not the result is
 *       a NaN / an infinity; where one is, the result may be anything;
 *   <li>{@code reassoc}: the instruction may be reassociated and contracted with the instructions
 *       it reads and is read by, as if computed over the real numbers (NIR's {@code ~}; what
 *       SPIR-V allows unless {@code NoContraction}); reassociation rules ({@code ~~>}) fire only on
 *       instructions that carry it;
 *   <li>{@code nsw} / {@code nuw} on {@code iadd}, {@code isub}, {@code imul}, {@code ishl}: the
 *       result does not wrap as a signed / unsigned integer; where it would, the result may be
 *       anything (SPIR-V's {@code NoSignedWrap} / {@code NoUnsignedWrap}).
 * </ul>
 *
 * The exact mark ({@code !}, SPIR-V's {@code NoContraction}) is not a flag: it forbids inexact
 * and reassociation rules, and an exact instruction carries no {@code reassoc}.
 */
public enum AluFlag {
    NSZ("nsz"),
    NNAN("nnan"),
    NINF("ninf"),
    REASSOC("reassoc"),
    NSW("nsw"),
    NUW("nuw");

    private static final Set<Op> WRAPPING = EnumSet.of(Op.IADD, Op.ISUB, Op.IMUL, Op.ISHL);

    private final String spelling;

    AluFlag(String spelling) {
        this.spelling = spelling;
    }

    public String spelling() {
        return spelling;
    }

    public int bit() {
        return 1 << ordinal();
    }

    /** True for the float controls (nsz, nnan, ninf, reassoc), false for the wrap flags. */
    public boolean isFloatControl() {
        return this != NSW && this != NUW;
    }

    /** The flag of that spelling, or null. */
    public static AluFlag byName(String name) {
        for (AluFlag f : values()) if (f.spelling.equals(name)) return f;
        return null;
    }

    /** Whether an instruction of {@code op} may carry this flag. */
    public boolean appliesTo(Op op) {
        if (!isFloatControl()) return WRAPPING.contains(op);
        if (op.output().typeClass() == TypeClass.FLOAT) return true;
        for (int i = 0; i < op.numInputs(); i++) if (op.input(i).typeClass() == TypeClass.FLOAT) return true;
        return false;
    }

    /** Where the flag may go, for messages. */
    public String whereItApplies() {
        return isFloatControl() ? "operations that read or produce floats" : "iadd, isub, imul and ishl";
    }
}
