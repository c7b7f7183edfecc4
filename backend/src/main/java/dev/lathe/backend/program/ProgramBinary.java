package dev.lathe.backend.program;

import dev.lathe.backend.isa.Asm;
import dev.lathe.backend.isa.Encoding;
import dev.lathe.backend.isa.MInstr;
import dev.lathe.backend.isa.MOp;
import dev.lathe.backend.isa.Operand;
import dev.lathe.ir.text.Utf8Text;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The binary of a program ({@code .bin}), little-endian:
 *
 * <pre>
 * bytes 0–7    "LATHEBIN"
 * u32          format version (1)
 * u32          header length H in bytes
 * H bytes      the header: the directives of the .s file up to .code, UTF-8, and .outputs
 *              with the registers end reads (an encoded end has no room for them)
 * u32          instruction count N
 * N × u64      the encoded instructions
 * </pre>
 *
 * Every length is checked against the file size before anything is allocated, and every word
 * is decoded with the validating decoder: errors name the byte offset or the instruction.
 */
public final class ProgramBinary {
    private ProgramBinary() {}

    private static final byte[] MAGIC = "LATHEBIN".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;

    public static byte[] write(Program p) {
        String text = ProgramText.print(p);
        String header = text.substring(0, text.indexOf(".code\n"));
        for (MInstr i : p.code()) {
            if (i.op() == MOp.END && !i.srcs().isEmpty()) {
                header += ".outputs "
                        + Asm.print(MInstr.end(i.srcs())).substring(4).replace(",", "") + "\n";
                break;
            }
        }
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(
                        8 + 4 + 4 + h.length + 4 + 8 * p.code().size())
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putInt(h.length).put(h).putInt(p.code().size());
        for (MInstr i : p.code()) b.putLong(Encoding.encode(i));
        return b.array();
    }

    public static Program read(String file, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 16)
            throw new ProgramException(file + ": byte 0: too short for a Lathe binary (" + bytes.length + " bytes)");
        byte[] magic = new byte[8];
        b.get(magic);
        if (!Arrays.equals(magic, MAGIC))
            throw new ProgramException(file + ": byte 0: not a Lathe binary (no LATHEBIN magic)");
        int version = b.getInt();
        if (version != VERSION)
            throw new ProgramException(file + ": byte 8: format version " + version + ", expected " + VERSION);
        long h = b.getInt() & 0xffffffffL;
        if (h > bytes.length - 16L - 4)
            throw new ProgramException(file + ": byte 12: header length " + h + " runs past the end of the file");
        byte[] header = new byte[(int) h];
        b.get(header);
        int countAt = b.position();
        long n = b.getInt() & 0xffffffffL;
        if (n * 8 != bytes.length - (long) b.position()) {
            throw new ProgramException(file + ": byte " + countAt + ": " + n + " instructions need " + n * 8
                    + " bytes, the file has " + (bytes.length - b.position()) + " after the count");
        }
        String headerText;
        try {
            headerText = Utf8Text.decode(header, file + " (header)");
        } catch (Utf8Text.Malformed e) {
            throw new ProgramException(e.getMessage());
        }
        Program p;
        try {
            p = ProgramText.parse(file + " (header)", headerText + ".code\n");
        } catch (ProgramException e) {
            throw new ProgramException(e.getMessage());
        }
        List<MInstr> code = new ArrayList<>((int) n);
        for (int k = 0; k < n; k++) {
            int at = b.position();
            long w = b.getLong();
            try {
                code.add(Encoding.decode(w));
            } catch (Encoding.DecodeException e) {
                throw new ProgramException(file + ": byte " + at + ": instruction " + k + " (0x"
                        + String.format("%016x", w) + "): " + e.getMessage());
            }
        }
        List<Operand> outputs = outputsOf(headerText);
        for (int k = 0; outputs != null && k < code.size(); k++) {
            MInstr i = code.get(k);
            if (i.op() == MOp.END)
                code.set(k, MInstr.end(outputs).withSync(i.ss(), i.sy()).withNop(i.nop()));
        }
        return new Program(
                p.shader(),
                p.slots(),
                p.constants(),
                p.localBytes(),
                p.privateBytes(),
                p.loops(),
                p.preloads(),
                p.preamble(),
                code);
    }

    /** The registers a header's {@code .outputs} line lists (the parse of the header has checked it), or null. */
    private static List<Operand> outputsOf(String header) {
        for (String line : header.split("\n")) {
            String t = line.strip();
            if (!t.startsWith(".outputs")) continue;
            try {
                return Asm.parseLine("end "
                                + String.join(", ", t.substring(8).strip().split("\\s+")))
                        .srcs();
            } catch (Asm.SyntaxError e) {
                throw new ProgramException(
                        "internal error: .outputs passed the header's parse but not this one: " + e.getMessage());
            }
        }
        return null;
    }
}
