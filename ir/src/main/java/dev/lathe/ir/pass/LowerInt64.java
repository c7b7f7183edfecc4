package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * lower_int64: the 64-bit integer ops a target lacks, rebuilt from 32-bit operations on the
 * halves and from the 64-bit operations targets do have (add, multiply, shifts, logic,
 * comparisons, conversions) — NIR's nir_lower_int64.
 *
 * <ul>
 *   <li>Division and remainder use the native double arithmetic rather than NIR's 64 unrolled
 *       shift-and-subtract steps: the quotient's estimate {@code n · (1/d)}, with the reciprocal
 *       from a 32-bit {@code frcp} refined by two Newton–Raphson steps, is scaled down by
 *       1 − 2^-49 (more than its relative error of about 2^-50.2), so it is never too large and
 *       the remainder {@code n − q·d} never wraps; a second estimate on that remainder leaves it
 *       below 2d, and one compare-and-subtract finishes. Signed division and remainder work on
 *       magnitudes and fix the signs as the op table defines them.
 *   <li>Bit counts and searches combine the 32-bit op on each half; the reverse swaps the
 *       reversed halves; the high half of a 128-bit product adds four 32×32→64 partial products,
 *       each a 32-bit multiply and its high half (signed: minus the operand of the other's sign,
 *       as {@code Math.multiplyHigh} relates them).
 *   <li>Bit-field extract and insert, and byte or half-word extract, are 64-bit shifts and masks
 *       with the op table's empty and clipped fields.
 * </ul>
 */
public final class LowerInt64 implements Pass {
    /** Every op this pass can lower. */
    public static final Set<Op> LOWERABLE = Collections.unmodifiableSet(EnumSet.of(
            Op.UDIV,
            Op.UMOD,
            Op.IDIV,
            Op.IREM,
            Op.IMOD,
            Op.BIT_COUNT,
            Op.FIND_LSB,
            Op.UFIND_MSB,
            Op.IFIND_MSB,
            Op.UCLZ,
            Op.BITFIELD_REVERSE,
            Op.IABS,
            Op.ISIGN,
            Op.UMUL_HIGH,
            Op.IMUL_HIGH,
            Op.EXTRACT_U8,
            Op.EXTRACT_I8,
            Op.EXTRACT_U16,
            Op.EXTRACT_I16,
            Op.UBITFIELD_EXTRACT,
            Op.IBITFIELD_EXTRACT,
            Op.BITFIELD_INSERT));

    private final Set<Op> ops;

    public LowerInt64() {
        this(LOWERABLE);
    }

    /** Lowers the 64-bit instructions of these ops; others of {@code ops} are ignored. */
    public LowerInt64(Set<Op> ops) {
        this.ops = LoweringBuilder.within(ops, LOWERABLE);
    }

    @Override
    public boolean run(Function fn) {
        return LoweringBuilder.replace64(fn, ops, (b, a) -> lower(b, a));
    }

