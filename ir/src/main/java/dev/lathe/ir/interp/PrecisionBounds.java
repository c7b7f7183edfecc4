package dev.lathe.ir.interp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run's outputs may be on a conforming Vulkan implementation, as a run tracked by
 * {@link Interpreter#trackPrecision} records it ({@link VulkanPrecision}; {@code ir/README.md},
 * "Precision").
 *
 * @param outputs   per output name, per component: {lo, hi, bits}, the reals the component (a
 *                  float of {@code bits}) may hold; a null component (or an output not listed) is
 *                  exact, bit for bit
 * @param undecided null, or the first place where a value with no one answer decided something
 *                  (a branch, an integer, an address): nothing about the run can then be compared
 */
public record PrecisionBounds(Map<String, double[][]> outputs, String undecided) {
    public PrecisionBounds {
        outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
    }

    /** The interval component {@code c} of output {@code name} may hold ({lo, hi, bits}), or null when it is exact. */
    public double[] interval(String name, int c) {
        double[][] iv = outputs.get(name);
        return iv == null || c >= iv.length ? null : iv[c];
    }
}
