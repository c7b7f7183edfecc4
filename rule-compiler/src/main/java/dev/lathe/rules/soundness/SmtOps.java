package dev.lathe.rules.soundness;

import com.microsoft.z3.BitVecExpr;
import com.microsoft.z3.BoolExpr;
import com.microsoft.z3.Context;
import com.microsoft.z3.FPExpr;
import com.microsoft.z3.FPRMExpr;
import com.microsoft.z3.FPSort;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import java.util.EnumSet;
import java.util.Set;

/**
 * The op table's semantics as SMT terms, one component at a time: every value is a bit-vector
 * of its size, as in the IR. Integer and bit ops are bit-vector terms with Lathe's conventions
 * (shift counts modulo the size, division by zero gives 0, MIN / -1 = MIN); comparisons give a
 * 1-bit vector; float ops read their operands' bits as IEEE values in the FP theory, compute with
 * its correctly rounded operations, and give back bits, a NaN result as the canonical NaN (the
 * op table's choice; whether another NaN may stand there is the prover's question, not this
 * class's). fneg and fabs are bit operations, NaN included; fmin and fmax are spelt out, since
 * the FP theory leaves min(+0, -0) open where the op table orders -0 below +0.
 *
 * <p>Ops in {@link #TESTED_ONLY} (transcendentals, compound float ops, horizontal ops, bit-field
 * extraction) have no encoding: a rule that uses one is reported as tested only. Each encoding
 * is cross-checked against the op table on random operands ({@code SmtOpsTest}).
 */
final class SmtOps {
    /** Changes whenever any encoding changes, so cached proofs made with another are not trusted. */
    static final int VERSION = 2;

    private static final Set<Op> OWN_ENCODED = EnumSet.of(
            Op.MOV,
            Op.VEC2,
            Op.VEC3,
            Op.VEC4,
            Op.VEC8,
            Op.VEC16,
            Op.BCSEL,
            Op.FADD,
            Op.FSUB,
            Op.FMUL,
            Op.FMULZ,
            Op.FDIV,
            Op.FFMA,
            Op.FNEG,
            Op.FABS,
            Op.FSAT,
            Op.FSAT_SIGNED,
            Op.FCLAMP_POS,
            Op.FSIGN,
            Op.FMIN,
            Op.FMAX,
            Op.FMIN3,
            Op.FMAX3,
            Op.FMED3,
            Op.FFLOOR,
            Op.FCEIL,
            Op.FTRUNC,
            Op.FROUND_EVEN,
            Op.FFRACT,
            Op.FRCP,
            Op.FSQRT,
            Op.FISNAN,
            Op.FISFINITE,
            Op.FCSEL,
            Op.FLT,
            Op.FGE,
            Op.FEQ,
            Op.FNEU,
            Op.FLTU,
            Op.FGEU,
            Op.FEQU,
            Op.FNEO,
            Op.FUNORD,
            Op.FORD,
            Op.IADD,
            Op.ISUB,
            Op.IMUL,
            Op.INEG,
            Op.IABS,
            Op.ISIGN,
            Op.IDIV,
            Op.UDIV,
            Op.IREM,
            Op.IMOD,
            Op.UMOD,
            Op.IMIN,
            Op.IMAX,
            Op.UMIN,
            Op.UMAX,
            Op.IMIN3,
            Op.IMAX3,
            Op.UMIN3,
            Op.UMAX3,
            Op.IMED3,
            Op.UMED3,
            Op.IMUL_HIGH,
            Op.UMUL_HIGH,
            Op.IMUL_2X32_64,
            Op.UMUL_2X32_64,
            Op.IADD_SAT,
            Op.UADD_SAT,
            Op.ISUB_SAT,
            Op.USUB_SAT,
            Op.IHADD,
            Op.UHADD,
            Op.IRHADD,
            Op.URHADD,
            Op.UABS_ISUB,
            Op.UABS_USUB,
            Op.IADD3,
            Op.ILT,
            Op.IGE,
            Op.IEQ,
            Op.INE,
            Op.ULT,
            Op.UGE,
            Op.IAND,
            Op.IOR,
            Op.IXOR,
            Op.INOT,
            Op.ISHL,
            Op.ISHR,
            Op.USHR,
            Op.UROL,
            Op.UROR,
            Op.BIT_COUNT,
            Op.FIND_LSB,
            Op.UFIND_MSB,
            Op.IFIND_MSB,
            Op.UCLZ,
            Op.BITFIELD_REVERSE,
            Op.BITFIELD_SELECT,
            Op.EXTRACT_U8,
            Op.EXTRACT_I8,
            Op.EXTRACT_U16,
            Op.EXTRACT_I16,
            Op.INSERT_U8,
            Op.INSERT_U16,
            Op.F2F16,
            Op.F2F16_RTNE,
            Op.F2F16_RTZ,
            Op.F2F32,
            Op.F2F64,
            Op.F2I8,
            Op.F2I16,
            Op.F2I32,
            Op.F2I64,
            Op.F2U8,
            Op.F2U16,
            Op.F2U32,
            Op.F2U64,
            Op.I2F16,
            Op.I2F32,
            Op.I2F64,
            Op.U2F16,
            Op.U2F32,
            Op.U2F64,
            Op.I2I8,
            Op.I2I16,
            Op.I2I32,
            Op.I2I64,
            Op.U2U8,
            Op.U2U16,
            Op.U2U32,
            Op.U2U64,
            Op.B2F16,
            Op.B2F32,
            Op.B2F64,
            Op.B2I8,
            Op.B2I16,
            Op.B2I32,
            Op.B2I64,
            Op.F2B1,
            Op.I2B1,
            Op.PACK_64_2X32_SPLIT,
            Op.PACK_64_2X32_SPLIT_X,
            Op.PACK_64_2X32_SPLIT_Y,
            Op.UNPACK_64_2X32_SPLIT_X,
            Op.UNPACK_64_2X32_SPLIT_Y,
            Op.PACK_32_2X16_SPLIT,
            Op.UNPACK_32_2X16_SPLIT_X,
            Op.UNPACK_32_2X16_SPLIT_Y);

