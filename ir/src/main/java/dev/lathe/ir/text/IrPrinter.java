package dev.lathe.ir.text;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.ImageFormat;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Src;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Swizzle;
import dev.lathe.ir.UndefInstr;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Prints IR in the canonical text form that {@link IrParser} reads back. Values are renumbered
 * {@code %0, %1, …} and blocks {@code b0, b1, …} in program order, so printing, parsing and
 * printing again gives the same text. The format is documented in {@code ir/README.md}.
 */
public final class IrPrinter {
    private final StringBuilder out = new StringBuilder();
    private int[] valueNumbers = new int[0];
    private Function fn;
    private java.util.function.Function<Instr, String> annotate = i -> null;

    private IrPrinter() {}

    /**
     * The whole shader as text, with {@code annotate}'s text (when not null) as a {@code //}
     * comment after each instruction: still valid input for the parser.
     */
    public static String print(Shader shader, java.util.function.Function<Instr, String> annotate) {
        IrPrinter p = new IrPrinter();
        p.annotate = annotate;
        p.printShader(shader);
        return p.out.toString();
    }

    /** The whole shader as text. */
    public static String print(Shader shader) {
        IrPrinter p = new IrPrinter();
        p.printShader(shader);
        return p.out.toString();
    }

    /** One function as text (without the shader header). */
    public static String print(Function fn) {
        IrPrinter p = new IrPrinter();
        p.printFunction(fn);
        return p.out.toString();
    }

    /** One instruction, with the function's canonical numbering when it is inserted. */
    public static String instrToString(Instr i) {
        IrPrinter p = new IrPrinter();
        if (i.block() != null && i.block().function() != null)
            p.number(i.block().function());
        p.printInstr(i);
        return p.out.toString();
    }

    private void printShader(Shader s) {
        out.append("shader ").append(s.stage().spelling());
        if (s.stage() == Stage.COMPUTE) {
            int[] w = s.workgroupSize();
            out.append(" workgroup_size(")
                    .append(w[0])
                    .append(", ")
                    .append(w[1])
                    .append(", ")
                    .append(w[2])
                    .append(')');
        }
        if (s.geometry() != null) out.append(' ').append(s.geometry().spelling());
        if (!s.floatControls().isEmpty())
            out.append(" float_controls(")
                    .append(String.join(", ", s.floatControls()))
                    .append(')');
        out.append('\n');
        if (!s.variables().isEmpty()) out.append('\n');
        for (Variable v : s.variables()) out.append(declaration(v)).append('\n');
        for (Function f : s.functions()) {
            out.append('\n');
            printFunction(f);
        }
    }

    /** A variable declaration line (without a newline). */
    public static String declaration(Variable v) {
        StringBuilder sb = new StringBuilder(v.kind().spelling()).append(' ');
        switch (v.kind()) {
            case TEXTURE, IMAGE ->
                sb.append(v.dim().spelling()).append(' ').append(v.type().scalarName());
            case BUFFER -> sb.append(v.type());
            default -> sb.append(v.type());
        }
        sb.append(" @").append(v.name());
        if (v.isArray()) sb.append('[').append(v.arrayLength()).append(']');
        switch (v.kind()) {
            case INPUT -> {
                sb.append(" location=").append(v.location());
                if (v.isFlat()) sb.append(" flat");
            }
            case OUTPUT, UNIFORM -> sb.append(" location=").append(v.location());
            case BUFFER -> sb.append(" binding=").append(v.binding());
            case TEXTURE -> {
                sb.append(" binding=").append(v.binding());
                if (v.isUnorm()) sb.append(" unorm");
            }
            case IMAGE -> {
                sb.append(" binding=").append(v.binding());
                if (v.format() != ImageFormat.full(v.type().base()))
                    sb.append(' ').append(v.format().spelling());
            }
            case CONSTANT -> {
                // the data as load_const writes constants, one per component, element after element
                long[] data = v.data();
                sb.append(" = (");
                for (int k = 0; k < data.length; k++) {
                    if (k > 0) sb.append(", ");
                    sb.append(constant(data[k], v.type().bitSize()));
                }
                sb.append(')');
            }
            case LOCAL, SHARED -> {}
        }
        return sb.toString();
    }

