package dev.lathe.backend.isa;

import dev.lathe.ir.op.Op;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The IR ops that give comparisons and conversions their meaning: a {@code cmps} by its
 * condition and type kind, a {@code cov} by its source and destination types. Everything else
 * names its op in {@link MOp#semantics}. The simulator evaluates these ops; instruction
 * selection reads the same facts backwards ({@link #compareFor}, {@link #conversionFor}).
 */
public final class Semantics {
    private Semantics() {}

    /** A comparison instruction: the cmps, the type it compares at, its condition. */
    public record Compare(MOp op, MType type, Cond cond) {}

    private static final List<MOp> COMPARISONS = List.of(MOp.CMPS_F, MOp.CMPS_U, MOp.CMPS_S);

    /** Per IR conversion, per source size, the first (from, to) pair of types in declaration order that {@link #convert} maps to it. */
    private static final Map<Op, Map<Integer, MType[]>> CONVERSIONS;

    static {
        Map<Op, Map<Integer, MType[]>> m = new EnumMap<>(Op.class);
        for (MType from : MType.values()) {
            for (MType to : MType.values()) {
                if (from != to)
                    m.computeIfAbsent(convert(from, to), k -> new HashMap<>())
                            .putIfAbsent(from.bits(), new MType[] {from, to});
            }
        }
        CONVERSIONS = Collections.unmodifiableMap(m);
    }

    /** The IR comparison a cmps computes under condition {@code c}, or null when the pair means nothing (an unordered integer compare). */
    public static Op compare(MOp op, Cond c) {
        if (op == MOp.CMPS_F) {
            return switch (c) {
                case LT -> Op.FLT;
                case GE -> Op.FGE;
                case EQ -> Op.FEQ;
                case NE -> Op.FNEU;
                case LTU -> Op.FLTU;
                case GEU -> Op.FGEU;
                case EQU -> Op.FEQU;
            };
        }
        boolean signed = op == MOp.CMPS_S;
        return switch (c) {
            case LT -> signed ? Op.ILT : Op.ULT;
            case GE -> signed ? Op.IGE : Op.UGE;
            case EQ -> Op.IEQ;
            case NE -> Op.INE;
            default -> null;
        };
    }

    /** The cmps computing IR comparison {@code op} on {@code bits}-bit sources, or null when {@code op} is no comparison. */
    public static Compare compareFor(Op op, int bits) {
        for (MOp m : COMPARISONS) {
            for (Cond c : Cond.values()) {
                if (compare(m, c) == op)
                    return new Compare(m, MType.of(m.types().kind(), bits), c);
            }
        }
        return null;
    }

    /** The IR comparisons some cmps computes. */
    public static Set<Op> comparisons() {
        Set<Op> out = EnumSet.noneOf(Op.class);
        for (MOp m : COMPARISONS) {
            for (Cond c : Cond.values()) if (compare(m, c) != null) out.add(compare(m, c));
        }
        return out;
    }

    /** The cov types (from, to) doing IR conversion {@code op} on a {@code bits}-bit source, or null when none does. */
    public static MType[] conversionFor(Op op, int bits) {
        Map<Integer, MType[]> bySize = CONVERSIONS.get(op);
        MType[] pair = bySize == null ? null : bySize.get(bits);
        return pair == null ? null : pair.clone();
    }

    /** The IR conversions some cov does. */
    public static Set<Op> conversions() {
        return EnumSet.copyOf(CONVERSIONS.keySet());
    }

    /** The IR op converting {@code from} to {@code to} (different types). */
    public static Op convert(MType from, MType to) {
        int b = to.bits();
        MType.Kind fk = from.kind(), tk = to.kind();
        if (to == MType.B1) return fk == MType.Kind.FLOAT ? Op.F2B1 : Op.I2B1;
        if (tk == MType.Kind.FLOAT) {
            if (fk == MType.Kind.FLOAT) return pick(b, Op.F2F16, Op.F2F32, Op.F2F64);
            if (from == MType.B1) return pick(b, Op.B2F16, Op.B2F32, Op.B2F64);
            return fk == MType.Kind.SINT
                    ? pick(b, Op.I2F16, Op.I2F32, Op.I2F64)
                    : pick(b, Op.U2F16, Op.U2F32, Op.U2F64);
        }
        if (fk == MType.Kind.FLOAT) {
            return tk == MType.Kind.SINT
                    ? pickInt(b, Op.F2I8, Op.F2I16, Op.F2I32, Op.F2I64)
                    : pickInt(b, Op.F2U8, Op.F2U16, Op.F2U32, Op.F2U64);
        }
        if (from == MType.B1) return pickInt(b, Op.B2I8, Op.B2I16, Op.B2I32, Op.B2I64);
        // integer to integer: the source's signedness decides how it widens
        return fk == MType.Kind.SINT
                ? pickInt(b, Op.I2I8, Op.I2I16, Op.I2I32, Op.I2I64)
                : pickInt(b, Op.U2U8, Op.U2U16, Op.U2U32, Op.U2U64);
    }

    private static Op pick(int bits, Op f16, Op f32, Op f64) {
        return bits == 16 ? f16 : bits == 32 ? f32 : f64;
    }

    private static Op pickInt(int bits, Op i8, Op i16, Op i32, Op i64) {
        return switch (bits) {
            case 8 -> i8;
            case 16 -> i16;
            case 32 -> i32;
            default -> i64;
        };
    }
}
