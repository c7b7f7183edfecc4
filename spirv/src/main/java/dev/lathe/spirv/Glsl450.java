package dev.lathe.spirv;

import static dev.lathe.spirv.Glsl450Ops.*;

import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The GLSL.std.450 extended instructions, lowered to op-table ops the way NIR lowers them:
 * exp(x) = exp2(x·log2 e), normalize(v) = v·rsq(v·v), smoothstep as the Hermite cubic on the
 * clamped ratio, mix as flrp, clamp as min(max(x, lo), hi), determinants by cofactors, and so on.
 * atan, atan2, asin and acos use a polynomial (Abramowitz and Stegun 4.4.49) as NIR does;
 * inverse is the adjugate times the reciprocal of the determinant (as NIR lowers it); frexp
 * works on the word holding the exponent (32-bit floats and doubles), ldexp and modf on the bits
 * of 32-bit floats, and ldexp of doubles is the op-table op {@code ldexp} (see each method).
 */
final class Glsl450 {
    private Glsl450() {}

    static Val translate(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        int inst = m.arg(i, 3);
        switch (inst) {
            case MatrixInverse -> {
                return inverse(t, i, Matrices.columns(t, i, 4));
            }
            case Modf, ModfStruct -> { // modf(x, out whole) returns the fraction; ModfStruct returns {fraction, whole}
                Value x = t.simple(i, t.val(i, m.id(i, 4)));
                Value whole = b.alu(Op.FTRUNC, x);
                // x - trunc(x), but ±0 (not NaN) for infinities, as C's modf
                Value inf = f(b, x, Double.POSITIVE_INFINITY);
                Value fract =
                        b.alu(Op.BCSEL, b.alu(Op.FEQ, b.alu(Op.FABS, x), inf), f(b, x, 0), b.alu(Op.FSUB, x, whole));
                if (inst == ModfStruct) return new Val.Composite(List.of(new Val.Simple(fract), new Val.Simple(whole)));
                need(t, i, 6);
                t.store(i, t.pointer(i, m.id(i, 5)), new Val.Simple(whole));
                return new Val.Simple(fract);
            }
            case Frexp, FrexpStruct -> { // frexp(x, out exp) gives the significand; FrexpStruct {significand, exp}
                Value x = t.simple(i, t.val(i, m.id(i, 4)));
                Value[] se = frexp(t, i, x);
                if (inst == FrexpStruct)
                    return new Val.Composite(List.of(new Val.Simple(se[0]), new Val.Simple(se[1])));
                need(t, i, 6);
                t.store(i, t.pointer(i, m.id(i, 5)), new Val.Simple(se[1]));
                return new Val.Simple(se[0]);
            }
            default -> {}
        }
        List<Val> args = new ArrayList<>();
        for (int k = 4; k < i.count(); k++) args.add(t.val(i, m.id(i, k)));
        int need = arity(inst);
        if (args.size() < need)
            throw m.module.error(i, "GLSL.std.450 " + inst + " takes " + need + " operands, got " + args.size());
        if (inst == Determinant) return new Val.Simple(determinant(t, i, Matrices.columns(t, i, 4)));
        Value x = args.isEmpty() ? null : t.simple(i, args.get(0));
        Value y = args.size() > 1 ? t.simple(i, args.get(1)) : null;
        Value z = args.size() > 2 ? t.simple(i, args.get(2)) : null;
        Value r = switch (inst) {
            case Round, RoundEven -> b.alu(Op.FROUND_EVEN, x);
            case Trunc -> b.alu(Op.FTRUNC, x);
            case FAbs -> b.alu(Op.FABS, x);
            case SAbs -> b.alu(Op.IABS, x);
            case FSign -> b.alu(Op.FSIGN, x);
            case SSign -> b.alu(Op.ISIGN, x);
            case Floor -> b.alu(Op.FFLOOR, x);
            case Ceil -> b.alu(Op.FCEIL, x);
            case Fract -> b.alu(Op.FFRACT, x);
            case Radians -> b.alu(Op.FMUL, x, f(b, x, Math.PI / 180));
            case Degrees -> b.alu(Op.FMUL, x, f(b, x, 180 / Math.PI));
            case Sin -> b.alu(Op.FSIN, x);
            case Cos -> b.alu(Op.FCOS, x);
            case Tan -> b.alu(Op.FDIV, b.alu(Op.FSIN, x), b.alu(Op.FCOS, x));
            case Asin -> asin(b, x);
            case Acos -> b.alu(Op.FSUB, f(b, x, Math.PI / 2), asin(b, x)); // acos = pi/2 - asin
            case Atan -> atan(b, x);
            case Atan2 -> atan2(b, x, y);
            case Sinh, Cosh, Tanh -> { // sinh, cosh, tanh from e^x and e^-x
                Value ex = exp(b, x), enx = exp(b, b.alu(Op.FNEG, x));
                Value s = b.alu(Op.FSUB, ex, enx), c = b.alu(Op.FADD, ex, enx);
                yield inst == Sinh
                        ? b.alu(Op.FMUL, s, f(b, x, 0.5))
                        : inst == Cosh ? b.alu(Op.FMUL, c, f(b, x, 0.5)) : b.alu(Op.FDIV, s, c);
            }
            case Asinh ->
                log(b, b.alu(Op.FADD, x, b.alu(Op.FSQRT, b.alu(Op.FADD, b.alu(Op.FMUL, x, x), f(b, x, 1))))); // asinh
            case Acosh ->
                log(b, b.alu(Op.FADD, x, b.alu(Op.FSQRT, b.alu(Op.FSUB, b.alu(Op.FMUL, x, x), f(b, x, 1))))); // acosh
            case Atanh ->
                b.alu(
                        Op.FMUL,
                        f(b, x, 0.5),
                        log(b, b.alu(Op.FDIV, b.alu(Op.FADD, f(b, x, 1), x), b.alu(Op.FSUB, f(b, x, 1), x)))); // atanh
            case Pow -> b.alu(Op.FPOW, x, y);
            case Exp -> exp(b, x);
            case Log -> log(b, x);
            case Exp2 -> b.alu(Op.FEXP2, x);
            case Log2 -> b.alu(Op.FLOG2, x);
            case Sqrt -> b.alu(Op.FSQRT, x);
            case InverseSqrt -> b.alu(Op.FRSQ, x);
            case FMin, NMin -> b.alu(Op.FMIN, x, y);
            case UMin -> b.alu(Op.UMIN, x, y);
            case SMin -> b.alu(Op.IMIN, x, y);
            case FMax, NMax -> b.alu(Op.FMAX, x, y);
            case UMax -> b.alu(Op.UMAX, x, y);
            case SMax -> b.alu(Op.IMAX, x, y);
            case FClamp, NClamp -> b.alu(Op.FMIN, b.alu(Op.FMAX, x, y), z);
            case UClamp -> b.alu(Op.UMIN, b.alu(Op.UMAX, x, y), z);
            case SClamp -> b.alu(Op.IMIN, b.alu(Op.IMAX, x, y), z);
            case FMix -> b.alu(Op.FLRP, x, y, Instructions.splat(b, z, x.numComponents()));
            case Step ->
                b.alu(bool2float(y), b.alu(Op.FGE, y, Instructions.splat(b, x, y.numComponents()))); // step(edge, x)
            case SmoothStep -> { // smoothstep(e0, e1, x): t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t)
                Value e0 = Instructions.splat(b, x, z.numComponents()),
                        e1 = Instructions.splat(b, y, z.numComponents());
                Value tt = b.alu(Op.FSAT, b.alu(Op.FDIV, b.alu(Op.FSUB, z, e0), b.alu(Op.FSUB, e1, e0)));
                Value poly = b.alu(Op.FSUB, f(b, tt, 3), b.alu(Op.FMUL, f(b, tt, 2), tt));
                yield b.alu(Op.FMUL, b.alu(Op.FMUL, tt, tt), poly);
            }
            case Fma -> b.alu(Op.FFMA, x, y, z);
            case PackSnorm4x8 -> b.alu(Op.PACK_SNORM_4X8, x);
            case PackUnorm4x8 -> b.alu(Op.PACK_UNORM_4X8, x);
            case PackSnorm2x16 -> b.alu(Op.PACK_SNORM_2X16, x);
            case PackUnorm2x16 -> b.alu(Op.PACK_UNORM_2X16, x);
            case PackHalf2x16 -> b.alu(Op.PACK_HALF_2X16, x);
            case PackDouble2x32 -> b.alu(Op.PACK_64_2X32, x);
            case UnpackSnorm2x16 -> b.alu(Op.UNPACK_SNORM_2X16, x);
            case UnpackUnorm2x16 -> b.alu(Op.UNPACK_UNORM_2X16, x);
            case UnpackHalf2x16 -> b.alu(Op.UNPACK_HALF_2X16, x);
            case UnpackSnorm4x8 -> b.alu(Op.UNPACK_SNORM_4X8, x);
            case UnpackUnorm4x8 -> b.alu(Op.UNPACK_UNORM_4X8, x);
            case UnpackDouble2x32 -> b.alu(Op.UNPACK_64_2X32, x);
            case Length -> length(b, x);
            case Distance -> length(b, b.alu(Op.FSUB, x, y));
            case Cross -> { // cross(a, b) = a.yzx * b.zxy - a.zxy * b.yzx
                Value p = b.alu(Op.FMUL, b.swz(x, "yzx"), b.swz(y, "zxy"));
                Value q = b.alu(Op.FMUL, b.swz(x, "zxy"), b.swz(y, "yzx"));
                yield b.alu(Op.FSUB, p, q);
            }
            case Normalize ->
                x.numComponents() == 1
                        ? b.alu(Op.FSIGN, x)
                        : b.alu(
                                Op.FMUL,
                                x,
                                Instructions.splat(b, b.alu(Op.FRSQ, Matrices.dot(b, x, x)), x.numComponents()));
            case FaceForward -> { // faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N
                Value c = b.alu(Op.FLT, Matrices.dot(b, z, y), b.constant(x.bitSize(), 0));
                yield b.alu(Op.BCSEL, Instructions.splat(b, c, x.numComponents()), x, b.alu(Op.FNEG, x));
            }
            case Reflect -> { // reflect(I, N) = I - 2 dot(N, I) N
                Value d = b.alu(Op.FMUL, f(b, b.channel(x, 0), 2), Matrices.dot(b, y, x));
                yield b.alu(Op.FSUB, x, b.alu(Op.FMUL, Instructions.splat(b, d, x.numComponents()), y));
            }
            case Refract -> { // refract(I, N, eta)
                Value d = Matrices.dot(b, y, x);
                Value one = f(b, d, 1);
                Value k = b.alu(
                        Op.FSUB, one, b.alu(Op.FMUL, b.alu(Op.FMUL, z, z), b.alu(Op.FSUB, one, b.alu(Op.FMUL, d, d))));
                Value coef = b.alu(Op.FADD, b.alu(Op.FMUL, z, d), b.alu(Op.FSQRT, k));
                Value v = b.alu(
                        Op.FSUB,
                        b.alu(Op.FMUL, Instructions.splat(b, z, x.numComponents()), x),
                        b.alu(Op.FMUL, Instructions.splat(b, coef, x.numComponents()), y));
                Value neg = b.alu(Op.FLT, k, b.constant(k.bitSize(), 0));
                long[] zeros = new long[x.numComponents()];
                yield b.alu(Op.BCSEL, Instructions.splat(b, neg, x.numComponents()), b.constant(x.bitSize(), zeros), v);
            }
            case FindILsb -> b.alu(Op.FIND_LSB, x);
            case FindSMsb -> b.alu(Op.IFIND_MSB, x);
            case FindUMsb -> b.alu(Op.UFIND_MSB, x);
            case Ldexp -> ldexp(t, i, x, y);
            default ->
                throw m.module.error(
                        i, "unsupported OpExtInst GLSL.std.450 " + SpirvNames.name(SpirvNames.GLSL_STD_450, inst));
        };
        return new Val.Simple(Instructions.exact(t, i, r));
    }

