package dev.lathe.ir.analysis.range;

import dev.lathe.ir.op.Bits;
import java.util.ArrayList;
import java.util.List;

/**
 * What the range analysis knows about one component of a value: an element of the lattice.
 * Values are typeless bits, so an element describes them two ways at once and a pattern is
 * in the element only if it fits both:
 *
 * <ul>
 *   <li>read as a float (at 16, 32 and 64 bits only): a set of {@link FloatClass}es, and
 *       {@code whole}: every finite value is a whole number;
 *   <li>read as an integer: a signed interval {@code [sLo, sHi]} (sign-extended) and an unsigned
 *       one {@code [uLo, uHi]} (zero-extended, compared unsigned).
 * </ul>
 *
 * An op that produces floats says nothing of the integer reading (full intervals) and the
 * other way round; data movement (mov, phi, bcsel) carries both. {@link #bottom} is the empty
 * element: no value has been seen yet (the analysis starts every value there).
 */
public record Range(int bits, boolean empty, int classes, boolean whole, long sLo, long sHi, long uLo, long uHi) {

    public Range {
        if (!FloatClass.isFloatSize(bits)) {
            classes = FloatClass.ALL;
            whole = false;
        } else if (whole) {
            classes &= ~FloatClass.FRACTIONS;
        }
        if (!empty && (classes & ~FloatClass.WHOLE_POINTS) == 0) whole = FloatClass.isFloatSize(bits);
    }

    /** Every pattern of the size. */
    public static Range top(int bits) {
        return new Range(
                bits, false, FloatClass.ALL, false, Bits.minSigned(bits), Bits.maxSigned(bits), 0, Bits.mask(bits));
    }

    /** No pattern: nothing known yet. */
    public static Range bottom(int bits) {
        return new Range(bits, true, 0, false, 0, -1, 1, 0);
    }

    /** Exactly one pattern. */
    public static Range constant(int bits, long v) {
        long s = Bits.sext(v, bits), u = Bits.zext(v, bits);
        int cls = FloatClass.isFloatSize(bits) ? FloatClass.bit(FloatClass.of(v, bits)) : FloatClass.ALL;
        boolean whole =
                FloatClass.isFloatSize(bits) && FloatClass.of(v, bits) != FloatClass.NAN && FloatClass.isWhole(v, bits);
        return new Range(bits, false, cls, whole, s, s, u, u);
    }

    /** Floats of these classes (the integer reading unknown). */
    public static Range floats(int bits, int classes, boolean whole) {
        if (classes == 0) return bottom(bits);
        return new Range(bits, false, classes, whole, Bits.minSigned(bits), Bits.maxSigned(bits), 0, Bits.mask(bits));
    }

    /** Integers in a signed interval (the unsigned one derived; the float reading unknown). */
    public static Range signed(int bits, long lo, long hi) {
        long uLo = 0, uHi = Bits.mask(bits);
        if (lo >= 0 || hi < 0) {
            uLo = Bits.zext(lo, bits);
            uHi = Bits.zext(hi, bits);
        }
        return new Range(bits, false, FloatClass.ALL, false, lo, hi, uLo, uHi);
    }

    /** Integers in an unsigned interval (the signed one derived; the float reading unknown). */
    public static Range unsigned(int bits, long lo, long hi) {
        long max = Bits.maxSigned(bits);
        long sLo = Bits.minSigned(bits), sHi = max;
        boolean lowHalf = Long.compareUnsigned(hi, max) <= 0, highHalf = Long.compareUnsigned(lo, max) > 0;
        if (lowHalf || highHalf) {
            sLo = Bits.sext(lo, bits);
            sHi = Bits.sext(hi, bits);
        }
        return new Range(bits, false, FloatClass.ALL, false, sLo, sHi, lo, hi);
    }

    /** A 1-bit value: false, true, or either. */
    public static Range bool(boolean canBeFalse, boolean canBeTrue) {
        if (!canBeFalse && !canBeTrue) return bottom(1);
        return unsigned(1, canBeFalse ? 0 : 1, canBeTrue ? 1 : 0);
    }

    public boolean isFloatSize() {
        return FloatClass.isFloatSize(bits);
    }

    /** Whether the pattern {@code v} is in this element. */
    public boolean contains(long v) {
        if (empty) return false;
        if (isFloatSize()) {
            int c = FloatClass.of(v, bits);
            if ((classes & FloatClass.bit(c)) == 0) return false;
            if (whole && (FloatClass.bit(c) & FloatClass.WHOLE_POINTS) == 0 && !FloatClass.isWhole(v, bits))
                return false;
        }
        long s = Bits.sext(v, bits), u = Bits.zext(v, bits);
        return sLo <= s && s <= sHi && Long.compareUnsigned(uLo, u) <= 0 && Long.compareUnsigned(u, uHi) <= 0;
    }

