package dev.lathe.vulkan;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.op.FloatBits;

/**
 * Random inputs for a comparison with a Vulkan implementation: {@link RandomProgramGenerator#randomInputs}'s,
 * with every float input and uniform kept where Vulkan defines what a shader computes from it.
 * Vulkan lets an implementation assume no operand is an infinity or a NaN and flush denormals, so a
 * raw-bit float that is one of those (or so large or small that the shader's arithmetic soon makes
 * one) would only make the input set undecided; it is replaced by a moderate value made from its
 * bits, so that the same seed gives the same inputs everywhere.
 */
public final class OracleInputs {
    private OracleInputs() {}

    /** The largest and smallest magnitudes a float input keeps. */
    static final double LARGEST = 0x1p16, SMALLEST = 0x1p-16;

    /** The inputs of {@code seed} for {@code shader}. */
    public static ShaderInputs draw(Shader shader, long seed) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(shader, seed);
        for (Variable v : shader.variables()) {
            if (v.kind() != Variable.Kind.INPUT && v.kind() != Variable.Kind.UNIFORM) continue;
            if (v.type().base() != BaseType.FLOAT) continue;
            long[] values = in.value(v.name());
            if (values == null) continue;
            int bits = v.type().bitSize();
            long[] tamed = values.clone();
            for (int k = 0; k < tamed.length; k++) {
                double x = FloatBits.toDouble(values[k], bits);
                double m = Math.abs(x);
                if (!Double.isFinite(x) || m > LARGEST || x != 0 && m < SMALLEST) {
                    tamed[k] = FloatBits.fromDouble(((values[k] & 0xffff) - 32768) / 1024.0, bits); // within ±32
                }
            }
            in.set(v.name(), tamed);
        }
        return in;
    }
}
