package dev.lathe.backend.isa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every opcode, many random valid instructions each: the encoding and the assembly text both
 * give back the same instruction, and random words either decode to an instruction that
 * encodes to the same word or are rejected with a message.
 */
class EncodingTest {
    static final int PER_OP = 2_000;

    /** Each category keeps only its own fields: a value for a field the category lacks is refused, saying which. */
    @Test
    void anInstructionHoldsOnlyItsCategorysFields() {
        MInstr add = MInstr.alu(MOp.ADD_F, MType.F32, Operand.reg(0), Operand.reg(1), Operand.reg(2));
        org.junit.jupiter.api.Assertions.assertInstanceOf(MInstr.Alu.class, add.fields());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> MInstr.of(
                        MOp.ADD_F,
                        MType.F32,
                        null,
                        null,
                        0,
                        false,
                        false,
                        0,
                        false,
                        false,
                        Operand.reg(0),
                        java.util.List.of(Operand.reg(1), Operand.reg(2)),
                        0,
                        4,
                        0,
                        0));
        org.junit.jupiter.api.Assertions.assertEquals("add (category 2) takes no offset", e.getMessage());
        MInstr sam = MInstr.bindlessTexture(
                MOp.SAM, MType.F32, 2, 0xf, Operand.reg(0), Operand.reg(4), Operand.NONE, Operand.reg(8));
        org.junit.jupiter.api.Assertions.assertEquals(new MInstr.Sample(0, 0xf, 2, true), sam.fields());
        org.junit.jupiter.api.Assertions.assertTrue(sam.bindless());
        org.junit.jupiter.api.Assertions.assertEquals(0x3, sam.withMask(0x3).count());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> sam.withSat(true));
        MInstr ldg = MInstr.memory(MOp.LDG, MType.U32, 2, Operand.reg(0), Operand.reg(4), Operand.NONE, 3, 16);
        org.junit.jupiter.api.Assertions.assertEquals(new MInstr.Memory(3, 16, 2, 0), ldg.fields());
        org.junit.jupiter.api.Assertions.assertEquals(32, ldg.withOffset(32).offset());
    }

    @TestFactory
    Stream<DynamicTest> everyOpcodeRoundTrips() {
        return Stream.of(MOp.values())
                .map(op -> DynamicTest.dynamicTest(op.name(), () -> {
                    SplittableRandom r = new SplittableRandom(op.ordinal() * 7919L);
                    for (int k = 0; k < PER_OP; k++) {
                        MInstr i = RandomInstructions.of(op, r);
                        long w = Encoding.encode(i);
                        assertEquals(i, Encoding.decode(w), () -> "binary round trip of " + Asm.print(i));
                        String text = Asm.print(i);
                        assertEquals(i, Asm.parseLine(text), () -> "text round trip of " + text);
                        assertEquals(op.category(), (int) (w >>> 61), "category bits");
                    }
                }));
    }

    @Test
    void randomWordsDecodeToThemselvesOrAreRejected() {
        SplittableRandom r = new SplittableRandom(1);
        int decoded = 0;
        for (int k = 0; k < 200_000; k++) {
            long w = r.nextLong();
            // half the words keep only the fields of a known opcode, so some decode
            if (r.nextBoolean()) w &= ~((1L << 46) - 1) | r.nextLong() & 0xffff;
            try {
                MInstr i = Encoding.decode(w);
                assertEquals(w, Encoding.encode(i));
                decoded++;
            } catch (Encoding.DecodeException e) {
                assertNotNull(e.getMessage());
                assertTrue(!e.getMessage().isBlank());
            }
        }
        assertTrue(decoded > 100, "only " + decoded + " random words decoded; the test says little");
    }

    @Test
    void fieldsLandWhereIsaMdSaysTheyDo() throws Exception {
        // add.f32 r1.y, r0.x, c2.z: cat 2, opcode 0, type f32 (code 1), dst 5, src1 reg 0, src2 const 10
        MInstr add = Asm.parseLine("add.f32 r1.y, r0.x, c2.z");
        long w = Encoding.encode(add);
        assertEquals(2L, w >>> 61);
        assertEquals(0L, (w >>> 55) & 0x3f);
        assertEquals(1L, (w >>> 41) & 0xf);
        assertEquals(5L, (w >>> 33) & 0xff);
        assertEquals(0L, (w >>> 16) & 0xffff);
        assertEquals(1L << 14 | 10, w & 0xffff);
        // (ss)(rpt2)(nop1)(sat) set bits 52, 54..53, 50..49, 48
        long m = Encoding.encode(Asm.parseLine("(ss)(rpt2)(nop1)(sat)mul.f32 r0.x, (r)r4.x, 2"));
        assertEquals(1L, (m >>> 52) & 1);
        assertEquals(2L, (m >>> 53) & 3);
        assertEquals(1L, (m >>> 49) & 3);
        assertEquals(1L, (m >>> 48) & 1);
        assertEquals(2L << 14 | 2, m & 0xffff);
        assertEquals(1L << 11 | 16, (m >>> 16) & 0xffff);
        // sam on t3 plus r1.x (register 4): texture [16:12], index register [9:2], 255 there for none
        long t = Encoding.encode(Asm.parseLine("sam.f32.2d.xyzw r0.x, r2.x, t3[r1.x]"));
        assertEquals(3L, (t >>> 12) & 0x1f);
        assertEquals(4L, (t >>> 2) & 0xff);
        assertEquals(255L, (Encoding.encode(Asm.parseLine("sam.f32.2d.xyzw r0.x, r2.x, t3")) >>> 2) & 0xff);
        // the four-coordinate form (cube arrays) is dimensions 0 in [11:10], and decodes back to four
        MInstr cube = Asm.parseLine("samlod.f32.4d.xy r0.x, r2.x, r1.x, t3");
        long c = Encoding.encode(cube);
        assertEquals(0L, (c >>> 10) & 3);
        assertEquals(cube, Encoding.decode(c));
        Asm.SyntaxError e = assertThrows(Asm.SyntaxError.class, () -> Asm.parseLine("isam.s32.4d.x r0.x, r2.x, t3"));
        assertTrue(e.getMessage().contains("isam takes 1 to 3 coordinates"), e.getMessage());
    }

    @Test
    void everyRepeatedFormRoundTrips() throws Exception {
        // (rptN) on each category that takes it, (r) on registers and constants, pairs advancing by two
        for (String line : List.of(
                "(rpt3)mov.u32u32 r0.x, (r)c4.x",
                "(rpt1)mov.u32u32 r0.x, 0x3f800000",
                "(rpt2)cov.f32s32 r1.x, (r)r2.x",
                "(rpt3)add.f32 r0.x, (r)r1.x, r2.x",
                "(rpt2)mul.f32 r0.y, (r)c0.w, -|r1.x|",
                "(rpt1)add.f64 r0.x, (r)r2.x, (r)c4.x",
                "(rpt1)cmps.f32.lt r3.x, (r)r1.x, 0",
                "(rpt3)mad.f32 r4.x, (r)c1.x, (r)r0.x, r2.w",
                "(rpt1)sel.u32 r1.x, (r)r2.x, r0.x, (r)r3.x",
                "(ss)(rpt2)(nop1)sin.f32 r5.x, (r)r1.x",
                "(rpt1)div.u32 r5.x, (r)r1.x, r2.x",
                "(rpt2)bary.f32 r0.x, in1[1]")) {
            MInstr i = Asm.parseLine(line);
            assertEquals(line, Asm.print(i));
            assertEquals(i, Encoding.decode(Encoding.encode(i)), line);
            assertEquals(i.rpt() + 1 + i.nop(), i.slots(), line);
        }
    }

    @Test
    void prefixesParseInAnyOrder() throws Exception {
        assertEquals(
                Asm.parseLine("(ss)(sy)(rpt1)(nop2)add.u32 r0.x, (r)r1.x, 3"),
                Asm.parseLine("(nop2)(rpt1)(sy)(ss)add.u32   r0.x,(r)r1.x , 0x3"));
        assertEquals("(rpt2)nop", Asm.print(Asm.parseLine("(rpt2)nop")));
        assertEquals(3, Asm.parseLine("(rpt2)nop").slots());
    }

    @Test
    void badLinesSayWhatAndWhere() {
        record Case(String line, int column, String message) {}
        List<Case> cases = List.of(
                new Case("add.f32 r0.x, r1.x", 19, "missing operand"),
                new Case("add.q32 r0.x, r1.x, r2.x", 5, "unknown type 'q32'"),
                new Case("frob.f32 r0.x, r1.x", 1, "unknown instruction 'frob'"),
                new Case("add.f32 r48.x, r1.x, r2.x", 9, "no register r48.x"),
                new Case("add.f32 r0.x, r1.x, 5000", 1, "immediate 5000 is outside"),
                new Case("add.s32 r0.x, r1.x, r2.x", 1, "add does not take type s32"),
                new Case("cmps.u32.ltu p0.x, r0.x, r1.x", 1, "integer comparisons have lt, ge, eq and ne"),
                new Case("cmps.f32 p0.x, r0.x, r1.x", 1, "cmps needs a condition"),
                new Case("add.f64 r0.y, r2.x, r4.x", 1, "aligned pair"),
                new Case("mad.f32 r0.x, |r1.x|, r2.x, r3.x", 1, "cat3 sources have no |abs|"),
                new Case("mad.f32 r0.x, r1.x, r2.x, 3", 1, "cat3 instructions take no immediates"),
                new Case("(rpt4)add.f32 r0.x, r1.x, r2.x", 1, "(rpt4): the repeat count is 0 to 3"),
                new Case("(rpt1)ldg.u32.1 r0.x, b0[r1.x]", 7, "(rpt) is for nop and ALU instructions"),
                new Case("(rpt1)rcp.f32 r0.x, (r)r1.x", 7, "(rpt) is not for rcp"),
                new Case("(foo)add.f32 r0.x, r1.x, r2.x", 1, "unknown prefix (foo)"),
                new Case("mov.f32f32 r0.x, r1.x extra", 23, "unexpected 'extra'"),
                new Case("mov.f32s32 r0.x, r1.x", 1, "mov does not convert: use cov"),
                new Case("ldg.u32.1 r0.x, l[r1.x]", 17, "ldg addresses bN[...], not l[...]"),
                new Case("stg.u32.1 b0[r1.x + 0x200000], r2.x", 11, "does not fit 22 bits"),
                new Case("br p1.x, #+3", 4, "expected p0.x"),
                new Case("jump 3", 6, "expected a target"),
                new Case("sam.f32.5d.xyzw r0.x, r4.x, t0", 1, "sam is written sam.TYPE.Nd.MASK"),
                new Case("sam.f32.2d.xyzw r0.x, r4.x, t0[c1.x]", 1, "the texture index comes from a register"),
                new Case("sam.f32.2d.xyzw r0.x, r4.x, t0[r1.x", 36, "expected ']'"),
                new Case("(sat)add.u32 r0.x, r1.x, r2.x", 6, "(sat) is for float ALU instructions"),
                new Case("(sat)sam.f32.2d.xyzw r0.x, r4.x, t0", 6, "(sat) is for float ALU instructions"),
                new Case("mov.u32u32 r0.x, sv.bogus", 18, "unknown system value 'sv.bogus'"),
                new Case("add.u32 r0.x, -r1.x, r2.x", 1, "integer sources have no modifiers"),
                new Case("atomic.sub.u32 r0.x, b0[r1.x], r2.x", 1, "atomics are written atomic.OP.TYPE"),
                new Case("atomic.add.f32 r0.x, b0[r1.x], r2.x", 1, "atomics work on u32 or s32, not f32"),
                new Case(
                        "atomic.add.u32 r0.x, l[r1.x], r2.x",
                        22,
                        "atomics address bN[...], w[...] or iN[...], not l[...]"),
                new Case("atomic.add.u32 r0.x, b0[r1.x + 4], r2.x", 22, "atomics address a register, with no offset"),
                new Case("atomic.cmpxchg.u32 r0.x, w[r1.x], r2.x", 39, "expected ','"),
                new Case("atomic.add.u32 r0.x, i0[r1.x], r2.x", 1, "image atomics are written atomic.OP.TYPE.Nd"),
                new Case("ldib.f32.4d r0.x, i0[r1.x]", 1, "ldib is written ldib.TYPE.Nd"),
                new Case("stib.f32.2d b0[r1.x], r2.x", 13, "stib addresses iN[...], not b[...]"),
                new Case("ldib.f16.2d r0.x, i0[r1.x]", 1, "ldib moves f32, u32 or s32 texels, not f16"));
        for (Case c : cases) {
            Asm.SyntaxError e = assertThrows(Asm.SyntaxError.class, () -> Asm.parseLine(c.line()), c.line());
            assertTrue(e.getMessage().contains(c.message()), () -> c.line() + ": got '" + e.getMessage() + "'");
            assertEquals(c.column(), e.column(), () -> c.line() + ": " + e.getMessage());
        }
    }
}
