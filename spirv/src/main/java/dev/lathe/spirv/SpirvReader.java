package dev.lathe.spirv;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the words of a SPIR-V binary: the five-word header (magic number in either byte
 * order, version 1.0–1.6, id bound) and the instruction stream (each instruction's word count
 * in its first word's high half). Everything is checked against the file size before it is
 * used or allocated, so a truncated, corrupt or hostile file gives {@code FILE: word N: what}
 * and never an exception, a hang or a huge allocation.
 */
public final class SpirvReader {
    private SpirvReader() {}

    public static final int MAGIC = 0x07230203;
    static final int MIN_VERSION = 0x00010000, MAX_VERSION = 0x00010600;

    public static SpirvModule read(String file, byte[] bytes) {
        if (bytes.length % 4 != 0) {
            throw new SpirvException(
                    file + ": word 0: the size (" + bytes.length + " bytes) is not a whole number of 32-bit words");
        }
        int n = bytes.length / 4;
        if (n < 5) throw new SpirvException(file + ": word 0: too short for a SPIR-V header (" + n + " words, need 5)");
        boolean little = word(bytes, 0, true) == MAGIC;
        if (!little && word(bytes, 0, false) != MAGIC) {
            throw new SpirvException(file + ": word 0: not SPIR-V (magic number 0x"
                    + Integer.toHexString(word(bytes, 0, true)) + ", expected 0x07230203)");
        }
        int version = word(bytes, 1, little);
        if ((version & 0xff0000ff) != 0 || version < MIN_VERSION || version > MAX_VERSION) {
            throw new SpirvException(file + ": word 1: unsupported SPIR-V version 0x" + Integer.toHexString(version)
                    + " (1.0 to 1.6 are read)");
        }
        long bound = word(bytes, 3, little) & 0xffffffffL;
        // every id is defined by an instruction of at least two words: a bound past that is corrupt
        if (bound == 0 || bound > n) {
            throw new SpirvException(
                    file + ": word 3: id bound " + bound + " does not fit a module of " + n + " words");
        }
        if (word(bytes, 4, little) != 0) throw new SpirvException(file + ": word 4: the reserved header word is not 0");
        List<SpirvModule.Instruction> out = new ArrayList<>();
        int at = 5;
        while (at < n) {
            int first = word(bytes, at, little);
            int count = first >>> 16, opcode = first & 0xffff;
            if (count == 0)
                throw new SpirvException(
                        file + ": word " + at + ": an instruction with word count 0 (opcode " + opcode + ")");
            if (count > n - at) {
                throw new SpirvException(file + ": word " + at + ": " + SpirvNames.opcode(opcode) + " has " + count
                        + " words, but only " + (n - at) + " are left");
            }
            int[] ops = new int[count - 1];
            for (int k = 1; k < count; k++) ops[k - 1] = word(bytes, at + k, little);
            out.add(new SpirvModule.Instruction(opcode, ops, at));
            at += count;
        }
        return new SpirvModule(file, version, (int) bound, out);
    }

    private static int word(byte[] b, int i, boolean little) {
        int o = i * 4;
        int b0 = b[o] & 0xff, b1 = b[o + 1] & 0xff, b2 = b[o + 2] & 0xff, b3 = b[o + 3] & 0xff;
        return little ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b3 | b2 << 8 | b1 << 16 | b0 << 24;
    }

    /**
     * A literal string operand starting at operand {@code from}: UTF-8, NUL-terminated, padded
     * to whole words; returns the string and (through {@code next}) the first operand after it.
     */
    public static String string(SpirvModule m, SpirvModule.Instruction i, int from, int[] next) {
        StringBuilder sb = new StringBuilder();
        byte[] buf = new byte[i.count() * 4];
        int len = 0;
        for (int k = from; k < i.count(); k++) {
            int w = i.operand(k);
            for (int b = 0; b < 4; b++) {
                int c = (w >>> (8 * b)) & 0xff;
                if (c == 0) {
                    if (next != null) next[0] = k + 1;
                    return new String(buf, 0, len, StandardCharsets.UTF_8);
                }
                buf[len++] = (byte) c;
            }
        }
        throw m.error(i, "a string operand of " + SpirvNames.opcode(i.opcode()) + " is not NUL-terminated");
    }
}
