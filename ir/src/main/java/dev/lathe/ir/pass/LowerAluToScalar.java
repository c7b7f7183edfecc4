package dev.lathe.ir.pass;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;

/**
 * lower_alu_to_scalar: splits vector ALU instructions into one instruction per component, for
 * scalar backends.
 *
 * <p>A per-component op on N components becomes N scalar ops, each reading component c of every
 * source through its swizzle ({@code fadd x.yz, y.xx} gives {@code fadd x.y, y.x} and
 * {@code fadd x.z, y.x}), and a {@code vecN} gathers the results for the users (copy_prop then
 * reads through it). A vector {@code mov} becomes the {@code vecN} directly. Horizontal ops
 * with scalar equivalents are expanded into exactly the steps the op table defines them by, so
 * the results are bit-identical: {@code fdotN} into {@code fmul} and {@code fadd} left to right,
 * {@code fdph}, the all/any comparisons into per-component compares joined with
 * {@code iand}/{@code ior} (NIR's float {@code fall_equalN} then {@code b2f32}), {@code fsumN} into
 * {@code fadd} left to right, the replicated dot products into one dot product gathered 4 times, NIR's {@code pack_uint_2x16} and {@code pack_uvecN_to_uint} into
 * clamps, masks, shifts and ors, the 64-bit and half packs into their {@code _split} forms, and the
 * packs of 8- and 16-bit fields ({@code pack_32_4x8}, {@code pack_32_2x16} and their unpacks)
 * into conversions, shifts and ors, and GLSL's unorm/snorm packs and unpacks into the float
 * steps the op table defines them by (clamp, scale, round to nearest even, convert, place the
 * field; or take the field, convert, divide, clamp at -1). The exact flag is kept on every
 * piece. The other horizontal op, vecN, stays.
 */
final class LowerAluToScalar implements Pass {

