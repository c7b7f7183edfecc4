package dev.lathe.backend.compile;

/**
 * A virtual register: one SSA value of the machine program before register allocation. It
 * takes {@code units} consecutive 32-bit registers (2 for a 64-bit value, k for a texel or
 * coordinate vector), starting at a multiple of {@code align}.
 */
final class VReg {
    final int id;
    final int units;
    final int align;

    VReg(int id, int units, int align) {
        this.id = id;
        this.units = units;
        this.align = align;
    }

    @Override
    public String toString() {
        return "v" + id + (units > 1 ? "[" + units + "]" : "");
    }
}
