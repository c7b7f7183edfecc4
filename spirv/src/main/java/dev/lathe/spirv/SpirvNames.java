package dev.lathe.spirv;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The names SPIR-V gives its opcodes, enumerants and GLSL.std.450 instructions, for messages:
 * {@code OpImageSparseSampleImplicitLod}, {@code BuiltIn PointCoord}, {@code Dim SubpassData}.
 *
 * <p>They come from Khronos's machine-readable grammar ({@code spirv.core.grammar.json} and
 * {@code extinst.glsl.std.450.grammar.json} of SPIR-V Headers), extracted into the resource
 * {@code grammar-names.tsv}; {@code GrammarNamesTest} regenerates it from the JSON where Debian's
 * spirv-headers package is installed and fails when the committed table differs. Where the grammar
 * has aliases for one value (BaryCoordNV and BaryCoordKHR), the table keeps the name without a
 * vendor suffix, else the KHR one, else the EXT one.
 */
public final class SpirvNames {
    private SpirvNames() {}

    /** The kind of the opcode names; the others are the grammar's operand kinds (BuiltIn, Dim, …) and GLSL.std.450. */
    public static final String OPCODE = "Op";

    public static final String GLSL_STD_450 = "GLSL.std.450";

    private static final Map<String, Map<Integer, String>> NAMES = load();

    private static Map<String, Map<Integer, String>> load() {
        Map<String, Map<Integer, String>> names = new HashMap<>();
        try (InputStream in = SpirvNames.class.getResourceAsStream("grammar-names.tsv")) {
            if (in == null)
                throw new IllegalStateException("grammar-names.tsv is missing from the SPIR-V frontend's resources");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] f = line.split("\t");
                names.computeIfAbsent(f[0], k -> new HashMap<>()).put(Integer.parseUnsignedInt(f[1]), f[2]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** An opcode's name, {@code OpFAdd}; an opcode the grammar does not know is {@code Op#N}. */
    public static String opcode(int opcode) {
        String n = NAMES.get(OPCODE).get(opcode);
        return n != null ? n : "Op#" + opcode;
    }

    /** An enumerant with its kind, {@code BuiltIn PointCoord}; an unknown value is {@code BuiltIn 4294967295}. */
    public static String of(String kind, int value) {
        return kind + " " + name(kind, value);
    }

    /** An enumerant's name alone, {@code PointCoord}, or its number when the grammar does not know it. */
    public static String name(String kind, int value) {
        Map<Integer, String> k = NAMES.get(kind);
        if (k == null) throw new IllegalArgumentException("no SPIR-V operand kind " + kind);
        String n = k.get(value);
        return n != null ? n : Integer.toUnsignedString(value);
    }

    /** Whether the grammar names this value of the kind. */
    public static boolean known(String kind, int value) {
        Map<Integer, String> k = NAMES.get(kind);
        return k != null && k.containsKey(value);
    }
}
