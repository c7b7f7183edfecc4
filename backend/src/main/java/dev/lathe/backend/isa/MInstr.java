package dev.lathe.backend.isa;

import java.util.ArrayList;
import java.util.List;

/**
 * One machine instruction, as the assembler reads it and the encoder packs it into 64 bits.
 * Which fields mean something depends on the category (see {@code backend/ISA.md}); unused
 * ones are zero, null or {@link Operand#NONE}, so equal instructions are equal records.
 *
 * @param op      the instruction
 * @param type    the type it operates at (cat1: the destination type); null for untyped ones
 * @param srcType cat1 only: the source type
 * @param cond    cmps only: the comparison
 * @param rpt     {@code (rptN)}: N more repetitions, each with the destination and the
 *                {@code (r)} sources one register further (0–3)
 * @param ss      {@code (ss)}: wait for every outstanding SFU result first
 * @param sy      {@code (sy)}: wait for every outstanding texture and memory result first
 * @param nop     {@code (nopN)}: N empty issue slots after the instruction (0–3)
 * @param sat     {@code (sat)}: clamp a float result to [0, 1]
 * @param invert  br, kill: act when p0.x is false
 * @param dst     the destination register (or p0.x, or none)
 * @param srcs    the sources: cat1–cat4 ALU operands; cat5 [coordinates, lod, texture index]; cat6
 *                [address, data]; atomics [address, data, compare]
 * @param index   cat5 texture, cat6 buffer binding or input/output slot
 * @param offset  cat0 jump/br: target relative to this instruction; cat6: immediate offset
 * @param count   cat5: write mask (bit 0 = x); cat6: components (1–4)
 * @param dim     cat5, ldib/stib: texture or image dimensions (1–3)
 */
