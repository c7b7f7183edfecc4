package dev.lathe.backend.isa;

import java.util.ArrayList;
import java.util.List;

/**
 * One machine instruction, as the assembler reads it and the encoder packs it into 64 bits: what
 * every category has (the op, its type, the sync flags, repetitions and nops, the destination and
 * the sources), and the fields only its category has, as a {@link Fields} of that category
 * ({@code backend/ISA.md}): an ALU instruction's source type, comparison and saturation; a flow
 * instruction's inversion and jump offset; a texture instruction's texture, write mask,
 * dimensions and bindless flag; a memory instruction's binding or slot, offset, components and
 * dimensions. Equal instructions are equal records.
 *
 * <p>The encoder and the assembler read every field through one accessor each ({@link #index},
 * {@link #offset}, …), which gives the field of the instruction's category, or 0 (null, false)
 * where the category has none; {@link #of} builds a non-bindless instruction from all of them,
 * refusing a value its category cannot hold.
 *
 * @param op     the instruction
 * @param type   the type it operates at (cat1: the destination type); null for untyped ones
 * @param rpt    {@code (rptN)}: N more repetitions, each with the destination and the {@code (r)}
 *               sources one register further (0–3); {@code nop}: its slots less one
 * @param ss     {@code (ss)}: wait for every outstanding SFU result first
 * @param sy     {@code (sy)}: wait for every outstanding texture and memory result first
 * @param nop    {@code (nopN)}: N empty issue slots after the instruction (0–3)
 * @param dst    the destination register (or p0.x, or none)
 * @param srcs   the sources: cat1–cat4 ALU operands; cat5 [coordinates, lod, texture index]; cat6
 *               [address, data]; atomics [address, data, compare]; {@code end} the output registers
 * @param fields what only the category has
 */