    private void number(Function f) {
        fn = f;
        valueNumbers = new int[f.valueCount()];
        Arrays.fill(valueNumbers, -1);
        int next = 0;
        for (Block b : f.blocks()) {
            for (Instr i : b.instrs()) {
                Value d = i.def();
                if (d != null && d.index() < valueNumbers.length) valueNumbers[d.index()] = next++;
            }
        }
    }

    private void printFunction(Function f) {
        number(f);
        out.append("function ").append(f.name()).append(" {\n");
        for (Variable v : f.locals()) indent(1).append(declaration(v)).append('\n');
        printList(f.body());
        out.append("}\n");
    }

    /** A pending piece of output: a node to print (then its following siblings), or a line. */
    private record Task(CfNode node, int depth, String line) {}

    private void printList(CfList body) {
        List<Task> stack = new ArrayList<>();
        stack.add(new Task(body.first(), 1, null));
        while (!stack.isEmpty()) {
            Task t = stack.remove(stack.size() - 1);
            if (t.line() != null) {
                indent(t.depth()).append(t.line()).append('\n');
                continue;
            }
            CfNode n = t.node();
            if (n == null) continue;
            int d = t.depth();
            if (n instanceof Block b) {
                printBlock(b, d);
                stack.add(new Task(n.next(), d, null));
            } else if (n instanceof IfNode in) {
                indent(d).append("if ").append(src(in.condition())).append(" {\n");
                stack.add(new Task(n.next(), d, null));
                stack.add(new Task(null, d, "}"));
                stack.add(new Task(in.elseList().first(), d + 1, null));
                stack.add(new Task(null, d, "} else {"));
                stack.add(new Task(in.thenList().first(), d + 1, null));
            } else {
                LoopNode loop = (LoopNode) n;
                indent(d).append("loop {\n");
                stack.add(new Task(n.next(), d, null));
                stack.add(new Task(null, d, "}"));
                stack.add(new Task(loop.body().first(), d + 1, null));
            }
        }
    }

    private void printBlock(Block b, int depth) {
        indent(depth).append("block ").append(blockName(b)).append(':');
        List<Block> preds = b.predecessors();
        if (!preds.isEmpty()) {
            out.append("  // preds:");
            for (Block p : preds) out.append(' ').append(blockName(p));
        }
        out.append('\n');
        for (Instr i : b.instrs()) {
            indent(depth + 1);
            printInstr(i);
            String note = annotate.apply(i);
            if (note != null) out.append("  // ").append(note);
            out.append('\n');
        }
    }

    /**
     * Indentation stops growing after this many levels: output size would otherwise be
     * quadratic in the nesting depth. Whitespace means nothing to the parser.
     */
    static final int MAX_INDENT_LEVELS = 32;

    private StringBuilder indent(int depth) {
        for (int i = 0; i < Math.min(depth, MAX_INDENT_LEVELS); i++) out.append("  ");
        return out;
    }

    private static String blockName(Block b) {
        return "b" + b.index();
    }

    private String valueName(Value v) {
        int idx = v.index();
        if (fn != null
                && v.parent().block() != null
                && v.parent().block().function() == fn
                && idx < valueNumbers.length
                && valueNumbers[idx] >= 0) {
            return "%" + valueNumbers[idx];
        }
        // Not part of the function (a removed or detached instruction): still printable.
        return "%?" + idx;
    }

    private String src(Src s) {
        String name = valueName(s.value());
        if (!s.hasSwizzle() || s.isIdentitySwizzle()) return name;
        return name + "." + Swizzle.format(s.swizzle());
    }

    private void printDest(Value d) {
        out.append("vec")
                .append(d.numComponents())
                .append(' ')
                .append(d.bitSize())
                .append(' ')
                .append(valueName(d))
                .append(" = ");
    }