public record MInstr(
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
    public MInstr {
        srcs = List.copyOf(srcs);
    }

    public int category() {
        return op.category();
    }

    /** Issue slots this instruction takes: one per repetition plus its (nopN). */
    public int slots() {
        return rpt + 1 + nop;
    }

    public MInstr withSync(boolean newSs, boolean newSy) {
        return new MInstr(
                op, type, srcType, cond, rpt, newSs, newSy, nop, sat, invert, dst, srcs, index, offset, count, dim);
    }

    public MInstr withNop(int n) {
        return new MInstr(op, type, srcType, cond, rpt, ss, sy, n, sat, invert, dst, srcs, index, offset, count, dim);
    }

    public MInstr withRpt(int n) {
        return new MInstr(op, type, srcType, cond, n, ss, sy, nop, sat, invert, dst, srcs, index, offset, count, dim);
    }

    public MInstr withOffset(int o) {
        return new MInstr(op, type, srcType, cond, rpt, ss, sy, nop, sat, invert, dst, srcs, index, o, count, dim);
    }

    /** The same instruction writing {@code d} instead. */
    public MInstr withDst(Operand d) {
        return new MInstr(op, type, srcType, cond, rpt, ss, sy, nop, sat, invert, d, srcs, index, offset, count, dim);
    }

    /** The same instruction with source {@code i} replaced. */
    public MInstr withSrc(int i, Operand o) {
        List<Operand> s = new ArrayList<>(srcs);
        s.set(i, o);
        return new MInstr(op, type, srcType, cond, rpt, ss, sy, nop, sat, invert, dst, s, index, offset, count, dim);
    }

    /** The same instruction with sources {@code i} and {@code j} exchanged. */
    public MInstr withSrcsSwapped(int i, int j) {
        List<Operand> s = new ArrayList<>(srcs);
        s.set(i, srcs.get(j));
        s.set(j, srcs.get(i));
        return new MInstr(op, type, srcType, cond, rpt, ss, sy, nop, sat, invert, dst, s, index, offset, count, dim);
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
        return new MInstr(
                op,
                type,
                srcType,
                cond,
                0,
                k == 0 && ss,
                k == 0 && sy,
                k == rpt ? nop : 0,
                sat,
                invert,
                d,
                s,
                index,
                offset,
                count,
                dim);
    }

    // ---- builders for the common shapes --------------------------------------------------------

    public static MInstr alu(MOp op, MType type, Operand dst, Operand... srcs) {
        return new MInstr(op, type, null, null, 0, false, false, 0, false, false, dst, List.of(srcs), 0, 0, 0, 0);
    }

    public static MInstr cmps(MOp op, MType type, Cond cond, Operand dst, Operand a, Operand b) {
        return new MInstr(op, type, null, cond, 0, false, false, 0, false, false, dst, List.of(a, b), 0, 0, 0, 0);
    }

    public static MInstr mov(MType from, MType to, Operand dst, Operand src) {
        return new MInstr(
                from == to ? MOp.MOV : MOp.COV,
                to,
                from,
                null,
                0,
                false,
                false,
                0,
                false,
                false,
                dst,
                List.of(src),
                0,
                0,
                0,
                0);
    }

    /** {@code mova a0.x, src}: the address register for {@code c<a0.x + n>} reads. */
    public static MInstr mova(Operand src) {
        return new MInstr(
                MOp.MOVA, null, null, null, 0, false, false, 0, false, false, Operand.A0, List.of(src), 0, 0, 0, 0);
    }

    public static MInstr flow(MOp op, boolean invert, int offset) {
        return new MInstr(
                op, null, null, null, 0, false, false, 0, false, invert, Operand.NONE, List.of(), 0, offset, 0, 0);
    }

    /** {@code end}, reading the registers that hold the shader's outputs (none for a shader without outputs). */
    public static MInstr end(List<Operand> outputRegisters) {
        return new MInstr(
                MOp.END, null, null, null, 0, false, false, 0, false, false, Operand.NONE, outputRegisters, 0, 0, 0, 0);
    }

    public static MInstr nop(int slots) {
        return new MInstr(
                MOp.NOP,
                null,
                null,
                null,
                slots - 1,
                false,
                false,
                0,
                false,
                false,
                Operand.NONE,
                List.of(),
                0,
                0,
                0,
                0);
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
        return new MInstr(
                op,
                type,
                null,
                null,
                0,
                false,
                false,
                0,
                false,
                false,
                dst,
                List.of(coord, lod, textureIndex),
                texture,
                0,
                mask,
                dim);
    }

    /**
     * A bindless texture instruction ({@code b[r1.x]}): the texture is the descriptor in the
     * program's heap that register {@code heapIndex} names, so any number of textures can be
     * sampled (backend/ISA.md, "Textures"). The {@code offset} field carries the bindless flag.
     */
    public static MInstr bindlessTexture(
            MOp op, MType type, int dim, int mask, Operand dst, Operand coord, Operand lod, Operand heapIndex) {
        return new MInstr(
                op,
                type,
                null,
                null,
                0,
                false,
                false,
                0,
                false,
                false,
                dst,
                List.of(coord, lod, heapIndex),
                0,
                1,
                mask,
                dim);
    }

    /** Whether this is a bindless texture instruction ({@link #bindlessTexture}). */
    public boolean bindless() {
        return op.category() == 5 && offset == 1;
    }

    public static MInstr memory(
            MOp op, MType type, int count, Operand dst, Operand address, Operand data, int index, int offset) {
        return new MInstr(
                op,
                type,
                null,
                null,
                0,
                false,
                false,
                0,
                false,
                false,
                dst,
                List.of(address, data),
                index,
                offset,
                count,
                0);
    }

    public static MInstr atomic(
            MOp op, MType type, Operand dst, Operand address, Operand data, Operand compare, int index) {
        return atomic(op, type, dst, address, data, compare, index, 0);
    }

    /** An atomic; {@code dim}: image atomics' dimensions (the address is then the first coordinate), else 0. */
    public static MInstr atomic(
            MOp op, MType type, Operand dst, Operand address, Operand data, Operand compare, int index, int dim) {
        return new MInstr(
                op,
                type,
                null,
                null,
                0,
                false,
                false,
                0,
                false,
                false,
                dst,
                List.of(address, data, compare),
                index,
                0,
                1,
                dim);
    }

    /** ldib/stib: a texel at the {@code dim} coordinates starting at register {@code coord}. */
    public static MInstr image(MOp op, MType type, int dim, Operand dst, Operand coord, Operand data, int index) {
        return new MInstr(
                op, type, null, null, 0, false, false, 0, false, false, dst, List.of(coord, data), index, 0, 4, dim);
    }

    public static MInstr bar() {
        return new MInstr(
                MOp.BAR, null, null, null, 0, false, false, 0, false, false, Operand.NONE, List.of(), 0, 0, 0, 0);
    }
}