public record MInstr(
        MOp op, MType type, int rpt, boolean ss, boolean sy, int nop, Operand dst, List<Operand> srcs, Fields fields) {
    public MInstr {
        srcs = List.copyOf(srcs);
        if (fields == null || !fields.fits(op.category()))
            throw new IllegalArgumentException(op.base() + " (category " + op.category() + ") takes no " + fields);
    }

    /** The fields only one category of instructions has. */
    public sealed interface Fields permits Alu, Flow, Sample, Memory, Plain {
        /** Whether an instruction of category {@code category} has these fields. */
        boolean fits(int category);
    }

    /**
     * Categories 1–4, the ALU.
     *
     * @param srcType cat1 only: the source type
     * @param cond    cmps only: the comparison
     * @param sat     {@code (sat)}: clamp a float result to [0, 1]
     */
    public record Alu(MType srcType, Cond cond, boolean sat) implements Fields {
        static final Alu NONE = new Alu(null, null, false);

        @Override
        public boolean fits(int category) {
            return category >= 1 && category <= 4;
        }
    }

    /**
     * Category 0, flow.
     *
     * @param invert br, kill: act when p0.x is false
     * @param offset jump, br: the target relative to this instruction
     */
    public record Flow(boolean invert, int offset) implements Fields {
        @Override
        public boolean fits(int category) {
            return category == 0;
        }
    }

    /**
     * Category 5, textures.
     *
     * @param texture  the texture (or the first of an array, indexed by the third source); 0 when bindless
     * @param mask     the write mask (bit 0 = x)
     * @param dim      the dimensions (1–3)
     * @param bindless the texture is the heap descriptor the third source names
     */
    public record Sample(int texture, int mask, int dim, boolean bindless) implements Fields {
        @Override
        public boolean fits(int category) {
            return category == 5;
        }
    }

    /**
     * Category 6, memory and I/O.
     *
     * @param index  the buffer binding, or the input/output slot, or the image
     * @param offset the immediate offset
     * @param count  the components (1–4)
     * @param dim    ldib, stib and image atomics: the image's dimensions (1–3), else 0
     */
    public record Memory(int index, int offset, int count, int dim) implements Fields {
        @Override
        public boolean fits(int category) {
            return category == 6;
        }
    }

    /** Category 7 (barriers): nothing more. */
    public record Plain() implements Fields {
        static final Plain NONE = new Plain();

        @Override
        public boolean fits(int category) {
            return category == 7;
        }
    }

    /**
     * An instruction from every field the encoding has, as the decoder and the assembler read
     * them: the fields of {@code op}'s category become its {@link Fields}; any other field must be
     * 0 (null, false), or an IllegalArgumentException says which the category does not take.
     */
    public static MInstr of(
            MOp op,
            MType type,
            MType srcType,
            Cond cond,
            int rpt,
            boolean ss,
            boolean sy,
            int nop,
            boolean sat,
            boolean invert,
            Operand dst,
            List<Operand> srcs,
            int index,
            int offset,
            int count,
            int dim) {
        int cat = op.category();
        boolean alu = cat >= 1 && cat <= 4, flow = cat == 0, sample = cat == 5, memory = cat == 6;
        absent(op, "source type", srcType != null && !alu);
        absent(op, "comparison", cond != null && !alu);
        absent(op, "(sat)", sat && !alu);
        absent(op, "inversion", invert && !flow);
        absent(op, "offset", offset != 0 && !flow && !memory);
        absent(op, "index", index != 0 && !sample && !memory);
        absent(op, "count", count != 0 && !sample && !memory);
        absent(op, "dimensions", dim != 0 && !sample && !memory);
        Fields f;
        if (alu) f = new Alu(srcType, cond, sat);
        else if (flow) f = new Flow(invert, offset);
        else if (sample) f = new Sample(index, count, dim, false);
        else if (memory) f = new Memory(index, offset, count, dim);
        else f = Plain.NONE;
        return new MInstr(op, type, rpt, ss, sy, nop, dst, srcs, f);
    }

    private static void absent(MOp op, String field, boolean given) {
        if (given)
            throw new IllegalArgumentException(op.base() + " (category " + op.category() + ") takes no " + field);
    }

    /** cat1: the source type; null for other instructions. */
    public MType srcType() {
        return fields instanceof Alu a ? a.srcType() : null;
    }

    /** cmps: the comparison; null for other instructions. */
    public Cond cond() {
        return fields instanceof Alu a ? a.cond() : null;
    }

    /** {@code (sat)}; false for instructions that are not ALU. */
    public boolean sat() {
        return fields instanceof Alu a && a.sat();
    }

    /** br, kill: act when p0.x is false. */
    public boolean invert() {
        return fields instanceof Flow f && f.invert();
    }

    /** cat5: the texture; cat6: the binding, slot or image; 0 for others. */
    public int index() {
        if (fields instanceof Sample t) return t.texture();
        return fields instanceof Memory m ? m.index() : 0;
    }

    /** jump/br: the target relative to this instruction; cat6: the immediate offset; 0 for others. */
    public int offset() {
        if (fields instanceof Flow f) return f.offset();
        return fields instanceof Memory m ? m.offset() : 0;
    }

    /** cat5: the write mask; cat6: the components; 0 for others. */
    public int count() {
        if (fields instanceof Sample t) return t.mask();
        return fields instanceof Memory m ? m.count() : 0;
    }

    /** cat5, ldib/stib, image atomics: the dimensions; 0 for others. */
    public int dim() {
        if (fields instanceof Sample t) return t.dim();
        return fields instanceof Memory m ? m.dim() : 0;
    }

    public int category() {
        return op.category();
    }

    /** Issue slots this instruction takes: one per repetition plus its (nopN). */
    public int slots() {
        return rpt + 1 + nop;
    }

    public MInstr withSync(boolean newSs, boolean newSy) {
        return new MInstr(op, type, rpt, newSs, newSy, nop, dst, srcs, fields);
    }

    public MInstr withNop(int n) {
        return new MInstr(op, type, rpt, ss, sy, n, dst, srcs, fields);
    }

    public MInstr withRpt(int n) {
        return new MInstr(op, type, n, ss, sy, nop, dst, srcs, fields);
    }

    /** The same flow or memory instruction with offset {@code o}. */
    public MInstr withOffset(int o) {
        Fields f;
        if (fields instanceof Flow fl) f = new Flow(fl.invert(), o);
        else if (fields instanceof Memory m) f = new Memory(m.index(), o, m.count(), m.dim());
        else throw new IllegalArgumentException(op.base() + " has no offset");
        return new MInstr(op, type, rpt, ss, sy, nop, dst, srcs, f);
    }

    /** The same texture instruction writing the components of {@code mask} (bit 0 = x). */
    public MInstr withMask(int mask) {
        if (!(fields instanceof Sample t)) throw new IllegalArgumentException(op.base() + " has no write mask");
        return new MInstr(op, type, rpt, ss, sy, nop, dst, srcs, new Sample(t.texture(), mask, t.dim(), t.bindless()));
    }

    /** The same instruction writing {@code d} and reading {@code s}. */
    public MInstr withOperands(Operand d, List<Operand> s) {
        return new MInstr(op, type, rpt, ss, sy, nop, d, s, fields);
    }

    /** The same ALU instruction with {@code (sat)} on or off. */
    public MInstr withSat(boolean s) {
        if (!(fields instanceof Alu a)) throw new IllegalArgumentException(op.base() + " has no (sat)");
        return new MInstr(op, type, rpt, ss, sy, nop, dst, srcs, new Alu(a.srcType(), a.cond(), s));
    }

    /** The same instruction writing {@code d} instead. */
    public MInstr withDst(Operand d) {
        return new MInstr(op, type, rpt, ss, sy, nop, d, srcs, fields);
    }

    /** The same instruction with source {@code i} replaced. */
    public MInstr withSrc(int i, Operand o) {
        List<Operand> s = new ArrayList<>(srcs);
        s.set(i, o);
        return new MInstr(op, type, rpt, ss, sy, nop, dst, s, fields);
    }

    /** The same instruction with sources {@code i} and {@code j} exchanged. */
    public MInstr withSrcsSwapped(int i, int j) {
        List<Operand> s = new ArrayList<>(srcs);
        s.set(i, srcs.get(j));
        s.set(j, srcs.get(i));
        return new MInstr(op, type, rpt, ss, sy, nop, dst, s, fields);
    }

    public Operand src(int i) {
        return srcs.get(i);
    }

    /**
     * What repetition {@code k} of this {@code (rptN)} ALU instruction does, as an instruction
     * of its own: the destination {@code k} values further (pairs: 2k registers), each
     * {@code (r)} source {@code k} values further, {@code bary.f}'s component {@code k}
     * further; no repetition, no {@code (r)}, and the sync flags and {@code (nopN)} on the
     * repetitions they belong to ((ss)/(sy) before the first, the nops after the last).
     * Legalization times each repetition by it, and tests check the simulator against it.
     */
    public MInstr repetition(int k) {
        if (k < 0 || k > rpt) throw new IllegalArgumentException("repetition " + k + " of (rpt" + rpt + ")");
        int cat = op.category();
        if (cat < 1 || cat > 4) throw new IllegalArgumentException(op.base() + " has no repetitions of its own");
        List<Operand> s = new ArrayList<>(srcs.size());
        for (int n = 0; n < srcs.size(); n++) {
            Operand o = srcs.get(n);
            if (op == MOp.BARY_F && n == 1) {
                s.add(Operand.imm(o.value() + k));
            } else if (o.rep()) {
                int step = k * Access.units(this, n);
                s.add(new Operand(o.kind(), o.value() + step, o.neg(), o.abs(), false));
            } else {
                s.add(o);
            }
        }
        Operand d = dst;
        if (d.kind() == Operand.Kind.REG) d = Operand.reg(d.index() + k * Access.dstUnits(this));
        return new MInstr(op, type, 0, k == 0 && ss, k == 0 && sy, k == rpt ? nop : 0, d, s, fields);
    }

    // ---- builders for the common shapes --------------------------------------------------------

    private static MInstr make(MOp op, MType type, Operand dst, List<Operand> srcs, Fields fields) {
        return new MInstr(op, type, 0, false, false, 0, dst, srcs, fields);
    }

    public static MInstr alu(MOp op, MType type, Operand dst, Operand... srcs) {
        return make(op, type, dst, List.of(srcs), Alu.NONE);
    }

    public static MInstr cmps(MOp op, MType type, Cond cond, Operand dst, Operand a, Operand b) {
        return make(op, type, dst, List.of(a, b), new Alu(null, cond, false));
    }

    public static MInstr mov(MType from, MType to, Operand dst, Operand src) {
        return make(from == to ? MOp.MOV : MOp.COV, to, dst, List.of(src), new Alu(from, null, false));
    }

    /** {@code mova a0.x, src}: the address register for {@code c<a0.x + n>} reads. */
    public static MInstr mova(Operand src) {
        return make(MOp.MOVA, null, Operand.A0, List.of(src), Alu.NONE);
    }

    public static MInstr flow(MOp op, boolean invert, int offset) {
        return make(op, null, Operand.NONE, List.of(), new Flow(invert, offset));
    }

    /** {@code end}, reading the registers that hold the shader's outputs (none for a shader without outputs). */
    public static MInstr end(List<Operand> outputRegisters) {
        return make(MOp.END, null, Operand.NONE, outputRegisters, new Flow(false, 0));
    }

    public static MInstr nop(int slots) {
        return new MInstr(MOp.NOP, null, slots - 1, false, false, 0, Operand.NONE, List.of(), new Flow(false, 0));
    }

    /**
     * A fragment shader's texture prefetch: {@code sam} at the coordinates interpolated from input
     * slot {@code input}, components {@code component} and on (ir3's {@code tex_prefetch}), which
     * the hardware performs before the shader starts; it is only ever a preload
     * ({@code backend/ISA.md}, "Texture prefetch"). Its coordinate operand is the immediate
     * {@code input * 4 + component}.
     */
    public static MInstr prefetch(MType type, int mask, Operand dst, int input, int component, int texture) {
        return texture(MOp.SAM, type, 2, mask, dst, Operand.imm(input * 4L + component), Operand.NONE, texture);
    }

    /** Whether this is a texture prefetch ({@link #prefetch}): a {@code sam} whose coordinates are an input's. */
    public boolean isPrefetch() {
        return op == MOp.SAM && srcs.size() == 3 && srcs.get(0).kind() == Operand.Kind.IMM;
    }

    /** A prefetch's input slot. */
    public int prefetchInput() {
        return (int) (srcs.get(0).value() / 4);
    }

    /** A prefetch's first coordinate component in its input slot. */
    public int prefetchComponent() {
        return (int) (srcs.get(0).value() % 4);
    }

    public static MInstr texture(
            MOp op, MType type, int dim, int mask, Operand dst, Operand coord, Operand lod, int texture) {
        return texture(op, type, dim, mask, dst, coord, lod, texture, Operand.NONE);
    }

    /**
     * A texture instruction on texture {@code texture} plus the value of register
     * {@code textureIndex} ({@code t3[r1.x]}: an element of an array of textures picked at run
     * time), or on texture {@code texture} itself when {@code textureIndex} is NONE.
     */
    public static MInstr texture(
            MOp op,
            MType type,
            int dim,
            int mask,
            Operand dst,
            Operand coord,
            Operand lod,
            int texture,
            Operand textureIndex) {
        return make(op, type, dst, List.of(coord, lod, textureIndex), new Sample(texture, mask, dim, false));
    }

    /**
     * A bindless texture instruction ({@code b[r1.x]}): the texture is the descriptor in the
     * program's heap that register {@code heapIndex} names, so any number of textures can be
     * sampled (backend/ISA.md, "Textures"); its {@link Sample} says bindless (the encoding keeps
     * that in the offset bit).
     */
    public static MInstr bindlessTexture(
            MOp op, MType type, int dim, int mask, Operand dst, Operand coord, Operand lod, Operand heapIndex) {
        return make(op, type, dst, List.of(coord, lod, heapIndex), new Sample(0, mask, dim, true));
    }

    /** Whether this is a bindless texture instruction ({@link #bindlessTexture}). */
    public boolean bindless() {
        return fields instanceof Sample t && t.bindless();
    }

    public static MInstr memory(
            MOp op, MType type, int count, Operand dst, Operand address, Operand data, int index, int offset) {
        return make(op, type, dst, List.of(address, data), new Memory(index, offset, count, 0));
    }

    public static MInstr atomic(
            MOp op, MType type, Operand dst, Operand address, Operand data, Operand compare, int index) {
        return atomic(op, type, dst, address, data, compare, index, 0);
    }

    /** An atomic; {@code dim}: image atomics' dimensions (the address is then the first coordinate), else 0. */
    public static MInstr atomic(
            MOp op, MType type, Operand dst, Operand address, Operand data, Operand compare, int index, int dim) {
        return make(op, type, dst, List.of(address, data, compare), new Memory(index, 0, 1, dim));
    }

    /** ldib/stib: a texel at the {@code dim} coordinates starting at register {@code coord}. */
    public static MInstr image(MOp op, MType type, int dim, Operand dst, Operand coord, Operand data, int index) {
        return make(op, type, dst, List.of(coord, data), new Memory(index, 0, 4, dim));
    }

    public static MInstr bar() {
        return make(MOp.BAR, null, Operand.NONE, List.of(), Plain.NONE);
    }
}
