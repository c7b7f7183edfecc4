package dev.lathe.vulkan;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.op.FloatBits;
import java.util.Map;

/**
 * Random inputs for a comparison with a Vulkan implementation: {@link RandomProgramGenerator#randomInputs}'s,
 * with every float input, uniform and buffer element (as the IR types it) kept where Vulkan defines what a shader computes from it.
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
        return draw(shader, seed, Map.of(), Map.of());
    }

    /**
     * The inputs of {@code seed} for {@code shader}, a texture named in {@code layers} given that
     * many layers (a cube map's six faces, which a Vulkan image of one must have), and an integer
     * input or uniform named in {@code indices} (it indexes an array of descriptors that long)
     * kept inside the array three times in four: past it, Vulkan defines nothing.
     */
    public static ShaderInputs draw(
            Shader shader, long seed, Map<String, Integer> layers, Map<String, Integer> indices) {
        return draw(shader, seed, layers, indices, false);
    }

    /**
     * {@link #draw(Shader, long, Map, Map)}, and with {@code small} every integer input, uniform
     * and buffer element from 0 to {@value #SMALL_INT} and every float one from 1/16 to 16: the
     * inputs for a shader whose loops run as often as an input says (a sample count, a step), which
     * random bits would make nearly endless.
     */
    public static ShaderInputs draw(
            Shader shader, long seed, Map<String, Integer> layers, Map<String, Integer> indices, boolean small) {
        ShaderInputs in = RandomProgramGenerator.randomInputs(shader, seed);
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed ^ 0x6c617468L);
        if (small) makeSmall(shader, in, new java.util.SplittableRandom(seed ^ 0x736d616c6cL));
        for (var e : new java.util.TreeMap<>(indices).entrySet()) {
            long[] v = in.value(e.getKey());
            if (v == null) continue;
            long[] inside = v.clone();
            for (int k = 0; k < inside.length; k++)
                if (r.nextInt(4) != 0) inside[k] = r.nextInt(Math.max(1, e.getValue()));
            in.set(e.getKey(), inside);
        }
        for (var e : layers.entrySet()) {
            dev.lathe.ir.interp.Texture t = in.texture(e.getKey());
            if (t == null || t.depth() == e.getValue()) continue;
            // more layers: the given ones, then random texels of the same kind (taken from the given ones)
            long[] given = t.texels(), texels = new long[t.width() * t.height() * e.getValue() * 4];
            for (int k = 0; k < texels.length; k++)
                texels[k] = k < given.length ? given[k] : given[r.nextInt(given.length)];
            in.setTexture(e.getKey(), new dev.lathe.ir.interp.Texture(t.width(), t.height(), e.getValue(), texels));
        }
        for (Variable v : shader.variables()) {
            if (v.kind() != Variable.Kind.INPUT && v.kind() != Variable.Kind.UNIFORM) continue;
            if (v.type().base() != BaseType.FLOAT) continue;
            long[] values = in.value(v.name());
            if (values == null) continue;
            int bits = v.type().bitSize();
            long[] tamed = values.clone();
            for (int k = 0; k < tamed.length; k++) tamed[k] = tame(values[k], bits);
            in.set(v.name(), tamed);
        }
        // a buffer of floats (its IR element type) the same way, element by element
        for (Variable v : shader.variables(Variable.Kind.BUFFER)) {
            if (v.type().base() != BaseType.FLOAT) continue;
            byte[] bytes = in.buffer(v.name());
            if (bytes == null) continue;
            int size = v.type().bitSize() / 8;
            for (int at = 0; at + size <= bytes.length; at += size) {
                long x = 0;
                for (int k = 0; k < size; k++) x |= (bytes[at + k] & 0xffL) << (8 * k);
                long t = tame(x, size * 8);
                for (int k = 0; k < size; k++) bytes[at + k] = (byte) (t >>> (8 * k));
            }
            in.setBuffer(v.name(), bytes);
        }
        // float texels the same way; a storage image's start at its format's precision, as Vulkan
        // keeps them (the interpreter keeps what it is given)
        for (Variable v : shader.variables()) {
            if (v.kind() != Variable.Kind.TEXTURE && v.kind() != Variable.Kind.IMAGE) continue;
            for (int e = 0; e < Math.max(1, v.arrayLength()); e++) {
                dev.lathe.ir.interp.Texture t = in.texture(v.elementName(e));
                if (t == null) continue;
                long[] texels = t.texels();
                if (v.type().base() == BaseType.FLOAT)
                    for (int k = 0; k < texels.length; k++) texels[k] = tame(texels[k], 32);
                if (v.kind() == Variable.Kind.IMAGE) {
                    for (int k = 0; k < texels.length; k += 4)
                        System.arraycopy(
                                v.format().store(java.util.Arrays.copyOfRange(texels, k, k + 4)), 0, texels, k, 4);
                }
                in.setTexture(
                        v.elementName(e), new dev.lathe.ir.interp.Texture(t.width(), t.height(), t.depth(), texels));
            }
        }
        return in;
    }

    /** The largest integer {@link #draw(Shader, long, Map, Map, boolean) small} inputs hold. */
    static final int SMALL_INT = 16;

    private static void makeSmall(Shader shader, ShaderInputs in, java.util.SplittableRandom r) {
        for (Variable v : shader.variables()) {
            if (v.kind() != Variable.Kind.INPUT && v.kind() != Variable.Kind.UNIFORM
                    || v.type().base() == BaseType.BOOL) continue;
            long[] values = in.value(v.name());
            if (values == null) continue;
            long[] small = new long[values.length];
            for (int k = 0; k < small.length; k++)
                small[k] = smallValue(v.type().base(), v.type().bitSize(), r);
            in.set(v.name(), small);
        }
        for (Variable v : shader.variables(Variable.Kind.BUFFER)) {
            byte[] bytes = in.buffer(v.name());
            if (bytes == null || v.type().base() == BaseType.BOOL) continue;
            int size = v.type().bitSize() / 8;
            for (int at = 0; at + size <= bytes.length; at += size) {
                long x = smallValue(v.type().base(), size * 8, r);
                for (int k = 0; k < size; k++) bytes[at + k] = (byte) (x >>> (8 * k));
            }
            in.setBuffer(v.name(), bytes);
        }
    }

    private static long smallValue(BaseType base, int bits, java.util.SplittableRandom r) {
        if (base != BaseType.FLOAT) return r.nextInt(SMALL_INT + 1);
        return FloatBits.fromDouble(Math.scalb(1 + r.nextInt(16) / 16.0, r.nextInt(8) - 4), bits); // 1/16 to 16
    }

    /** {@code bits} as they are, or a moderate value made from them where Vulkan would not define what follows. */
    static long tame(long bits, int size) {
        double x = FloatBits.toDouble(bits, size);
        double m = Math.abs(x);
        if (Double.isFinite(x) && m <= LARGEST && (x == 0 || m >= SMALLEST)) return bits;
        return FloatBits.fromDouble(((bits & 0xffff) - 32768) / 1024.0, size); // within ±32
    }
}