    private static Value lower(LoweringBuilder b, AluInstr a) {
        Value x = b.src(a, 0);
        Value y = a.numSrcs() > 1 ? b.src(a, 1) : null;
        return switch (a.op()) {
            case UDIV -> divmod(b, x, y)[0];
            case UMOD -> divmod(b, x, y)[1];
            case IDIV -> {
                Value q = divmod(b, abs(b, x), abs(b, y))[0];
                yield b.sel(b.op(Op.ILT, b.op(Op.IXOR, b.hi(x), b.hi(y)), b.u32(0)), b.op(Op.INEG, q), q);
            }
            case IREM -> irem(b, x, y);
            case IMOD -> {
                Value r = irem(b, x, y);
                Value fix = b.and(b.op(Op.INE, r, b.u64(0)), b.op(Op.ILT, b.op(Op.IXOR, b.hi(r), b.hi(y)), b.u32(0)));
                yield b.sel(fix, b.op(Op.IADD, r, y), r);
            }
            case BIT_COUNT -> b.op(Op.IADD, b.op(Op.BIT_COUNT, b.lo(x)), b.op(Op.BIT_COUNT, b.hi(x)));
            case FIND_LSB -> {
                Value l = b.lo(x);
                // find_lsb(0) = -1 keeps every bit when or-ed with 32
                yield b.sel(
                        b.op(Op.INE, l, b.u32(0)), b.op(Op.FIND_LSB, l), b.or(b.op(Op.FIND_LSB, b.hi(x)), b.u32(32)));
            }
            case UFIND_MSB -> findMsb(b, b.lo(x), b.hi(x));
            case IFIND_MSB -> {
                Value s = b.op(Op.ISHR, b.hi(x), b.u32(31));
                yield findMsb(b, b.op(Op.IXOR, b.lo(x), s), b.op(Op.IXOR, b.hi(x), s));
            }
            case UCLZ -> {
                Value h = b.hi(x);
                yield b.sel(
                        b.op(Op.INE, h, b.u32(0)), b.op(Op.UCLZ, h), b.op(Op.IADD, b.op(Op.UCLZ, b.lo(x)), b.u32(32)));
            }
            case BITFIELD_REVERSE -> b.pack(b.op(Op.BITFIELD_REVERSE, b.hi(x)), b.op(Op.BITFIELD_REVERSE, b.lo(x)));
            case IABS -> abs(b, x);
            case ISIGN -> {
                Value zero = b.op(Op.IEQ, b.or(b.lo(x), b.hi(x)), b.u32(0));
                yield b.sel(b.op(Op.ILT, b.hi(x), b.u32(0)), b.u64(-1), b.sel(zero, b.u64(0), b.u64(1)));
            }
            case UMUL_HIGH -> umulHigh(b, x, y);
            case IMUL_HIGH -> {
                Value h = umulHigh(b, x, y);
                h = b.op(Op.ISUB, h, b.sel(b.op(Op.ILT, b.hi(x), b.u32(0)), y, b.u64(0)));
                yield b.op(Op.ISUB, h, b.sel(b.op(Op.ILT, b.hi(y), b.u32(0)), x, b.u64(0)));
            }
            case EXTRACT_U8, EXTRACT_I8, EXTRACT_U16, EXTRACT_I16 -> extract(b, a.op(), x, y);
            case UBITFIELD_EXTRACT, IBITFIELD_EXTRACT ->
                bitfieldExtract(b, a.op() == Op.IBITFIELD_EXTRACT, x, b.src(a, 1), b.src(a, 2));
            case BITFIELD_INSERT -> bitfieldInsert(b, x, y, b.src(a, 2), b.src(a, 3));
            default -> throw new IllegalStateException("lower_int64 has no lowering for " + a.opName());
        };
    }

    private static Value abs(LoweringBuilder b, Value x) {
        return b.sel(b.op(Op.ILT, b.hi(x), b.u32(0)), b.op(Op.INEG, x), x);
    }

    private static Value irem(LoweringBuilder b, Value x, Value y) {
        Value r = divmod(b, abs(b, x), abs(b, y))[1];
        return b.sel(b.op(Op.ILT, b.hi(x), b.u32(0)), b.op(Op.INEG, r), r);
    }

    /** The index of the highest set bit of (lo, hi), -1 when both are 0. */
    private static Value findMsb(LoweringBuilder b, Value lo, Value hi) {
        return b.sel(b.op(Op.INE, hi, b.u32(0)), b.or(b.op(Op.UFIND_MSB, hi), b.u32(32)), b.op(Op.UFIND_MSB, lo));
    }

    /** {quotient, remainder} of unsigned n / d; both 0 when d is 0. */
    static Value[] divmod(LoweringBuilder b, Value n, Value d) {
        Value y = b.reciprocal(b.op(Op.U2F64, d));
        Value shrink = b.f64(1.0 - 0x1p-49);
        Value q0 = b.op(Op.F2U64, b.op(Op.FMUL, b.op(Op.FMUL, b.op(Op.U2F64, n), y), shrink));
        Value r = b.op(Op.ISUB, n, b.op(Op.IMUL, q0, d));
        Value q1 = b.op(Op.F2U64, b.op(Op.FMUL, b.op(Op.FMUL, b.op(Op.U2F64, r), y), shrink));
        r = b.op(Op.ISUB, r, b.op(Op.IMUL, q1, d));
        Value q = b.op(Op.IADD, q0, q1);
        Value more = b.op(Op.UGE, r, d);
        q = b.sel(more, b.op(Op.IADD, q, b.u64(1)), q);
        r = b.sel(more, b.op(Op.ISUB, r, d), r);
        Value zero = b.op(Op.IEQ, d, b.u64(0));
        return new Value[] {b.sel(zero, b.u64(0), q), b.sel(zero, b.u64(0), r)};
    }

