package dev.lathe.ir.analysis.range;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Src;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Value;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.gen.RandomProgramGenerator.Options;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrPrinter;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The range analysis on whole programs: loops, phis, branches, and agreement with real runs. */
class RangeAnalysisTest {

    static Shader parse(String body) {
        return IrParser.parse("t.ir", body);
    }

    /**
     * A value by how it is made: "phi" or an op name, and which one in program order (1 is the
     * first), e.g. "iadd 2".
     */
    static Value value(Function fn, String what) {
        String[] w = what.split(" ");
        int nth = w.length > 1 ? Integer.parseInt(w[1]) : 1;
        for (Instr i : fn.instructions()) {
            String name = i instanceof AluInstr a ? a.op().opName() : i.opName();
            if (i.def() != null && name.equals(w[0]) && --nth == 0) return i.def();
        }
        throw new AssertionError("no value " + what);
    }

    static final String COUNTER = """
            shader fragment
            input f32 @x location=0
            output u32 @o location=0
            function main {
              block entry:
                vec1 32 %zero = load_const (0)
                vec1 32 %one = load_const (1)
                vec1 32 %ten = load_const (10)
              loop {
                block head:
                  vec1 32 %i = phi entry: %zero, body: %i2
                  vec1 32 %acc = phi entry: %zero, body: %acc2
                  vec1 1 %done = uge %i, %ten
                if %done {
                  block leave:
                    break
                }
                block body:
                  vec1 32 %m = umin %i, %ten
                  vec1 32 %acc2 = iadd %acc, %m
                  vec1 32 %i2 = iadd %i, %one
              }
              block after:
                store_output @o, %acc
            }
            """;

    @Test
    void aLoopCounterStaysBelowItsBound() {
        Shader s = parse(COUNTER);
        Function fn = s.entryPoint();
        RangeAnalysis a = RangeAnalysis.run(fn);
        assertEquals("s[0, 10] u[0, 10]", a.range(value(fn, "phi 1"), 0).describe(false, true));
        assertEquals("s[1, 10] u[1, 10]", a.range(value(fn, "iadd 2"), 0).describe(false, true));
        // in the body the exit test says i < 10, so umin(i, 10) is i
        assertEquals("s[0, 9] u[0, 9]", a.range(value(fn, "umin"), 0).describe(false, true));
        // the sum is not bounded by anything the analysis sees: widening makes it settle
        assertTrue(a.range(value(fn, "phi 2"), 0).fullUnsigned());
        assertTrue(a.evaluations() < 100, "evaluations: " + a.evaluations());
    }

    @Test
    void conditionsCombinedLikeAndAndOrNarrowBothComparisons() {
        // if (i < 200 && n != 0) { i, n } else { ... }; if (!(x < 0 || x >= 10)) { x }; and what
        // a false && or a true || leaves open
        Shader s = parse("""
                shader fragment
                uniform u32 @i
                uniform u32 @n
                uniform u32 @x
                output u32 @a location=0
                output u32 @b location=1
                output u32 @c location=2
                output u32 @d location=3
                function main {
                  block entry:
                    vec1 32 %i = load_uniform @i
                    vec1 32 %n = load_uniform @n
                    vec1 32 %x = load_uniform @x
                    vec1 32 %zero = load_const (0)
                    vec1 32 %ten = load_const (10)
                    vec1 32 %k = load_const (200)
                    vec1 1 %lt = ult %i, %k
                    vec1 1 %nz = ine %n, %zero
                    vec1 1 %both = iand %lt, %nz
                  if %both {
                    block then:
                      vec1 32 %i1 = mov %i
                      vec1 32 %n1 = mov %n
                      store_output @a, %i1
                      store_output @b, %n1
                  } else {
                    block else:
                      vec1 32 %i2 = mov %i
                      store_output @a, %i2
                  }
                  block mid:
                    vec1 1 %neg = ilt %x, %zero
                    vec1 1 %big = ige %x, %ten
                    vec1 1 %out = ior %neg, %big
                    vec1 1 %in = inot %out
                  if %in {
                    block inside:
                      vec1 32 %x1 = mov %x
                      store_output @c, %x1
                  } else {
                    block outside:
                      vec1 32 %x2 = mov %x
                      store_output @d, %x2
                  }
                  block end:
                }
                """);
        Function fn = s.entryPoint();
        RangeFacts facts = RangeFacts.analyze(fn);
        java.util.function.Function<String, String> readBy = what -> {
            AluInstr mov = (AluInstr) value(fn, what).parent();
            return facts.rangeAt(mov.src(0).value(), 0, mov).describe(false, true);
        };
        assertEquals("s[0, 199] u[0, 199]", readBy.apply("mov 1"), "i in then");
        assertEquals("u[1, 4294967295]", readBy.apply("mov 2"), "n in then (n != 0)");
        assertTrue(
                value(fn, "mov 3").parent() instanceof AluInstr m
                        && facts.rangeAt(m.src(0).value(), 0, m).fullUnsigned(),
                "a false && says nothing of i");
        assertEquals("s[0, 9] u[0, 9]", readBy.apply("mov 4"), "x where neither x < 0 nor x >= 10");
        assertTrue(
                value(fn, "mov 5").parent() instanceof AluInstr m2
                        && facts.rangeAt(m2.src(0).value(), 0, m2).fullUnsigned(),
                "a true || says nothing of x");
    }

