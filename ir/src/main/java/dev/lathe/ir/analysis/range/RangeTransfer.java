package dev.lathe.ir.analysis.range;

import static dev.lathe.ir.analysis.range.FloatClass.NEG_ZERO;
import static dev.lathe.ir.analysis.range.FloatClass.ZEROS;
import static dev.lathe.ir.analysis.range.FloatClass.bit;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Transfer functions of the range analysis: the element of an op's result from the elements
 * of its operands, sound by construction (an op without one gives {@link Range#top}).
 *
 * <p><b>Floats: corners.</b> Each float operand is cut into the pieces of its classes
 * ({@link FloatClass}). Most float ops are monotone in each argument on such pieces (they are
 * sign-homogeneous and hold no zero or infinity unless they are that single point): fadd,
 * fsub, fmul, fdiv, ffma, fmin, fmax, the rounding and conversion ops, sqrt, rcp, exp2, log2,
 * comparisons. On a box of pieces such a function takes its least and greatest value at the
 * box's corners — the least and greatest representable value of each piece — so the op
 * itself, evaluated with the op table at the corners, gives the exact hull of its results on
 * the box; rounding is monotone too, and the op table rounds exactly as the program will.
 * The hull becomes classes (every class between the hull's ends), a NaN corner adds NaN.
 * fadd, fsub and the int-to-float conversions only produce -0 at a corner (an exact
 * cancellation gives +0), so a hull across zero does not add -0 for them. Results are
 * memoized by (op, size, operand classes), which repeat a great deal.
 *
 * <p><b>Integers: intervals.</b> Add, subtract and multiply bound the result when no bound
 * overflows (else nothing is known: the result wraps); bitwise ops bound the unsigned reading
 * by the highest bit; shifts, min/max, division and remainder, conversions, comparisons and
 * the bit-counting ops have their own rules, each next to its case. The saturating, halving
 * and high-half ops and the wide products go through the corner method too: each is monotone in
 * each operand, or a monotone step after a product, whose extremes lie at the corners. Compound ops (flrp, fdot,
 * iadd3, the three-operand min/max) are the composition of their steps, in the op table's
 * order.
 */
public final class RangeTransfer {
    private static final int NAN_ONLY = bit(FloatClass.NAN);
    private static final int NOT_FINITE = bit(FloatClass.NEG_INF) | bit(FloatClass.POS_INF) | NAN_ONLY;

    /** An odd multiplier (so keys stay distinct) that mixes every bit into the high ones. */
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private final Map<Long, Range> floatMemo = new HashMap<>();
    private final BoxTable[] boxTables = new BoxTable[Op.values().length * 3];

    /** How a corner is read for an operand or result. */
    private enum Kind {
        FLOAT,
        SIGNED,
        UNSIGNED
    }

    /** The element of one component of a per-component op's result. */
    public Range alu(Op op, int unsized, Range[] in) {
        int out = op.outputBits(unsized);
        for (Range r : in) {
            if (r.empty()) return Range.bottom(out);
        }
        return switch (op) {
            case MOV -> in[0];
            case BCSEL -> select(in[0], in[1], in[2]);
            case FCSEL -> {
                if (in[0].onlyIn(ZEROS)) yield in[2];
                if (!in[0].mayBe(ZEROS)) yield in[1];
                yield in[1].join(in[2]);
            }

            // Monotone on pieces: the corner method.
            case FADD,
                    FSUB,
                    FMUL,
                    FDIV,
                    FFMA,
                    FMULZ,
                    FMIN,
                    FMAX,
                    FMIN3,
                    FMAX3,
                    FMED3,
                    FNEG,
                    FABS,
                    FSQRT,
                    FRSQ,
                    FRCP,
                    FEXP2,
                    FLOG2,
                    FFLOOR,
                    FCEIL,
                    FTRUNC,
                    FROUND_EVEN,
                    FSIGN,
                    FSAT,
                    FSAT_SIGNED,
                    FCLAMP_POS,
                    F2F16,
                    F2F16_RTNE,
                    F2F16_RTZ,
                    F2F32,
                    F2F64 -> floatCorners(op, unsized, in);
            case FPOW -> {
                // pow is monotone in each argument only for a base >= +0: a negative base gives
                // NaN or a sign that follows the exponent's parity.
                int negative = FloatClass.between(FloatClass.NEG_INF, FloatClass.NEG_ZERO);
                if (in[0].mayBe(negative)) yield Range.top(out);
                yield floatCorners(op, unsized, in);
            }
            case FLT, FGE, FEQ, FNEU, FLTU, FGEU, FEQU, F2B1 -> floatCorners(op, unsized, in, Kind.UNSIGNED);
            case F2I8, F2I16, F2I32, F2I64 -> floatCorners(op, unsized, in, Kind.SIGNED);
            case F2U8, F2U16, F2U32, F2U64 -> floatCorners(op, unsized, in, Kind.UNSIGNED);
            case I2F16, I2F32, I2F64 -> intCorners(op, unsized, in, Kind.SIGNED, Kind.FLOAT);
            case U2F16, U2F32, U2F64, B2F16, B2F32, B2F64 -> intCorners(op, unsized, in, Kind.UNSIGNED, Kind.FLOAT);

            case FFRACT -> ffract(in[0]);
            // class tests: decided by the classes an operand may be in
            case FISNAN -> Range.bool(in[0].mayBe(~NAN_ONLY), in[0].mayBe(NAN_ONLY));
            case FISFINITE -> Range.bool(in[0].mayBe(NOT_FINITE), in[0].mayBe(~NOT_FINITE));
            case FUNORD ->
                Range.bool(
                        in[0].mayBe(~NAN_ONLY) && in[1].mayBe(~NAN_ONLY),
                        in[0].mayBe(NAN_ONLY) || in[1].mayBe(NAN_ONLY));
            case FORD ->
                Range.bool(
                        in[0].mayBe(NAN_ONLY) || in[1].mayBe(NAN_ONLY),
                        in[0].mayBe(~NAN_ONLY) && in[1].mayBe(~NAN_ONLY));
            case FSIN, FCOS -> sinCos(op, unsized, in[0]);
            case FLRP -> {
                // a*(1-c) + b*c, each step rounded (FloatFns.flrp)
                Range oneMinus = alu(Op.FSUB, unsized, new Range[] {
                    Range.constant(unsized, FloatBits.fromDouble(1.0, unsized)), in[2]
                });
                Range p = alu(Op.FMUL, unsized, new Range[] {in[0], oneMinus});
                Range q = alu(Op.FMUL, unsized, new Range[] {in[1], in[2]});
                yield alu(Op.FADD, unsized, new Range[] {p, q});
            }

            case IADD -> IntRanges.add(in[0], in[1]);
            case IADD3 -> IntRanges.add(IntRanges.add(in[0], in[1]), in[2]);
            case ISUB -> IntRanges.sub(in[0], in[1]);
            case IMUL -> IntRanges.mul(in[0], in[1]);
            case INEG -> IntRanges.neg(in[0]);
            case IABS -> IntRanges.abs(in[0]);
            case ISIGN -> IntRanges.sign(in[0]);
            case IMIN -> IntRanges.imin(in[0], in[1]);
            case IMAX -> IntRanges.imax(in[0], in[1]);
            case IMIN3 -> IntRanges.imin(IntRanges.imin(in[0], in[1]), in[2]);
            case IMAX3 -> IntRanges.imax(IntRanges.imax(in[0], in[1]), in[2]);
            case UMIN -> IntRanges.umin(in[0], in[1]);
            case UMAX -> IntRanges.umax(in[0], in[1]);
            case UMIN3 -> IntRanges.umin(IntRanges.umin(in[0], in[1]), in[2]);
            case UMAX3 -> IntRanges.umax(IntRanges.umax(in[0], in[1]), in[2]);
            case IMED3 -> IntRanges.imed3(in[0], in[1], in[2]);
            case UMED3 -> IntRanges.umed3(in[0], in[1], in[2]);
            case IAND -> IntRanges.and(in[0], in[1]);
            case IOR -> IntRanges.or(in[0], in[1]);
            case IXOR -> IntRanges.xor(in[0], in[1]);
            case INOT -> IntRanges.not(in[0]);
            case ISHL -> IntRanges.shl(in[0], in[1]);
            case ISHR -> IntRanges.ishr(in[0], in[1]);
            case USHR -> IntRanges.ushr(in[0], in[1]);
            case UDIV -> IntRanges.udiv(in[0], in[1]);
            case UMOD -> IntRanges.umod(in[0], in[1]);
            case ILT -> IntRanges.ilt(in[0], in[1]);
            case IGE -> IntRanges.not1(IntRanges.ilt(in[0], in[1]));
            case ULT -> IntRanges.ult(in[0], in[1]);
            case UGE -> IntRanges.not1(IntRanges.ult(in[0], in[1]));
            case IEQ -> IntRanges.eq(in[0], in[1]);
            case INE -> IntRanges.not1(IntRanges.eq(in[0], in[1]));
            case I2I8, I2I16, I2I32, I2I64 -> IntRanges.sext(in[0], out);
            case U2U8, U2U16, U2U32, U2U64 -> IntRanges.zext(in[0], out);
            case B2I8, B2I16, B2I32, B2I64 -> Range.unsigned(out, in[0].uLo(), in[0].uHi());
            case I2B1 -> IntRanges.not1(IntRanges.eq(in[0], Range.constant(in[0].bits(), 0)));
            case BIT_COUNT -> IntRanges.bitCount(in[0], out);
            case UFIND_MSB -> IntRanges.ufindMsb(in[0], out);
            case FIND_LSB ->
                in[0].uHi() == 0
                        ? Range.constant(out, -1)
                        : Range.signed(out, in[0].uLo() == 0 ? -1 : 0, in[0].bits() - 1);
            case EXTRACT_U8 -> Range.unsigned(out, 0, Range.umin(in[0].uHi(), 0xff));
            case EXTRACT_U16 -> Range.unsigned(out, 0, Range.umin(in[0].uHi(), 0xffff));
            case UBITFIELD_EXTRACT -> Range.unsigned(out, 0, in[0].uHi()); // (a >> b) masked is at most a
            case UNPACK_64_2X32_SPLIT_X -> IntRanges.zext(in[0], 32);
            case UNPACK_64_2X32_SPLIT_Y -> Range.unsigned(32, in[0].uLo() >>> 32, in[0].uHi() >>> 32);
            case UNPACK_32_2X16_SPLIT_X -> IntRanges.zext(in[0], 16);
            case UNPACK_32_2X16_SPLIT_Y -> Range.unsigned(16, in[0].uLo() >>> 16, in[0].uHi() >>> 16);
            // a | b << n with a below 2^n: the unsigned value is monotone in both
            case PACK_64_2X32_SPLIT ->
                Range.unsigned(64, in[0].uLo() | in[1].uLo() << 32, in[0].uHi() | in[1].uHi() << 32);
            case PACK_32_2X16_SPLIT ->
                Range.unsigned(32, in[0].uLo() | in[1].uLo() << 16, in[0].uHi() | in[1].uHi() << 16);
            case PACK_64_2X32_SPLIT_X -> IntRanges.replaceLow(in[0], in[1]);
            case PACK_64_2X32_SPLIT_Y -> IntRanges.replaceHigh(in[0], in[1]);
            // monotone in each operand (saturating, halving), or multilinear before a monotone
            // step (the high half or the whole of a product): the corners of the intervals bound them
            case IADD_SAT, ISUB_SAT, IHADD, IRHADD, IMUL_HIGH, IMUL_2X32_64 ->
                intCorners(op, unsized, in, Kind.SIGNED, Kind.SIGNED);
            case UADD_SAT, USUB_SAT, UHADD, URHADD, UMUL_HIGH, UMUL_2X32_64 ->
                intCorners(op, unsized, in, Kind.UNSIGNED, Kind.UNSIGNED);
            case IDIV -> IntRanges.idiv(in[0], in[1]);
            case IREM -> IntRanges.irem(in[0], in[1]);
            case IMOD -> IntRanges.imod(in[0], in[1]);
            case UABS_ISUB -> IntRanges.absDiff(in[0], in[1], true);
            case UABS_USUB -> IntRanges.absDiff(in[0], in[1], false);
            case IFIND_MSB -> IntRanges.ifindMsb(in[0], out);
            case UCLZ -> IntRanges.clz(in[0], out);
            case EXTRACT_I8 -> IntRanges.extractSigned(out, 8);
            case EXTRACT_I16 -> IntRanges.extractSigned(out, 16);
            case INSERT_U8 -> IntRanges.insertField(in[0], in[1], 8);
            case INSERT_U16 -> IntRanges.insertField(in[0], in[1], 16);
            case BITFIELD_SELECT -> IntRanges.bitSelect(in[1], in[2]);
            // rotations, bit reversal and the rest: exact on constants, else anything
            default -> {
                if (!ON_CONSTANTS_ONLY.contains(op))
                    throw new IllegalStateException(
                            op.opName() + " has no range transfer: give it one, or list it in ON_CONSTANTS_ONLY");
                yield integerOnConstants(op, unsized, in, out);
            }
        };
    }

    /**
     * The per-component ops {@link #alu} knows only on constant operands (an integer op), else
     * as anything: listed, so that an op added to the table is given a transfer or put here on
     * purpose ({@code RangeTransferSoundnessTest} tries every op).
     */
    private static final java.util.Set<Op> OWN_ON_CONSTANTS_ONLY = java.util.EnumSet.of(
            Op.FMOD,
            Op.FREM,
            Op.LDEXP,
            Op.FQUANTIZE2F16,
            Op.FNEO,
            Op.UROL,
            Op.UROR,
            Op.BITFIELD_REVERSE,
            Op.IBITFIELD_EXTRACT,
            Op.BITFIELD_INSERT,
            Op.BFM,
            Op.PACK_HALF_2X16_SPLIT,
            Op.UNPACK_HALF_2X16_SPLIT_X,
            Op.UNPACK_HALF_2X16_SPLIT_Y);

    static final java.util.Set<Op> ON_CONSTANTS_ONLY = onConstantsOnly();

    // NIR's generic ops too: the lowering rules turn them into ops with transfers before anything
    // asks much of their ranges
    private static java.util.Set<Op> onConstantsOnly() {
        java.util.EnumSet<Op> s = java.util.EnumSet.copyOf(OWN_ON_CONSTANTS_ONLY);
        s.addAll(Op.NIR_GENERIC);
        return s;
    }

    /**
     * Lathe's own horizontal ops whose every result component {@link #horizontal} takes as
     * anything, listed as {@link #ON_CONSTANTS_ONLY} is; {@link #HORIZONTAL_ANYTHING} adds NIR's.
     */
    private static final java.util.Set<Op> OWN_HORIZONTAL_ANYTHING = java.util.EnumSet.of(
            Op.FDPH,
            Op.BALL_FEQUAL2,
            Op.BALL_FEQUAL3,
            Op.BALL_FEQUAL4,
            Op.BANY_FNEQUAL2,
            Op.BANY_FNEQUAL3,
            Op.BANY_FNEQUAL4,
            Op.BALL_IEQUAL2,
            Op.BALL_IEQUAL3,
            Op.BALL_IEQUAL4,
            Op.BANY_INEQUAL2,
            Op.BANY_INEQUAL3,
            Op.BANY_INEQUAL4,
            Op.PACK_64_2X32,
            Op.UNPACK_64_2X32,
            Op.PACK_64_4X16,
            Op.UNPACK_64_4X16,
            Op.PACK_32_2X16,
            Op.UNPACK_32_2X16,
            Op.PACK_32_4X8,
            Op.UNPACK_32_4X8,
            Op.PACK_HALF_2X16,
            Op.UNPACK_HALF_2X16,
            Op.PACK_UNORM_4X8,
            Op.PACK_SNORM_4X8,
            Op.PACK_UNORM_2X16,
            Op.PACK_SNORM_2X16);

    static final java.util.Set<Op> HORIZONTAL_ANYTHING = horizontalAnything();

    // NIR's horizontal ops too, as NIR_GENERIC in ON_CONSTANTS_ONLY
    private static java.util.Set<Op> horizontalAnything() {
        java.util.EnumSet<Op> s = java.util.EnumSet.copyOf(OWN_HORIZONTAL_ANYTHING);
        s.addAll(Op.NIR_HORIZONTAL);
        return s;
    }

    /**
     * An integer op (no float operand or result) on constant operands: its one result. A float
     * op is left out: a NaN it makes may be any NaN (the NaN contract), which no single pattern
     * describes.
     */
    private static Range integerOnConstants(Op op, int unsized, Range[] in, int out) {
        if (op.output().typeClass() == TypeClass.FLOAT) return Range.top(out);
        long[][] srcs = new long[in.length][];
        for (int i = 0; i < in.length; i++) {
            if (!in[i].isConstant() || op.input(i).typeClass() == TypeClass.FLOAT) return Range.top(out);
            srcs[i] = new long[] {in[i].uLo()};
        }
        return Range.constant(out, op.evaluate(unsized, 1, srcs)[0]);
    }

    /** The elements of every component of a horizontal op's result. */
    public Range[] horizontal(Op op, int unsized, int components, Range[][] in) {
        int out = op.outputBits(unsized);
        Range[] result = new Range[components];
        for (Range[] src : in) {
            for (Range r : src) {
                if (r.empty()) {
                    Arrays.fill(result, Range.bottom(out));
                    return result;
                }
            }
        }
        switch (op) {
            case VEC2, VEC3, VEC4, VEC8, VEC16 -> {
                for (int c = 0; c < components; c++) result[c] = in[c][0];
            }
            case FDOT2, FDOT3, FDOT4 -> {
                // left to right, every product and sum rounded (FloatFns.fdot)
                Range acc = alu(Op.FMUL, unsized, new Range[] {in[0][0], in[1][0]});
                for (int i = 1; i < in[0].length; i++) {
                    acc = alu(Op.FADD, unsized, new Range[] {
                        acc, alu(Op.FMUL, unsized, new Range[] {in[0][i], in[1][i]})
                    });
                }
                result[0] = acc;
            }
            case UNPACK_UNORM_4X8, UNPACK_UNORM_2X16 ->
                Arrays.fill(
                        result,
                        Range.floats(
                                out, bit(FloatClass.POS_ZERO) | bit(FloatClass.ZERO_1) | bit(FloatClass.ONE), false));
            case UNPACK_SNORM_4X8, UNPACK_SNORM_2X16 ->
                Arrays.fill(
                        result,
                        Range.floats(out, FloatClass.between(FloatClass.NEG1, FloatClass.ONE) & ~bit(NEG_ZERO), false));
            default -> {
                if (!HORIZONTAL_ANYTHING.contains(op))
                    throw new IllegalStateException(
                            op.opName() + " has no range transfer: give it one, or list it in HORIZONTAL_ANYTHING");
                Arrays.fill(result, Range.top(out));
            }
        }
        return result;
    }

    /** bcsel: the chosen operand when the condition is decided, else either. */
    static Range select(Range cond, Range a, Range b) {
        if (cond.uLo() == 1) return a;
        if (cond.uHi() == 0) return b;
        return a.join(b);
    }

    // ---- floats ------------------------------------------------------------------------------

    private Range floatCorners(Op op, int unsized, Range[] in) {
        return floatCorners(op, unsized, in, Kind.FLOAT);
    }

    /** The corner method on float operands, memoized (the op decides the result's kind). */
    private Range floatCorners(Op op, int unsized, Range[] in, Kind outKind) {
        // op and size, then 12 bits for each of at most three operands at fixed places: exact
        long key = ((long) op.ordinal() * 4 + FloatClass.sizeIndex(unsized)) << 36;
        for (int i = 0; i < in.length; i++) key |= ((long) in[i].classes() << 1 | (in[i].whole() ? 1 : 0)) << (12 * i);
        key *= MIX; // Long.hashCode folds the halves: spread the fields over both first
        Range hit = floatMemo.get(key);
        if (hit != null) return hit;
        Range r = floatBoxes(op, unsized, in, outKind);
        floatMemo.put(key, r);
        return r;
    }

    /**
     * The corner method on float operands, one box (one class of each operand) at a time: the
     * result is the union over the boxes, and each box's result is memoized by (op, size, its
     * classes and whether each operand is whole) in a table per op and size (22^operands
     * boxes), while the unions of classes that operands bring are many more.
     */
    private Range floatBoxes(Op op, int unsized, Range[] in, Kind outKind) {
        int n = in.length;
        int out = op.outputBits(unsized);
        int[][] classes = new int[n][];
        int[] bits = new int[n];
        for (int i = 0; i < n; i++) {
            bits[i] = op.input(i).isSized() ? op.input(i).bitSize() : unsized;
            int[] cs = new int[FloatClass.COUNT];
            int k = 0;
            for (int c = 0; c < FloatClass.COUNT; c++) {
                if ((in[i].classes() & bit(c)) != 0 && FloatClass.corners(c, bits[i], in[i].whole()).length > 0)
                    cs[k++] = c;
            }
            if (k == 0) return Range.bottom(out);
            classes[i] = Arrays.copyOf(cs, k);
        }
        BoxTable table = boxTable(op, unsized, n);
        int resultClasses = 0;
        long lo = 0, hi = 0;
        boolean any = false;
        int[] pick = new int[n];
        int[] box = new int[n];
        while (true) {
            int index = 0;
            for (int i = n - 1; i >= 0; i--) {
                box[i] = classes[i][pick[i]];
                index = index * BOX_FIELDS + box[i] * 2 + (in[i].whole() ? 1 : 0);
            }
            if (!table.known[index]) {
                long[][] corners = scratch.corners[n];
                for (int i = 0; i < n; i++) corners[i] = FloatClass.corners(box[i], bits[i], in[i].whole());
                box(op, unsized, corners, outKind);
                table.lo[index] = scratch.lo;
                table.hi[index] = scratch.hi;
                table.known[index] = true;
            }
            if (outKind == Kind.FLOAT) {
                resultClasses |= (int) table.lo[index];
            } else {
                if (!any || less(table.lo[index], lo, outKind)) lo = table.lo[index];
                if (!any || less(hi, table.hi[index], outKind)) hi = table.hi[index];
                any = true;
            }
            int k = 0;
            while (k < n && ++pick[k] == classes[k].length) pick[k++] = 0;
            if (k == n) break;
        }
        if (outKind == Kind.FLOAT) return Range.floats(out, resultClasses, wholeResult(op, in));
        return outKind == Kind.SIGNED ? Range.signed(out, lo, hi) : Range.unsigned(out, lo, hi);
    }

    /** Per operand of a box: its class and whether it is whole. */
    private static final int BOX_FIELDS = FloatClass.COUNT * 2;

    /** The results of the boxes of one op at one size, by box (made when the pair is first met). */
    private static final class BoxTable {
        final boolean[] known;
        final long[] lo;
        final long[] hi;

        BoxTable(int operands) {
            int size = 1;
            for (int i = 0; i < operands; i++) size *= BOX_FIELDS;
            known = new boolean[size];
            lo = new long[size];
            hi = new long[size];
        }
    }

    private BoxTable boxTable(Op op, int unsized, int operands) {
        int k = op.ordinal() * 3 + FloatClass.sizeIndex(unsized);
        BoxTable t = boxTables[k];
        if (t == null) boxTables[k] = t = new BoxTable(operands);
        return t;
    }

    /**
     * One box of the corner method: the op at every combination of the operands' corners (of
     * one float class each, or the ends of an integer interval). Float results give {classes
     * of the hull, NaN included}; integer results {least, greatest}.
     */
    private void box(Op op, int unsized, long[][] corners, Kind outKind) {
        int n = corners.length;
        int out = op.outputBits(unsized);
        boolean plusZeroOnly = switch (op) {
            case FADD, FSUB, I2F16, I2F32, I2F64, U2F16, U2F32, U2F64 -> true;
            default -> false;
        };
        int[] corner = scratch.corner[n];
        Arrays.fill(corner, 0);
        long[][] srcs = scratch.srcs[n];
        long[] dst = scratch.dst;
        boolean boxAny = false, boxNaN = false, boxNegZero = false;
        long boxLo = 0, boxHi = 0;
        while (true) {
            for (int i = 0; i < n; i++) srcs[i][0] = corners[i][corner[i]];
            op.evaluateInto(unsized, srcs, dst);
            long v = dst[0];
            if (outKind == Kind.FLOAT) {
                if (FloatBits.isNaN(v, out)) {
                    boxNaN = true;
                } else {
                    if (v == FloatBits.signBit(out)) boxNegZero = true;
                    if (!boxAny || FloatClass.compare(v, boxLo, out) < 0) boxLo = v;
                    if (!boxAny || FloatClass.compare(v, boxHi, out) > 0) boxHi = v;
                    boxAny = true;
                }
            } else {
                long x = outKind == Kind.SIGNED ? Bits.sext(v, out) : Bits.zext(v, out);
                if (!boxAny || less(x, boxLo, outKind)) boxLo = x;
                if (!boxAny || less(boxHi, x, outKind)) boxHi = x;
                boxAny = true;
            }
            int k = 0;
            while (k < n && ++corner[k] == corners[k].length) corner[k++] = 0;
            if (k == n) break;
        }
        if (outKind != Kind.FLOAT) {
            scratch.lo = boxLo;
            scratch.hi = boxHi;
            return;
        }
        int m = boxNaN ? bit(FloatClass.NAN) : 0;
        if (boxAny) {
            int hull = FloatClass.between(FloatClass.of(boxLo, out), FloatClass.of(boxHi, out));
            if (plusZeroOnly && !boxNegZero) hull &= ~bit(NEG_ZERO);
            m |= hull;
        }
        scratch.lo = m;
        scratch.hi = 0;
    }

    /**
     * The corner method's working arrays (by operand count, at most three) and a box's result,
     * reused by every box: an analysis evaluates thousands, and allocating them was a fifth of
     * what a rewrite pass allocated. A transfer is used by one thread at a time.
     */
    private static final class Scratch {
        final long[][][] corners = new long[4][][];
        final int[][] corner = new int[4][];
        final long[][][] srcs = new long[4][][];
        final long[] dst = new long[1];
        long lo;
        long hi;

        Scratch() {
            for (int n = 0; n < 4; n++) {
                corners[n] = new long[n][];
                corner[n] = new int[n];
                srcs[n] = new long[n][1];
            }
        }
    }

    private final Scratch scratch = new Scratch();

    /**
     * The corner method (see the class comment) on integer operands, read {@code inKind}: one
     * box, whose corners are the ends of the operands' intervals; the result read {@code outKind}
     * (float classes for the conversions, an interval for integer ops).
     */
    private Range intCorners(Op op, int unsized, Range[] in, Kind inKind, Kind outKind) {
        long[][] corners = new long[in.length][];
        for (int i = 0; i < in.length; i++) {
            int bits = op.input(i).isSized() ? op.input(i).bitSize() : unsized;
            corners[i] = inKind == Kind.SIGNED
                    ? new long[] {Bits.trunc(in[i].sLo(), bits), Bits.trunc(in[i].sHi(), bits)}
                    : new long[] {in[i].uLo(), in[i].uHi()};
        }
        box(op, unsized, corners, outKind);
        int out = op.outputBits(unsized);
        return switch (outKind) {
            case FLOAT -> Range.floats(out, (int) scratch.lo, wholeResult(op, in));
            case SIGNED -> Range.signed(out, scratch.lo, scratch.hi);
            case UNSIGNED -> Range.unsigned(out, scratch.lo, scratch.hi);
        };
    }

    private static boolean less(long a, long b, Kind k) {
        return k == Kind.SIGNED ? a < b : Long.compareUnsigned(a, b) < 0;
    }

    /** Whether every finite result is whole, by the op's nature and its operands. */
    private static boolean wholeResult(Op op, Range[] in) {
        return switch (op) {
            case FFLOOR,
                    FCEIL,
                    FTRUNC,
                    FROUND_EVEN,
                    FSIGN,
                    I2F16,
                    I2F32,
                    I2F64,
                    U2F16,
                    U2F32,
                    U2F64,
                    B2F16,
                    B2F32,
                    B2F64 -> true;
            // sums and products of whole numbers are whole before rounding, and rounding a whole
            // number gives a whole number (or infinity)
            case FADD,
                    FSUB,
                    FMUL,
                    FFMA,
                    FMULZ,
                    FMIN,
                    FMAX,
                    FMIN3,
                    FMAX3,
                    FMED3,
                    FNEG,
                    FABS,
                    FSAT,
                    FSAT_SIGNED,
                    FCLAMP_POS,
                    F2F16,
                    F2F16_RTNE,
                    F2F16_RTZ,
                    F2F32,
                    F2F64 -> {
                boolean all = true;
                for (Range r : in) all &= r.whole();
                yield all;
            }
            default -> false;
        };
    }

    /**
     * ffract(a) = a - ffloor(a), rounded: in [0, 1] for finite a (just below a negative whole
     * number the difference rounds up to 1), +0 for whole numbers and zeros, NaN for
     * infinities and NaN.
     */
    private static Range ffract(Range a) {
        int m = 0;
        int zero = bit(FloatClass.POS_ZERO), frac = bit(FloatClass.ZERO_1), one = bit(FloatClass.ONE);
        for (int c = 0; c < FloatClass.COUNT; c++) {
            if ((a.classes() & bit(c)) == 0) continue;
            m |= switch (c) {
                case FloatClass.NEG_INF, FloatClass.POS_INF, FloatClass.NAN -> bit(FloatClass.NAN);
                case FloatClass.NEG_ZERO, FloatClass.POS_ZERO, FloatClass.NEG1, FloatClass.ONE -> zero;
                case FloatClass.NEG1_0 -> frac | one;
                case FloatClass.ZERO_1 -> frac;
                case FloatClass.GT1 -> a.whole() ? zero : zero | frac;
                default -> a.whole() ? zero : zero | frac | one; // below -1
            };
        }
        return Range.floats(a.bits(), m, false);
    }

    /**
     * sin and cos: monotone on each piece inside [-1, 1] (the corner method applies there);
     * beyond it anything in [-1, 1], zeros included (rounding a tiny sine); NaN for infinities.
     */
    private Range sinCos(Op op, int unsized, Range a) {
        int near = FloatClass.between(FloatClass.NEG1, FloatClass.ONE) | bit(FloatClass.NAN);
        int m = 0;
        if (a.mayBe(near))
            m |= floatBoxes(op, unsized, new Range[] {Range.floats(unsized, a.classes() & near, a.whole())}, Kind.FLOAT)
                    .classes();
        if (a.mayBe(bit(FloatClass.LT_NEG1) | bit(FloatClass.GT1)))
            m |= FloatClass.between(FloatClass.NEG1, FloatClass.ONE);
        if (a.mayBe(bit(FloatClass.NEG_INF) | bit(FloatClass.POS_INF))) m |= bit(FloatClass.NAN);
        return Range.floats(unsized, m, false);
    }
}
