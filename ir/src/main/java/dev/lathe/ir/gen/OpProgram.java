package dev.lathe.ir.gen;

import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * A compute shader that applies one op to many operand sets: invocation i reads its sources
 * from buffer {@code in}, one 8-byte slot per source component (at the op's size for that
 * source), slots {@code i·slots(op)} on, and stores the result's components from byte
 * 8·(i·n) of buffer {@code out} (n the result's components: 1 but for a horizontal op that
 * makes a vector). Tests of an op's lowering and selection run thousands of operand sets in
 * one dispatch this way.
 */
public final class OpProgram {
    private OpProgram() {}

    private static final String XYZW = "xyzw", BEYOND = "abcdefghijklmnop";

    /** How many components source {@code k} of {@code op} has here: a horizontal op's own count, else 1. */
    static int components(Op op, int k) {
        return op.isHorizontal() ? Math.max(1, op.input(k).components()) : 1;
    }

    /** The slots one invocation reads: one per source component. */
    public static int slots(Op op) {
        int n = 0;
        for (int k = 0; k < op.numInputs(); k++) n += components(op, k);
        return n;
    }

    /** The components of the result one invocation stores. */
    public static int results(Op op) {
        return op.isHorizontal() ? Math.max(1, op.output().components()) : 1;
    }

    /** The program's text for {@code op} at unsized size {@code bits}, in workgroups of {@code group} invocations. */
    public static String text(Op op, int bits, int group) {
        int slots = slots(op);
        StringBuilder sb = new StringBuilder("shader compute workgroup_size(" + group
                + ", 1, 1)\nbuffer u32 @in binding=0\nbuffer u32 @out binding=1\n");
        sb.append("function main {\n  vec3 32 %gid = load_global_invocation_id\n  vec1 32 %i = mov %gid.x\n");
        sb.append("  vec1 32 %stride = load_const (")
                .append(8 * slots)
                .append(")\n  vec1 32 %base = imul %i, %stride\n");
        List<String> names = new ArrayList<>();
        int slot = 0;
        for (int k = 0; k < op.numInputs(); k++) {
            int b = op.inputBits(k, bits), m = components(op, k);
            List<String> parts = new ArrayList<>();
            for (int c = 0; c < m; c++, slot++) {
                String s = "%s" + k + (m == 1 ? "" : "_" + c);
                sb.append("  vec1 32 %d")
                        .append(slot)
                        .append(" = load_const (")
                        .append(8 * slot)
                        .append(")\n");
                sb.append("  vec1 32 %o")
                        .append(slot)
                        .append(" = iadd %base, %d")
                        .append(slot)
                        .append('\n');
                if (b == 1) {
                    sb.append("  vec1 32 %w")
                            .append(slot)
                            .append(" = load_buffer @in, %o")
                            .append(slot)
                            .append('\n');
                    sb.append("  vec1 32 %z").append(slot).append(" = load_const (0)\n");
                    sb.append("  vec1 1 ")
                            .append(s)
                            .append(" = ine %w")
                            .append(slot)
                            .append(", %z")
                            .append(slot)
                            .append('\n');
                } else {
                    sb.append("  vec1 ")
                            .append(b)
                            .append(' ')
                            .append(s)
                            .append(" = load_buffer @in, %o")
                            .append(slot)
                            .append('\n');
                }
                parts.add(s);
            }
            if (m == 1) {
                names.add(parts.get(0));
            } else {
                sb.append("  vec")
                        .append(m)
                        .append(' ')
                        .append(b)
                        .append(" %s")
                        .append(k)
                        .append(" = vec")
                        .append(m)
                        .append(' ')
                        .append(String.join(", ", parts))
                        .append('\n');
                names.add("%s" + k);
            }
        }
        int outBits = op.outputBits(bits), n = results(op);
        sb.append("  vec")
                .append(n)
                .append(' ')
                .append(outBits)
                .append(" %r = ")
                .append(op.opName())
                .append(' ')
                .append(String.join(", ", names))
                .append('\n');
        sb.append("  vec1 32 %size = load_const (").append(8 * n).append(")\n  vec1 32 %out = imul %i, %size\n");
        for (int c = 0; c < n; c++) {
            String stored = "%r" + (n == 1 ? "" : "." + (n <= 4 ? XYZW : BEYOND).charAt(c));
            if (n > 1) {
                sb.append("  vec1 ")
                        .append(outBits)
                        .append(" %r")
                        .append(c)
                        .append(" = mov ")
                        .append(stored)
                        .append('\n');
                stored = "%r" + c;
            }
            if (outBits == 1) {
                sb.append("  vec1 32 %rb")
                        .append(c)
                        .append(" = b2i32 ")
                        .append(stored)
                        .append('\n');
                stored = "%rb" + c;
            }
            String at = "%out";
            if (c > 0) {
                sb.append("  vec1 32 %e")
                        .append(c)
                        .append(" = load_const (")
                        .append(8 * c)
                        .append(")\n");
                sb.append("  vec1 32 %out")
                        .append(c)
                        .append(" = iadd %out, %e")
                        .append(c)
                        .append('\n');
                at = "%out" + c;
            }
            sb.append("  store_buffer @out, ")
                    .append(at)
                    .append(", ")
                    .append(stored)
                    .append('\n');
        }
        sb.append("}\n");
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
