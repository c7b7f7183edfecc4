package dev.lathe.ir.interp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run produced: each output variable's components (raw bits; zero when never written),
 * the final contents of every buffer, and whether the invocation was discarded.
 *
 * @param outputs     by output name, in declaration order
 * @param buffers     by buffer name, in declaration order
 * @param discarded   a fragment shader executed discard (its outputs are then meaningless)
 * @param loopIterations back edges taken, a measure of work
 */
public record ShaderOutputs(Map<String, long[]> outputs, Map<String, byte[]> buffers, boolean discarded,
                            long loopIterations) {
    public ShaderOutputs {
        outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
    }

    public long[] output(String name) {
        long[] v = outputs.get(name);
        return v == null ? null : v.clone();
    }

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

    /** Whether two runs produced identical bits everywhere. */
    public boolean sameAs(ShaderOutputs o) {
        return firstDifference(o) == null;
    }

    /** The first place two runs differ ("output color[2]: 0x3f800000, not 0x0"), or null when they agree. */
    public String firstDifference(ShaderOutputs o) {
        if (discarded != o.discarded) return discarded ? "discarded here only" : "discarded there only";
        if (!outputs.keySet().equals(o.outputs.keySet())) return "outputs " + outputs.keySet() + ", not " + o.outputs.keySet();
        if (!buffers.keySet().equals(o.buffers.keySet())) return "buffers " + buffers.keySet() + ", not " + o.buffers.keySet();
        for (var e : outputs.entrySet()) {
            long[] a = e.getValue(), b = o.outputs.get(e.getKey());
            if (a.length != b.length) return "output " + e.getKey() + ": " + a.length + " components, not " + b.length;
            for (int k = 0; k < a.length; k++) {
                if (a[k] != b[k]) return "output " + e.getKey() + "[" + k + "]: 0x" + Long.toHexString(a[k]) + ", not 0x" + Long.toHexString(b[k]);
            }
        }
        for (var e : buffers.entrySet()) {
            byte[] a = e.getValue(), b = o.buffers.get(e.getKey());
            if (a.length != b.length) return "buffer " + e.getKey() + ": " + a.length + " bytes, not " + b.length;
            for (int k = 0; k < a.length; k++) {
                if (a[k] != b[k]) {
                    return "buffer " + e.getKey() + " word " + k / 4 + ": 0x" + Long.toHexString(bufferWord(e.getKey(), k / 4)) + ", not 0x"
                            + Long.toHexString(o.bufferWord(e.getKey(), k / 4));
                }
            }
        }
        return null;
    }
}
