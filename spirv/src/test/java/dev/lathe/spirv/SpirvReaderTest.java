package dev.lathe.spirv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lathe.ir.Shader;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reader on the committed example binaries and on 20,000 seeded mutations of them (bit
 * flips, truncation, huge id bounds and word counts, swapped byte order), then the whole
 * frontend on 20,000 more (mutated ids, opcodes and operands): every input either reads and
 * translates or fails with a located {@link SpirvException}; nothing else escapes, nothing
 * hangs (the loop is bounded by a translation budget) and nothing allocates without bound.
 */
class SpirvReaderTest {
    static Path shaders() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("examples/shaders"))) p = p.getParent();
        return p.resolve("examples/shaders");
    }

    static List<byte[]> binaries() throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(shaders())) {
            for (Path p : s.filter(x -> x.toString().endsWith(".spv")).sorted().toList())
                out.add(Files.readAllBytes(p));
        }
        assertTrue(out.size() >= 2, "example binaries");
        return out;
    }

    @Test
    void theExampleBinariesRead() throws IOException {
        for (byte[] b : binaries()) {
            SpirvModule m = SpirvReader.read("x.spv", b);
            assertEquals(0x07230203, SpirvReader.MAGIC);
            assertTrue(m.instructions().size() > 10);
            assertEquals(17, m.instructions().get(0).opcode(), "glslang starts with OpCapability");
            int words = 5;
            for (SpirvModule.Instruction i : m.instructions()) words += 1 + i.count();
            assertEquals(b.length / 4, words, "every word belongs to one instruction");
        }
    }

    @Test
    void badHeadersAreLocated() {
        record Case(byte[] bytes, String message) {}
        byte[] ok = new byte[20];
        put(ok, 0, 0x07230203);
        put(ok, 1, 0x00010300);
        put(ok, 3, 1);
        List<Case> cases = List.of(
                new Case(new byte[7], "x.spv: word 0: the size (7 bytes) is not a whole number of 32-bit words"),
                new Case(new byte[8], "x.spv: word 0: too short for a SPIR-V header"),
                new Case(with(ok, 0, 0x12345678), "x.spv: word 0: not SPIR-V"),
                new Case(with(ok, 1, 0x00020000), "x.spv: word 1: unsupported SPIR-V version 0x20000"),
                new Case(
                        with(ok, 3, 0x7fffffff), "x.spv: word 3: id bound 2147483647 does not fit a module of 5 words"),
                new Case(with(ok, 4, 9), "x.spv: word 4: the reserved header word is not 0"),
                new Case(append(ok, 0x00000011), "x.spv: word 5: an instruction with word count 0"),
                new Case(append(ok, 0x00ff003d), "x.spv: word 5: OpLoad has 255 words, but only 1 are left"));
        for (Case c : cases) {
            SpirvException e = assertThrows(SpirvException.class, () -> SpirvReader.read("x.spv", c.bytes()));
            assertTrue(e.getMessage().startsWith(c.message()), e.getMessage());
        }
        assertEquals(0, SpirvReader.read("x.spv", ok).instructions().size());
    }

    @Test
    void bigEndianBinariesRead() throws IOException {
        byte[] b = binaries().get(0).clone();
        for (int i = 0; i < b.length; i += 4) {
            byte t0 = b[i], t1 = b[i + 1];
            b[i] = b[i + 3];
            b[i + 1] = b[i + 2];
            b[i + 2] = t1;
            b[i + 3] = t0;
        }
        assertEquals(
                SpirvReader.read("a", binaries().get(0)).instructions().size(),
                SpirvReader.read("b", b).instructions().size());
    }

    @Test
    void mutatedBinariesFailCleanly() throws IOException {
        List<byte[]> seeds = binaries();
        SplittableRandom r = new SplittableRandom(2026);
        int read = 0, rejected = 0;
        for (int k = 0; k < 20_000; k++) {
            byte[] b = seeds.get(k % seeds.size()).clone();
            switch (r.nextInt(5)) {
                case 0 -> {
                    for (int f = 1 + r.nextInt(8); f > 0; f--) b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                }
                case 1 -> b = Arrays.copyOf(b, r.nextInt(b.length));
                case 2 -> put(b, 3, r.nextInt()); // any id bound
                case 3 -> {
                    int w = 5 + r.nextInt(b.length / 4 - 5);
                    put(b, w, (r.nextInt() & 0xffff0000) | (get(b, w) & 0xffff)); // any word count
                }
                default -> {
                    int w = r.nextInt(b.length / 4);
                    put(b, w, r.nextInt());
                }
            }
            try {
                SpirvReader.read("m.spv", b);
                read++;
            } catch (SpirvException e) {
                assertTrue(e.getMessage().startsWith("m.spv: word "), e.getMessage());
                rejected++;
            }
        }
        assertTrue(read > 1000 && rejected > 1000, read + " read, " + rejected + " rejected");
    }

    @Test
    void mutatedModulesTranslateIntoValidIrOrFailAtAnInstruction() throws IOException {
        List<byte[]> seeds = binaries();
        SplittableRandom r = new SplittableRandom(7);
        int translated = 0, rejected = 0;
        for (int k = 0; k < 20_000; k++) {
            byte[] b = seeds.get(k % seeds.size()).clone();
            int w = 5 + r.nextInt(b.length / 4 - 5);
            switch (r.nextInt(3)) {
                case 0 -> {
                    for (int f = 1 + r.nextInt(4); f > 0; f--) b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                }
                case 1 -> put(b, w, r.nextInt(64)); // a small id or literal where something else was
                default -> put(b, w, r.nextInt());
            }
            try {
                Shader s = SpirvFrontend.read("m.spv", b);
                // a module Lathe translates gives valid IR; a module it refuses is refused at an instruction
                List<ValidationError> errors = Validator.validate(s);
                int mutant = k;
                assertTrue(
                        errors.isEmpty(),
                        () -> "mutant " + mutant + " translates into invalid IR: "
                                + errors.get(0).format());
                translated++;
            } catch (SpirvException e) {
                // word 0 only for the header itself (its magic number, its size)
                assertTrue(
                        e.getMessage().matches("(?s)m\\.spv: word ([1-9][0-9]*|0: (not SPIR-V|the size|too short)).*"),
                        e.getMessage());
                rejected++;
            }
        }
        assertTrue(translated > 1000 && rejected > 1000, translated + " translated, " + rejected + " rejected");
    }

    @Test
    void floatControlExecutionModesBecomeFactsOfTheShader() throws IOException {
        byte[] b = binaries().get(0);
        // insert OpExecutionMode %main DenormPreserve 32 and … RoundingModeRTE 16 after OpEntryPoint
        int w = 5, entry = -1;
        while (w < b.length / 4) {
            int head = get(b, w);
            if ((head & 0xffff) == 15) {
                entry = w;
                break;
            }
            w += head >>> 16;
        }
        assertTrue(entry > 0, "an OpEntryPoint");
        int fn = get(b, entry + 2), after = entry + (get(b, entry) >>> 16);
        int[] modes = {4 << 16 | 16, fn, 4459, 32, 4 << 16 | 16, fn, 4462, 16, 4 << 16 | 16, fn, 4459, 8};
        byte[] out = new byte[b.length + modes.length * 4];
        System.arraycopy(b, 0, out, 0, after * 4);
        for (int k = 0; k < modes.length; k++) put(out, after + k, modes[k]);
        System.arraycopy(b, after * 4, out, (after + modes.length) * 4, b.length - after * 4);
        Shader s = SpirvFrontend.read("m.spv", out);
        // a width SPIR-V does not have (8) is no float control
        assertEquals(List.of("denorm_preserve32", "rounding_mode_rte16"), List.copyOf(s.floatControls()));
        assertEquals(List.of(), List.copyOf(SpirvFrontend.read("m.spv", b).floatControls()));
    }

    static void put(byte[] b, int word, int v) {
        for (int i = 0; i < 4; i++) b[word * 4 + i] = (byte) (v >>> (8 * i));
    }

    static int get(byte[] b, int word) {
        int v = 0;
        for (int i = 0; i < 4; i++) v |= (b[word * 4 + i] & 0xff) << (8 * i);
        return v;
    }

    static byte[] with(byte[] b, int word, int v) {
        byte[] c = b.clone();
        put(c, word, v);
        return c;
    }

    static byte[] append(byte[] b, int v) {
        byte[] c = Arrays.copyOf(b, b.length + 4);
        put(c, b.length / 4, v);
        return c;
    }
}
