package dev.lathe.backend.program;

import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Variable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compiled shader: the machine code and what the code needs to run, the same way for the
 * {@code .s} text and the {@code .bin} binary ({@link ProgramText}, {@link ProgramBinary}).
 *
 * @param shader     the shader's stage, workgroup size and variable declarations (no code): the
 *                   simulator takes the interpreter's inputs and gives its kind of outputs by
 *                   these names
 * @param slots      per variable name, where the code finds it: a uniform's first constant
 *                   scalar, an input's or output's slot ({@code inN}/{@code outN}), a
 *                   buffer's binding ({@code bN}), a texture's number ({@code tN}); under
 *                   {@code NAME.size}, the constant scalar holding a buffer's size in bytes
 * @param constants  initial constant-file scalars beyond the uniforms (large immediates), by index
 * @param localBytes size of each invocation's local memory ({@code ldl}/{@code stl})
 * @param privateBytes size of each invocation's spill scratch ({@code ldp}/{@code stp})
 * @param loops      loops in the program (a statistic; the code has only branches)
 * @param preloads   what the hardware writes into registers before the first instruction, as
 *                   ir3's vertex fetch and system-value registers do: each a {@code ldlv} of a
 *                   vertex input or a {@code mov} of a system value, done before the shader
 *                   starts, at no cost, its result ready at once ({@link #checkPreload})
 * @param preamble   code run once before the shader (per draw or dispatch on the hardware, as
 *                   ir3's preamble), ending with {@code end}: it computes what depends on
 *                   uniforms only and leaves it in the constant file with {@code stc}; empty for none
 * @param code       the instructions
 */
public record Program(
        Shader shader,
        Map<String, Integer> slots,
        Map<Integer, Long> constants,
        int localBytes,
        int privateBytes,
        int loops,
        List<MInstr> preloads,
        List<MInstr> preamble,
        List<MInstr> code) {
    public Program {
        slots = Map.copyOf(slots);
        constants = Map.copyOf(constants);
        preloads = List.copyOf(preloads);
        preamble = List.copyOf(preamble);
        code = List.copyOf(code);
    }

    /** A program without a preamble. */
    public Program(
            Shader shader,
            Map<String, Integer> slots,
            Map<Integer, Long> constants,
            int localBytes,
            int privateBytes,
            int loops,
            List<MInstr> preloads,
            List<MInstr> code) {
        this(shader, slots, constants, localBytes, privateBytes, loops, preloads, List.of(), code);
    }

    /** A program without preloads. */
    public Program(
            Shader shader,
            Map<String, Integer> slots,
            Map<Integer, Long> constants,
            int localBytes,
            int privateBytes,
            int loops,
            List<MInstr> code) {
        this(shader, slots, constants, localBytes, privateBytes, loops, List.of(), List.of(), code);
    }

    /**
     * Null when {@code i} can stand in a preamble ({@code last}: as its last instruction), else
     * why not: the preamble is straight-line ALU and SFU code over registers, constants and
     * immediates (system values and varyings belong to invocations), with {@code stc} to leave results in the constant file, ending with a plain
     * {@code end}.
     */
    public static String checkPreamble(MInstr i, boolean last) {
        if (last)
            return i.op() == MOp.END && i.srcs().isEmpty() ? null : "a preamble ends with end (reading no outputs)";
        int c = i.op().category();
        for (Operand o : i.srcs())
            if (o.kind() == Operand.Kind.SPECIAL) return "a preamble reads no system value (it runs for no invocation)";
        if (i.op() == MOp.STC || i.op() == MOp.NOP || c >= 1 && c <= 4 && i.op() != MOp.BARY_F) return null;
        return "a preamble holds ALU and SFU instructions (no bary.f: it runs for no invocation), stc and nops (not "
                + i.op().base() + ")";
    }

    /** The most texture prefetches a program has (ir3's {@code IR3_MAX_SAMPLER_PREFETCH}). */
    public static final int MAX_PREFETCHES = 4;

    /**
     * Null when {@code i} can be a preload in a shader of this stage, else why not: a
     * {@code mov} of a system value, (vertex shaders) a {@code ldlv} of one input component, or
     * (fragment shaders) a texture prefetch ({@link MInstr#isPrefetch}), plain (no sync, nop,
     * repeat or saturation), into a register.
     */
    public static String checkPreload(MInstr i, Stage stage) {
        if (i.ss() || i.sy() || i.nop() != 0 || i.rpt() != 0 || i.sat())
            return "a preload has no (ss), (sy), (nop) or repeat";
        if (i.dst().kind() != Operand.Kind.REG) return "a preload writes a register";
        if (i.op() == MOp.MOV && i.src(0).kind() == Operand.Kind.SPECIAL) return null;
        if (i.op() == MOp.LDLV && stage == Stage.VERTEX) return null;
        if (i.isPrefetch() && stage == Stage.FRAGMENT) return null;
        return "a preload is a mov of a system value, in a vertex shader an ldlv of an input, or in a fragment"
                + " shader a texture prefetch (sam … inN[c], tK)";
    }

    /** Null when a program's preloads, each allowed by {@link #checkPreload}, are allowed together; else why not. */
    public static String checkPreloads(List<MInstr> preloads) {
        long prefetches = preloads.stream().filter(MInstr::isPrefetch).count();
        return prefetches > MAX_PREFETCHES
                ? prefetches + " texture prefetches; the target prefetches at most " + MAX_PREFETCHES
                : null;
    }

    /** Null when {@code i} may be an instruction of the shader's code (not a preload or the preamble), else why not. */
    public static String checkCode(MInstr i) {
        if (i.op() == MOp.STC) return "stc is for the preamble";
        if (i.isPrefetch()) return "a texture prefetch (sam from an input) is only ever a preload";
        return null;
    }

    /**
     * Scalars of the constant file and the uniform memory after it ({@code ldc} reads both;
     * uniform arrays that do not fit the 2048-scalar file live from c2048 on): at least 2048.
     */
    public int constantScalars() {
        long end = 2048;
        for (Variable v : constantFileVariables(shader)) {
            Integer at = slots.get(v.name());
            if (at != null)
                end = Math.max(
                        end,
                        at
                                + (long) (v.type().bitSize() == 64 ? 2 : 1)
                                        * v.type().components()
                                        * Math.max(1, v.arrayLength()));
        }
        return (int) Math.min(end, 1 << 22);
    }

    /**
     * The variables read from the constant file (or, past it, uniform memory): uniforms and the
     * shader's constant data, in declaration order.
     */
    public static List<Variable> constantFileVariables(Shader s) {
        List<Variable> out = new ArrayList<>();
        for (Variable v : s.variables())
            if (v.kind() == Variable.Kind.UNIFORM || v.kind() == Variable.Kind.CONSTANT) out.add(v);
        return out;
    }

    /** The variable mapped to {@code index} among those of a kind, or null. */
    /** A texture slot's texture: the variable, and which element of it when it is an array of textures. */
    public record TextureSlot(Variable variable, int element) {}

    /**
     * The suffix of a bindless texture's key in {@link #slots()}: the value is its first
     * descriptor in the program's heap ({@code .heap @name N}; an array takes N and the ones after).
     */
    public static final String HEAP = ".heap";

    /** The texture at descriptor {@code index} of the heap (bindless textures); null for none. */
    public TextureSlot heapAt(long index) {
        for (Variable v : shader.variables(Variable.Kind.TEXTURE)) {
            Integer at = slots.get(v.name() + HEAP);
            if (at != null && index >= at && index < at + Math.max(1, v.arrayLength()))
                return new TextureSlot(v, (int) (index - at));
        }
        return null;
    }

    /**
     * The suffix of a storage image's texture slot in {@link #slots()} ({@code .slot @img.tex N}):
     * a read-only image is also bound as a texture, so that {@code isam} reads it through the
     * texture unit (ir3 reads images the shader never writes with {@code isam}).
     */
    public static final String IMAGE_TEXTURE = ".tex";

    /**
     * The texture in slot {@code slot}: an array of textures takes its slot and the ones after it, one per element;
     * a read-only image its {@link #IMAGE_TEXTURE} slot; null for none.
     */
    public TextureSlot textureAt(int slot) {
        for (Variable v : shader.variables(Variable.Kind.TEXTURE)) {
            Integer at = slots.get(v.name());
            if (at != null && slot >= at && slot < at + Math.max(1, v.arrayLength()))
                return new TextureSlot(v, slot - at);
        }
        for (Variable v : shader.variables(Variable.Kind.IMAGE)) {
            Integer at = slots.get(v.name() + IMAGE_TEXTURE);
            if (at != null && at == slot) return new TextureSlot(v, 0);
        }
        return null;
    }

    public Variable variableAt(Variable.Kind kind, int index) {
        for (Variable v : shader.variables(kind)) {
            Integer at = slots.get(v.name());
            if (at != null && at == index) return v;
        }
        return null;
    }

    /**
     * Where each shared variable lives in workgroup memory ({@code ldlw}/{@code stlw}): in
     * declaration order, each element aligned to its size (at most 8), with one spare element
     * after each where out-of-range stores go. Derived from the declarations, so a program file
     * needs no layout of its own.
     */
    public static Map<Variable, Integer> sharedOffsets(Shader shader) {
        Map<Variable, Integer> out = new LinkedHashMap<>();
        int at = 0;
        for (Variable v : shader.variables(Variable.Kind.SHARED)) {
            int elem = v.type().components() * Math.max(v.type().bitSize(), 8) / 8;
            int align = Math.min(8, Integer.highestOneBit(Math.max(1, elem)));
            at = (at + align - 1) / align * align;
            out.put(v, at);
            at += elem * (Math.max(1, v.arrayLength()) + 1);
        }
        return out;
    }

    /** Bytes of workgroup memory the program's shared variables take. */
    public int sharedBytes() {
        int end = 0;
        for (var e : sharedOffsets(shader).entrySet()) {
            Variable v = e.getKey();
            int elem = v.type().components() * Math.max(v.type().bitSize(), 8) / 8;
            end = Math.max(end, e.getValue() + elem * (Math.max(1, v.arrayLength()) + 1));
        }
        return end;
    }
}
