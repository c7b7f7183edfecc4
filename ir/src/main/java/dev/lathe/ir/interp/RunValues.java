package dev.lathe.ir.interp;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.Shader;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.text.Literals;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text for runs: reading {@code NAME=VALUES} arguments into {@link ShaderInputs} using the
 * declared variable types, and printing {@link ShaderOutputs} the same way. Values are
 * comma-separated literals ({@code 1.5}, {@code -2}, {@code 0x3f800000} raw bits, {@code inf},
 * {@code nan}, {@code true}); for float variables {@code 1} means 1.0.
 *
 * <p>Every method throws {@link IllegalArgumentException} with a user-facing message on bad
 * text.
 */
public final class RunValues {
    private RunValues() {}

    /** Splits {@code NAME=VALUES} (a leading @ on the name is optional). */
    private static String[] nameAndValues(String option, String arg) {
        int eq = arg.indexOf('=');
        if (eq <= 0) throw new IllegalArgumentException(option + " " + arg + ": expected NAME=VALUES");
        String name = arg.substring(0, eq).trim();
        if (name.startsWith("@")) name = name.substring(1);
        return new String[] {name, arg.substring(eq + 1)};
    }

    private static List<String> split(String values) {
        List<String> out = new ArrayList<>();
        if (values.isBlank()) return out;
        for (String v : values.split(",", -1)) out.add(v.trim());
        return out;
    }