    @Test
    void loopsWithUnknownBoundsTerminate() {
        Shader s = parse("""
                shader fragment
                uniform u32 @n
                uniform f32 @f
                output u32 @o location=0
                output f32 @p location=1
                function main {
                  block entry:
                    vec1 32 %zero = load_const (0)
                    vec1 32 %one = load_const (1)
                    vec1 32 %half = load_const (0.5)
                    vec1 32 %n = load_uniform @n
                    vec1 32 %f = load_uniform @f
                  loop {
                    block head:
                      vec1 32 %i = phi entry: %zero, inner_done: %i2
                      vec1 32 %x = phi entry: %f, inner_done: %x2
                      vec1 1 %done = uge %i, %n
                    if %done {
                      block leave:
                        break
                    }
                    loop {
                      block ihead:
                        vec1 32 %j = phi leave_else: %zero, ibody: %j2
                        vec1 1 %jdone = uge %j, %i
                      if %jdone {
                        block ileave:
                          break
                      }
                      block ibody:
                        vec1 32 %j2 = iadd %j, %one
                    }
                    block inner_done:
                      vec1 32 %x2 = fmul %x, %half
                      vec1 32 %i2 = iadd %i, %one
                  }
                  block after:
                    store_output @o, %i
                    store_output @p, %x
                }
                """.replace("leave_else", "b2"));
        Function fn = s.entryPoint();
        RangeAnalysis a = RangeAnalysis.run(fn);
        assertTrue(a.evaluations() < 400, "evaluations: " + a.evaluations());
        // i < n <= MAX in the body, so i + 1 does not wrap: the counter never goes below 0
        assertEquals(0, a.range(value(fn, "phi 1"), 0).uLo());
        assertEquals(1, a.range(value(fn, "iadd 2"), 0).uLo());
    }

    @Test
    void phisJoinTheirIncomingValues() {
        Shader s = parse("""
                shader fragment
                input f32 @x location=0
                output f32 @o location=0
                output u32 @p location=1
                function main {
                  block entry:
                    vec1 32 %x = load_input @x
                    vec1 32 %zero = load_const (0.0)
                    vec1 32 %one = load_const (1.0)
                    vec1 32 %half = load_const (0.5)
                    vec1 32 %three = load_const (3)
                    vec1 32 %seven = load_const (7)
                    vec1 1 %c = flt %x, %zero
                  if %c {
                    block neg:
                      vec1 32 %nx = fneg %x
                  } else {
                    block pos:
                  }
                  block merge:
                    vec1 32 %f = phi neg: %one, pos: %half
                    vec1 32 %k = phi neg: %three, pos: %seven
                    vec1 32 %ax = phi neg: %nx, pos: %x
                    store_output @o, %f
                    store_output @p, %k
                }
                """);
        Function fn = s.entryPoint();
        RangeAnalysis a = RangeAnalysis.run(fn);
        assertEquals("f{(0,1) 1}", a.range(value(fn, "phi 1"), 0).describe(true, false));
        assertEquals("s[3, 7] u[3, 7]", a.range(value(fn, "phi 2"), 0).describe(false, true));
        // in the then-list x < 0, so its negation is > 0
        assertEquals("f{(0,1) 1 >1 +inf}", a.range(value(fn, "fneg"), 0).describe(true, false));
    }