    /** The ops with an encoding here: the table's own and NIR's generic ones. */
    static final Set<Op> ENCODED = union(OWN_ENCODED, Op.NIR_GENERIC);

    private static Set<Op> union(Set<Op> a, Set<Op> b) {
        EnumSet<Op> s = EnumSet.copyOf(a);
        s.addAll(b);
        return java.util.Collections.unmodifiableSet(s);
    }

    /**
     * The ops with no encoding, each on purpose: a rule that uses one is tested on samples only.
     * Every op of the table is in exactly one of {@link #ENCODED} and this ({@code SmtOpsTest}),
     * so an op added to the table is given an encoding or a place here.
     */
    private static final Set<Op> OWN_TESTED_ONLY = EnumSet.of(
            // transcendentals and ops whose error Vulkan bounds but IEEE does not define
            Op.FRSQ,
            Op.FEXP2,
            Op.FLOG2,
            Op.FPOW,
            Op.FSIN,
            Op.FCOS,
            Op.LDEXP,
            Op.FQUANTIZE2F16,
            // compound float ops: each step rounded, spelt out by the rules that lower them
            Op.FLRP,
            Op.FMOD,
            Op.FREM,
            // horizontal ops: several components in, one out
            Op.FDOT2,
            Op.FDOT3,
            Op.FDOT4,
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
            // bit fields with a run-time offset and width
            Op.UBITFIELD_EXTRACT,
            Op.IBITFIELD_EXTRACT,
            Op.BITFIELD_INSERT,
            Op.BFM,
            // packing across components, and the half and normalized conversions
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
            Op.PACK_HALF_2X16_SPLIT,
            Op.UNPACK_HALF_2X16_SPLIT_X,
            Op.UNPACK_HALF_2X16_SPLIT_Y,
            Op.PACK_UNORM_4X8,
            Op.UNPACK_UNORM_4X8,
            Op.PACK_SNORM_4X8,
            Op.UNPACK_SNORM_4X8,
            Op.PACK_UNORM_2X16,
            Op.UNPACK_UNORM_2X16,
            Op.PACK_SNORM_2X16,
            Op.UNPACK_SNORM_2X16);

    /** The ops with no encoding: Lathe's own (above) and NIR's horizontal ones. */
    static final Set<Op> TESTED_ONLY = union(OWN_TESTED_ONLY, Op.NIR_HORIZONTAL);

    private final Context c;

    SmtOps(Context c) {
        this.c = c;
    }

    // ---- bit-vector helpers -------------------------------------------------------------------

    BitVecExpr bv(long value, int n) {
        return c.mkBV(Long.toUnsignedString(value & Bits.mask(n)), n);
    }

    private BitVecExpr bool(BoolExpr b) {
        return (BitVecExpr) c.mkITE(b, bv(1, 1), bv(0, 1));
    }

    private BitVecExpr ite(BoolExpr b, BitVecExpr x, BitVecExpr y) {
        return (BitVecExpr) c.mkITE(b, x, y);
    }

    private BitVecExpr sext(BitVecExpr x, int from, int to) {
        if (to == from) return x;
        return to < from ? c.mkExtract(to - 1, 0, x) : c.mkSignExt(to - from, x);
    }

    private BitVecExpr zext(BitVecExpr x, int from, int to) {
        if (to == from) return x;
        return to < from ? c.mkExtract(to - 1, 0, x) : c.mkZeroExt(to - from, x);
    }

    private BoolExpr isZero(BitVecExpr x, int n) {
        return c.mkEq(x, bv(0, n));
    }

    /** {@code count mod n} as an n-bit value, for a 32-bit count and a power-of-two n. */
    private BitVecExpr countMod(BitVecExpr count, int n) {
        if (n == 1) return bv(0, 1);
        int k = Integer.numberOfTrailingZeros(n);
        return zext(c.mkExtract(k - 1, 0, count), k, n);
    }

    // ---- float helpers ------------------------------------------------------------------------

    FPSort sort(int n) {
        return switch (n) {
            case 16 -> c.mkFPSort16();
            case 32 -> c.mkFPSort32();
            case 64 -> c.mkFPSort64();
            default -> throw new IllegalArgumentException("not a float size: " + n);
        };
    }

    FPExpr fp(BitVecExpr bits, int n) {
        return c.mkFPToFP(bits, sort(n));
    }

    private FPRMExpr rne() {
        return c.mkFPRoundNearestTiesToEven();
    }

    /** The bits of an FP value, a NaN as the canonical NaN. */
    BitVecExpr bits(FPExpr x, int n) {
        return ite(c.mkFPIsNaN(x), bv(FloatBits.canonicalNaN(n), n), c.mkFPToIEEEBV(x));
    }

    private BitVecExpr fconst(double v, int n) {
        return bv(FloatBits.fromDouble(v, n), n);
    }

    private BitVecExpr fmin(BitVecExpr a, BitVecExpr b, int n) {
        FPExpr x = fp(a, n), y = fp(b, n);
        BoolExpr an = c.mkFPIsNaN(x), bn = c.mkFPIsNaN(y);
        BitVecExpr ordered = ite(c.mkFPLt(x, y), a, ite(c.mkFPLt(y, x), b, ite(c.mkFPIsNegative(x), a, b)));
        return ite(an, ite(bn, bv(FloatBits.canonicalNaN(n), n), b), ite(bn, a, ordered));
    }

    private BitVecExpr fmax(BitVecExpr a, BitVecExpr b, int n) {
        FPExpr x = fp(a, n), y = fp(b, n);
        BoolExpr an = c.mkFPIsNaN(x), bn = c.mkFPIsNaN(y);
        BitVecExpr ordered = ite(c.mkFPGt(x, y), a, ite(c.mkFPGt(y, x), b, ite(c.mkFPIsNegative(x), b, a)));
        return ite(an, ite(bn, bv(FloatBits.canonicalNaN(n), n), b), ite(bn, a, ordered));
    }

    // ---- the ops ------------------------------------------------------------------------------