    /** Operands each instruction reads. */
    static int arity(int inst) {
        return switch (inst) {
            case Atan2, Pow, FMin, UMin, SMin, FMax, UMax, SMax, Step, Ldexp, Distance, Cross, Reflect, NMin, NMax -> 2;
            case FClamp, UClamp, SClamp, FMix, IMix, SmoothStep, Fma, FaceForward, Refract, NClamp -> 3;
            default -> 1;
        };
    }

    private static Op bool2float(Value like) {
        return like.bitSize() == 16 ? Op.B2F16 : like.bitSize() == 64 ? Op.B2F64 : Op.B2F32;
    }

    /** The float constant v at x's size and width. */
    static Value f(IrBuilder b, Value x, double v) {
        long bits = FloatBits.fromDouble(v, x.bitSize());
        long[] all = new long[x.numComponents()];
        Arrays.fill(all, bits);
        return b.constant(x.bitSize(), all);
    }

    /**
     * atan on [-1, 1] by the odd polynomial of Abramowitz and Stegun 4.4.49 (error below 1e-5);
     * outside it atan(x) = sign(x)·π/2 − atan(1/x).
     */
    static Value atan(IrBuilder b, Value x) {
        Value ax = b.alu(Op.FABS, x);
        Value big = b.alu(Op.FLT, f(b, x, 1), ax);
        Value r = b.alu(Op.BCSEL, big, b.alu(Op.FDIV, f(b, x, 1), ax), ax); // |x| or 1/|x|, in [0, 1]
        Value r2 = b.alu(Op.FMUL, r, r);
        double[] c = {0.9998660, -0.3302995, 0.1801410, -0.0851330, 0.0208351};
        Value p = f(b, x, c[4]);
        for (int k = 3; k >= 0; k--) p = b.alu(Op.FADD, b.alu(Op.FMUL, p, r2), f(b, x, c[k]));
        Value a = b.alu(Op.FMUL, p, r);
        // A&S bound the polynomial's error by 1e-5 (its coefficients rounded to floats add a few 1e-8),
        // and Vulkan lets atan be 4096 ULP off: a note for the Vulkan oracle's precision model, which
        // otherwise knows only the ops' rounding
        b.function().noteApproximation(a, 1e-5 + 1e-7, 4096);
        a = b.alu(Op.BCSEL, big, b.alu(Op.FSUB, f(b, x, Math.PI / 2), a), a);
        // the sign of x (fsign keeps ±0 and gives 0 for 0, where a is 0 anyway)
        return b.alu(Op.BCSEL, b.alu(Op.FLT, x, f(b, x, 0)), b.alu(Op.FNEG, a), a);
    }

