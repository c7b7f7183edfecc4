package dev.lathe.ir.op;

import static dev.lathe.ir.op.Bits.sext;
import static dev.lathe.ir.op.Bits.zext;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Where nir_opcodes.py defines an op otherwise than Lathe's op table: NIR's definition, and the
 * difference in words ({@link Op#nirDifference}, {@link Op#evaluateAsNir}). Lathe's table follows
 * NIR wherever the two can agree; these few part for a reason each gives. They let a rule's
 * counterexample be re-run under NIR's own semantics (a NIR rule that is wrong only under
 * Lathe's reading is not NIR's defect). The facts are nir_opcodes.py's; the code is ours.
 */
final class NirDefinitions {
    private NirDefinitions() {}

    /**
     * The differences and NIR's evaluations, made once: a NIR reading evaluates these ops on every
     * sampled input, and the switches below make a new string and a new function each time.
     */
    private static final Map<Op, String> DIFFERENCES;

    private static final Map<Op, Eval> EVALS;

    static {
        Map<Op, String> d = new EnumMap<>(Op.class);
        Map<Op, Eval> e = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            String words = describe(op);
            if (words != null) d.put(op, words);
            Eval eval = define(op);
            if (eval != null) e.put(op, eval);
        }
        DIFFERENCES = Collections.unmodifiableMap(d);
        EVALS = Collections.unmodifiableMap(e);
    }

    /** The difference in words, or null where NIR's definition is Lathe's. */
    static String difference(Op op) {
        return DIFFERENCES.get(op);
    }

    /** NIR's evaluation where it differs, or null. */
    static Eval eval(Op op) {
        return EVALS.get(op);
    }

    private static String describe(Op op) {
        return switch (op) {
            case FDOT3, FDOT4, FDOT8, FDOT16, FDOT3_REPLICATED, FDOT4_REPLICATED ->
                "NIR's " + op.opName() + " adds its products in pairs ((w + z) + (y + x)); Lathe's op table, as ir3's"
                        + " hardware, from left to right";
            case UBITFIELD_EXTRACT, IBITFIELD_EXTRACT ->
                "NIR's " + op.opName() + " gives 0 for a field that is negative or passes the top bit (GLSL leaves it"
                        + " undefined); Lathe's clips the field at the top bit";
            case BITFIELD_INSERT ->
                "NIR's bitfield_insert gives 0 for a field that is negative or passes the top bit (GLSL leaves it"
                        + " undefined); Lathe's clips the field at the top bit";
            case IMADSH_MIX16 ->
                "NIR's imadsh_mix16 multiplies two multiples of 2^16 in 32 bits, so it folds to its third operand;"
                        + " Lathe's computes (a.lo * b.hi) << 16 + c, as ir3 executes it";
            default -> null;
        };
    }

    /**
     * Whether NIR has the op at this unsized bit size: nir_opcodes.py defines the bitfield ops,
     * {@code ifind_msb}, {@code uclz}, {@code bitfield_reverse}, {@code fmulz} and {@code fcsel} at
     * 32 bits only, and NIR's validator lets {@code ufind_msb} read 32 or 64 bits, where Lathe's op
     * table has them at every size (a compared listing of both tables found no other such op).
     */
    static boolean hasSize(Op op, int unsizedBits) {
        return switch (op) {
            case UBITFIELD_EXTRACT,
                    IBITFIELD_EXTRACT,
                    BITFIELD_INSERT,
                    IFIND_MSB,
                    UCLZ,
                    BITFIELD_REVERSE,
                    FMULZ,
                    FCSEL -> unsizedBits == 32;
            // nir_validate.c: ufind_msb reads 32- or 64-bit sources only
            case UFIND_MSB -> unsizedBits == 32 || unsizedBits == 64;
            default -> true;
        };
    }

    /**
     * Where NIR leaves the op's result undefined for these operands (one component each), in
     * words; null where it is defined. Lathe's op table gives every op a value everywhere (a
     * constant folder must fold); NIR's, the SPIR-V and GLSL it implements, and its constant
     * folding in C leave these open, so a rule may give anything there.
     */
    static String undefined(Op op, int unsized, long[][] srcs) {
        switch (op) {
            case F2I8, F2I16, F2I32, F2I64, F2U8, F2U16, F2U32, F2U64, F2IMP, F2UMP -> {
                int in = op.inputBits(0, unsized), out = op.outputBits(unsized);
                double x = FloatBits.toDouble(srcs[0][0], in);
                if (Double.isNaN(x)) return op.opName() + " of a NaN (SPIR-V's conversion is undefined there)";
                double t = x < 0 ? Math.ceil(x) : Math.floor(x);
                boolean signed = op.opName().startsWith("f2i");
                double lo = signed ? -Math.pow(2, out - 1) : 0, hi = signed ? Math.pow(2, out - 1) : Math.pow(2, out);
                if (t < lo || t >= hi)
                    return op.opName() + " of a value outside its range (SPIR-V's conversion is undefined there)";
                return null;
            }
            case UBITFIELD_EXTRACT, IBITFIELD_EXTRACT, BITFIELD_INSERT -> {
                int k = op == Op.BITFIELD_INSERT ? 2 : 1;
                long off = sext(srcs[k][0], 32), cnt = sext(srcs[k + 1][0], 32);
                return cnt != 0 && (cnt < 0 || off < 0 || off + cnt > unsized)
                        ? op.opName() + " of a field that is negative or passes the top bit (GLSL leaves it undefined)"
                        : null;
            }
            case PACK_SNORM_2X16, PACK_SNORM_4X8, PACK_UNORM_2X16, PACK_UNORM_4X8 -> {
                for (long c : srcs[0])
                    if (FloatBits.isNaN(c, 32)) return op.opName() + " of a NaN (GLSL leaves it undefined)";
                return null;
            }
            case UDIV_ALIGNED_4 -> {
                return (srcs[0][0] & 3) != 0
                        ? "udiv_aligned_4 of a value that is not a multiple of 4 (its definition" + " assumes one)"
                        : null;
            }
            case IMUL24_RELAXED -> {
                return fits24(srcs[0][0], true) && fits24(srcs[1][0], true)
                        ? null
                        : "imul24_relaxed of an operand beyond 24 bits (its definition assumes none)";
            }
            case UMUL24_RELAXED, UMAD24_RELAXED -> {
                return fits24(srcs[0][0], false) && fits24(srcs[1][0], false)
                        ? null
                        : op.opName() + " of an operand beyond 24 bits (its definition assumes none)";
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean fits24(long v, boolean signed) {
        long x = signed ? sext(v, 32) : zext(v, 32);
        return signed ? x >= -(1L << 23) && x < (1L << 23) : x < (1L << 24);
    }

    private static Eval define(Op op) {
        return switch (op) {
            case FDOT3 -> Eval.horizontal(pairwise(3));
            case FDOT4 -> Eval.horizontal(pairwise(4));
            case FDOT8 -> Eval.horizontal(pairwise(8));
            case FDOT16 -> Eval.horizontal(pairwise(16));
            case FDOT3_REPLICATED -> Eval.horizontal(FloatFns.replicated(pairwise(3)));
            case FDOT4_REPLICATED -> Eval.horizontal(FloatFns.replicated(pairwise(4)));
            case UBITFIELD_EXTRACT ->
                Eval.ternary((base, offset, count, n) -> {
                    long off = sext(offset, 32), cnt = sext(count, 32);
                    if (cnt == 0 || cnt < 0 || off < 0 || off + cnt > n) return 0;
                    return (zext(base, n) >>> off) & Bits.mask((int) cnt);
                });
            case IBITFIELD_EXTRACT ->
                Eval.ternary((base, offset, count, n) -> {
                    long off = sext(offset, 32), cnt = sext(count, 32);
                    if (cnt == 0 || cnt < 0 || off < 0 || off + cnt > n) return 0;
                    return sext((zext(base, n) >>> off) & Bits.mask((int) cnt), (int) cnt);
                });
            case BITFIELD_INSERT ->
                Eval.quaternary((base, insert, offset, count, n) -> {
                    long off = sext(offset, 32), cnt = sext(count, 32);
                    if (cnt == 0) return base;
                    if (cnt < 0 || off < 0 || off + cnt > n) return 0;
                    long m = Bits.mask((int) cnt) << off;
                    return (base & ~m) | ((insert << off) & m);
                });
            case IMADSH_MIX16 -> Eval.ternary((a, b, c, n) -> c);
            default -> null;
        };
    }

    /**
     * nir_opcodes.py's dot product of {@code size} components: the products summed in pairs, the
     * upper half first ({@code fdot4 = (w + z) + (y + x)}); fdot3 is {@code (z + y) + x}.
     */
    private static Eval.VectorFn pairwise(int size) {
        return (s, dst, n) -> {
            double[] p = new double[size];
            for (int i = 0; i < size; i++) p[i] = FloatFns.rd(FloatFns.d(s[0][i], n) * FloatFns.d(s[1][i], n), n);
            double sum = size == 3 ? FloatFns.rd(FloatFns.rd(p[2] + p[1], n) + p[0], n) : reduce(p, 0, size, n);
            dst[0] = FloatFns.r(sum, n);
        };
    }

    private static double reduce(double[] p, int start, int size, int n) {
        if (size == 1) return p[start];
        return FloatFns.rd(reduce(p, start + size / 2, size / 2, n) + reduce(p, start, size / 2, n), n);
    }
}