    /**
     * One component of {@code op}'s result.
     *
     * @param n     the size of the op's unsized operands (0 when it has none)
     * @param s     the sources (each of the size the op's signature gives it)
     */
    BitVecExpr apply(Op op, int n, BitVecExpr[] s) {
        // NIR's mediump conversions compute their 16-bit conversion of a 32-bit source
        Op narrow = dev.lathe.ir.op.MediumPrecision.narrow(op);
        if (narrow != null) return apply(narrow, 32, s);
        dev.lathe.ir.op.IntegerDot dot = dev.lathe.ir.op.IntegerDot.of(op);
        if (dot != null) return dot(dot, s[0], s[1], s[2]);
        int out = op.outputBits(n);
        BitVecExpr a = s.length > 0 ? s[0] : null, b = s.length > 1 ? s[1] : null, x = s.length > 2 ? s[2] : null;
        return switch (op) {
            case MOV, VEC2, VEC3, VEC4, VEC8, VEC16 -> a;
            case BCSEL -> ite(c.mkEq(a, bv(1, 1)), b, x);

            case FADD -> bits(c.mkFPAdd(rne(), fp(a, n), fp(b, n)), n);
            case FSUB -> bits(c.mkFPSub(rne(), fp(a, n), fp(b, n)), n);
            case FMUL -> bits(c.mkFPMul(rne(), fp(a, n), fp(b, n)), n);
            case FMULZ ->
                ite(
                        c.mkOr(c.mkFPIsZero(fp(a, n)), c.mkFPIsZero(fp(b, n))),
                        bv(0, n),
                        bits(c.mkFPMul(rne(), fp(a, n), fp(b, n)), n));
            case FDIV -> bits(c.mkFPDiv(rne(), fp(a, n), fp(b, n)), n);
            case FFMA -> bits(c.mkFPFMA(rne(), fp(a, n), fp(b, n), fp(x, n)), n);
            case FRCP -> bits(c.mkFPDiv(rne(), c.mkFP(1.0, sort(n)), fp(a, n)), n);
            case FSQRT -> bits(c.mkFPSqrt(rne(), fp(a, n)), n);
            // Bit operations, NaN included; a number's result is also spelt as the FP theory's
            // negation or absolute value, which lets the solver see -(a * b) as (-a) * b.
            case FNEG ->
                ite(
                        c.mkFPIsNaN(fp(a, n)),
                        c.mkBVXOR(a, bv(FloatBits.signBit(n), n)),
                        c.mkFPToIEEEBV(c.mkFPNeg(fp(a, n))));
            case FABS ->
                ite(
                        c.mkFPIsNaN(fp(a, n)),
                        c.mkBVAND(a, bv(~FloatBits.signBit(n), n)),
                        c.mkFPToIEEEBV(c.mkFPAbs(fp(a, n))));
            case FMIN -> fmin(a, b, n);
            case FMAX -> fmax(a, b, n);
            case FMIN3 -> fmin(fmin(a, b, n), x, n);
            case FMAX3 -> fmax(fmax(a, b, n), x, n);
            case FMED3 -> fmax(fmin(a, b, n), fmin(fmax(a, b, n), x, n), n);
            case FSAT -> fmin(fmax(a, bv(0, n), n), fconst(1.0, n), n);
            case FSAT_SIGNED -> fmin(fmax(a, fconst(-1.0, n), n), fconst(1.0, n), n);
            case FCLAMP_POS -> fmax(a, bv(0, n), n);
            case FSIGN -> {
                FPExpr v = fp(a, n);
                yield ite(
                        c.mkFPIsNaN(v),
                        bv(FloatBits.canonicalNaN(n), n),
                        ite(c.mkFPIsZero(v), a, ite(c.mkFPIsNegative(v), fconst(-1.0, n), fconst(1.0, n))));
            }
            case FFLOOR -> bits(c.mkFPRoundToIntegral(c.mkFPRoundTowardNegative(), fp(a, n)), n);
            case FCEIL -> bits(c.mkFPRoundToIntegral(c.mkFPRoundTowardPositive(), fp(a, n)), n);
            case FTRUNC -> bits(c.mkFPRoundToIntegral(c.mkFPRoundTowardZero(), fp(a, n)), n);
            case FROUND_EVEN -> bits(c.mkFPRoundToIntegral(rne(), fp(a, n)), n);
            case FFRACT ->
                bits(c.mkFPSub(rne(), fp(a, n), c.mkFPRoundToIntegral(c.mkFPRoundTowardNegative(), fp(a, n))), n);
            case FISNAN -> bool(c.mkFPIsNaN(fp(a, n)));
            case FISFINITE -> bool(c.mkNot(c.mkOr(c.mkFPIsNaN(fp(a, n)), c.mkFPIsInfinite(fp(a, n)))));
            case FCSEL -> ite(c.mkFPIsZero(fp(a, n)), x, b);

            case FLT -> bool(c.mkFPLt(fp(a, n), fp(b, n)));
            case FGE -> bool(c.mkFPGEq(fp(a, n), fp(b, n)));
            case FEQ -> bool(c.mkFPEq(fp(a, n), fp(b, n)));
            case FNEU -> bool(c.mkNot(c.mkFPEq(fp(a, n), fp(b, n))));
            case FLTU -> bool(c.mkOr(c.mkFPLt(fp(a, n), fp(b, n)), unordered(a, b, n)));
            case FGEU -> bool(c.mkOr(c.mkFPGEq(fp(a, n), fp(b, n)), unordered(a, b, n)));
            case FEQU -> bool(c.mkOr(c.mkFPEq(fp(a, n), fp(b, n)), unordered(a, b, n)));
            case FNEO -> bool(c.mkAnd(c.mkNot(c.mkFPEq(fp(a, n), fp(b, n))), c.mkNot(unordered(a, b, n))));
            case FUNORD -> bool(unordered(a, b, n));
            case FORD -> bool(c.mkNot(unordered(a, b, n)));

            case IADD -> c.mkBVAdd(a, b);
            case ISUB -> c.mkBVSub(a, b);
            case IMUL -> c.mkBVMul(a, b);
            case INEG -> c.mkBVNeg(a);
            case IABS -> ite(c.mkBVSLT(a, bv(0, n)), c.mkBVNeg(a), a);
            case ISIGN -> ite(c.mkBVSLT(a, bv(0, n)), bv(-1, n), ite(isZero(a, n), bv(0, n), bv(1, n)));
            case IDIV -> ite(isZero(b, n), bv(0, n), c.mkBVSDiv(a, b));
            case UDIV -> ite(isZero(b, n), bv(0, n), c.mkBVUDiv(a, b));
            case IREM -> ite(isZero(b, n), bv(0, n), c.mkBVSRem(a, b));
            case IMOD -> ite(isZero(b, n), bv(0, n), c.mkBVSMod(a, b));
            case UMOD -> ite(isZero(b, n), bv(0, n), c.mkBVURem(a, b));
            case IMIN -> ite(c.mkBVSLT(a, b), a, b);
            case IMAX -> ite(c.mkBVSGT(a, b), a, b);
            case UMIN -> ite(c.mkBVULT(a, b), a, b);
            case UMAX -> ite(c.mkBVUGT(a, b), a, b);
            case IMIN3 -> imin(imin(a, b), x);
            case IMAX3 -> imax(imax(a, b), x);
            case UMIN3 -> umin(umin(a, b), x);
            case UMAX3 -> umax(umax(a, b), x);
            case IMED3 -> imax(imin(a, b), imin(imax(a, b), x));
            case UMED3 -> umax(umin(a, b), umin(umax(a, b), x));
            case IMUL_HIGH -> c.mkExtract(2 * n - 1, n, c.mkBVMul(sext(a, n, 2 * n), sext(b, n, 2 * n)));
            case UMUL_HIGH -> c.mkExtract(2 * n - 1, n, c.mkBVMul(zext(a, n, 2 * n), zext(b, n, 2 * n)));
            case IMUL_2X32_64 -> c.mkBVMul(sext(a, 32, 64), sext(b, 32, 64));
            case UMUL_2X32_64 -> c.mkBVMul(zext(a, 32, 64), zext(b, 32, 64));
            case IADD_SAT -> saturateSigned(c.mkBVAdd(sext(a, n, n + 1), sext(b, n, n + 1)), n);
            case ISUB_SAT -> saturateSigned(c.mkBVSub(sext(a, n, n + 1), sext(b, n, n + 1)), n);
            case UADD_SAT -> {
                BitVecExpr sum = c.mkBVAdd(zext(a, n, n + 1), zext(b, n, n + 1));
                yield ite(c.mkEq(c.mkExtract(n, n, sum), bv(1, 1)), bv(-1, n), c.mkExtract(n - 1, 0, sum));
            }
            case USUB_SAT -> ite(c.mkBVULT(a, b), bv(0, n), c.mkBVSub(a, b));
            case IHADD -> c.mkExtract(n, 1, c.mkBVAdd(sext(a, n, n + 1), sext(b, n, n + 1)));
            case UHADD -> c.mkExtract(n, 1, c.mkBVAdd(zext(a, n, n + 1), zext(b, n, n + 1)));
            case IRHADD -> c.mkExtract(n, 1, c.mkBVAdd(c.mkBVAdd(sext(a, n, n + 1), sext(b, n, n + 1)), bv(1, n + 1)));
            case URHADD -> c.mkExtract(n, 1, c.mkBVAdd(c.mkBVAdd(zext(a, n, n + 1), zext(b, n, n + 1)), bv(1, n + 1)));
            case UABS_ISUB -> {
                BitVecExpr d = c.mkBVSub(sext(a, n, n + 1), sext(b, n, n + 1));
                yield c.mkExtract(n - 1, 0, ite(c.mkBVSLT(d, bv(0, n + 1)), c.mkBVNeg(d), d));
            }
            case UABS_USUB -> ite(c.mkBVUGT(a, b), c.mkBVSub(a, b), c.mkBVSub(b, a));
            case IADD3 -> c.mkBVAdd(c.mkBVAdd(a, b), x);

            case ILT -> bool(c.mkBVSLT(a, b));
            case IGE -> bool(c.mkBVSGE(a, b));
            case IEQ -> bool(c.mkEq(a, b));
            case INE -> bool(c.mkNot(c.mkEq(a, b)));
            case ULT -> bool(c.mkBVULT(a, b));
            case UGE -> bool(c.mkBVUGE(a, b));

            case IAND -> c.mkBVAND(a, b);
            case IOR -> c.mkBVOR(a, b);
            case IXOR -> c.mkBVXOR(a, b);
            case INOT -> c.mkBVNot(a);
            case ISHL -> c.mkBVSHL(a, countMod(b, n));
            case ISHR -> c.mkBVASHR(a, countMod(b, n));
            case USHR -> c.mkBVLSHR(a, countMod(b, n));
            case UROL -> c.mkBVRotateLeft(a, countMod(b, n));
            case UROR -> c.mkBVRotateRight(a, countMod(b, n));
            case BIT_COUNT -> {
                BitVecExpr sum = bv(0, 32);
                for (int i = 0; i < n; i++) sum = c.mkBVAdd(sum, zext(c.mkExtract(i, i, a), 1, 32));
                yield sum;
            }
            case FIND_LSB -> {
                BitVecExpr r = bv(-1, 32);
                for (int i = n - 1; i >= 0; i--) r = ite(c.mkEq(c.mkExtract(i, i, a), bv(1, 1)), bv(i, 32), r);
                yield r;
            }
            case UFIND_MSB -> highestSet(a, n);
            case IFIND_MSB -> highestSet(ite(c.mkBVSLT(a, bv(0, n)), c.mkBVNot(a), a), n);
            case UCLZ -> {
                BitVecExpr r = bv(n, 32);
                for (int i = 0; i < n; i++) r = ite(c.mkEq(c.mkExtract(i, i, a), bv(1, 1)), bv(n - 1 - i, 32), r);
                yield r;
            }
            case BITFIELD_REVERSE -> {
                BitVecExpr r = c.mkExtract(0, 0, a);
                for (int i = 1; i < n; i++) r = c.mkConcat(r, c.mkExtract(i, i, a));
                yield r;
            }
            case BITFIELD_SELECT -> c.mkBVOR(c.mkBVAND(a, b), c.mkBVAND(c.mkBVNot(a), x));
            case EXTRACT_U8, EXTRACT_I8, EXTRACT_U16, EXTRACT_I16 -> {
                int field = op == Op.EXTRACT_U8 || op == Op.EXTRACT_I8 ? 8 : 16;
                BitVecExpr shifted = c.mkBVLSHR(a, c.mkBVMul(fieldIndex(b, n, field), bv(field, n)));
                BitVecExpr v = c.mkExtract(field - 1, 0, shifted);
                boolean signed = op == Op.EXTRACT_I8 || op == Op.EXTRACT_I16;
                yield signed ? sext(v, field, n) : zext(v, field, n);
            }
            case INSERT_U8, INSERT_U16 -> {
                int field = op == Op.INSERT_U8 ? 8 : 16;
                BitVecExpr low = zext(c.mkExtract(field - 1, 0, a), field, n);
                yield c.mkBVSHL(low, c.mkBVMul(fieldIndex(b, n, field), bv(field, n)));
            }

            case F2F16, F2F16_RTNE, F2F32, F2F64 -> bits(c.mkFPToFP(rne(), fp(a, n), sort(out)), out);
            case F2F16_RTZ -> bits(c.mkFPToFP(c.mkFPRoundTowardZero(), fp(a, n), sort(out)), out);
            case F2I8, F2I16, F2I32, F2I64 -> {
                FPExpr v = fp(a, n);
                FPExpr limit = c.mkFP(Math.scalb(1.0, out - 1), sort(n));
                FPExpr low = c.mkFP(-Math.scalb(1.0, out - 1), sort(n));
                yield ite(
                        c.mkFPIsNaN(v),
                        bv(0, out),
                        ite(
                                c.mkFPGEq(v, limit),
                                bv(Bits.maxSigned(out), out),
                                ite(
                                        c.mkFPLEq(v, low),
                                        bv(Bits.minSigned(out), out),
                                        c.mkFPToBV(c.mkFPRoundTowardZero(), v, out, true))));
            }
            case F2U8, F2U16, F2U32, F2U64 -> {
                FPExpr v = fp(a, n);
                FPExpr limit = c.mkFP(Math.scalb(1.0, out), sort(n));
                yield ite(
                        c.mkOr(c.mkFPIsNaN(v), c.mkFPLEq(v, c.mkFP(0.0, sort(n)))),
                        bv(0, out),
                        ite(c.mkFPGEq(v, limit), bv(-1, out), c.mkFPToBV(c.mkFPRoundTowardZero(), v, out, false)));
            }
            case I2F16, I2F32, I2F64 -> bits(c.mkFPToFP(rne(), a, sort(out), true), out);
            case U2F16, U2F32, U2F64 -> bits(c.mkFPToFP(rne(), a, sort(out), false), out);
            case I2I8, I2I16, I2I32, I2I64 -> sext(a, n, out);
            case U2U8, U2U16, U2U32, U2U64 -> zext(a, n, out);
            case B2F16, B2F32, B2F64 -> ite(c.mkEq(a, bv(1, 1)), fconst(1.0, out), bv(0, out));
            case B2I8, B2I16, B2I32, B2I64 -> zext(a, 1, out);
            case F2B1 -> bool(c.mkNot(c.mkFPIsZero(fp(a, n))));
            case I2B1 -> bool(c.mkNot(isZero(a, n)));

            case PACK_64_2X32_SPLIT -> c.mkConcat(b, a);
            case PACK_64_2X32_SPLIT_X -> c.mkConcat(c.mkExtract(63, 32, a), b);
            case PACK_64_2X32_SPLIT_Y -> c.mkConcat(b, c.mkExtract(31, 0, a));
            case UNPACK_64_2X32_SPLIT_X -> c.mkExtract(31, 0, a);
            case UNPACK_64_2X32_SPLIT_Y -> c.mkExtract(63, 32, a);
            case PACK_32_2X16_SPLIT -> c.mkConcat(b, a);
            case UNPACK_32_2X16_SPLIT_X -> c.mkExtract(15, 0, a);
            case UNPACK_32_2X16_SPLIT_Y -> c.mkExtract(31, 16, a);
            // NIR's generic ops (fixed 32-bit ones get n == 0)
            case SEQ -> ite(c.mkFPEq(fp(a, n), fp(b, n)), fconst(1.0, n), fconst(0.0, n));
            case SNE -> ite(c.mkFPEq(fp(a, n), fp(b, n)), fconst(0.0, n), fconst(1.0, n));
            case SLT -> ite(c.mkFPLt(fp(a, n), fp(b, n)), fconst(1.0, n), fconst(0.0, n));
            case SGE -> ite(c.mkFPGEq(fp(a, n), fp(b, n)), fconst(1.0, n), fconst(0.0, n));
            case BITZ, BITNZ -> {
                BitVecExpr bit = c.mkExtract(0, 0, c.mkBVLSHR(a, countModulo(b, n)));
                yield bool(c.mkEq(bit, bv(op == Op.BITZ ? 0 : 1, 1)));
            }
            case UADD_CARRY -> ite(c.mkBVULT(c.mkBVAdd(a, b), a), bv(1, n), bv(0, n));
            case USUB_BORROW -> ite(c.mkBVULT(a, b), bv(1, n), bv(0, n));
            case FFMAZ ->
                ite(
                        c.mkOr(c.mkFPIsZero(fp(a, 32)), c.mkFPIsZero(fp(b, 32))),
                        bits(c.mkFPAdd(rne(), c.mkFPZero(sort(32), false), fp(x, 32)), 32),
                        bits(c.mkFPFMA(rne(), fp(a, 32), fp(b, 32), fp(x, 32)), 32));
            case UFIND_MSB_REV, IFIND_MSB_REV -> {
                BitVecExpr msb = op == Op.UFIND_MSB_REV
                        ? highestSet(a, 32)
                        : highestSet(ite(c.mkBVSLT(a, bv(0, 32)), c.mkBVNot(a), a), 32);
                yield ite(c.mkEq(msb, bv(-1, 32)), bv(-1, 32), c.mkBVSub(bv(31, 32), msb));
            }
            case UBFE, IBFE -> {
                BitVecExpr offset = c.mkBVAND(b, bv(31, 32)), size = c.mkBVAND(x, bv(31, 32));
                BitVecExpr up = c.mkBVSHL(a, c.mkBVSub(c.mkBVSub(bv(32, 32), size), offset));
                BitVecExpr down = c.mkBVSub(bv(32, 32), size);
                boolean signed = op == Op.IBFE;
                BitVecExpr field = signed ? c.mkBVASHR(up, down) : c.mkBVLSHR(up, down);
                BitVecExpr top = signed ? c.mkBVASHR(a, offset) : c.mkBVLSHR(a, offset);
                yield ite(isZero(size, 32), bv(0, 32), ite(c.mkBVULT(c.mkBVAdd(offset, size), bv(32, 32)), field, top));
            }
            case BFI -> {
                BitVecExpr shift = bv(0, 32);
                for (int i = 31; i >= 0; i--) shift = ite(c.mkEq(c.mkExtract(i, i, a), bv(1, 1)), bv(i, 32), shift);
                yield ite(isZero(a, 32), x, c.mkBVOR(c.mkBVAND(x, c.mkBVNot(a)), c.mkBVAND(c.mkBVSHL(b, shift), a)));
            }
            case ICSEL_EQZ -> ite(isZero(a, n), b, x);
            case I32CSEL_GT -> ite(c.mkBVSGT(a, bv(0, 32)), b, x);
            case I32CSEL_GE -> ite(c.mkBVSGE(a, bv(0, 32)), b, x);
            case FCSEL_GT -> ite(c.mkFPGt(fp(a, 32), c.mkFPZero(sort(32), false)), b, x);
            case FCSEL_GE -> ite(c.mkFPGEq(fp(a, 32), c.mkFPZero(sort(32), false)), b, x);
            case FISNORMAL -> bool(c.mkFPIsNormal(fp(a, n)));
            case UMUL24 -> c.mkBVMul(c.mkBVAND(a, bv(0xffffff, 32)), c.mkBVAND(b, bv(0xffffff, 32)));
            case IMUL24 -> c.mkBVMul(signed24(a), signed24(b));
            case UMAD24 -> c.mkBVAdd(c.mkBVMul(c.mkBVAND(a, bv(0xffffff, 32)), c.mkBVAND(b, bv(0xffffff, 32))), x);
            case IMAD24_IR3 -> c.mkBVAdd(c.mkBVMul(signed24(a), signed24(b)), x);
            case UMUL24_RELAXED, IMUL24_RELAXED, AMUL -> c.mkBVMul(a, b);
            case UMAD24_RELAXED, IMAD -> c.mkBVAdd(c.mkBVMul(a, b), x);
            case UMUL_LOW -> c.mkBVMul(c.mkBVAND(a, bv(0xffff, 32)), c.mkBVAND(b, bv(0xffff, 32)));
            case UMUL_32X16 -> c.mkBVMul(a, c.mkBVAND(b, bv(0xffff, 32)));
            case IMUL_32X16 -> c.mkBVMul(a, c.mkBVASHR(c.mkBVSHL(b, bv(16, 32)), bv(16, 32)));
            case UDIV_ALIGNED_4 -> c.mkBVLSHR(a, bv(2, n));
            case I2I1, U2U1 -> c.mkExtract(0, 0, a);
            case SHFR -> c.mkExtract(31, 0, c.mkBVLSHR(c.mkConcat(a, b), c.mkZeroExt(32, c.mkBVAND(x, bv(31, 32)))));
            case PACK_HALF_2X16_RTZ_SPLIT -> c.mkConcat(halfTowardZero(b), halfTowardZero(a));
            case PACK_32_4X8_SPLIT -> c.mkConcat(c.mkConcat(s[3], x), c.mkConcat(b, a));
            case IMADSH_MIX16 ->
                c.mkBVAdd(c.mkBVSHL(c.mkBVMul(c.mkBVAND(a, bv(0xffff, 32)), c.mkBVLSHR(b, bv(16, 32))), bv(16, 32)), x);
            case MSAD_4X8 -> {
                BitVecExpr sum = x;
                for (int i = 0; i < 32; i += 8) {
                    BitVecExpr ref = zext(c.mkExtract(i + 7, i, a), 8, 32), src = zext(c.mkExtract(i + 7, i, b), 8, 32);
                    BitVecExpr diff = ite(c.mkBVUGE(ref, src), c.mkBVSub(ref, src), c.mkBVSub(src, ref));
                    sum = c.mkBVAdd(sum, ite(isZero(ref, 32), bv(0, 32), diff));
                }
                yield sum;
            }
            default -> throw new IllegalArgumentException(op.opName() + " has no SMT encoding");
        };
    }

