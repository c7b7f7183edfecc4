package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.text.IrParser;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Vulkan's precision as {@link PrecisionTracker} models it, worked by hand: what a
 * conforming implementation may answer is accepted, what it may not is refused, and where a value
 * with several answers decides something the run is undecided. (The Vulkan oracle's tests run it
 * against a real driver; these keep the model's rules in place where there is none.)
 */
class PrecisionTrackerTest {
    /** o = a·b + c, the product unmarked: a driver may fuse it into the add. */
    static final String MUL_ADD = """
            shader fragment
            input f32 @a location=0
            input f32 @b location=1
            input f32 @c location=2
            output f32 @o location=0
            function main {
              vec1 32 %a = load_input @a
              vec1 32 %b = load_input @b
              vec1 32 %c = load_input @c
              vec1 32 %p = fmul %a, %b
              vec1 32 %s = fadd %p, %c
              store_output @o, %s
            }
            """;

    static long f(float x) {
        return Float.floatToRawIntBits(x) & 0xffffffffL;
    }

    static ShaderOutputs run(Shader s, ShaderInputs in) {
        return new Interpreter(s).trackNans().track(PrecisionTracker.model(4)).run(in);
    }

    static ShaderOutputs.Comparison.Kind compare(ShaderOutputs reference, String output, long... candidate) {
        return reference
                .compareUnderNanContract(new ShaderOutputs(Map.of(output, candidate), reference.buffers(), false, 0))
                .kind();
    }

    /**
     * An output whose local is never written holds whatever the device left there (SaschaWillems'
     * deferred.frag with a debug target its switch has no case for): any bits agree; an integer
     * made from such a value is undecided.
     */
    @Test
    void aLocalNeverWrittenMayHoldAnyBits() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input i32 @pick location=0
                output f32 @o location=0
                function main {
                  local f32 @o_value
                  vec1 32 %p = load_input @pick
                  vec1 32 %zero = load_const (0x00000000)
                  vec1 1 %c = ilt %zero, %p
                  if %c {
                    vec1 32 %one = load_const (0x3f800000)
                    store_var @o_value, %one
                  }
                  vec1 32 %v = load_var @o_value
                  vec1 32 %w = fmul %v, %v
                  store_output @o, %w
                }
                """);
        ShaderOutputs written = run(s, new ShaderInputs().set("pick", 1));
        assertEquals(ShaderOutputs.Comparison.Kind.BROKEN, compare(written, "o", f(0.5f)));
        ShaderOutputs unwritten = run(s, new ShaderInputs().set("pick", 0));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(unwritten, "o", f(0.0455f)));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(unwritten, "o", 0x7fc00000L));
        assertNull(unwritten.undecidedUnderNanContract());
        Shader t = IrParser.parse("t.ir", """
                shader fragment
                output i32 @n location=0
                function main {
                  local f32 @x
                  vec1 32 %v = load_var @x
                  vec1 32 %i = f2i32 %v
                  store_output @n, %i
                }
                """);
        assertNotNull(run(t, new ShaderInputs()).undecidedUnderNanContract());
    }

    /**
     * Workgroups that read and write the same buffer words race: which runs first is not defined
     * (the examples' bits.comp indexes by gl_LocalInvocationIndex, and NVIDIA's H100 ran its two
     * workgroups in another order than the interpreter). Words apart are decided.
     */
    @Test
    void workgroupsThatShareAWordRace() {
        String shader = """
                shader compute workgroup_size(1, 1, 1)
                buffer u32 @data binding=0
                function main {
                  vec3 32 %wg = load_workgroup_id
                  vec1 32 %four = load_const (0x00000004)
                  vec1 32 %scale = load_const (0x0000000SCALE)
                  vec1 32 %at = imul %wg.x, %scale
                  vec1 32 %x = load_buffer @data, %at
                  vec1 32 %one = load_const (0x00000001)
                  vec1 32 %y = iadd %x, %one
                  store_buffer @data, %at, %y
                }
                """;
        ShaderInputs in = new ShaderInputs().setBufferWords("data", 1, 2);
        Shader shared = IrParser.parse("t.ir", shader.replace("SCALE", "0"));
        String why = new Interpreter(shared)
                .trackNans()
                .track(PrecisionTracker.model(4))
                .dispatch(in, 2, 1, 1)
                .undecidedUnderNanContract();
        assertTrue(why != null && why.contains("workgroups race for byte 0 of data"), why);
        Shader apart = IrParser.parse("t.ir", shader.replace("SCALE", "4"));
        assertNull(new Interpreter(apart)
                .trackNans()
                .track(PrecisionTracker.model(4))
                .dispatch(in, 2, 1, 1)
                .undecidedUnderNanContract());
    }

    /**
     * A unorm code reads back as a float, which may lie past the real quotient (SaschaWillems'
     * edgedetect.comp on lavapipe: code 180 of an 8-bit unorm reads 0.7058824, above 180/255).
     */
    @Test
    void aUnormCodesBoundsLieOnTheFloatGrid() {
        for (int k = 0; k <= 255; k++) {
            double q = k / 255.0;
            float device = (float) q;
            assertTrue(
                    PrecisionTracker.floatAtOrBelow(q) <= device && device <= PrecisionTracker.floatAtOrAbove(q),
                    "code " + k);
            assertEquals(PrecisionTracker.floatAtOrBelow(q), (float) PrecisionTracker.floatAtOrBelow(q));
            assertEquals(PrecisionTracker.floatAtOrAbove(q), (float) PrecisionTracker.floatAtOrAbove(q));
        }
        assertTrue((float) (180 / 255.0) > 180 / 255.0); // the case that was refused
    }

    @Test
    void anUnmarkedProductMayBeFusedIntoTheAdd() {
        Shader s = IrParser.parse("t.ir", MUL_ADD);
        float third = 1f / 3f;
        ShaderOutputs r =
                run(s, new ShaderInputs().set("a", f(third)).set("b", f(3f)).set("c", f(-1f)));
        assertEquals(f(0f), r.output("o")[0]); // rounded product 1.0, then 1.0 - 1
        float fused = (float) ((double) third * 3.0 - 1.0); // 2^-25-ish: the product kept whole
        assertTrue(fused != 0f);
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(r, "o", f(fused)));
        assertEquals(ShaderOutputs.Comparison.Kind.BROKEN, compare(r, "o", f(1e-3f)));
    }

    @Test
    void anExactProductAndSumHaveOneAnswer() {
        Shader s = IrParser.parse("t.ir", MUL_ADD);
        ShaderOutputs r =
                run(s, new ShaderInputs().set("a", f(0.5f)).set("b", f(4f)).set("c", f(1f)));
        assertEquals(f(3f), r.output("o")[0]);
        assertNull(r.precision().interval("o", 0));
        assertEquals(ShaderOutputs.Comparison.Kind.BROKEN, compare(r, "o", f(Math.nextUp(3f))));
    }

    @Test
    void aNoContractionProductIsRoundedAlone() {
        Shader s = IrParser.parse("t.ir", MUL_ADD);
        for (Instr i : s.entryPoint().instructions())
            if (i instanceof AluInstr a && a.op() == Op.FMUL) a.setExact(true);
        ShaderOutputs r =
                run(s, new ShaderInputs().set("a", f(1f / 3f)).set("b", f(3f)).set("c", f(-1f)));
        double[] zero = r.precision().interval("o", 0); // a zero: only its sign is free
        assertEquals(0.0, zero[0]);
        assertEquals(0.0, zero[1]);
        assertEquals(ShaderOutputs.Comparison.Kind.BROKEN, compare(r, "o", f((float)
                ((double) (1f / 3f) * 3.0 - 1.0))));
    }

    @Test
    void aDenormalMayBeFlushedAndAZerosSignIsFree() {
        Shader s = IrParser.parse("t.ir", MUL_ADD);
        float tiny = Float.MIN_NORMAL / 4; // a denormal
        ShaderOutputs r =
                run(s, new ShaderInputs().set("a", f(tiny)).set("b", f(1f)).set("c", f(0f)));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(r, "o", f(0f)));
        ShaderOutputs z =
                run(s, new ShaderInputs().set("a", f(-1f)).set("b", f(0f)).set("c", f(0f)));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(z, "o", f(-0f)));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(z, "o", f(0f)));
    }

    @Test
    void sinIsWithinTwoToTheMinusElevenAndAComparisonAcrossTheBoundIsUndecided() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input f32 @x location=0
                output f32 @o location=0
                output f32 @side location=1
                function main {
                  vec1 32 %x = load_input @x
                  vec1 32 %s = fsin %x
                  store_output @o, %s
                  vec1 32 %h = load_const (0x3f000000)
                  vec1 1 %lt = flt %s, %h
                  vec1 32 %one = load_const (0x3f800000)
                  vec1 32 %zero = load_const (0x00000000)
                  vec1 32 %pick = bcsel %lt, %one, %zero
                  store_output @side, %pick
                }
                """);
        ShaderOutputs far = run(s, new ShaderInputs().set("x", f(1f)));
        double[] iv = far.precision().interval("o", 0);
        assertNotNull(iv);
        assertTrue(iv[1] - iv[0] >= 2 * 0x1p-11 && iv[1] - iv[0] < 2 * 0x1p-11 + 1e-6, iv[0] + " " + iv[1]);
        assertNull(far.undecidedUnderNanContract()); // sin 1 = 0.84: clear of 0.5
        ShaderOutputs near = run(s, new ShaderInputs().set("x", f((float) (Math.PI / 6))));
        assertNotNull(near.undecidedUnderNanContract()); // sin(pi/6) = 0.5: either side
        assertEquals(ShaderOutputs.Comparison.Kind.UNDECIDED, compare(near, "o", f(0.5f), f(0f)));
    }

    @Test
    void aSignedRemainderOfANegativeIsUndefined() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input i32 @a location=0
                input i32 @b location=1
                output i32 @o location=0
                function main {
                  vec1 32 %a = load_input @a
                  vec1 32 %b = load_input @b
                  vec1 32 %m = imod %a, %b
                  store_output @o, %m
                }
                """);
        assertNull(run(s, new ShaderInputs().set("a", 7).set("b", 3)).undecidedUnderNanContract());
        String why = run(s, new ShaderInputs().set("a", -7L & 0xffffffffL).set("b", 3))
                .undecidedUnderNanContract();
        assertTrue(why != null && why.contains("OpSRem/OpSMod"), why);
        String byZero = run(s, new ShaderInputs().set("a", 7).set("b", 0)).undecidedUnderNanContract();
        assertTrue(byZero != null && byZero.contains("by zero"), byZero);
    }

    @Test
    void aNotedApproximationWidensByItsErrorAndTheUlpsVulkanAllows() {
        Shader s = IrParser.parse("t.ir", MUL_ADD);
        for (Instr i : s.entryPoint().instructions()) {
            if (i instanceof AluInstr a && a.op() == Op.FADD) s.entryPoint().noteApproximation(a.def(), 1e-3, 4096);
        }
        ShaderOutputs r =
                run(s, new ShaderInputs().set("a", f(0.5f)).set("b", f(4f)).set("c", f(1f)));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(r, "o", f(3f + 9e-4f)));
        assertEquals(ShaderOutputs.Comparison.Kind.KEPT, compare(r, "o", f(3f + 1e-3f + 4000 * Math.ulp(3f))));
        assertEquals(ShaderOutputs.Comparison.Kind.BROKEN, compare(r, "o", f(3.01f)));
    }

    @Test
    void aDescriptorIndexPastItsArrayIsUndecided() {
        Shader s = IrParser.parse("t.ir", """
                shader fragment
                input i32 @i location=0
                output i32 @o location=0
                function main {
                  vec1 32 %i = load_input @i
                  store_output @o, %i
                }
                """);
        for (Instr i : s.entryPoint().instructions()) {
            if (i.def() != null && i.def().numComponents() == 1 && i.opName().equals("load_input"))
                s.entryPoint().noteDescriptorIndex(i.def(), 4);
        }
        assertNull(run(s, new ShaderInputs().set("i", 3)).undecidedUnderNanContract());
        String why = run(s, new ShaderInputs().set("i", 4)).undecidedUnderNanContract();
        assertTrue(why != null && why.contains("past an array of 4 (descriptors"), why);
    }
}
