package dev.lathe.backend.program;

import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.text.IrSyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The assembly file of a program ({@code .s}): a header of directives, then the code.
 *
 * <pre>
 * .shader compute workgroup_size(4, 1, 1)   the IR shader line
 * .decl buffer f32 @y binding=1             IR declarations, one per line
 * .slot @y 1                                where the code finds each variable
 * .slot @y.size 9                           constant scalar 9 holds @y's size in bytes
 * .const 8 0x3f800000                       constant-file scalar 8 (c2.x) holds this pattern
 * .local 0                                  bytes of local memory per invocation
 * .private 0                                bytes of spill scratch per invocation
 * .loops 1                                  loops in the source (a statistic)
 * .outputs r1.y r1.z                        the registers every end reads (the binary's form of
 *                                           end's operands; in text end names them itself)
 * .preload ldlv.u32.1 r0.x, in0[1]          written before the first instruction, at no cost
 *                                           ({@link Program#preloads}): vertex inputs, system values
 * .preamble mul.f32 r0.x, c0.x, c1.x        the preamble, one instruction per line, run once before
 *                                           the shader ({@link Program#preamble}), ending with end
 * .code
 *     mov.u32u32 r0.x, sv.local_id.x        instructions, one per line
 * </pre>
 *
 * {@code ;} starts a comment. Errors name {@code file:line:col}; the declarations are read by
 * the IR parser on a text that keeps the file's line and column numbers.
 */
public final class ProgramText {
    private ProgramText() {}

    public static String print(Program p) {
        StringBuilder sb = new StringBuilder();
        String ir = IrPrinter.print(p.shader());
        for (String line : ir.split("\n")) {
            if (line.startsWith("shader ")) sb.append('.').append(line).append('\n');
            else if (!line.isBlank()
                    && !line.startsWith("function")
                    && !line.startsWith(" ")
                    && !line.startsWith("}")) {
                sb.append(".decl ").append(line).append('\n');
            }
        }
        for (Variable v : p.shader().variables()) {
            Integer at = p.slots().get(v.name());
            if (at != null)
                sb.append(".slot @").append(v.name()).append(' ').append(at).append('\n');
            Integer size = p.slots().get(v.name() + ".size");
            if (size != null)
                sb.append(".slot @")
                        .append(v.name())
                        .append(".size ")
                        .append(size)
                        .append('\n');
            Integer tex = p.slots().get(v.name() + Program.IMAGE_TEXTURE);
            if (tex != null)
                sb.append(".slot @")
                        .append(v.name())
                        .append(Program.IMAGE_TEXTURE)
                        .append(' ')
                        .append(tex)
                        .append('\n');
            Integer heap = p.slots().get(v.name() + Program.HEAP);
            if (heap != null)
                sb.append(".heap @").append(v.name()).append(' ').append(heap).append('\n');
        }
        new TreeMap<>(p.constants())
                .forEach((k, v) -> sb.append(".const ")
                        .append(k)
                        .append(" 0x")
                        .append(Long.toHexString(v))
                        .append('\n'));
        sb.append(".local ").append(p.localBytes()).append('\n');
        sb.append(".private ").append(p.privateBytes()).append('\n');
        sb.append(".loops ").append(p.loops()).append('\n');
        for (MInstr i : p.preloads())
            sb.append(".preload ").append(Asm.print(i)).append('\n');
        for (MInstr i : p.preamble())
            sb.append(".preamble ").append(Asm.print(i)).append('\n');
        sb.append(".code\n");
        for (MInstr i : p.code()) sb.append("    ").append(Asm.print(i)).append('\n');
        return sb.toString();
    }

    /** Reads a program; any problem is a {@link ProgramException} naming {@code file:line:col}. */
    public static Program parse(String file, String text) {
        String[] lines = text.split("\n", -1);
        StringBuilder ir = new StringBuilder();
        Map<String, int[]> slotLines = new LinkedHashMap<>();
        Map<String, Integer> slots = new LinkedHashMap<>();
        Map<Integer, Long> constants = new LinkedHashMap<>();
        int local = 0, priv = 0, loops = 0;
        List<MInstr> code = new ArrayList<>();
        List<Integer> codeLines = new ArrayList<>();
        List<Operand> outputs = null;
        List<MInstr> preloads = new ArrayList<>();
        List<Integer> preloadLines = new ArrayList<>();
        List<MInstr> preamble = new ArrayList<>();
        List<Integer> preambleLines = new ArrayList<>();
        boolean inCode = false, sawShader = false;
        for (int n = 0; n < lines.length; n++) {
            String raw = lines[n];
            int semi = raw.indexOf(';');
            String line = semi >= 0 ? raw.substring(0, semi) : raw;
            String t = line.strip();
            int col = line.indexOf(t) + 1;
            String irLine = "";
            if (t.isEmpty()) {
                // nothing
            } else if (inCode) {
                try {
                    code.add(Asm.parseLine(line));
                    codeLines.add(n + 1);
                } catch (Asm.SyntaxError e) {
                    throw new ProgramException(file + ":" + (n + 1) + ":" + e.column() + ": error: " + e.getMessage());
                }
            } else if (t.startsWith(".shader ")) {
                irLine = " ".repeat(col) + t.substring(1);
                sawShader = true;
            } else if (t.startsWith(".decl ")) {
                irLine = " ".repeat(col - 1 + 6) + t.substring(6);
            } else if (t.equals(".code")) {
                inCode = true;
            } else {
                String[] w = t.split("\\s+");
                String where = file + ":" + (n + 1) + ":" + col + ": error: ";
                switch (w[0]) {
                    case ".heap" -> {
                        if (w.length != 3 || !w[1].startsWith("@"))
                            throw new ProgramException(where + "expected .heap @NAME INDEX");
                        slots.put(w[1].substring(1) + Program.HEAP, number(w[2], where, 0, (1 << 21) - 1));
                        slotLines.put(w[1].substring(1) + Program.HEAP, new int[] {n + 1, col});
                    }
                    case ".slot" -> {
                        if (w.length != 3 || !w[1].startsWith("@"))
                            throw new ProgramException(where + "expected .slot @NAME INDEX");
                        slots.put(w[1].substring(1), number(w[2], where, 0, (1 << 21) - 1));
                        slotLines.put(w[1].substring(1), new int[] {n + 1, col});
                    }
                    case ".const" -> {
                        if (w.length != 3) throw new ProgramException(where + "expected .const INDEX 0xPATTERN");
                        // the constant file, and past it uniform memory (large uniform arrays and constant data)
                        int at = number(w[1], where, 0, (1 << 20) + 2047);
                        long v;
                        try {
                            v = w[2].startsWith("0x")
                                    ? Long.parseUnsignedLong(w[2].substring(2), 16)
                                    : Long.parseLong(w[2]);
                        } catch (NumberFormatException e) {
                            throw new ProgramException(where + "'" + w[2] + "' is not a 32-bit pattern");
                        }
                        if (v < 0 || v > 0xffffffffL)
                            throw new ProgramException(where + "'" + w[2] + "' is not a 32-bit pattern");
                        constants.put(at, v);
                    }
                    case ".local" -> local = single(w, where, 1 << 24);
                    case ".private" -> priv = single(w, where, 1 << 24);
                    case ".loops" -> loops = single(w, where, Integer.MAX_VALUE);
                    case ".outputs" -> {
                        try {
                            outputs = Asm.parseLine("end "
                                            + String.join(", ", List.of(w).subList(1, w.length)))
                                    .srcs();
                        } catch (Asm.SyntaxError e) {
                            throw new ProgramException(where + ".outputs lists registers: " + e.getMessage());
                        }
                    }
                    case ".preload" -> {
                        preloads.add(directiveInstruction(t, w[0], where));
                        preloadLines.add(n + 1);
                    }
                    case ".preamble" -> {
                        preamble.add(directiveInstruction(t, w[0], where));
                        preambleLines.add(n + 1);
                    }
                    default ->
                        throw new ProgramException(
                                where + "unknown directive '" + w[0]
                                        + "' (.shader .decl .slot .heap .const .local .private .loops .outputs .preload .preamble .code)");
                }
            }
            ir.append(irLine).append('\n');
        }
        if (!sawShader) throw new ProgramException(file + ":1:1: error: a program starts with .shader STAGE");
        if (!inCode) throw new ProgramException(file + ":" + lines.length + ":1: error: no .code section");
        ir.append("function main {\n}\n");
        Shader shader;
        try {
            shader = IrParser.parse(file, ir.toString());
        } catch (IrSyntaxException e) {
            throw new ProgramException(e.getMessage());
        }
        for (var e : slotLines.entrySet()) {
            if (e.getKey().endsWith(Program.HEAP)) {
                Variable v = shader.variable(e.getKey().substring(0, e.getKey().length() - Program.HEAP.length()));
                if (v == null || v.kind() != Variable.Kind.TEXTURE) {
                    throw new ProgramException(
                            file + ":" + e.getValue()[0] + ":" + e.getValue()[1] + ": error: .heap names @"
                                    + e.getKey().substring(0, e.getKey().length() - Program.HEAP.length())
                                    + ", which is no declared texture");
                }
            } else if (e.getKey().endsWith(Program.IMAGE_TEXTURE)) {
                String name = e.getKey().substring(0, e.getKey().length() - Program.IMAGE_TEXTURE.length());
                Variable v = shader.variable(name);
                if (v == null || v.kind() != Variable.Kind.IMAGE || slots.get(e.getKey()) > 31) {
                    throw new ProgramException(file + ":" + e.getValue()[0] + ":" + e.getValue()[1] + ": error: .slot @"
                            + e.getKey() + " needs an image declared as @" + name + " and a texture slot, 0 to 31");
                }
            } else if (e.getKey().endsWith(".size")) {
                Variable v = shader.variable(e.getKey().substring(0, e.getKey().length() - 5));
                if (v == null || (v.kind() != Variable.Kind.BUFFER && v.kind() != Variable.Kind.IMAGE)) {
                    throw new ProgramException(file + ":" + e.getValue()[0] + ":" + e.getValue()[1] + ": error: .slot @"
                            + e.getKey() + " needs a buffer or an image declared as @"
                            + e.getKey().substring(0, e.getKey().length() - 5));
                }
                if (slots.get(e.getKey()) > 2047) {
                    throw new ProgramException(file + ":" + e.getValue()[0] + ":" + e.getValue()[1]
                            + ": error: a size slot is a constant scalar, 0 to 2047");
                }
            } else if (shader.variable(e.getKey()) == null) {
                throw new ProgramException(file + ":" + e.getValue()[0] + ":" + e.getValue()[1]
                        + ": error: .slot names @" + e.getKey() + ", which no .decl declares");
            }
        }
        // every end reads the same registers: those .outputs lists, or those the first end names
        List<Operand> reads = outputs;
        for (int k = 0; k < code.size(); k++) {
            MInstr i = code.get(k);
            if (i.op() != MOp.END) continue;
            if (outputs != null && i.srcs().isEmpty()) {
                code.set(k, MInstr.end(outputs).withSync(i.ss(), i.sy()).withNop(i.nop()));
                continue;
            }
            if (reads == null) {
                reads = i.srcs();
            } else if (!reads.equals(i.srcs())) {
                throw new ProgramException(
                        file + ":" + codeLines.get(k) + ":5: error: every end reads the same output registers ("
                                + Asm.print(MInstr.end(reads)) + " before)");
            }
        }
        for (int k = 0; k < preloads.size(); k++) {
            String why = Program.checkPreload(preloads.get(k), shader.stage());
            if (why == null) why = Encoding.validate(preloads.get(k));
            if (why != null) throw new ProgramException(file + ":" + preloadLines.get(k) + ":1: error: " + why);
        }
        String together = Program.checkPreloads(preloads);
        if (together != null)
            throw new ProgramException(file + ":" + preloadLines.get(preloads.size() - 1) + ":1: error: " + together);
        for (int k = 0; k < preamble.size(); k++) {
            String why = Program.checkPreamble(preamble.get(k), k == preamble.size() - 1);
            if (why != null) throw new ProgramException(file + ":" + preambleLines.get(k) + ":1: error: " + why);
        }
        for (int k = 0; k < code.size(); k++) {
            String why = Program.checkCode(code.get(k));
            if (why != null) throw new ProgramException(file + ":" + codeLines.get(k) + ":5: error: " + why);
        }
        return new Program(shader, slots, constants, local, priv, loops, preloads, preamble, code);
    }

    /** The instruction a {@code .preload} or {@code .preamble} line holds after its directive. */
    private static MInstr directiveInstruction(String line, String directive, String where) {
        try {
            return Asm.parseLine(line.substring(directive.length()).strip());
        } catch (Asm.SyntaxError e) {
            throw new ProgramException(where + directive + " takes an instruction: " + e.getMessage());
        }
    }

    private static int single(String[] w, String where, int max) {
        if (w.length != 2) throw new ProgramException(where + w[0] + " takes one number");
        return number(w[1], where, 0, max);
    }

    private static int number(String s, String where, int min, int max) {
        try {
            long v = Long.decode(s);
            if (v < min || v > max) throw new NumberFormatException();
            return (int) v;
        } catch (NumberFormatException e) {
            throw new ProgramException(where + "'" + s + "' is not a number from " + min + " to " + max);
        }
    }
}