    /** A float32 to f16 bits toward zero, a NaN to the canonical 0x7e00 (as the op table's {@code Fp16} does). */
    private BitVecExpr halfTowardZero(BitVecExpr a) {
        return ite(
                c.mkFPIsNaN(fp(a, 32)),
                bv(0x7e00, 16),
                bits(c.mkFPToFP(c.mkFPRoundTowardZero(), fp(a, 32), sort(16)), 16));
    }

    /** NIR's integer dot products ({@link dev.lathe.ir.op.IntegerDot}), over 64-bit sums. */
    private BitVecExpr dot(dev.lathe.ir.op.IntegerDot d, BitVecExpr a, BitVecExpr b, BitVecExpr acc) {
        int lane = d.lane();
        boolean aSigned = d.aSigned(), bSigned = d.bSigned(), sat = d.saturating(), unsignedSat = d.unsignedSat();
        BitVecExpr sum = sext(acc, 32, 64);
        for (int i = 0; i < 32; i += lane) {
            BitVecExpr x = c.mkExtract(i + lane - 1, i, a), y = c.mkExtract(i + lane - 1, i, b);
            sum = c.mkBVAdd(
                    sum,
                    c.mkBVMul(
                            aSigned ? sext(x, lane, 64) : zext(x, lane, 64),
                            bSigned ? sext(y, lane, 64) : zext(y, lane, 64)));
        }
        if (!sat) return c.mkExtract(31, 0, sum);
        if (unsignedSat) return ite(c.mkBVUGE(sum, bv(0xffffffffL, 64)), bv(0xffffffffL, 32), c.mkExtract(31, 0, sum));
        return c.mkExtract(
                31,
                0,
                ite(
                        c.mkBVSGT(sum, bv(Integer.MAX_VALUE, 64)),
                        bv(Integer.MAX_VALUE, 64),
                        ite(c.mkBVSLT(sum, bv(Integer.MIN_VALUE, 64)), bv(Integer.MIN_VALUE, 64), sum)));
    }