    @Test
    void unormTexturesAndInvocationIdsHaveRanges() {
        Shader s = parse("""
                shader compute workgroup_size(8, 4, 1)
                texture 2d f32 @t binding=0 unorm
                buffer u32 @out binding=1
                function main {
                  block entry:
                    vec3 32 %id = load_local_invocation_id
                    vec2 32 %uv = load_const (0.5, 0.5)
                    vec4 32 %texel = tex @t, %uv
                    vec1 32 %idx = load_local_invocation_index
                    store_buffer @out, %idx, %idx
                }
                """);
        Function fn = s.entryPoint();
        RangeAnalysis a = RangeAnalysis.run(fn);
        assertEquals(
                "u[0, 7]",
                a.range(value(fn, "load_local_invocation_id"), 0)
                        .describe(false, true)
                        .replace("s[0, 7] ", ""));
        assertEquals(3, a.range(value(fn, "load_local_invocation_id"), 1).uHi());
        assertEquals(31, a.range(value(fn, "load_local_invocation_index"), 0).uHi());
        assertTrue(RangeFacts.holds(Predicate.IS_GE_ZERO, a.range(value(fn, "tex"), 2), TypeClass.FLOAT, 0));
        assertTrue(a.range(value(fn, "tex"), 3).onlyIn(FloatClass.between(FloatClass.NEG_ZERO, FloatClass.ONE)));
    }

