package dev.lathe.backend.isa;

import dev.lathe.backend.isa.Operand.Kind;
import java.util.Arrays;

/**
 * Which registers an instruction reads and writes, repetitions included: what legalization,
 * statistics and tests need to know about an encoded instruction. {@link #P0} stands for the
 * predicate register.
 */
public final class Access {
    private Access() {}

    public static final int P0 = Operand.NUM_REGS;
    /** The address register a0.x ({@code mova} writes it, {@code c<a0.x + n>} reads it). */
    public static final int A0 = P0 + 1;

    /** Registers read (with repetition: each repetition's), p0.x as {@link #P0}. */
    public static int[] reads(MInstr i) {
        IntList out = new IntList();
        MOp op = i.op();
        switch (op.category()) {
            case 0 -> {
                if (op == MOp.BR || op == MOp.KILL) out.add(P0);
                if (op == MOp.END) for (Operand o : i.srcs()) out.add(o.index()); // the output registers
            }
            case 1, 2, 3, 4 -> {
                if (op == MOp.BARY_F) break;
                for (int k = 0; k <= i.rpt(); k++) {
                    for (int s = 0; s < i.srcs().size(); s++) {
                        Operand o = i.src(s);
                        if (o.kind() == Kind.PRED) out.add(P0);
                        if (o.kind() == Kind.RELCONST) out.add(A0);
                        if (o.kind() != Kind.REG) continue;
                        int units = units(i, s);
                        int base = o.index() + (o.rep() ? k * units : 0);
                        for (int u = 0; u < units; u++) out.add(base + u);
                    }
                }
            }
            case 5 -> {
                if (i.src(0).kind() == Kind.REG)
                    for (int c = 0; c < i.dim(); c++) out.add(i.src(0).index() + c);
                if (i.src(1).kind() == Kind.REG) out.add(i.src(1).index());
                if (i.src(2).kind() == Kind.REG) out.add(i.src(2).index());
            }
            case 6 -> {
                if (op.isImage()) {
                    for (int c = 0; c < i.dim(); c++) out.add(i.src(0).index() + c);
                    if (op == MOp.STIB)
                        for (int u = 0; u < 4; u++) out.add(i.src(1).index() + u);
                    break;
                }
                if (op.isImageAtomic())
                    for (int c = 1; c < i.dim(); c++) out.add(i.src(0).index() + c);
                if (i.src(0).kind() == Kind.REG) {
                    out.add(i.src(0).index());
                    if (op.space() == MOp.Space.DEVICE) out.add(i.src(0).index() + 1); // a 64-bit address
                }
                if (op.isAtomic()) {
                    for (int s = 1; s < 3; s++)
                        if (i.src(s).kind() == Kind.REG) out.add(i.src(s).index());
                } else if (op.isStore()) {
                    int n = i.count() * i.type().regs();
                    for (int u = 0; u < n; u++) out.add(i.src(1).index() + u);
                }
            }
            default -> {}
        }
        return out.toArray();
    }

    /** Registers written, p0.x as {@link #P0}. */
    public static int[] writes(MInstr i) {
        IntList out = new IntList();
        MOp op = i.op();
        Operand d = i.dst();
        if (d.kind() == Kind.PRED) {
            out.add(P0);
        } else if (d.kind() == Kind.ADDR) {
            out.add(A0);
        } else if (d.kind() == Kind.REG) {
            int n = switch (op.category()) {
                case 5 -> Integer.bitCount(i.count());
                case 6 -> i.count() * i.type().regs();
                default -> (i.rpt() + 1) * dstUnits(i);
            };
            for (int u = 0; u < n; u++) out.add(d.index() + u);
        }
        return out.toArray();
    }

    /** Registers one repetition of an ALU instruction writes: 2 for a 64-bit result, 1 for a comparison's 0/1, else 1. */
    public static int dstUnits(MInstr i) {
        return i.cond() != null ? 1 : i.type().regs();
    }

    /** Registers one source takes: 2 for a 64-bit operand, else 1. */
    public static int units(MInstr i, int s) {
        if (i.op() == MOp.SEL_B && s == 1 || i.op() == MOp.MOVA) return 1;
        MType t = i.op().category() == 1 ? i.srcType() : i.type();
        return t.regs();
    }

    private static final class IntList {
        int[] a = new int[8];
        int n;

        void add(int v) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }
}