    private BoolExpr unordered(BitVecExpr a, BitVecExpr b, int n) {
        return c.mkOr(c.mkFPIsNaN(fp(a, n)), c.mkFPIsNaN(fp(b, n)));
    }

    private BitVecExpr imin(BitVecExpr a, BitVecExpr b) {
        return ite(c.mkBVSLT(a, b), a, b);
    }

    private BitVecExpr imax(BitVecExpr a, BitVecExpr b) {
        return ite(c.mkBVSGT(a, b), a, b);
    }

    private BitVecExpr umin(BitVecExpr a, BitVecExpr b) {
        return ite(c.mkBVULT(a, b), a, b);
    }

    private BitVecExpr umax(BitVecExpr a, BitVecExpr b) {
        return ite(c.mkBVUGT(a, b), a, b);
    }

    /** A sum computed in n + 1 bits, clamped to the signed range of n bits. */
    private BitVecExpr saturateSigned(BitVecExpr wide, int n) {
        BitVecExpr max = sext(bv(Bits.maxSigned(n), n), n, n + 1), min = sext(bv(Bits.minSigned(n), n), n, n + 1);
        return c.mkExtract(n - 1, 0, ite(c.mkBVSGT(wide, max), max, ite(c.mkBVSLT(wide, min), min, wide)));
    }

