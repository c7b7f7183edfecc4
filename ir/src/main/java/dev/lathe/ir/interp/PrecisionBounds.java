package dev.lathe.ir.interp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run's outputs may be on a conforming implementation, as a precision {@link Shadow}
 * records it (the Vulkan oracle's model, {@code vulkan/README.md}): the comparisons under the NaN
 * contract read it, so it is the interpreter's, while the model that fills it is the oracle's.
 *
 * @param outputs   per output name, per component: {lo, hi, bits}, the reals the component (a
 *                  float of {@code bits}) may hold; a null component (or an output not listed) is
 *                  exact, bit for bit
 * @param buffers   per buffer name (device memory too), by the byte a float starts at: {lo, hi,
 *                  bits}, the reals that float may hold; bytes not listed are exact
 * @param undecided null, or the first place where a value with no one answer decided something
 *                  (a branch, an integer, an address): nothing about the run can then be compared
 */
public record PrecisionBounds(
        Map<String, double[][]> outputs, Map<String, Map<Long, double[]>> buffers, String undecided) {
    public PrecisionBounds {
        outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
    }

    /** The interval of the float ({lo, hi, bits}) that starts at byte {@code at} of buffer {@code name}, or null when none does. */
    public double[] bufferInterval(String name, long at) {
        Map<Long, double[]> m = buffers.get(name);
        return m == null ? null : m.get(at);
    }

    /**
     * The interval component {@code c} of output {@code name} may hold ({lo, hi, bits}; {NaN, NaN,
     * bits} where it was never given a value, so any bits will do), or null when it is exact.
     */
    public double[] interval(String name, int c) {
        double[][] iv = outputs.get(name);
        return iv == null || c >= iv.length ? null : iv[c];
    }
}