    /** The least element holding both. */
    public Range join(Range o) {
        if (empty) return o;
        if (o.empty) return this;
        return new Range(
                bits,
                false,
                classes | o.classes,
                whole && o.whole,
                Math.min(sLo, o.sLo),
                Math.max(sHi, o.sHi),
                umin(uLo, o.uLo),
                umax(uHi, o.uHi));
    }

    /**
     * The integer readings of both (an op that knows its result both signed and unsigned). The
     * two intervals describe the same patterns, so each bounds the other where it keeps to one
     * sign: a signed [0, 9] is an unsigned [0, 9] too.
     */
    public Range meetIntegers(Range o) {
        if (empty || o.empty) return bottom(bits);
        long lo = Math.max(sLo, o.sLo), hi = Math.min(sHi, o.sHi);
        long ul = umax(uLo, o.uLo), uh = umin(uHi, o.uHi);
        if (lo > hi || Long.compareUnsigned(ul, uh) > 0) return bottom(bits);
        if (lo >= 0 || hi < 0) { // one sign: the same patterns unsigned
            ul = umax(ul, Bits.zext(lo, bits));
            uh = umin(uh, Bits.zext(hi, bits));
        }
        long max = Bits.maxSigned(bits);
        if (Long.compareUnsigned(uh, max) <= 0 || Long.compareUnsigned(ul, max) > 0) { // one half: the same signed
            lo = Math.max(lo, Bits.sext(ul, bits));
            hi = Math.min(hi, Bits.sext(uh, bits));
        }
        if (lo > hi || Long.compareUnsigned(ul, uh) > 0) return bottom(bits);
        return new Range(bits, false, classes & o.classes, whole || o.whole, lo, hi, ul, uh);
    }

    /**
     * Widening for loops: every bound that moved since {@code old} goes to the end of its range,
     * so a value that keeps growing settles after one more step. Float classes are finite and
     * need none.
     */
    public Range widenFrom(Range old) {
        if (old.empty || empty) return this;
        long lo = sLo < old.sLo ? Bits.minSigned(bits) : sLo;
        long hi = sHi > old.sHi ? Bits.maxSigned(bits) : sHi;
        long ul = Long.compareUnsigned(uLo, old.uLo) < 0 ? 0 : uLo;
        long uh = Long.compareUnsigned(uHi, old.uHi) > 0 ? Bits.mask(bits) : uHi;
        return new Range(bits, false, classes, whole, lo, hi, ul, uh);
    }

    public boolean fullSigned() {
        return sLo == Bits.minSigned(bits) && sHi == Bits.maxSigned(bits);
    }

    public boolean fullUnsigned() {
        return uLo == 0 && uHi == Bits.mask(bits);
    }

    public boolean isTop() {
        return !empty && classes == FloatClass.ALL && !whole && fullSigned() && fullUnsigned();
    }

    /** The single pattern of this element, if the integer reading pins it down. */
    public boolean isConstant() {
        return !empty && uLo == uHi;
    }

    /** Whether the float reading may be in one of {@code mask}'s classes. */
    public boolean mayBe(int mask) {
        return (classes & mask) != 0;
    }

    /** Whether every float reading is in {@code mask}'s classes. */
    public boolean onlyIn(int mask) {
        return (classes & ~mask) == 0;
    }

    static long umin(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    static long umax(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    /**
     * A short form for listings: the float classes when they say something, then the integer
     * intervals that are not full; {@code any} when nothing is known, {@code true}/{@code false}
     * for a decided boolean.
     */
    @Override
    public String toString() {
        return describe(true, true);
    }

    /** As {@link #toString}, showing only the float reading, the integer one, or both. */
    public String describe(boolean asFloat, boolean asInteger) {
        if (empty) return "none";
        if (bits == 1) {
            if (uLo == uHi) return uLo == 1 ? "true" : "false";
            return "bool";
        }
        List<String> parts = new ArrayList<>();
        if (asFloat && isFloatSize() && classes != FloatClass.ALL) {
            List<String> names = new ArrayList<>();
            for (int c = 0; c < FloatClass.COUNT; c++) {
                if ((classes & FloatClass.bit(c)) != 0) names.add(FloatClass.name(c));
            }
            parts.add("f{" + String.join(" ", names) + "}"
                    + (whole && (classes & ~FloatClass.WHOLE_POINTS) != 0 ? " whole" : ""));
        }
        if (asInteger && !fullSigned()) parts.add("s[" + sLo + ", " + sHi + "]");
        if (asInteger && !fullUnsigned())
            parts.add("u[" + Long.toUnsignedString(uLo) + ", " + Long.toUnsignedString(uHi) + "]");
        return parts.isEmpty() ? "any" : String.join(" ", parts);
    }
}