    private void printInstr(Instr instr) {
        Value d = instr.def();
        if (d != null) printDest(d);
        if (instr instanceof AluInstr alu) {
            if (alu.isExact()) out.append('!');
            out.append(alu.op().opName());
            if (!alu.flags().isEmpty()) out.append('[').append(alu.flags()).append(']');
            for (int i = 0; i < alu.numSrcs(); i++)
                out.append(i == 0 ? " " : ", ").append(src(alu.src(i)));
        } else if (instr instanceof LoadConstInstr lc) {
            out.append("load_const (");
            for (int i = 0; i < d.numComponents(); i++) {
                if (i > 0) out.append(", ");
                out.append(constant(lc.value(i), d.bitSize()));
            }
            out.append(')');
        } else if (instr instanceof UndefInstr) {
            out.append("undef");
        } else if (instr instanceof PhiInstr phi) {
            out.append("phi");
            List<PhiInstr.PhiSrc> srcs = new ArrayList<>(phi.phiSrcs());
            srcs.sort((a, b) -> Integer.compare(a.pred().index(), b.pred().index()));
            for (int i = 0; i < srcs.size(); i++) {
                PhiInstr.PhiSrc ps = srcs.get(i);
                out.append(i == 0 ? " " : ", ")
                        .append(blockName(ps.pred()))
                        .append(": ")
                        .append(src(ps.src()));
            }
        } else if (instr instanceof JumpInstr j) {
            out.append(j.kind().spelling());
        } else {
            IntrinsicInstr in = (IntrinsicInstr) instr;
            out.append(in.intrinsic().spelling());
            boolean first = true;
            if (in.var() != null) {
                out.append(" @").append(in.var().name());
                first = false;
            }
            for (int i = 0; i < in.numSrcs(); i++) {
                out.append(first ? " " : ", ").append(src(in.src(i)));
                first = false;
            }
        }
    }

    /**
     * A constant component: {@code true}/{@code false} at one bit, else hex bits with the value
     * as a comment (as a float when the bits look like an ordinary float, else as an integer).
     */
    public static String constant(long bits, int bitSize) {
        if (bitSize == 1) return bits != 0 ? "true" : "false";
        String hex = String.format("0x%0" + (bitSize / 4) + "x", bits & Bits.mask(bitSize));
        return hex + " /* " + constantComment(bits, bitSize) + " */";
    }

    /**
     * The comment shown after a constant's hex bits. Bits that look like an ordinary float
     * (a normal number of moderate exponent), an infinity, the canonical NaN or -0.0 are shown
     * as that float; anything else as a signed integer.
     */
    /** Whether a constant is shown as a float (see {@link #constantComment}). */
    public static boolean looksLikeFloat(long bits, int bitSize) {
        if (bitSize != 16 && bitSize != 32 && bitSize != 64) return false;
        return !constantComment(bits, bitSize).equals(Long.toString(Bits.sext(bits, bitSize)));
    }

    static String constantComment(long bits, int bitSize) {
        long signed = Bits.sext(bits, bitSize);
        if (bitSize == 8 || signed == 0) return Long.toString(signed);
        int expBits = bitSize == 16 ? 5 : bitSize == 32 ? 8 : 11;
        int mantBits = bitSize - 1 - expBits;
        long exp = (bits >>> mantBits) & Bits.mask(expBits);
        long mant = bits & Bits.mask(mantBits);
        long bias = Bits.mask(expBits - 1);
        boolean special = (exp == Bits.mask(expBits) && mant == 0) // ±inf
                || bits == FloatBits.canonicalNaN(bitSize) // the NaN every op produces
                || bits == FloatBits.signBit(bitSize); // -0.0
        boolean ordinary = exp != 0 && exp != Bits.mask(expBits) && Math.abs(exp - bias) < 64;
        return special || ordinary ? FloatBits.format(bits, bitSize) : Long.toString(signed);
    }
}
