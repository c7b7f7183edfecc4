package dev.lathe.ir.interp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.ir.validate.Validator;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class InterpreterTest {

    private static Shader parse(String text) {
        Shader s = IrParser.parse("t.ir", text);
        assertTrue(Validator.validate(s).isEmpty(), Validator.validate(s).toString());
        return s;
    }

    private static long f32(float f) {
        return Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    @Test
    void loopSumsAndPhisReadInParallel() {
        // sum = 0 + 1 + … + 9; and (a, b) swap every iteration: after 10 swaps they are back.
        Shader s = parse("""
                shader fragment
                output vec4 u32 @o
                function main {
                  block pre:
                    vec1 32 %zero = load_const (0)
                    vec1 32 %one = load_const (1)
                    vec1 32 %ten = load_const (10)
                    vec1 32 %a0 = load_const (7)
                    vec1 32 %b0 = load_const (9)
                  loop {
                    block head:
                      vec1 32 %i = phi pre: %zero, latch: %i1
                      vec1 32 %sum = phi pre: %zero, latch: %sum1
                      vec1 32 %a = phi pre: %a0, latch: %b
                      vec1 32 %b = phi pre: %b0, latch: %a
                      vec1 1 %done = uge %i, %ten
                    if %done {
                      break
                    } else {
                    }
                    block latch:
                      vec1 32 %sum1 = iadd %sum, %i
                      vec1 32 %i1 = iadd %i, %one
                  }
                  vec4 32 %r = vec4 %sum, %a, %b, %i
                  store_output @o, %r
                }
                """);
        ShaderOutputs out = new Interpreter(s).run(new ShaderInputs());
        assertArrayEquals(new long[] {45, 7, 9, 10}, out.output("o"));
        assertEquals(10, out.loopIterations());
    }

    @Test
    void iterationLimitNamesTheLoop() {
        Shader s = parse("""
                shader fragment
                function main {
                  loop {
                    vec1 1 %t = load_const (false)
                    if %t {
                      break
                    } else {
                    }
                  }
                }
                """);
        InterpreterException e =
                assertThrows(InterpreterException.class, () -> new Interpreter(s, 100).run(new ShaderInputs()));
        assertEquals("loop iteration limit of 100 reached (loop at t.ir:3:3)", e.getMessage());
    }

    @Test
    void discardEndsTheInvocation() {
        Shader s = parse("""
                shader fragment
                input f32 @alpha
                output f32 @o
                function main {
                  vec1 32 %a = load_input @alpha
                  vec1 32 %half = load_const (0.5)
                  vec1 1 %cut = flt %a, %half
                  discard_if %cut
                  store_output @o, %a
                }
                """);
        Interpreter it = new Interpreter(s);
        assertTrue(it.run(new ShaderInputs().set("alpha", f32(0.25f))).discarded());
        ShaderOutputs kept = it.run(new ShaderInputs().set("alpha", f32(0.75f)));
        assertFalse(kept.discarded());
        assertEquals(f32(0.75f), kept.output("o")[0]);
    }

    @Test
    void buffersAreByteAddressedAndBoundsChecked() {
        Shader s = parse("""
                shader compute workgroup_size(1, 1, 1)
                buffer u32 @b binding=0
                function main {
                  vec1 32 %o0 = load_const (0)
                  vec1 32 %o2 = load_const (2)
                  vec1 32 %o6 = load_const (6)
                  vec1 32 %big = load_const (1000)
                  vec1 32 %w = load_buffer @b, %o2
                  vec1 16 %h = load_buffer @b, %o6
                  vec1 32 %oob = load_buffer @b, %big
                  vec1 32 %h32 = u2u32 %h
                  vec1 32 %s = iadd %w, %h32
                  vec1 32 %s2 = iadd %s, %oob
                  store_buffer @b, %o0, %s2
                  store_buffer @b, %big, %s2
                  vec1 32 %o6b = load_const (6)
                  store_buffer @b, %o6b, %s2
                }
                """);
        // bytes 0..7: 11 22 33 44 55 66 77 88
        ShaderInputs in =
                new ShaderInputs().setBuffer("b", new byte[] {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88});
        ShaderOutputs out = new Interpreter(s).run(in);
        long w = 0x66554433L; // unaligned 32-bit load at byte 2, little-endian
        long h = 0x8877L;
        long sum = (w + h) & 0xffffffffL;
        byte[] b = out.buffer("b");
        assertEquals(8, b.length, "stores past the end are dropped, the buffer keeps its size");
        assertEquals(sum, out.bufferWord("b", 0));
        assertEquals((byte) sum, b[6], "the store at byte 6 wrote its first two bytes only");
        assertEquals((byte) (sum >>> 8), b[7]);
    }

    @Test
    void textureSamplingIsNearestWithClampToEdge() {
        Shader s = parse("""
                shader fragment
                input vec2 f32 @uv
                texture 2d f32 @t binding=0
                output vec4 f32 @o
                output vec4 f32 @fetched
                output vec2 u32 @size
                function main {
                  vec2 32 %uv = load_input @uv
                  vec4 32 %c = tex @t, %uv
                  store_output @o, %c
                  vec2 32 %xy = load_const (1, -1)
                  vec4 32 %f = txf @t, %xy
                  store_output @fetched, %f
                  vec2 32 %sz = txs @t
                  store_output @size, %sz
                }
                """);
        long[] texels = new long[2 * 2 * 4];
        for (int i = 0; i < texels.length; i++) texels[i] = f32(i);
        ShaderInputs in = new ShaderInputs().setTexture("t", new Texture(2, 2, 1, texels));
        Interpreter it = new Interpreter(s);
        ShaderOutputs a = it.run(in.set("uv", f32(0.75f), f32(0.25f))); // texel (1, 0)
        assertArrayEquals(new long[] {f32(4), f32(5), f32(6), f32(7)}, a.output("o"));
        ShaderOutputs b = it.run(in.set("uv", f32(7.0f), f32(-3.0f))); // clamped to (1, 0)
        assertArrayEquals(new long[] {f32(4), f32(5), f32(6), f32(7)}, b.output("o"));
        assertArrayEquals(new long[4], b.output("fetched"), "txf outside the texture reads zero");
        assertArrayEquals(new long[] {2, 2}, b.output("size"));
    }

    @Test
    void anArrayOfTexturesPicksItsElementAndThePastTheEndReadsTheLast() {
        Shader s = parse("""
                shader fragment
                input u32 @k
                texture 1d u32 @ts[3] binding=2
                output vec4 u32 @o
                output u32 @size
                function main {
                  vec1 32 %k = load_input @k
                  vec1 32 %x = load_const (0x3f000000)
                  vec4 32 %c = tex @ts, %k, %x
                  store_output @o, %c
                  vec1 32 %sz = txs @ts, %k
                  store_output @size, %sz
                }
                """);
        assertEquals("texture 1d u32 @ts[3] binding=2", IrPrinter.declaration(s.variable("ts")));
        ShaderInputs in = new ShaderInputs();
        for (int e = 0; e < 3; e++) {
            long[] texels = new long[4 * (e + 1)];
            Arrays.fill(texels, e);
            in.setTexture("ts[" + e + "]", new Texture(e + 1, 1, 1, texels));
        }
        Interpreter it = new Interpreter(s);
        for (long k : new long[] {0, 1, 2, 3, 0xffffffffL}) {
            ShaderOutputs out = it.run(in.set("k", k));
            long e = Math.min(k, 2);
            assertEquals(e, out.output("o")[0], "element " + k);
            assertEquals(e + 1, out.output("size")[0], "size of element " + k);
        }
    }

    @Test
    void uniformArraysAndLocalsOutOfRangeReadZero() {
        Shader s = parse("""
                shader fragment
                uniform u32 @u[3]
                input u32 @idx
                output vec4 u32 @o
                function main {
                  local u32 @arr[2]
                  vec1 32 %i = load_input @idx
                  vec1 32 %v = load_uniform @u, %i
                  vec1 32 %one = load_const (1)
                  vec1 32 %five = load_const (5)
                  store_var @arr, %one, %v
                  store_var @arr, %five, %v
                  vec1 32 %a0 = load_var @arr, %five
                  vec1 32 %a1 = load_var @arr, %one
                  vec1 32 %zero = load_const (0)
                  vec1 32 %a2 = load_var @arr, %zero
                  vec4 32 %r = vec4 %v, %a0, %a1, %a2
                  store_output @o, %r
                }
                """);
        Interpreter it = new Interpreter(s);
        ShaderInputs in = new ShaderInputs().set("u", 10, 20, 30);
        assertArrayEquals(new long[] {30, 0, 30, 0}, it.run(in.set("idx", 2)).output("o"));
        assertArrayEquals(new long[] {0, 0, 0, 0}, it.run(in.set("idx", 3)).output("o"));
    }

    @Test
    void dispatchRunsEveryInvocation() {
        Shader s = parse("""
                shader compute workgroup_size(4, 1, 1)
                buffer u32 @out binding=0
                function main {
                  vec3 32 %gid = load_global_invocation_id
                  vec1 32 %x = mov %gid.x
                  vec1 32 %two = load_const (2)
                  vec1 32 %off = ishl %x, %two
                  vec1 32 %sq = imul %x, %x
                  store_buffer @out, %off, %sq
                }
                """);
        ShaderOutputs out = new Interpreter(s).dispatch(new ShaderInputs().setBuffer("out", new byte[32]), 2, 1, 1);
        for (int i = 0; i < 8; i++) assertEquals(i * i, out.bufferWord("out", i));
    }

    /** Shared memory: each invocation reads what another wrote before the barrier, in every workgroup. */
    @Test
    void workgroupsRunInLockstepBetweenBarriers() {
        Shader s = parse("""
                shader compute workgroup_size(4, 1, 1)
                buffer u32 @out binding=0
                shared u32 @tmp[4]
                function main {
                  vec3 32 %lid = load_local_invocation_id
                  vec1 32 %l = mov %lid.x
                  vec3 32 %wid = load_workgroup_id
                  vec1 32 %w = mov %wid.x
                  vec1 32 %ten = load_const (10)
                  vec1 32 %tw = imul %w, %ten
                  vec1 32 %v = iadd %tw, %l
                  vec1 32 %old = load_shared @tmp, %l
                  vec1 32 %sum = iadd %v, %old
                  store_shared @tmp, %l, %sum
                  barrier
                  vec1 32 %one = load_const (1)
                  vec1 32 %three = load_const (3)
                  vec1 32 %n = iadd %l, %one
                  vec1 32 %next = iand %n, %three
                  vec1 32 %x = load_shared @tmp, %next
                  vec1 32 %four = load_const (4)
                  vec1 32 %gi = imul %w, %four
                  vec1 32 %g = iadd %gi, %l
                  vec1 32 %off = imul %g, %four
                  store_buffer @out, %off, %x
                }
                """);
        ShaderOutputs out = new Interpreter(s).dispatch(new ShaderInputs().setBuffer("out", new byte[32]), 2, 1, 1);
        // shared memory starts as zero in each workgroup, and every neighbour has stored before any reads
        long[] want = {1, 2, 3, 0, 11, 12, 13, 10};
        for (int i = 0; i < 8; i++) assertEquals(want[i], out.bufferWord("out", i), "invocation " + i);
    }

    @Test
    void aBarrierSomeInvocationsSkipIsAnError() {
        Shader s = parse("""
                shader compute workgroup_size(2, 1, 1)
                function main {
                  vec3 32 %lid = load_local_invocation_id
                  vec1 32 %l = mov %lid.x
                  vec1 32 %zero = load_const (0)
                  vec1 1 %first = ieq %l, %zero
                  if %first {
                    barrier
                  }
                }
                """);
        InterpreterException e = assertThrows(
                InterpreterException.class, () -> new Interpreter(s).dispatch(new ShaderInputs(), 1, 1, 1));
        assertTrue(
                e.getMessage().contains("1 of 2 invocations wait at a barrier the others never reach"), e.getMessage());
    }

    @Test
    void halfAndDoubleArithmetic() {
        Shader s = parse("""
                shader fragment
                output vec2 u32 @o
                function main {
                  vec1 16 %a = load_const (0.1)
                  vec1 16 %b = load_const (0.2)
                  vec1 16 %c = fadd %a, %b
                  vec1 32 %c32 = u2u32 %c
                  vec1 64 %x = load_const (0.1)
                  vec1 64 %y = load_const (0.2)
                  vec1 64 %z = fadd %x, %y
                  vec1 32 %hi = unpack_64_2x32_split_y %z
                  vec2 32 %r = vec2 %c32, %hi
                  store_output @o, %r
                }
                """);
        long[] o = new Interpreter(s).run(new ShaderInputs()).output("o");
        // f16: 0.1 = 0x2e66 (0.0999755859375), 0.2 = 0x3266 (0.199951171875). The exact sum
        // 0.2999267578125 is 1228.5 ulps of 2^-12: a tie, so it rounds to even, 1228 -> 0x34cc.
        assertEquals(0x34cc, o[0]);
        assertEquals(Double.doubleToRawLongBits(0.1 + 0.2) >>> 32, o[1]);
    }

    @Test
    void inputsOfTheWrongLengthAreRejected() {
        Shader s = parse("""
                shader fragment
                input vec4 f32 @c
                function main {
                }
                """);
        InterpreterException e = assertThrows(
                InterpreterException.class, () -> new Interpreter(s).run(new ShaderInputs().set("c", 1, 2)));
        assertEquals("@c takes 4 value(s) (vec4 f32), got 2", e.getMessage());
    }

    @Test
    void returnSkipsTheRest() {
        Shader s = parse("""
                shader fragment
                input u32 @x
                output u32 @o
                function main {
                  vec1 32 %x = load_input @x
                  store_output @o, %x
                  vec1 32 %three = load_const (3)
                  vec1 1 %small = ult %x, %three
                  if %small {
                    return
                  } else {
                  }
                  store_output @o, %three
                }
                """);
        Interpreter it = new Interpreter(s);
        assertEquals(1, it.run(new ShaderInputs().set("x", 1)).output("o")[0]);
        assertEquals(3, it.run(new ShaderInputs().set("x", 8)).output("o")[0]);
    }

    /** Each atomic on a buffer word and on a shared element: the word found is returned, the combination stored. */
    @Test
    void atomicsReturnTheWordFoundAndStoreTheCombination() {
        // op, word found, data, compare, word stored
        Object[][] cases = {
            {"add", 10L, 5L, 0L, 15L},
            {"add", 0xffffffffL, 2L, 0L, 1L},
            {"imin", 0xfffffffeL, 3L, 0L, 0xfffffffeL},
            {"umin", 0xfffffffeL, 3L, 0L, 3L},
            {"imax", 0xfffffffeL, 3L, 0L, 3L},
            {"umax", 0xfffffffeL, 3L, 0L, 0xfffffffeL},
            {"and", 12L, 10L, 0L, 8L},
            {"or", 12L, 10L, 0L, 14L},
            {"xor", 12L, 10L, 0L, 6L},
            {"exchange", 7L, 9L, 0L, 9L},
            {"comp_swap", 7L, 9L, 7L, 9L},
            {"comp_swap", 7L, 9L, 8L, 7L}
        };
        for (Object[] c : cases) {
            String op = (String) c[0];
            String cmp = op.equals("comp_swap") ? "%cmp, " : "";
            Shader s = parse("""
                    shader compute workgroup_size(1, 1, 1)
                    buffer u32 @b binding=0
                    shared u32 @s[2]
                    function main {
                      vec1 32 %z = load_const (0)
                      vec1 32 %one = load_const (1)
                      vec1 32 %four = load_const (4)
                      vec1 32 %eight = load_const (8)
                      vec1 32 %init = load_buffer @b, %z
                      vec1 32 %data = load_buffer @b, %four
                      vec1 32 %cmp = load_buffer @b, %eight
                      vec1 32 %old = buffer_atomic_OP @b, %z, CMP%data
                      store_shared @s, %one, %init
                      vec1 32 %sold = shared_atomic_OP @s, %one, CMP%data
                      vec1 32 %snew = load_shared @s, %one
                      vec1 32 %seven = load_const (7)
                      vec1 32 %oob = shared_atomic_OP @s, %seven, CMP%data
                      vec1 32 %far = load_const (4000)
                      vec1 32 %boob = buffer_atomic_OP @b, %far, CMP%data
                      vec1 32 %o3 = load_const (12)
                      store_buffer @b, %o3, %old
                      vec1 32 %o4 = load_const (16)
                      store_buffer @b, %o4, %sold
                      vec1 32 %o5 = load_const (20)
                      store_buffer @b, %o5, %snew
                      vec1 32 %o6 = load_const (24)
                      store_buffer @b, %o6, %oob
                      vec1 32 %o7 = load_const (28)
                      store_buffer @b, %o7, %boob
                    }
                    """.replace("OP", op).replace("CMP", cmp));
            ShaderOutputs out = new Interpreter(s)
                    .dispatch(
                            new ShaderInputs()
                                    .setBufferWords("b", (long) c[1], (long) c[2], (long) c[3], 99, 99, 99, 99, 99),
                            1,
                            1,
                            1);
            long[] want = {(long) c[4], (long) c[2], (long) c[3], (long) c[1], (long) c[1], (long) c[4], 0, 0};
            for (int w = 0; w < want.length; w++)
                assertEquals(want[w], out.bufferWord("b", w), op + " " + Arrays.toString(c) + " word " + w);
        }
    }

    @Test
    void sharedAtomicsNeedIntegerWords() {
        Shader s = IrParser.parse("t.ir", """
                shader compute workgroup_size(1, 1, 1)
                shared f32 @s[2]
                function main {
                  vec1 32 %z = load_const (0)
                  vec1 32 %old = shared_atomic_add @s, %z, %z
                }
                """);
        String errors = String.join(
                "\n", Validator.validate(s).stream().map(Object::toString).toList());
        assertTrue(errors.contains("shared_atomic_add needs 32-bit integer scalars, but @s holds f32"), errors);
    }
}