    /** Parses literals of {@code type}'s scalar type. */
    public static long[] parseValues(String what, String values, VarType type, int count) {
        List<String> items = split(values);
        if (count >= 0 && items.size() != count) {
            throw new IllegalArgumentException(what + ": expected " + count + " value(s), got " + items.size());
        }
        long[] out = new long[items.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = Literals.parse(items.get(i), type.bitSize(), type.base());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + ": value " + (i + 1) + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** {@code --input NAME=VALUES}: an input or a uniform (arrays: all elements, in order). */
    public static void applyInput(Shader s, ShaderInputs in, String arg) {
        String[] nv = nameAndValues("--input", arg);
        Variable v = s.variable(nv[0]);
        if (v == null || (v.kind() != Variable.Kind.INPUT && v.kind() != Variable.Kind.UNIFORM)) {
            throw new IllegalArgumentException("--input " + nv[0] + ": the shader has no input or uniform @" + nv[0]);
        }
        int count = v.type().components() * Math.max(1, v.arrayLength());
        String what = "--input " + nv[0] + " (" + v.type() + (v.isArray() ? "[" + v.arrayLength() + "]" : "") + ")";
        in.set(v.name(), parseValues(what, nv[1], v.type(), count));
    }

    /** {@code --buffer NAME=VALUES}: initial contents, as elements of the buffer's declared type. */
    public static void applyBuffer(Shader s, ShaderInputs in, String arg) {
        String[] nv = nameAndValues("--buffer", arg);
        Variable v = buffer(s, "--buffer", nv[0]);
        long[] vals = parseValues("--buffer " + nv[0] + " (" + v.type() + ")", nv[1], v.type(), -1);
        int bytes = v.type().bitSize() / 8;
        byte[] b = new byte[vals.length * bytes];
        for (int i = 0; i < vals.length; i++) {
            for (int k = 0; k < bytes; k++) b[i * bytes + k] = (byte) (vals[i] >>> (8 * k));
        }
        in.setBuffer(v.name(), b);
    }

    /**
     * {@code --device-memory [TYPE:]VALUES}: the contents of device memory from
     * {@link ShaderInputs#DEVICE_MEMORY_BASE} on, as values of a scalar type ({@code u32} when
     * none is given: {@code f32:1.5,2}, {@code u64:0x100000010}).
     */
    public static void applyDeviceMemory(ShaderInputs in, String arg) {
        VarType t = VarType.u32(1);
        String values = arg;
        int colon = arg.indexOf(':');
        if (colon >= 0) {
            t = VarType.parseScalar(arg.substring(0, colon).trim(), 1);
            if (t == null || t.bitSize() < 8) {
                throw new IllegalArgumentException(
                        "--device-memory: '" + arg.substring(0, colon) + "' is not a type (f32, u32, i64, …)");
            }
            values = arg.substring(colon + 1);
        }
        long[] vals = parseValues("--device-memory (" + t + ")", values, t, -1);
        int bytes = t.bitSize() / 8;
        byte[] b = new byte[vals.length * bytes];
        for (int i = 0; i < vals.length; i++) {
            for (int k = 0; k < bytes; k++) b[i * bytes + k] = (byte) (vals[i] >>> (8 * k));
        }
        in.setDeviceMemory(b);
    }

    /** {@code --buffer-size NAME=BYTES}: a zero-filled buffer. */
    public static void applyBufferSize(Shader s, ShaderInputs in, String arg) {
        String[] nv = nameAndValues("--buffer-size", arg);
        Variable v = buffer(s, "--buffer-size", nv[0]);
        int n;
        try {
            n = Integer.parseInt(nv[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--buffer-size " + nv[0] + ": '" + nv[1] + "' is not a byte count");
        }
        if (n < 0 || n > (1 << 28))
            throw new IllegalArgumentException("--buffer-size " + nv[0] + ": size must be 0 to 2^28 bytes");
        in.setBuffer(v.name(), new byte[n]);
    }

    private static Variable buffer(Shader s, String option, String name) {
        Variable v = s.variable(name);
        if (v == null || v.kind() != Variable.Kind.BUFFER) {
            throw new IllegalArgumentException(option + " " + name + ": the shader has no buffer @" + name);
        }
        return v;
    }

    /**
     * {@code --texture NAME=W[xH[xD]]:VALUES}: texels, four components each, row by row; for a
     * storage image, its size and starting contents. {@code NAME[K]} is element K of an array of
     * textures.
     */
    public static void applyTexture(Shader s, ShaderInputs in, String arg) {
        String[] nv = nameAndValues("--texture", arg);
        int element = 0;
        String base = nv[0];
        Matcher m = Pattern.compile("(.+)\\[(\\d{1,8})]").matcher(nv[0]);
        if (m.matches()) {
            base = m.group(1);
            element = Integer.parseInt(m.group(2));
        }
        Variable v = s.variable(base);
        if (v == null || (v.kind() != Variable.Kind.TEXTURE && v.kind() != Variable.Kind.IMAGE)) {
            throw new IllegalArgumentException("--texture " + nv[0] + ": the shader has no texture or image @" + base);
        }
        if (m.matches() != v.isArray() || element >= Math.max(1, v.arrayLength())) {
            throw new IllegalArgumentException("--texture " + nv[0] + ": "
                    + (v.isArray()
                            ? "@" + base + " is an array of " + v.arrayLength() + " textures: name one as " + base
                                    + "[0] to " + base + "[" + (v.arrayLength() - 1) + "]"
                            : "@" + base + " is no array"));
        }
        int colon = nv[1].indexOf(':');
        if (colon < 0)
            throw new IllegalArgumentException("--texture " + nv[0] + ": expected SIZE:VALUES, e.g. 2x2:1,0,0,1,…");
        String[] dims = nv[1].substring(0, colon).trim().split("x");
        int[] size = {1, 1, 1};
        int most = Math.min(3, v.dim().coordinates()); // a cube array: width, height, its faces (6 × cubes)
        if (dims.length > most) {
            throw new IllegalArgumentException(
                    "--texture " + nv[0] + ": a " + v.dim().spelling() + " texture has at most " + most + " size(s)");
        }
        for (int i = 0; i < dims.length; i++) {
            try {
                size[i] = Integer.parseInt(dims[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--texture " + nv[0] + ": '" + dims[i] + "' is not a size");
            }
            if (size[i] < 1 || size[i] > 4096)
                throw new IllegalArgumentException("--texture " + nv[0] + ": sizes are 1 to 4096");
        }
        int count = size[0] * size[1] * size[2] * 4;
        long[] texels = parseValues(
                "--texture " + nv[0] + " (" + size[0] + "x" + size[1] + "x" + size[2] + " texels of " + v.type() + ")",
                nv[1].substring(colon + 1),
                v.type(),
                count);
        if (v.isUnorm()) {
            for (long t : texels) {
                float f = Float.intBitsToFloat((int) t);
                // A UNORM format stores no sign: -0 cannot come out of one, and the range analysis relies on it.
                if (!(f >= 0f && f <= 1f) || (int) t == 0x80000000) {
                    throw new IllegalArgumentException("--texture " + nv[0]
                            + ": the texture is unorm, so every value must be in [0, 1] (and not -0); got " + f);
                }
            }
        }
        in.setTexture(v.elementName(element), new Texture(size[0], size[1], size[2], texels));
    }

    /** Parses {@code x,y,z} (missing trailing components are 0, or {@code fill}). */
    public static int[] parseTriple(String option, String text, int fill) {
        List<String> items = split(text);
        if (items.isEmpty() || items.size() > 3)
            throw new IllegalArgumentException(option + ": expected up to three integers x,y,z");
        int[] out = {fill, fill, fill};
        for (int i = 0; i < items.size(); i++) {
            try {
                out[i] = Integer.parseInt(items.get(i));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": '" + items.get(i) + "' is not an integer");
            }
            if (out[i] < 0) throw new IllegalArgumentException(option + ": values must not be negative");
        }
        return out;
    }

    /**
     * One line per output (declaration order), then one per buffer and storage image:
     * {@code @name = vec4 f32 (1.0, 0.5, 0.25, 1.0)}, {@code @data = u32[4] (0, 1, 4, 9)}, an
     * image's texels as {@code @img = vec4 f32[W·H·D] (…)}, x fastest.
     * With {@code hex}, the raw bits follow in brackets. A geometry shader's outputs are its
     * emitted vertices, strip by strip: {@code strip 0, vertex 1: @o = vec4 f32 (…)}, one line
     * per output of each vertex ({@code no vertices} when it emitted none).
     */
    public static String format(Shader s, ShaderOutputs o, boolean hex) {
        StringBuilder sb = new StringBuilder();
        if (o.discarded()) sb.append("discarded\n");
        if (s.stage() == dev.lathe.ir.Stage.GEOMETRY && o.strips().isEmpty()) sb.append("no vertices\n");
        for (int k = 0; k < o.strips().size(); k++) {
            List<Map<String, long[]>> strip = o.strips().get(k);
            for (int j = 0; j < strip.size(); j++) {
                for (Variable v : s.variables(Variable.Kind.OUTPUT)) {
                    sb.append("strip ")
                            .append(k)
                            .append(", vertex ")
                            .append(j)
                            .append(": @")
                            .append(v.name());
                    sb.append(" = ").append(v.type()).append(' ');
                    appendValues(sb, strip.get(j).get(v.name()), v.type(), hex);
                    sb.append('\n');
                }
            }
        }
        for (Variable v : s.variables(Variable.Kind.OUTPUT)) {
            if (o.discarded() || s.stage() == dev.lathe.ir.Stage.GEOMETRY) break;
            long[] bits = o.outputs().get(v.name());
            sb.append('@').append(v.name()).append(" = ").append(v.type()).append(' ');
            appendValues(sb, bits, v.type(), hex);
            sb.append('\n');
        }
        for (Map.Entry<String, byte[]> e : o.buffers().entrySet()) {
            Variable v =
                    e.getKey().equals(ShaderInputs.DEVICE_MEMORY) ? Interpreter.DEVICE_MEMORY : s.variable(e.getKey());
            VarType t = v.type();
            int scalarBytes = t.bitSize() / 8;
            byte[] b = e.getValue();
            long[] vals = new long[b.length / scalarBytes];
            for (int i = 0; i < vals.length; i++) {
                long w = 0;
                for (int k = 0; k < scalarBytes; k++) w |= (b[i * scalarBytes + k] & 0xffL) << (8 * k);
                vals[i] = w;
            }
            int elements = vals.length / t.components();
            sb.append(v == Interpreter.DEVICE_MEMORY ? "" : "@")
                    .append(v.name())
                    .append(" = ")
                    .append(t)
                    .append('[')
                    .append(elements)
                    .append("] ");
            appendValues(sb, vals, t, hex);
            sb.append('\n');
        }
        return sb.toString();
    }

    private static void appendValues(StringBuilder sb, long[] bits, VarType t, boolean hex) {
        sb.append('(');
        for (int i = 0; i < bits.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(Literals.format(bits[i], t.bitSize(), t.base()));
        }
        sb.append(')');
        if (hex && t.base() != BaseType.BOOL) {
            sb.append(" [");
            for (int i = 0; i < bits.length; i++) {
                if (i > 0) sb.append(", ");
                sb.append(String.format("0x%0" + (t.bitSize() / 4) + "x", bits[i] & Bits.mask(t.bitSize())));
            }
            sb.append(']');
        }
    }
}
