package dev.lathe.ir.interp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a run's results hold NaNs whose bits the NaN contract leaves open (see
 * {@code ir/README.md}, "NaN"), as a tracked interpreter run records them.
 *
 * @param outputs  per output name, per component: 0 exact (or never written), else the size in bytes
 *                 of the open NaN written there
 * @param buffers  per buffer name (device memory too), per byte: 0 exact, n &gt; 0 the first byte of
 *                 an open n-byte NaN, -1 one of its other bytes
 * @param observed null, or the first read of an open NaN's bits: the run's outcome then depends on
 *                 bits the contract leaves open, and nothing about it can be compared exactly
 */
public record NanTaint(Map<String, byte[]> outputs, Map<String, byte[]> buffers, String observed) {
    public NanTaint {
        outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
    }

    /** The size in bytes of the open NaN in component {@code c} of output {@code name}, or 0. */
    public int openOutput(String name, int c) {
        byte[] t = outputs.get(name);
        return t != null && c < t.length ? t[c] : 0;
    }

    /** The size in bytes of the open NaN starting at byte {@code at} of a buffer, or 0. */
    public int openNaNAt(String buffer, int at) {
        byte[] t = buffers.get(buffer);
        return t != null && at < t.length && t[at] > 0 ? t[at] : 0;
    }
}