    /** atan2(y, x): atan(y / x) moved to the right quadrant by ±π when x < 0. */
    static Value atan2(IrBuilder b, Value y, Value x) {
        Value base = atan(b, b.alu(Op.FDIV, y, x));
        Value fix = b.alu(Op.BCSEL, b.alu(Op.FLT, y, f(b, y, 0)), f(b, y, -Math.PI), f(b, y, Math.PI));
        return b.alu(Op.BCSEL, b.alu(Op.FLT, x, f(b, x, 0)), b.alu(Op.FADD, base, fix), base);
    }

    /** asin(x) = atan(x / sqrt(1 − x²)). */
    static Value asin(IrBuilder b, Value x) {
        Value d = b.alu(Op.FSQRT, b.alu(Op.FSUB, f(b, x, 1), b.alu(Op.FMUL, x, x)));
        return atan(b, b.alu(Op.FDIV, x, d));
    }

    static Value exp(IrBuilder b, Value x) {
        return b.alu(Op.FEXP2, b.alu(Op.FMUL, x, f(b, x, 1 / Math.log(2))));
    }

    static Value log(IrBuilder b, Value x) {
        return b.alu(Op.FMUL, b.alu(Op.FLOG2, x), f(b, x, Math.log(2)));
    }

    static Value length(IrBuilder b, Value x) {
        return x.numComponents() == 1 ? b.alu(Op.FABS, x) : b.alu(Op.FSQRT, Matrices.dot(b, x, x));
    }