    /** The high 64 bits of the unsigned 128-bit product, from four 32×32→64 products. */
    private static Value umulHigh(LoweringBuilder b, Value x, Value y) {
        Value x0 = b.lo(x), x1 = b.hi(x), y0 = b.lo(y), y1 = b.hi(y);
        Value p00 = product(b, x0, y0), p01 = product(b, x0, y1), p10 = product(b, x1, y0), p11 = product(b, x1, y1);
        Value mid = b.op(
                Op.IADD,
                b.op(Op.IADD, b.op(Op.U2U64, b.hi(p00)), b.op(Op.U2U64, b.lo(p01))),
                b.op(Op.U2U64, b.lo(p10)));
        Value high = b.op(Op.IADD, p11, b.op(Op.IADD, b.op(Op.U2U64, b.hi(p01)), b.op(Op.U2U64, b.hi(p10))));
        return b.op(Op.IADD, high, b.op(Op.U2U64, b.hi(mid)));
    }

    /** The 64-bit product of two 32-bit values: its low and high words. */
    private static Value product(LoweringBuilder b, Value x, Value y) {
        return b.pack(b.op(Op.IMUL, x, y), b.op(Op.UMUL_HIGH, x, y));
    }

    /** Byte or half-word (y mod count) of x, zero- or sign-extended. */
    private static Value extract(LoweringBuilder b, Op op, Value x, Value y) {
        int field = op == Op.EXTRACT_U8 || op == Op.EXTRACT_I8 ? 8 : 16;
        boolean signed = op == Op.EXTRACT_I8 || op == Op.EXTRACT_I16;
        Value idx = b.and(b.lo(y), b.u32(64 / field - 1));
        Value shift = b.op(Op.IMUL, idx, b.u32(field));
        if (!signed) return b.and(b.op(Op.USHR, x, shift), b.u64((1L << field) - 1));
        Value up = b.op(Op.ISUB, b.u32(64 - field), shift);
        return b.op(Op.ISHR, b.op(Op.ISHL, x, up), b.u32(64 - field));
    }

    /** The field's width: min(count, 64 − offset) when offset < 64 and count > 0 (unsigned), else 0. */
    private static Value width(LoweringBuilder b, Value offset, Value count) {
        Value w = b.op(Op.UMIN, count, b.op(Op.ISUB, b.u32(64), offset));
        return b.sel(b.op(Op.ULT, offset, b.u32(64)), w, b.u32(0));
    }

    private static Value bitfieldExtract(LoweringBuilder b, boolean signed, Value x, Value offset, Value count) {
        Value w = width(b, offset, count);
        Value empty = b.op(Op.IEQ, w, b.u32(0));
        Value shifted = b.op(Op.USHR, x, offset);
        Value up = b.op(Op.ISUB, b.u32(64), w); // 0..63 when the field is not empty
        Value field =
                signed ? b.op(Op.ISHR, b.op(Op.ISHL, shifted, up), up) : b.and(shifted, b.op(Op.USHR, b.u64(-1), up));
        return b.sel(empty, b.u64(0), field);
    }

    private static Value bitfieldInsert(LoweringBuilder b, Value base, Value insert, Value offset, Value count) {
        Value w = width(b, offset, count);
        Value mask = b.op(Op.ISHL, b.op(Op.USHR, b.u64(-1), b.op(Op.ISUB, b.u32(64), w)), offset);
        Value merged = b.or(b.and(base, b.op(Op.INOT, mask)), b.and(b.op(Op.ISHL, insert, offset), mask));
        return b.sel(b.op(Op.IEQ, w, b.u32(0)), base, merged);
    }
}