    @Override
    public boolean run(Function fn) {
        boolean progress = false;
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (i instanceof AluInstr alu) progress |= lower(fn, alu);
            }
        }
        return progress;
    }

    private static boolean lower(Function fn, AluInstr alu) {
        Op op = alu.op();
        Value d = alu.def();
        Value replacement;
        if (!op.isHorizontal()) {
            if (d.numComponents() == 1) return false;
            Value[] parts = new Value[d.numComponents()];
            for (int c = 0; c < parts.length; c++) {
                if (op == Op.MOV) {
                    parts[c] = null;
                    continue;
                }
                Value[] srcs = new Value[alu.numSrcs()];
                byte[][] swz = new byte[alu.numSrcs()][];
                for (int k = 0; k < srcs.length; k++) {
                    srcs[k] = alu.src(k).value();
                    swz[k] = new byte[] {(byte) alu.src(k).component(c)};
                }
                parts[c] = emit(fn, alu, op, d.bitSize(), srcs, swz);
            }
            replacement = op == Op.MOV ? gather(fn, alu, alu.src(0), d) : gather(fn, alu, parts, d);
        } else {
            replacement = switch (op) {
                case FDOT2, FDOT3, FDOT4 -> dot(fn, alu, op.input(0).components(), false);
                case FDPH -> dot(fn, alu, 3, true);
                case FDOT8, FDOT16 -> dot(fn, alu, op.input(0).components(), false);
                case FSUM2, FSUM3, FSUM4 -> sum(fn, alu);
                case FDOT2_REPLICATED, FDOT3_REPLICATED, FDOT4_REPLICATED ->
                    splat(fn, alu, dot(fn, alu, op.input(0).components(), false));
                case FDPH_REPLICATED -> splat(fn, alu, dot(fn, alu, 3, true));
                case FALL_EQUAL2, FALL_EQUAL3, FALL_EQUAL4, FALL_EQUAL8, FALL_EQUAL16 ->
                    unary(fn, alu, Op.B2F32, 32, reduce(fn, alu, Op.FEQ, Op.IAND), 0);
                case FANY_NEQUAL2, FANY_NEQUAL3, FANY_NEQUAL4, FANY_NEQUAL8, FANY_NEQUAL16 ->
                    unary(fn, alu, Op.B2F32, 32, reduce(fn, alu, Op.FNEU, Op.IOR), 0);
                case PACK_UINT_2X16 -> packUint2x16(fn, alu);
                case PACK_UVEC2_TO_UINT -> packUvecToUint(fn, alu, 2, 16, 0xffff);
                case PACK_UVEC4_TO_UINT -> packUvecToUint(fn, alu, 4, 8, 0);
                case BALL_FEQUAL2, BALL_FEQUAL3, BALL_FEQUAL4, BALL_FEQUAL8, BALL_FEQUAL16 ->
                    reduce(fn, alu, Op.FEQ, Op.IAND);
                case BANY_FNEQUAL2, BANY_FNEQUAL3, BANY_FNEQUAL4, BANY_FNEQUAL8, BANY_FNEQUAL16 ->
                    reduce(fn, alu, Op.FNEU, Op.IOR);
                case BALL_IEQUAL2, BALL_IEQUAL3, BALL_IEQUAL4, BALL_IEQUAL8, BALL_IEQUAL16 ->
                    reduce(fn, alu, Op.IEQ, Op.IAND);
                case BANY_INEQUAL2, BANY_INEQUAL3, BANY_INEQUAL4, BANY_INEQUAL8, BANY_INEQUAL16 ->
                    reduce(fn, alu, Op.INE, Op.IOR);
                case PACK_64_2X32 -> packSplit(fn, alu, Op.PACK_64_2X32_SPLIT);
                case PACK_32_2X16 -> packFields(fn, alu, 2, 16);
                case PACK_HALF_2X16 -> packSplit(fn, alu, Op.PACK_HALF_2X16_SPLIT);
                case UNPACK_64_2X32 -> unpackSplit(fn, alu, Op.UNPACK_64_2X32_SPLIT_X, Op.UNPACK_64_2X32_SPLIT_Y);
                case UNPACK_32_2X16 -> unpackFields(fn, alu, 2, 16);
                case UNPACK_HALF_2X16 -> unpackSplit(fn, alu, Op.UNPACK_HALF_2X16_SPLIT_X, Op.UNPACK_HALF_2X16_SPLIT_Y);
                case PACK_32_4X8 -> packFields(fn, alu, 4, 8);
                case UNPACK_32_4X8 -> unpackFields(fn, alu, 4, 8);
                case PACK_UNORM_4X8 -> packNorm(fn, alu, 4, 8, false);
                case PACK_SNORM_4X8 -> packNorm(fn, alu, 4, 8, true);
                case PACK_UNORM_2X16 -> packNorm(fn, alu, 2, 16, false);
                case PACK_SNORM_2X16 -> packNorm(fn, alu, 2, 16, true);
                case UNPACK_UNORM_4X8 -> unpackNorm(fn, alu, 4, 8, false);
                case UNPACK_SNORM_4X8 -> unpackNorm(fn, alu, 4, 8, true);
                case UNPACK_UNORM_2X16 -> unpackNorm(fn, alu, 2, 16, false);
                case UNPACK_SNORM_2X16 -> unpackNorm(fn, alu, 2, 16, true);
                default -> null;
            };
            if (replacement == null) return false;
        }
        d.replaceAllUsesWith(replacement);
        alu.remove();
        return true;
    }

    /** A scalar instruction before {@code at}, with {@code at}'s exact mark and flags. */
    private static Value emit(Function fn, AluInstr at, Op op, int bits, Value[] srcs, byte[][] swz) {
        AluInstr i = new AluInstr(fn, op, 1, bits, srcs, swz);
        i.copyFlagsFrom(at);
        i.insertBefore(at);
        return i.def();
    }

    private static Value scalar(Function fn, AluInstr at, Op op, int bits, Value a, int ca, Value b, int cb) {
        return emit(fn, at, op, bits, new Value[] {a, b}, new byte[][] {{(byte) ca}, {(byte) cb}});
    }

    private static Op vecOp(int n) {
        return switch (n) {
            case 2 -> Op.VEC2;
            case 3 -> Op.VEC3;
            case 4 -> Op.VEC4;
            case 8 -> Op.VEC8;
            default -> Op.VEC16;
        };
    }

    private static Value gather(Function fn, AluInstr at, Value[] parts, Value d) {
        byte[][] swz = new byte[parts.length][];
        for (int c = 0; c < parts.length; c++) swz[c] = new byte[] {0};
        AluInstr v = new AluInstr(fn, vecOp(parts.length), parts.length, d.bitSize(), parts, swz);
        v.insertBefore(at);
        return v.def();
    }

    /** A vector mov: the vecN reads the components straight from the source. */
    private static Value gather(Function fn, AluInstr at, Src src, Value d) {
        int n = d.numComponents();
        Value[] vals = new Value[n];
        byte[][] swz = new byte[n][];
        for (int c = 0; c < n; c++) {
            vals[c] = src.value();
            swz[c] = new byte[] {(byte) src.component(c)};
        }
        AluInstr v = new AluInstr(fn, vecOp(n), n, d.bitSize(), vals, swz);
        v.insertBefore(at);
        return v.def();
    }

    /** a.x*b.x + a.y*b.y + …, left to right (+ b.w for fdph), each step rounded as the op table does. */
    private static Value dot(Function fn, AluInstr alu, int n, boolean homogeneous) {
        int bits = alu.def().bitSize();
        Src a = alu.src(0), b = alu.src(1);
        Value acc = scalar(fn, alu, Op.FMUL, bits, a.value(), a.component(0), b.value(), b.component(0));
        for (int i = 1; i < n; i++) {
            Value p = scalar(fn, alu, Op.FMUL, bits, a.value(), a.component(i), b.value(), b.component(i));
            acc = scalar(fn, alu, Op.FADD, bits, acc, 0, p, 0);
        }
        if (homogeneous) acc = scalar(fn, alu, Op.FADD, bits, acc, 0, b.value(), b.component(3));
        return acc;
    }

    /** A replicated dot product: the one scalar in each component of the result. */
    private static Value splat(Function fn, AluInstr alu, Value scalar) {
        Value[] parts = new Value[alu.def().numComponents()];
        java.util.Arrays.fill(parts, scalar);
        return gather(fn, alu, parts, alu.def());
    }

    /** fsumN: a.x + a.y + …, left to right, each step rounded as the op table does. */
    private static Value sum(Function fn, AluInstr alu) {
        int bits = alu.def().bitSize();
        Src a = alu.src(0);
        Value acc = scalar(fn, alu, Op.FADD, bits, a.value(), a.component(0), a.value(), a.component(1));
        for (int i = 2; i < a.numComponentsRead(); i++)
            acc = scalar(fn, alu, Op.FADD, bits, acc, 0, a.value(), a.component(i));
        return acc;
    }

    /** pack_uint_2x16: umin(a.x, 0xffff) | umin(a.y, 0xffff) << 16. */
    private static Value packUint2x16(Function fn, AluInstr alu) {
        Src a = alu.src(0);
        IrBuilder k = new IrBuilder(fn).before(alu);
        Value max = k.constant(32, 0xffffL);
        Value lo = scalar(fn, alu, Op.UMIN, 32, a.value(), a.component(0), max, 0);
        Value hi = scalar(fn, alu, Op.UMIN, 32, a.value(), a.component(1), max, 0);
        Value up = scalar(fn, alu, Op.ISHL, 32, hi, 0, k.constant(32, 16L), 0);
        return scalar(fn, alu, Op.IOR, 32, lo, 0, up, 0);
    }

    /**
     * pack_uvec2_to_uint (x masked to 16 bits, y shifted by 16) and pack_uvec4_to_uint (shifts
     * of 0, 8, 16, 24, nothing masked): component c shifted by {@code width * c}, or-ed; the
     * first masked when {@code mask} is not 0.
     */
    private static Value packUvecToUint(Function fn, AluInstr alu, int n, int width, long mask) {
        Src a = alu.src(0);
        IrBuilder k = new IrBuilder(fn).before(alu);
        Value acc = mask != 0
                ? scalar(fn, alu, Op.IAND, 32, a.value(), a.component(0), k.constant(32, mask), 0)
                : unary(fn, alu, Op.MOV, 32, a.value(), a.component(0));
        for (int c = 1; c < n; c++) {
            Value w = scalar(fn, alu, Op.ISHL, 32, a.value(), a.component(c), k.constant(32, (long) width * c), 0);
            acc = scalar(fn, alu, Op.IOR, 32, acc, 0, w, 0);
        }
        return acc;
    }

    /** Per-component comparisons joined with iand (all) or ior (any). */
    private static Value reduce(Function fn, AluInstr alu, Op compare, Op join) {
        Src a = alu.src(0), b = alu.src(1);
        int n = a.numComponentsRead();
        Value acc = scalar(fn, alu, compare, 1, a.value(), a.component(0), b.value(), b.component(0));
        for (int i = 1; i < n; i++) {
            Value c = scalar(fn, alu, compare, 1, a.value(), a.component(i), b.value(), b.component(i));
            acc = scalar(fn, alu, join, 1, acc, 0, c, 0);
        }
        return acc;
    }

    /** pack(a.xy) as pack_split(a.x, a.y). */
    private static Value packSplit(Function fn, AluInstr alu, Op split) {
        Src a = alu.src(0);
        return scalar(fn, alu, split, alu.def().bitSize(), a.value(), a.component(0), a.value(), a.component(1));
    }

    /**
     * A pack of {@code n} fields of {@code width} bits into 32 ({@code pack_32_4x8},
     * {@code pack_32_2x16}): u2u32(a.x) | u2u32(a.y) << width | …, which the target computes.
     */
    private static Value packFields(Function fn, AluInstr alu, int n, int width) {
        Src a = alu.src(0);
        IrBuilder k = new IrBuilder(fn).before(alu); // the shift counts
        Value acc = null;
        for (int c = 0; c < n; c++) {
            Value w = emit(fn, alu, Op.U2U32, 32, new Value[] {a.value()}, new byte[][] {{(byte) a.component(c)}});
            if (c > 0) w = scalar(fn, alu, Op.ISHL, 32, w, 0, k.constant(32, (long) width * c), 0);
            acc = acc == null ? w : scalar(fn, alu, Op.IOR, 32, acc, 0, w, 0);
        }
        return acc;
    }

    /** The inverse: vecN(u2uW(a), u2uW(a >> width), …). */
    private static Value unpackFields(Function fn, AluInstr alu, int n, int width) {
        Src a = alu.src(0);
        IrBuilder k = new IrBuilder(fn).before(alu); // the shift counts
        Op narrow = width == 8 ? Op.U2U8 : Op.U2U16;
        Value[] fields = new Value[n];
        for (int c = 0; c < n; c++) {
            Value w = a.value();
            int comp = a.component(0);
            if (c > 0) {
                w = scalar(fn, alu, Op.USHR, 32, w, comp, k.constant(32, (long) width * c), 0);
                comp = 0;
            }
            fields[c] = emit(fn, alu, narrow, width, new Value[] {w}, new byte[][] {{(byte) comp}});
        }
        return gather(fn, alu, fields, alu.def());
    }

    /** A one-source scalar instruction before {@code at}. */
    private static Value unary(Function fn, AluInstr at, Op op, int bits, Value a, int ca) {
        return emit(fn, at, op, bits, new Value[] {a}, new byte[][] {{(byte) ca}});
    }

    /** The largest value of a {@code width}-bit field: 2^width - 1 unsigned, 2^(width-1) - 1 signed. */
    private static float fieldMax(int width, boolean signed) {
        return signed ? (1 << (width - 1)) - 1 : (float) ((1L << width) - 1);
    }

    /**
     * GLSL packUnorm/packSnorm of {@code n} fields of {@code width} bits: each component clamped
     * (unorm: fsat; snorm: to [-1, 1], a NaN to 0), times the field's maximum, rounded to nearest
     * even, converted, and its low {@code width} bits or'ed into place.
     */
    private static Value packNorm(Function fn, AluInstr alu, int n, int width, boolean signed) {
        Src a = alu.src(0);
        IrBuilder k = new IrBuilder(fn).before(alu); // the constants
        Value max = k.f32(fieldMax(width, signed));
        // the constants every component reads, made once
        Value one = signed ? k.f32(1f) : null, minusOne = signed ? k.f32(-1f) : null, zero = signed ? k.f32(0f) : null;
        Value up = signed ? k.i32(32 - width) : null;
        Value acc = null;
        for (int c = 0; c < n; c++) {
            Value x = a.value();
            int comp = a.component(c);
            Value clamped;
            if (signed) {
                Value lo = scalar(fn, alu, Op.FMIN, 32, x, comp, one, 0);
                Value both = scalar(fn, alu, Op.FMAX, 32, lo, 0, minusOne, 0);
                Value nan = scalar(fn, alu, Op.FNEU, 1, x, comp, x, comp);
                clamped = emit(fn, alu, Op.BCSEL, 32, new Value[] {nan, zero, both}, new byte[][] {{0}, {0}, {0}});
            } else {
                clamped = unary(fn, alu, Op.FSAT, 32, x, comp);
            }
            Value rounded = unary(fn, alu, Op.FROUND_EVEN, 32, scalar(fn, alu, Op.FMUL, 32, clamped, 0, max, 0), 0);
            Value q = unary(fn, alu, signed ? Op.F2I32 : Op.F2U32, 32, rounded, 0);
            Value placed;
            if (signed) {
                // the low width bits of a two's complement field: up to the top, then down into place
                Value top = scalar(fn, alu, Op.ISHL, 32, q, 0, up, 0);
                placed = scalar(fn, alu, Op.USHR, 32, top, 0, k.i32(32 - width - width * c), 0);
            } else {
                placed = c == 0 ? q : scalar(fn, alu, Op.ISHL, 32, q, 0, k.i32(width * c), 0);
            }
            acc = acc == null ? placed : scalar(fn, alu, Op.IOR, 32, acc, 0, placed, 0);
        }
        return acc;
    }

    /**
     * GLSL unpackUnorm/unpackSnorm: field {@code c} shifted down and masked (unorm) or sign-extended
     * (snorm: up to the top, then arithmetically down), converted, divided by the field's maximum,
     * and (snorm) clamped at -1.
     */
    private static Value unpackNorm(Function fn, AluInstr alu, int n, int width, boolean signed) {
        Src a = alu.src(0);
        IrBuilder k = new IrBuilder(fn).before(alu); // the constants
        Value max = k.f32(fieldMax(width, signed));
        // the constants every field reads, made once
        Value down = signed ? k.i32(32 - width) : null, minusOne = signed ? k.f32(-1f) : null;
        Value mask = signed ? null : k.i32((int) ((1L << width) - 1));
        Value[] out = new Value[n];
        for (int c = 0; c < n; c++) {
            Value field;
            if (signed) {
                Value up = scalar(fn, alu, Op.ISHL, 32, a.value(), a.component(0), k.i32(32 - width - width * c), 0);
                field = scalar(fn, alu, Op.ISHR, 32, up, 0, down, 0);
            } else {
                Value shifted = a.value();
                int comp = a.component(0);
                if (c > 0) {
                    shifted = scalar(fn, alu, Op.USHR, 32, shifted, comp, k.i32(width * c), 0);
                    comp = 0;
                }
                field = scalar(fn, alu, Op.IAND, 32, shifted, comp, mask, 0);
            }
            Value f = unary(fn, alu, signed ? Op.I2F32 : Op.U2F32, 32, field, 0);
            Value q = scalar(fn, alu, Op.FDIV, 32, f, 0, max, 0);
            out[c] = signed ? scalar(fn, alu, Op.FMAX, 32, q, 0, minusOne, 0) : q;
        }
        return gather(fn, alu, out, alu.def());
    }

    /** unpack(a) as vec2(unpack_split_x(a), unpack_split_y(a)). */
    private static Value unpackSplit(Function fn, AluInstr alu, Op x, Op y) {
        Src a = alu.src(0);
        int bits = alu.def().bitSize();
        byte[][] sw = {{(byte) a.component(0)}};
        Value lo = emit(fn, alu, x, bits, new Value[] {a.value()}, sw);
        Value hi = emit(fn, alu, y, bits, new Value[] {a.value()}, sw);
        return gather(fn, alu, new Value[] {lo, hi}, alu.def());
    }
}
