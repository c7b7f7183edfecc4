package dev.lathe.ir.gen;

import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * A compute shader that applies one op to many operand sets: invocation i reads its sources
 * from buffer {@code in} at byte 8·(i·sources + k) (each source in an 8-byte slot, at the op's
 * size for that source) and stores the result at byte 8·i of buffer {@code out}. Tests of an
 * op's lowering and selection run thousands of operand sets in one dispatch this way.
 */
public final class OpProgram {
    private OpProgram() {}

    /** The program's text for {@code op} at unsized size {@code bits}, in workgroups of {@code group} invocations. */
    public static String text(Op op, int bits, int group) {
        int srcs = op.numInputs();
        StringBuilder sb = new StringBuilder("shader compute workgroup_size(" + group + ", 1, 1)\nbuffer u32 @in binding=0\nbuffer u32 @out binding=1\n");
        sb.append("function main {\n  vec3 32 %gid = load_global_invocation_id\n  vec1 32 %i = mov %gid.x\n");
        sb.append("  vec1 32 %stride = load_const (").append(8 * srcs).append(")\n  vec1 32 %base = imul %i, %stride\n");
        List<String> names = new ArrayList<>();
        for (int k = 0; k < srcs; k++) {
            sb.append("  vec1 32 %d").append(k).append(" = load_const (").append(8 * k).append(")\n");
            sb.append("  vec1 32 %o").append(k).append(" = iadd %base, %d").append(k).append('\n');
            int b = op.inputBits(k, bits);
            if (b == 1) {
                sb.append("  vec1 32 %w").append(k).append(" = load_buffer @in, %o").append(k).append('\n');
                sb.append("  vec1 32 %z").append(k).append(" = load_const (0)\n");
                sb.append("  vec1 1 %s").append(k).append(" = ine %w").append(k).append(", %z").append(k).append('\n');
            } else {
                sb.append("  vec1 ").append(b).append(" %s").append(k).append(" = load_buffer @in, %o").append(k).append('\n');
            }
            names.add("%s" + k);
        }
        int outBits = op.outputBits(bits);
        sb.append("  vec1 ").append(outBits).append(" %r = ").append(op.opName()).append(' ').append(String.join(", ", names)).append('\n');
        String stored = "%r";
        if (outBits == 1) {
            sb.append("  vec1 32 %rb = b2i32 %r\n");
            stored = "%rb";
        }
        sb.append("  vec1 32 %eight = load_const (8)\n  vec1 32 %out = imul %i, %eight\n  store_buffer @out, %out, ").append(stored).append("\n}\n");
        return sb.toString();
    }

    /** The words of buffer {@code in} for these operand sets (one long per source), padded to {@code invocations}. */
    public static long[] inputWords(List<long[]> sets, int sources, int invocations) {
        long[] words = new long[invocations * sources * 2];
        for (int k = 0; k < sets.size(); k++) {
            for (int i = 0; i < sources; i++) {
                long v = sets.get(k)[i];
                words[(k * sources + i) * 2] = v & 0xffffffffL;
                words[(k * sources + i) * 2 + 1] = v >>> 32;
            }
        }
        return words;
    }

    /** Invocation k's result from buffer {@code out}'s words {@code lo} and {@code hi}, at {@code outBits}. */
    public static long result(long lo, long hi, int outBits) {
        return outBits == 64 ? lo & 0xffffffffL | hi << 32 : outBits == 1 ? lo & 1 : lo & 0xffffffffL;
    }
}