    /** Determinants of 2×2, 3×3 and 4×4 matrices by cofactor expansion along the first column. */
    static Value determinant(SpirvToIr t, Instruction i, List<Val> cols) {
        IrBuilder b = t.b;
        int n = cols.size();
        Value[][] a = new Value[n][n]; // a[row][col]
        for (int c = 0; c < n; c++) {
            Value col = t.simple(i, cols.get(c));
            for (int r = 0; r < n; r++) a[r][c] = b.channel(col, r);
        }
        return det(b, a);
    }

    private static Value det(IrBuilder b, Value[][] a) {
        int n = a.length;
        if (n == 1) return a[0][0];
        if (n == 2) return b.alu(Op.FSUB, b.alu(Op.FMUL, a[0][0], a[1][1]), b.alu(Op.FMUL, a[0][1], a[1][0]));
        Value sum = null;
        for (int r = 0; r < n; r++) {
            Value[][] minor = new Value[n - 1][n - 1];
            for (int rr = 0, mr = 0; rr < n; rr++) {
                if (rr == r) continue;
                for (int c = 1; c < n; c++) minor[mr][c - 1] = a[rr][c];
                mr++;
            }
            Value term = b.alu(Op.FMUL, a[r][0], det(b, minor));
            sum = sum == null ? term : b.alu(r % 2 == 0 ? Op.FADD : Op.FSUB, sum, term);
        }
        return sum;
    }