    /**
     * Every value a run computes lies in the analysis's element for it, and every operand an
     * ALU instruction reads lies in the element narrowed by the branches around it — on random
     * programs with loops, ifs and phis, for several inputs each.
     */
    @Test
    void everyValueARunComputesIsInItsElement() {
        long checked = 0;
        for (long seed = 0; seed < 400; seed++) {
            Options o =
                    seed % 2 == 0 ? Options.mixed(seed) : Options.mixed(seed).withRandomOps(EnumSet.allOf(Op.class));
            Shader s = RandomProgramGenerator.generate(seed, o);
            Function fn = s.entryPoint();
            RangeAnalysis a = RangeAnalysis.run(fn);
            assertTrue(
                    a.evaluations() <= 60L * fn.instructionCount() + 100,
                    "seed " + seed + ": " + a.evaluations() + " evaluations for " + fn.instructionCount()
                            + " instructions");
            RangeFacts facts = new RangeFacts(a);
            for (int run = 0; run < 3; run++) {
                Map<Value, long[]> latest = new HashMap<>();
                long[] count = {0};
                long fseed = seed;
                Interpreter it = new Interpreter(s).observe((d, v) -> {
                    if (d.parent() instanceof AluInstr alu) {
                        for (int k = 0; k < alu.numSrcs(); k++) {
                            Src src = alu.src(k);
                            long[] sv = latest.get(src.value());
                            if (sv == null) continue;
                            for (int c = 0; c < src.numComponentsRead(); c++) {
                                Range r = facts.rangeAt(src.value(), src.component(c), alu);
                                if (!r.contains(sv[src.component(c)])) {
                                    fail("seed " + fseed + ": operand " + k + " of " + IrPrinter.instrToString(alu)
                                            + " is " + Long.toHexString(sv[src.component(c)]) + ", not in " + r + "\n"
                                            + IrPrinter.print(s));
                                }
                            }
                        }
                    }
                    for (int c = 0; c < v.length; c++) {
                        Range r = a.range(d, c);
                        if (!r.contains(v[c])) {
                            fail("seed " + fseed + ": " + IrPrinter.instrToString(d.parent()) + " computed "
                                    + Long.toHexString(v[c]) + " in component " + c + ", not in " + r + "\n"
                                    + IrPrinter.print(s));
                        }
                        count[0]++;
                    }
                    latest.put(d, v);
                });
                ShaderInputs in = RandomProgramGenerator.randomInputs(s, seed * 7 + run);
                try {
                    if (s.stage() == Stage.COMPUTE) it.dispatch(in, 2, 1, 1);
                    else it.run(in);
                } catch (InterpreterException e) {
                    // a run that hits the iteration limit still checked what it computed
                }
                checked += count[0];
            }
        }
        assertTrue(checked > 100_000, "only " + checked + " values checked");
    }
    /** A value times itself (fmul, fdot) is never below +0; NaN stays possible, and two different values stay unknown. */
    @Test
    void aValueTimesItselfIsNeverNegative() {
        Shader s = parse("""
                shader fragment
                input vec3 f32 @v location=0
                input f32 @w location=1
                output vec4 f32 @o location=0
                function main {
                    vec3 32 %v = load_input @v
                    vec1 32 %w = load_input @w
                    vec1 32 %sq = fmul %w, %w
                    vec1 32 %d = fdot3 %v, %v
                    vec1 32 %cross = fdot3 %v, %v.yzx
                    vec1 32 %other = fmul %w, %v.x
                    vec4 32 %o = vec4 %sq, %d, %cross, %other
                    store_output @o, %o
                }
                """);
        Function fn = s.entryPoint();
        RangeAnalysis a = RangeAnalysis.run(fn);
        int squares = FloatClass.between(FloatClass.POS_ZERO, FloatClass.POS_INF) | FloatClass.bit(FloatClass.NAN);
        assertTrue(a.range(value(fn, "fmul 1"), 0).onlyIn(squares));
        assertTrue(a.range(value(fn, "fdot3 1"), 0).onlyIn(squares));
        assertTrue(a.range(value(fn, "fdot3 2"), 0).mayBe(FloatClass.bit(FloatClass.LT_NEG1)));
        assertTrue(a.range(value(fn, "fmul 2"), 0).mayBe(FloatClass.bit(FloatClass.LT_NEG1)));
        assertTrue(RangeFacts.holds(Predicate.IS_GE_ZERO_OR_NAN, a.range(value(fn, "fdot3 1"), 0), TypeClass.FLOAT, 0));
        assertFalse(RangeFacts.holds(Predicate.IS_GE_ZERO, a.range(value(fn, "fdot3 1"), 0), TypeClass.FLOAT, 0));
    }

    /**
     * Each predicate the facts answer from an element holds for every value in it: checked on
     * elements joined from a few float and integer constants (specials included) at 32 bits.
     */
    @Test
    void factsHoldForEveryMemberOfTheElement() {
        long[] specials = {
            0x00000000L, 0x80000000L, 0x3f800000L, 0xbf800000L, 0x7f800000L, 0xff800000L, 0x7fc00000L,
            0x3f000000L, 0xbf000000L, 0x40400000L, 0xc0400000L, 0x00000001L, 0x7fffffffL, 0x00000005L
        };
        java.util.Random rnd = new java.util.Random(7);
        for (int round = 0; round < 4000; round++) {
            int n = 1 + rnd.nextInt(3);
            long[] members = new long[n];
            Range r = Range.bottom(32);
            for (int k = 0; k < n; k++) {
                members[k] = specials[rnd.nextInt(specials.length)];
                r = r.join(Range.constant(32, members[k]));
            }
            for (TypeClass type : new TypeClass[] {TypeClass.FLOAT, TypeClass.INT, TypeClass.UINT}) {
                for (Predicate p : Predicate.values()) {
                    if (p.kind() != Predicate.Kind.NUMBER || !RangeFacts.holds(p, r, type, 0)) continue;
                    for (long m : members)
                        assertTrue(
                                p.holds(m, 32, type, 0),
                                p + " said to hold on " + r + " as " + type + " but not for 0x" + Long.toHexString(m));
                }
            }
        }
    }
}