    /** The index of the highest set bit as a 32-bit value, -1 for 0. */
    /** {@code value} at {@code n} bits, where n may pass 64 (two's complement). */
    private BitVecExpr wide(long value, int n) {
        java.math.BigInteger m = java.math.BigInteger.ONE.shiftLeft(n);
        return c.mkBV(java.math.BigInteger.valueOf(value).mod(m).toString(), n);
    }

    /** The low 24 bits of a 32-bit value, sign-extended. */
    private BitVecExpr signed24(BitVecExpr a) {
        return c.mkBVASHR(c.mkBVSHL(a, bv(8, 32)), bv(8, 32));
    }

    /** A 32-bit count modulo an {@code n}-bit size, at {@code n} bits. */
    private BitVecExpr countModulo(BitVecExpr count, int n) {
        if (n == 1) return bv(0, 1);
        int k = Integer.numberOfTrailingZeros(n);
        BitVecExpr low = c.mkExtract(k - 1, 0, count);
        return n > k ? c.mkZeroExt(n - k, low) : low;
    }

    private BitVecExpr highestSet(BitVecExpr a, int n) {
        BitVecExpr r = bv(-1, 32);
        for (int i = 0; i < n; i++) r = ite(c.mkEq(c.mkExtract(i, i, a), bv(1, 1)), bv(i, 32), r);
        return r;
    }