    private static void need(SpirvToIr t, Instruction i, int words) {
        if (i.count() < words)
            throw t.m.module.error(i, "GLSL.std.450 " + t.m.arg(i, 3) + " without its pointer operand");
    }

    private static Value bits32(SpirvToIr t, Instruction i, Value x, String what) {
        if (x.bitSize() != 32)
            throw t.m.module.error(i, "unsupported " + what + " of " + x.bitSize() + "-bit floats (32-bit are read)");
        return x;
    }

    /** A 32-bit constant in every component of a value like {@code x}. */
    private static Value k(IrBuilder b, Value x, long v) {
        long[] all = new long[x.numComponents()];
        Arrays.fill(all, v & 0xffffffffL);
        return b.constant(32, all);
    }

    /**
     * frexp on the bits of the word that holds the exponent (the value at 32 bits, the high word
     * of a double): a normal x has exponent field E, so x = sig · 2^(E − bias) with sig in
     * [0.5, 1) made by putting the bias (126, 1022) in the field. A denormal is first scaled by
     * 2^32 (2^54 for doubles), exactly, to make it normal. Zeros, infinities and NaNs come back
     * unchanged with exponent 0 (GLSL leaves the last two undefined; this is C's answer). A
     * double's new high word is written {@code pack_64_2x32_split(unpack_64_2x32_split_x(y), h)},
     * which the {@code pack_hi} rule makes a {@code pack_64_2x32_split_y} (the pack_double_2x32_split_y discussion of 2016, docs/BACKGROUND.md).
     */
    static Value[] frexp(SpirvToIr t, Instruction i, Value x) {
        IrBuilder b = t.b;
        boolean wide = x.bitSize() == 64;
        if (!wide) bits32(t, i, x, "frexp");
        int shift = wide ? 20 : 23, scaleLog = wide ? 54 : 32, bias = wide ? 1022 : 126;
        long fieldMask = wide ? 0x7ff : 0xff,
                keepMask = wide ? 0x800fffffL : 0x807fffffL,
                halfField = (long) bias << shift;
        Value field = b.alu(Op.IAND, b.alu(Op.USHR, highWord(b, x), k(b, x, shift)), k(b, x, fieldMask));
        Value denormal = b.alu(Op.IEQ, field, k(b, x, 0));
        Value y = b.alu(Op.BCSEL, denormal, b.alu(Op.FMUL, x, f(b, x, Math.scalb(1.0, scaleLog))), x);
        Value yh = highWord(b, y);
        Value yField = b.alu(Op.IAND, b.alu(Op.USHR, yh, k(b, x, shift)), k(b, x, fieldMask));
        Value exp = b.alu(Op.ISUB, yField, b.alu(Op.BCSEL, denormal, k(b, x, bias + scaleLog), k(b, x, bias)));
        Value sigHigh = b.alu(Op.IOR, b.alu(Op.IAND, yh, k(b, x, keepMask)), k(b, x, halfField));
        Value sig = wide ? b.alu(Op.PACK_64_2X32_SPLIT, b.alu(Op.UNPACK_64_2X32_SPLIT_X, y), sigHigh) : sigHigh;
        Value keep = b.alu(Op.IOR, b.alu(Op.FEQ, x, f(b, x, 0)), b.alu(Op.IEQ, field, k(b, x, fieldMask)));
        return new Value[] {b.alu(Op.BCSEL, keep, x, sig), b.alu(Op.BCSEL, keep, k(b, x, 0), exp)};
    }

