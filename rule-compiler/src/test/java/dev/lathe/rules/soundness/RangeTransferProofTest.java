package dev.lathe.rules.soundness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.z3.BitVecExpr;
import com.microsoft.z3.BitVecNum;
import com.microsoft.z3.BoolExpr;
import com.microsoft.z3.Context;
import com.microsoft.z3.Model;
import com.microsoft.z3.Params;
import com.microsoft.z3.Solver;
import com.microsoft.z3.Status;
import dev.lathe.ir.analysis.range.FloatClass;
import dev.lathe.ir.analysis.range.Range;
import dev.lathe.ir.analysis.range.RangeTransfer;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The range analysis's integer transfer functions proved sound with the SMT solver, at 1, 8 and
 * 32 bits (the op's legal ones): for each op with an integer result and an SMT encoding, and for
 * each of a set of operand elements (constants, signed and unsigned intervals around the edges,
 * their meets, anything), the solver is asked for operands inside the elements whose result
 * (the op table's semantics, {@link SmtOps}) lies outside the element the transfer function
 * computes. None exists: proved for every value in the elements, where the sampling test in
 * {@code ir} draws eight. A model is replayed with the op table: a result the element really
 * misses is an unsound transfer function, one it holds is a bug in the encoding.
 */
class RangeTransferProofTest {
    static final long SEED = Long.getLong("lathe.seed", 20261125L);
    /** Operand elements per op and size. */
    static final int ELEMENTS = 40;
    /** The solver's budget per question, in Z3's resource units (deterministic, unlike a timeout). */
    static final int RESOURCE_LIMIT = 4_000_000;

    /** Integer-valued ops the solver can evaluate (data movement carries elements unchanged and is left out). */
    static List<Op> provable() {
        List<Op> out = new ArrayList<>();
        for (Op op : SmtOps.ENCODED) {
            if (op.isHorizontal()
                    || op == Op.MOV
                    || op == Op.BCSEL
                    || isFloat(op.output().typeClass())) continue;
            boolean floatInput = false;
            for (int i = 0; i < op.numInputs(); i++)
                floatInput |= isFloat(op.input(i).typeClass());
            if (!floatInput) out.add(op);
        }
        return out;
    }

    private static boolean isFloat(TypeClass t) {
        return t == TypeClass.FLOAT;
    }

    static List<Integer> sizes(Op op) {
        if (!op.hasUnsizedOperands()) return List.of(32);
        List<Integer> out = new ArrayList<>();
        for (int n : new int[] {1, 8, 32}) {
            if (op.isLegalBitSize(n)) out.add(n);
        }
        if (out.isEmpty()) out.add(op.legalBitSizeList().get(0));
        return out;
    }

    @Test
    void theIntegerOpsAreCovered() {
        List<Op> ops = provable();
        assertTrue(ops.size() >= 70, ops.size() + " ops: " + ops);
        assertTrue(
                ops.contains(Op.IADD) && ops.contains(Op.UDIV) && ops.contains(Op.ISHR) && ops.contains(Op.UFIND_MSB),
                ops.toString());
    }

    /** What the solver said about one op's elements: proofs, elements with no claim, undecided ones, failures. */
    record OpResult(Op op, int proved, int anything, List<String> unknown, List<String> failures) {}

    @Test
    void anElementMissingOneResultIsCaught() {
        try (Context c = new Context()) {
            Range ten = Range.signed(32, 0, 10);
            // 10 + 10 = 20 lies outside [0, 19]
            String answer = prove(c, new SmtOps(c), Op.IADD, 32, new Range[] {ten, ten}, Range.signed(32, 0, 19));
            assertTrue(
                    answer != null
                            && answer.startsWith("iadd at 32 bits: operands [10 in ")
                            && answer.contains(" give 20, outside ")
                            && answer.endsWith("the transfer function is unsound"),
                    answer);
            assertTrue(prove(c, new SmtOps(c), Op.IADD, 32, new Range[] {ten, ten}, Range.signed(32, 0, 20)) == null);
        }
    }

    @TestFactory
    Stream<DynamicTest> transferFunctionsAreSound() {
        // the ops in parallel (each with a Z3 context of its own), then one test per op
        List<OpResult> results =
                provable().parallelStream().map(RangeTransferProofTest::proveOp).toList();
        return results.stream()
                .map(r -> DynamicTest.dynamicTest(r.op().opName(), () -> {
                    System.out.println(r.op().opName() + ": " + r.proved() + " proved, " + r.anything() + " anything, "
                            + r.unknown().size() + " unknown");
                    assertTrue(r.failures().isEmpty(), String.join("\n", r.failures()));
                    // a few questions about 32-bit multiplication or division may outlast the budget
                    assertTrue(
                            r.unknown().size() * 10 <= r.proved() + r.unknown().size(),
                            r.op().opName() + ": " + r.unknown().size() + " undecided against " + r.proved()
                                    + " proved: " + r.unknown());
                }));
    }

    static OpResult proveOp(Op op) {
        int proved = 0, anything = 0;
        List<String> unknown = new ArrayList<>(), failures = new ArrayList<>();
        try (Context c = new Context()) {
            SmtOps smt = new SmtOps(c);
            RangeTransfer t = new RangeTransfer();
            for (int n : sizes(op)) {
                SplittableRandom rnd = new SplittableRandom(SEED * 31 + op.ordinal() * 131L + n);
                for (int k = 0; k < ELEMENTS; k++) {
                    Range[] in = new Range[op.numInputs()];
                    for (int i = 0; i < in.length; i++)
                        in[i] = element(rnd, op.input(i).isSized() ? op.input(i).bitSize() : n);
                    if (Arrays.stream(in).anyMatch(Range::empty)) continue;
                    Range out = t.alu(op, n, in);
                    if (out.isTop()) {
                        anything++; // nothing claimed
                        continue;
                    }
                    // (a single pattern's float reading is its own: the integer proof covers it)
                    if (out.isFloatSize() && !out.isConstant() && (out.classes() != FloatClass.ALL || out.whole())) {
                        failures.add(
                                op.opName() + " at " + n + " bits: an integer op's element says something of the float "
                                        + "reading, which this proof does not cover: " + out);
                        continue;
                    }
                    String answer = prove(c, smt, op, n, in, out);
                    if (answer == null) proved++;
                    else if (answer.isEmpty()) unknown.add(Arrays.toString(in));
                    else failures.add(answer);
                }
            }
        }
        return new OpResult(op, proved, anything, unknown, failures);
    }

    /** Null when proved, "" when the solver ran out of time, else the failure. */
    static String prove(Context c, SmtOps smt, Op op, int n, Range[] in, Range out) {
        Solver s = c.mkSolver();
        Params p = c.mkParams();
        // a budget in the solver's own work units, not time: the same answers however busy the machine is
        p.add("rlimit", Integer.getInteger("lathe.rlimit", RESOURCE_LIMIT));
        s.setParameters(p);
        BitVecExpr[] x = new BitVecExpr[in.length];
        for (int i = 0; i < in.length; i++) {
            x[i] = c.mkBVConst("x" + i, in[i].bits());
            s.add(inside(c, smt, x[i], in[i]));
        }
        BitVecExpr r = smt.apply(op, n, x);
        s.add(c.mkNot(inside(c, smt, r, out)));
        Status st = s.check();
        if (st == Status.UNSATISFIABLE) return null;
        if (st == Status.UNKNOWN) return "";
        Model m = s.getModel();
        long[][] srcs = new long[in.length][];
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < in.length; i++) {
            long v = ((BitVecNum) m.evaluate(x[i], true)).getBigInteger().longValue();
            srcs[i] = new long[] {v};
            shown.add(Long.toString(Bits.sext(v, in[i].bits())) + " in " + in[i]);
        }
        long result = op.evaluate(n, 1, srcs)[0];
        String where = op.opName() + " at " + n + " bits: operands " + shown + " give " + Bits.sext(result, out.bits());
        if (out.contains(result))
            return where + ", inside " + out + ", but the solver says outside: a bug in SmtOps' encoding";
        return where + ", outside " + out
                + ", the element the transfer function computes: the transfer function is unsound";
    }

    /** The element's integer readings as a constraint on {@code x}. */
    private static BoolExpr inside(Context c, SmtOps smt, BitVecExpr x, Range r) {
        int n = r.bits();
        return c.mkAnd(
                c.mkBVSLE(smt.bv(r.sLo(), n), x),
                c.mkBVSLE(x, smt.bv(r.sHi(), n)),
                c.mkBVULE(smt.bv(r.uLo(), n), x),
                c.mkBVULE(x, smt.bv(r.uHi(), n)));
    }

    /** A random operand element: a constant, an interval near an edge, signed or unsigned, a meet of both, or anything. */
    static Range element(SplittableRandom rnd, int n) {
        long[] edges = {
            0, 1, 2, -1, -2, Bits.minSigned(n), Bits.maxSigned(n), n - 1L, n, 255, 256, 65535, 1L << (n - 1) >>> 1
        };
        long center = rnd.nextInt(3) == 0 ? rnd.nextLong() : edges[rnd.nextInt(edges.length)];
        long span = switch (rnd.nextInt(6)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 7;
            case 3 -> 255;
            case 4 -> rnd.nextLong() & Bits.mask(Math.max(1, n - 2));
            default -> rnd.nextLong() & Bits.mask(n);
        };
        long lo = Bits.sext(center, n), hi;
        return switch (rnd.nextInt(6)) {
            case 0 -> Range.constant(n, center);
            case 1, 2 -> {
                hi = Math.min(Bits.maxSigned(n), lo + Math.min(span, Bits.mask(n) >>> 1));
                yield Range.signed(n, lo, Math.max(lo, hi));
            }
            case 3, 4 -> {
                long u = Bits.zext(center, n);
                long uh = Long.compareUnsigned(Bits.mask(n) - u, span) < 0 ? Bits.mask(n) : u + span;
                yield Range.unsigned(n, u, uh);
            }
            default ->
                rnd.nextInt(3) == 0
                        ? Range.top(n)
                        : Range.signed(n, Math.min(lo, 0), Math.max(lo, 0))
                                .meetIntegers(Range.unsigned(n, 0, Bits.zext(span, n) | 1));
        };
    }
}