    /** Field number {@code b mod (n / field)} as an n-bit value (the count is a power of two). */
    private BitVecExpr fieldIndex(BitVecExpr b, int n, int field) {
        int count = n / field;
        if (count == 1) return bv(0, n);
        return c.mkBVAND(b, bv(count - 1, n));
    }

    /**
     * {@link Predicate#holds} on a bit-vector {@code x} of {@code n} bits, read as {@code type}
     * ({@code bound}: the literal of the bounded predicates): a rule's condition as an assumption.
     */
    BoolExpr holds(Predicate predicate, TypeClass type, long bound, BitVecExpr x, int n) {
        if (type == TypeClass.FLOAT) {
            FPExpr v = fp(x, n);
            BoolExpr nan = c.mkFPIsNaN(v);
            BoolExpr neg = c.mkEq(c.mkExtract(n - 1, n - 1, x), bv(1, 1));
            FPExpr zero = c.mkFPZero(sort(n), false);
            return switch (predicate) {
                case IS_ZERO -> c.mkFPIsZero(v);
                case IS_NOT_ZERO -> c.mkNot(c.mkFPIsZero(v));
                case IS_NOT_NEGATIVE -> c.mkAnd(c.mkNot(nan), c.mkNot(neg));
                case IS_NOT_POSITIVE -> c.mkAnd(c.mkNot(nan), neg);
                case IS_GT_ZERO -> c.mkFPGt(v, zero);
                case IS_LT_ZERO -> c.mkFPLt(v, zero);
                case IS_GE_ZERO -> c.mkFPGEq(v, zero);
                case IS_LE_ZERO -> c.mkFPLEq(v, zero);
                case IS_FINITE -> c.mkNot(c.mkOr(nan, c.mkFPIsInfinite(v)));
                case IS_A_NUMBER -> c.mkNot(nan);
                case IS_INTEGRAL ->
                    c.mkAnd(
                            c.mkNot(nan),
                            c.mkOr(
                                    c.mkFPIsInfinite(v),
                                    c.mkFPEq(c.mkFPRoundToIntegral(c.mkFPRoundTowardZero(), v), v)));
                case IS_INTEGRAL_OR_NAN ->
                    c.mkOr(nan, c.mkFPIsInfinite(v), c.mkFPEq(c.mkFPRoundToIntegral(c.mkFPRoundTowardZero(), v), v));
                case IS_IN_UNIT_INTERVAL -> c.mkAnd(c.mkNot(nan), c.mkNot(neg), c.mkFPLEq(v, c.mkFP(1.0, sort(n))));
                // one component: some component is a NaN when it is (vector rules are tested only)
                case IS_NAN, IS_ANY_COMP_NAN -> nan;
                case IS_NEGATIVE_ZERO -> c.mkAnd(c.mkFPIsZero(v), neg);
                case IS_GT_0_AND_LT_1 -> c.mkAnd(c.mkFPGt(v, zero), c.mkFPLt(v, c.mkFP(1.0, sort(n))));
                case IS_ZERO_TO_ONE -> c.mkAnd(c.mkFPGEq(v, zero), c.mkFPLEq(v, c.mkFP(1.0, sort(n))));
                case IS_GE_ZERO_OR_NAN -> c.mkOr(nan, c.mkFPGEq(v, zero));
                case IS_GT_ZERO_OR_NAN -> c.mkOr(nan, c.mkFPGt(v, zero));
                case IS_LE_ZERO_OR_NAN -> c.mkOr(nan, c.mkFPLEq(v, zero));
                case IS_LT_ZERO_OR_NAN -> c.mkOr(nan, c.mkFPLt(v, zero));
                case IS_NOT_CONST, IS_NOT_CONST_ZERO, IS_NOT_CONST_AND_NOT_FSIGN, IS_FMUL, IS_NOT_FMUL -> c.mkTrue();
                case HAS_NORMAL_RECIPROCAL ->
                    c.mkAnd(
                            c.mkNot(c.mkOr(nan, c.mkFPIsInfinite(v), c.mkFPIsZero(v))),
                            c.mkFPIsNormal(c.mkFPDiv(c.mkFPRoundNearestTiesToEven(), c.mkFP(1.0, sort(n)), v)));
                default -> throw new IllegalStateException(predicate.spelling() + " does not apply to floats");
            };
        }
        boolean unsigned = type == TypeClass.UINT;
        BitVecExpr zero = bv(0, n);
        BoolExpr isZero = c.mkEq(x, zero);
        return switch (predicate) {
            case IS_POWER_OF_TWO -> powerOfTwo(x, n);
            case IS_NEG_POWER_OF_TWO -> powerOfTwo(c.mkBVNeg(x), n);
            case IS_NEG_POWER_OF_TWO_NOT_MIN ->
                c.mkAnd(
                        c.mkBVSLT(x, bv(0, n)),
                        c.mkNot(c.mkEq(x, bv(Bits.minSigned(n), n))),
                        powerOfTwo(c.mkBVNeg(x), n));
            case IS_FIRST_5_BITS_UGE_2 -> c.mkBVUGE(c.mkBVAND(zext(x, n, 64), bv(0x1f, 64)), bv(2, 64));
            case IS_5LSB_NOT_ZERO -> c.mkNot(c.mkEq(c.mkBVAND(zext(x, n, 64), bv(0x1f, 64)), bv(0, 64)));
            case IS_CONST_BITMASK ->
                c.mkAnd(
                        c.mkEq(c.mkBVAND(x, c.mkBVAdd(x, bv(1, n))), bv(0, n)),
                        c.mkNot(c.mkEq(x, bv(Bits.mask(n), n))));
            case IS_ZERO -> isZero;
            case IS_NOT_ZERO -> c.mkNot(isZero);
            case IS_NOT_NEGATIVE, IS_GE_ZERO, IS_GE_ZERO_OR_NAN -> unsigned ? c.mkTrue() : c.mkBVSGE(x, zero);
            case IS_NOT_POSITIVE, IS_LE_ZERO, IS_LE_ZERO_OR_NAN -> unsigned ? isZero : c.mkBVSLE(x, zero);
            case IS_GT_ZERO, IS_GT_ZERO_OR_NAN -> unsigned ? c.mkNot(isZero) : c.mkBVSGT(x, zero);
            case IS_LT_ZERO, IS_LT_ZERO_OR_NAN -> unsigned ? c.mkFalse() : c.mkBVSLT(x, zero);
            case ULT_CONST -> Long.compareUnsigned(bound, Bits.mask(n)) > 0 ? c.mkTrue() : c.mkBVULT(x, bv(bound, n));
            case IS_UNSIGNED_MULTIPLE_OF -> c.mkEq(c.mkBVURem(zext(x, n, 64), bv(bound, 64)), bv(0, 64));
            case ILT_CONST ->
                bound > Bits.maxSigned(n)
                        ? c.mkTrue()
                        : bound <= Bits.minSigned(n) ? c.mkFalse() : c.mkBVSLT(x, bv(bound, n));
            case IS_ODD -> c.mkEq(c.mkExtract(0, 0, x), bv(1, 1));
            case IS_LOWER_HALF_ZERO -> n < 2 ? c.mkTrue() : c.mkEq(c.mkExtract(n / 2 - 1, 0, x), bv(0, n / 2));
            case IS_UPPER_HALF_ZERO -> c.mkEq(c.mkExtract(n - 1, n / 2, x), bv(0, n - n / 2));
            case IS_LOWER_HALF_NEGATIVE_ONE ->
                n < 2 ? c.mkTrue() : c.mkEq(c.mkExtract(n / 2 - 1, 0, x), bv(Bits.mask(n / 2), n / 2));
            case IS_UPPER_HALF_NEGATIVE_ONE ->
                c.mkEq(c.mkExtract(n - 1, n / 2, x), bv(Bits.mask(n - n / 2), n - n / 2));
            case IS_BITCOUNT2 -> {
                // x has two bits set: clearing its lowest set bit leaves a power of two
                BitVecExpr rest = c.mkBVAND(x, c.mkBVSub(x, bv(1, n)));
                yield c.mkAnd(c.mkNot(isZero), powerOfTwo(rest, n));
            }
            case IS_16_BITS, IS_2X_16_BITS, IS_NEG2X_16_BITS -> {
                // the signed value (times 2, or -2) in two more bits than it has, against the bounds
                BitVecExpr w = c.mkSignExt(2, x);
                if (predicate != Predicate.IS_16_BITS)
                    w = c.mkBVMul(w, wide(predicate == Predicate.IS_2X_16_BITS ? 2 : -2, n + 2));
                yield n + 2 <= 16
                        ? c.mkTrue()
                        : c.mkAnd(c.mkBVSGE(w, wide(-0x8000, n + 2)), c.mkBVSLE(w, wide(0xffff, n + 2)));
            }
            case IS_NOT_CONST, IS_NOT_CONST_ZERO, IS_NOT_CONST_AND_NOT_FSIGN, IS_FMUL, IS_NOT_FMUL -> c.mkTrue();
            default -> throw new IllegalStateException(predicate.spelling() + " does not apply to integers");
        };
    }

    private BoolExpr powerOfTwo(BitVecExpr x, int n) {
        BitVecExpr zero = bv(0, n);
        return c.mkAnd(c.mkNot(c.mkEq(x, zero)), c.mkEq(c.mkBVAND(x, c.mkBVSub(x, bv(1, n))), zero));
    }
}
