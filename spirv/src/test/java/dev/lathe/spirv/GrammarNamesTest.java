package dev.lathe.spirv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The names table {@link SpirvNames} reads is Khronos's grammar, extracted: where Debian's
 * spirv-headers is installed, the table is made again from the JSON and must equal the committed
 * one. {@code -Dlathe.regenerate-grammar-names=true} writes it instead (after a headers update).
 */
class GrammarNamesTest {
    static final Path GRAMMAR = Path.of("/usr/include/spirv/unified1");
    static final Path TABLE = Path.of("src/main/resources/dev/lathe/spirv/grammar-names.tsv");

    @Test
    void committedTableIsTheGrammar() throws IOException {
        assumeTrue(
                Files.exists(GRAMMAR.resolve("spirv.core.grammar.json")),
                "spirv-headers is not installed (apt-get install spirv-headers)");
        String made = table();
        if (Boolean.getBoolean("lathe.regenerate-grammar-names"))
            Files.writeString(TABLE, made, StandardCharsets.UTF_8);
        assertEquals(
                made,
                Files.readString(TABLE, StandardCharsets.UTF_8),
                "grammar-names.tsv differs from the installed grammar; regenerate it with "
                        + "mvn -pl spirv test -Dtest=GrammarNamesTest -Dlathe.regenerate-grammar-names=true");
    }

    @Test
    void namesTheIssuesExamples() {
        assertEquals("BuiltIn PointCoord", SpirvNames.of("BuiltIn", 16));
        assertEquals("Dim SubpassData", SpirvNames.of("Dim", 6));
        assertEquals("OpImageSparseSampleImplicitLod", SpirvNames.opcode(305));
        assertEquals("BuiltIn BaryCoordKHR", SpirvNames.of("BuiltIn", 5286));
        assertEquals("StorageClass PhysicalStorageBuffer", SpirvNames.of("StorageClass", 5349));
        assertEquals("Op#65000", SpirvNames.opcode(65000));
        assertEquals("BuiltIn 4294967295", SpirvNames.of("BuiltIn", -1));
        assertEquals("FindUMsb", SpirvNames.name(SpirvNames.GLSL_STD_450, 75));
    }

    static String table() throws IOException {
        JsonObject core = read("spirv.core.grammar.json");
        JsonObject glsl = read("extinst.glsl.std.450.grammar.json");
        StringBuilder out = new StringBuilder();
        out.append("# SPIR-V names for messages, extracted from Khronos's machine-readable grammar (SPIR-V Headers: ")
                .append("spirv.core.grammar.json ")
                .append(core.get("major_version"))
                .append('.')
                .append(core.get("minor_version"))
                .append(" revision ")
                .append(core.get("revision"))
                .append(", extinst.glsl.std.450.grammar.json).\n")
                .append(
                        "# Columns: kind, value, name. Regenerate: mvn -pl spirv test -Dtest=GrammarNamesTest -Dlathe.regenerate-grammar-names=true\n");
        emit(out, SpirvNames.OPCODE, names(core.getAsJsonArray("instructions"), "opname", "opcode"));
        for (JsonElement k : core.getAsJsonArray("operand_kinds")) {
            JsonObject kind = k.getAsJsonObject();
            if (!kind.get("category").getAsString().equals("ValueEnum")) continue;
            emit(out, kind.get("kind").getAsString(), names(kind.getAsJsonArray("enumerants"), "enumerant", "value"));
        }
        emit(out, SpirvNames.GLSL_STD_450, names(glsl.getAsJsonArray("instructions"), "opname", "opcode"));
        return out.toString();
    }

    private static JsonObject read(String file) throws IOException {
        return JsonParser.parseString(Files.readString(GRAMMAR.resolve(file), StandardCharsets.UTF_8))
                .getAsJsonObject();
    }

    private static Map<Long, String> names(Iterable<JsonElement> items, String nameKey, String valueKey) {
        Map<Long, String> best = new TreeMap<>();
        for (JsonElement e : items) {
            JsonObject o = e.getAsJsonObject();
            String name = o.get(nameKey).getAsString();
            long value = o.get(valueKey).getAsLong();
            String old = best.get(value);
            if (old == null || rank(name) < rank(old)) best.put(value, name);
        }
        return best;
    }

    /** Aliases: the name without a vendor suffix first, then KHR, then EXT, then any other. */
    private static int rank(String name) {
        List<String> vendors = new ArrayList<>(List.of("KHR", "EXT"));
        for (int k = 0; k < vendors.size(); k++) if (name.endsWith(vendors.get(k))) return k + 1;
        return name.matches(".*[a-z0-9][A-Z]{2,}$") ? 3 : 0;
    }

    private static void emit(StringBuilder out, String kind, Map<Long, String> names) {
        for (Map.Entry<Long, String> e : names.entrySet())
            out.append(kind)
                    .append('\t')
                    .append(e.getKey())
                    .append('\t')
                    .append(e.getValue())
                    .append('\n');
    }
}
