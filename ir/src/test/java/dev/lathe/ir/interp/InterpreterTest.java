package dev.lathe.ir.interp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.validate.Validator;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The interpreter through its API: what a file test cannot see (the loop count, bytes of a
 * buffer, the messages of the API, every atomic). Runs of IR programs with their expected outputs
 * are file tests: {@code tests/src/test/resources/filetests/run/interpreter/}.
 */
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
