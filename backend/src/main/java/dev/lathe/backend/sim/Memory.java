package dev.lathe.backend.sim;

import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.MType;

/**
 * Byte-addressed memory as cat6 reads and writes it ({@code backend/ISA.md}, "cat6 — memory"),
 * written from the ISA description rather than borrowed from the interpreter, so that the two
 * can disagree where one of them is wrong: COUNT components of a type move between consecutive
 * registers and consecutive addresses, little-endian; a byte outside the memory reads 0 and a
 * write to it is dropped (storage buffers, device memory, an image's texels); an atomic reads one
 * 32-bit word, combines it with the data and writes it back whole.
 */
final class Memory {
    private Memory() {}

    /** {@code count} components of {@code bits} each from byte {@code address} on. */
    static long[] load(byte[] memory, long address, int count, int bits) {
        int size = bits / 8;
        long[] out = new long[count];
        for (int c = 0; c < count; c++) {
            long first = address + (long) c * size, value = 0;
            for (int b = size - 1; b >= 0; b--) value = value << 8 | readByte(memory, first + b);
            out[c] = value;
        }
        return out;
    }

    /** Writes {@code data}, {@code bits} a component, from byte {@code address} on. */
    static void store(byte[] memory, long address, long[] data, int bits) {
        int size = bits / 8;
        for (int c = 0; c < data.length; c++) {
            long first = address + (long) c * size, value = data[c];
            for (int b = 0; b < size; b++, value >>>= 8) writeByte(memory, first + b, (byte) value);
        }
    }

    private static long readByte(byte[] memory, long at) {
        return at >= 0 && at < memory.length ? memory[(int) at] & 0xff : 0;
    }

    private static void writeByte(byte[] memory, long at, byte b) {
        if (at >= 0 && at < memory.length) memory[(int) at] = b;
    }

    /** {@code atomic.OP.TYPE} on the word at {@code address}: the word it read. */
    static long atomic(byte[] memory, long address, MOp op, MType type, long data, long compare) {
        long old = load(memory, address, 1, 32)[0];
        store(memory, address, new long[] {combine(op, type, old, data, compare)}, 32);
        return old;
    }

    /**
     * What an atomic writes back: the word it read combined with the data, by the ISA's list —
     * add, min and max (signed for s32), and, or, xor, xchg (the data), cmpxchg (the data when
     * the word equals compare, else the word).
     */
    static long combine(MOp op, MType type, long old, long data, long compare) {
        String name = op.base();
        boolean signed = type == MType.S32;
        long a = old & 0xffffffffL, b = data & 0xffffffffL;
        long r = switch (name) {
            case "atomic.add" -> a + b;
            case "atomic.min" -> signed ? Math.min((int) a, (int) b) : Math.min(a, b);
            case "atomic.max" -> signed ? Math.max((int) a, (int) b) : Math.max(a, b);
            case "atomic.and" -> a & b;
            case "atomic.or" -> a | b;
            case "atomic.xor" -> a ^ b;
            case "atomic.xchg" -> b;
            case "atomic.cmpxchg" -> a == (compare & 0xffffffffL) ? b : a;
            default -> throw new IllegalArgumentException("not an atomic: " + name);
        };
        return r & 0xffffffffL;
    }
}
