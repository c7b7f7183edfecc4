package dev.lathe.ir.interp;

import dev.lathe.ir.op.FloatBits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run produced: each output variable's components (raw bits; zero when never written),
 * the final contents of every buffer, and whether the invocation was discarded.
 *
 * @param outputs     by output name, in declaration order
 * @param buffers     by buffer name, in declaration order
 * @param discarded   a fragment shader executed discard (its outputs are then meaningless)
 * @param loopIterations back edges taken, a measure of work
 * @param nans      where NaNs whose bits the NaN contract leaves open went, when the run tracked
 *                  them ({@link Interpreter#trackNans}); null otherwise
 * @param precision what each output may be on a conforming Vulkan implementation, when the run
 *                  tracked it (a precision {@link Shadow}: the Vulkan oracle's); null otherwise (bit for bit)
 * @param strips    a geometry shader's emitted vertices, strip by strip ({@code end_primitive} ends
 *                  one; so does the end of the shader), each vertex its outputs by name; empty for
 *                  the other stages
 */
public record ShaderOutputs(
        Map<String, long[]> outputs,
        Map<String, byte[]> buffers,
        boolean discarded,
        long loopIterations,
        NanTaint nans,
        PrecisionBounds precision,
        List<List<Map<String, long[]>>> strips) {
    /** Copies both maps, keeping their order, into unmodifiable ones, and the strips. */
    public ShaderOutputs {
        outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
        List<List<Map<String, long[]>>> copy = new ArrayList<>();
        for (List<Map<String, long[]>> strip : strips) {
            List<Map<String, long[]>> vs = new ArrayList<>();
            for (Map<String, long[]> v : strip) vs.add(Collections.unmodifiableMap(new LinkedHashMap<>(v)));
            copy.add(Collections.unmodifiableList(vs));
        }
        strips = Collections.unmodifiableList(copy);
    }

    /** The outputs of a run that emitted no vertices (every stage but geometry). */
    public ShaderOutputs(
            Map<String, long[]> outputs,
            Map<String, byte[]> buffers,
            boolean discarded,
            long loopIterations,
            NanTaint nans,
            PrecisionBounds precision) {
        this(outputs, buffers, discarded, loopIterations, nans, precision, List.of());
    }

    /** The outputs of a run that did not track NaNs. */
    public ShaderOutputs(
            Map<String, long[]> outputs, Map<String, byte[]> buffers, boolean discarded, long loopIterations) {
        this(outputs, buffers, discarded, loopIterations, null, null);
    }

    /** The outputs of a run that did not track precision. */
    public ShaderOutputs(
            Map<String, long[]> outputs,
            Map<String, byte[]> buffers,
            boolean discarded,
            long loopIterations,
            NanTaint nans) {
        this(outputs, buffers, discarded, loopIterations, nans, null);
    }

    /** The components of output {@code name} (a copy), or null when the shader has no such output. */
    public long[] output(String name) {
        long[] v = outputs.get(name);
        return v == null ? null : v.clone();
    }

    /** The final contents of buffer {@code name} (a copy), or null when the shader has no such buffer. */
    public byte[] buffer(String name) {
        byte[] b = buffers.get(name);
        return b == null ? null : b.clone();
    }

    /** 32-bit word i of a buffer (little-endian), or 0 past its end. */
    public long bufferWord(String name, int i) {
        byte[] b = buffers.get(name);
        long w = 0;
        for (int k = 0; k < 4; k++) {
            int at = i * 4 + k;
            if (b != null && at < b.length) w |= (b[at] & 0xffL) << (8 * k);
        }
        return w;
    }

    /**
     * How a candidate run compares with this one (the reference) under the NaN contract.
     *
     * @param kind   {@code KEPT}: the candidate keeps the contract; {@code BROKEN}: it does not
     *               ({@code detail} says where); {@code UNDECIDED}: it differs, but the reference
     *               read the bits of a NaN whose bits are open, so its outcome is one of many and
     *               the difference may be allowed ({@code detail} says which read)
     */
    public record Comparison(Kind kind, String detail) {
        /** The outcome of a comparison. */
        public enum Kind {
            /** The candidate keeps the contract. */
            KEPT,
            /** The candidate breaks the contract; {@code detail} says where. */
            BROKEN,
            /** The runs differ, but the reference read open NaN bits; {@code detail} says which read. */
            UNDECIDED
        }
    }

    /**
     * Compares {@code candidate} with this run (the reference, tracked by
     * {@link Interpreter#trackNans}) under the NaN contract. A reference that read open NaN bits
     * can still be matched bit for bit; only a difference is then undecided.
     */
    public Comparison compareUnderNanContract(ShaderOutputs candidate) {
        String undecided = undecidedUnderNanContract();
        if (undecided != null) {
            return firstDifference(candidate) == null
                    ? new Comparison(Comparison.Kind.KEPT, null)
                    : new Comparison(Comparison.Kind.UNDECIDED, undecided);
        }
        String d = differenceUnderNanContract(candidate);
        return new Comparison(d == null ? Comparison.Kind.KEPT : Comparison.Kind.BROKEN, d);
    }

    /**
     * Why this run (the reference) cannot be compared with another under the NaN contract, or
     * null when it can: it read the bits of a NaN whose bits the contract leaves open, so what it
     * computed from them is one outcome of many. Needs a tracked run ({@link Interpreter#trackNans}).
     */
    public String undecidedUnderNanContract() {
        if (nans != null && nans.observed() != null) return nans.observed();
        return precision == null ? null : precision.undecided();
    }

    /**
     * The first place where {@code candidate} breaks the NaN contract against this run (the
     * reference, tracked by {@link Interpreter#trackNans}), or null when it keeps it: every bit is
     * the same, except that where the reference holds a NaN a float operation made, the candidate
     * may hold any NaN of that size. An untracked reference compares bit for bit. Check
     * {@link #undecidedUnderNanContract} first.
     */
    public String differenceUnderNanContract(ShaderOutputs candidate) {
        return difference(candidate, nans);
    }

    /** Whether two runs produced identical bits everywhere. */
    public boolean sameAs(ShaderOutputs o) {
        return firstDifference(o) == null;
    }

    /** The first place two runs differ ("output color[2]: 0x3f800000, not 0x0"), or null when they agree. */
    public String firstDifference(ShaderOutputs o) {
        return difference(o, null);
    }

    /** The first difference, allowing any NaN where {@code open} (when not null) says this run holds a NaN of open bits. */
    private String difference(ShaderOutputs candidate, NanTaint open) {
        if (discarded != candidate.discarded) return discarded ? "discarded here only" : "discarded there only";
        if (!outputs.keySet().equals(candidate.outputs.keySet()))
            return "outputs " + outputs.keySet() + ", not " + candidate.outputs.keySet();
        if (!buffers.keySet().equals(candidate.buffers.keySet()))
            return "buffers " + buffers.keySet() + ", not " + candidate.buffers.keySet();
        for (var e : outputs.entrySet()) {
            long[] a = e.getValue(), b = candidate.outputs.get(e.getKey());
            if (a.length != b.length) return "output " + e.getKey() + ": " + a.length + " components, not " + b.length;
            for (int k = 0; k < a.length; k++) {
                if (a[k] == b[k]) continue;
                double[] iv = precision == null ? null : precision.interval(e.getKey(), k);
                if (iv != null) {
                    if (Double.isNaN(iv[0])) continue; // undefined: Vulkan allows any bits
                    double x = FloatBits.toDouble(b[k], (int) iv[2]);
                    if (x >= iv[0] && x <= iv[1]) continue;
                    return "output " + e.getKey() + "[" + k + "]: " + FloatBits.format(b[k], (int) iv[2])
                            + " is outside [" + iv[0] + ", " + iv[1] + "], what Vulkan allows from the reference's "
                            + FloatBits.format(a[k], (int) iv[2]);
                }
                int size = open == null ? 0 : open.openOutput(e.getKey(), k);
                if (size > 0 && FloatBits.isNaN(b[k], size * 8)) continue;
                return "output " + e.getKey() + "[" + k + "]: 0x" + Long.toHexString(a[k]) + ", not 0x"
                        + Long.toHexString(b[k]);
            }
        }
        for (var e : buffers.entrySet()) {
            byte[] a = e.getValue(), b = candidate.buffers.get(e.getKey());
            if (a.length != b.length) return "buffer " + e.getKey() + ": " + a.length + " bytes, not " + b.length;
            for (int k = 0; k < a.length; k++) {
                double[] iv = precision == null ? null : precision.bufferInterval(e.getKey(), k);
                if (iv != null && k + iv[2] / 8 <= b.length) {
                    int size = (int) iv[2] / 8;
                    long x = 0;
                    for (int j = 0; j < size; j++) x |= (b[k + j] & 0xffL) << (8 * j);
                    double v = FloatBits.toDouble(x, size * 8);
                    if (!(v >= iv[0] && v <= iv[1])) {
                        return "buffer " + e.getKey() + " byte " + k + ": " + FloatBits.format(x, size * 8)
                                + " is outside [" + iv[0] + ", " + iv[1] + "], what Vulkan allows";
                    }
                    k += size - 1;
                    continue;
                }
                int size = open == null ? 0 : open.openNaNAt(e.getKey(), k);
                if (size > 0 && k + size <= b.length) {
                    long x = 0;
                    for (int j = 0; j < size; j++) x |= (b[k + j] & 0xffL) << (8 * j);
                    if (FloatBits.isNaN(x, size * 8)) {
                        k += size - 1;
                        continue;
                    }
                }
                if (a[k] != b[k]) {
                    return "buffer " + e.getKey() + " word " + k / 4 + ": 0x"
                            + Long.toHexString(bufferWord(e.getKey(), k / 4)) + ", not 0x"
                            + Long.toHexString(candidate.bufferWord(e.getKey(), k / 4));
                }
            }
        }
        return null;
    }
}