    /** The 32-bit word holding a float's sign and exponent: the value itself, or a double's high word. */
    private static Value highWord(IrBuilder b, Value x) {
        return x.bitSize() == 64 ? b.alu(Op.UNPACK_64_2X32_SPLIT_Y, x) : x;
    }

    /**
     * ldexp(x, e) = x · 2^e as two exact power-of-two multiplies, 2^(e/2) and 2^(e − e/2), with e
     * clamped to [−252, 254] so each factor is a normal float (NIR's lowering; results past the
     * float range are undefined in GLSL, and a denormal x scaled past 2^105 is one of them here).
     */
    static Value ldexp(SpirvToIr t, Instruction i, Value x, Value e) {
        IrBuilder b = t.b;
        if (e.bitSize() != 32) e = b.alu(Op.I2I32, e);
        e = Instructions.splat(b, e, x.numComponents());
        // doubles: the op, which lower_doubles rounds exactly (subnormal results included)
        if (x.bitSize() == 64) return b.alu(Op.LDEXP, x, e);
        bits32(t, i, x, "ldexp");
        Value c = b.alu(Op.IMIN, b.alu(Op.IMAX, e, k(b, x, -252)), k(b, x, 254));
        Value half = b.alu(Op.ISHR, c, k(b, x, 1));
        Value rest = b.alu(Op.ISUB, c, half);
        Value f1 = b.alu(Op.ISHL, b.alu(Op.IADD, half, k(b, x, 127)), k(b, x, 23));
        Value f2 = b.alu(Op.ISHL, b.alu(Op.IADD, rest, k(b, x, 127)), k(b, x, 23));
        return b.alu(Op.FMUL, b.alu(Op.FMUL, x, f1), f2);
    }

    /**
     * inverse(M) = adj(M) · (1 / det M), the adjugate from cofactors: element (r, c) of the
     * inverse is the cofactor of element (c, r) (NIR's lowering, with one reciprocal).
     */
    static Val inverse(SpirvToIr t, Instruction i, List<Val> cols) {
        IrBuilder b = t.b;
        int n = cols.size();
        Value[][] a = new Value[n][n]; // a[row][col]
        for (int c = 0; c < n; c++) {
            Value col = t.simple(i, cols.get(c));
            if (col.numComponents() != n) throw t.m.module.error(i, "inverse of a matrix that is not square");
            for (int r = 0; r < n; r++) a[r][c] = b.channel(col, r);
        }
        Value inv = b.alu(Op.FRCP, det(b, a));
        List<Val> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            Value[] col = new Value[n];
            for (int r = 0; r < n; r++) {
                // cofactor of a[c][r]: the minor without row c and column r
                Value minor;
                if (n == 1) {
                    minor = Glsl450.f(b, a[0][0], 1);
                } else {
                    Value[][] mm = new Value[n - 1][n - 1];
                    for (int rr = 0, mr = 0; rr < n; rr++) {
                        if (rr == c) continue;
                        for (int cc = 0, mc = 0; cc < n; cc++) {
                            if (cc == r) continue;
                            mm[mr][mc++] = a[rr][cc];
                        }
                        mr++;
                    }
                    minor = det(b, mm);
                }
                Value cof = (r + c) % 2 == 0 ? minor : b.alu(Op.FNEG, minor);
                col[r] = b.alu(Op.FMUL, cof, inv);
            }
            out.add(new Val.Simple(n == 1 ? col[0] : b.vec(col)));
        }
        return new Val.Composite(out);
    }
}
