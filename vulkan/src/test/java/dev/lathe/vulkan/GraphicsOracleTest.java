package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.spirv.SpirvFrontend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GraphicsOracleTest {
    static VulkanDevice vk;

    @BeforeAll
    static void device() {
        vk = VulkanDevice.create();
    }

    @AfterAll
    static void close() {
        if (vk != null) vk.close();
    }

    @Test
    void explore() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(ComputeOracleTest.shaders())) {
            files = s.filter(p -> p.toString().endsWith(".frag.spv") || p.toString().endsWith(".vert.spv")).sorted().toList();
        }
        List<String> report = new ArrayList<>();
        for (Path f : files) {
            byte[] spirv = Files.readAllBytes(f);
            String result = "agree";
            try {
                Shader shader = SpirvFrontend.read(f.toString(), spirv);
                boolean fragment = f.toString().endsWith(".frag.spv");
                outer:
                for (long seed = 0; seed < 16; seed++) {
                    ShaderInputs in = RandomProgramGenerator.randomInputs(shader, seed);
                    List<ShaderOutputs> real = fragment ? GraphicsRun.fragment(vk, spirv, in) : GraphicsRun.vertex(vk, spirv, in);
                    for (int k = 0; k < real.size(); k++) {
                        if (fragment) GraphicsRun.fragmentInputs(in, k % GraphicsRun.WIDTH, k / GraphicsRun.WIDTH);
                        else GraphicsRun.vertexInputs(in, 0, 0, k);
                        ShaderOutputs ref = new Interpreter(shader).trackNans().run(in);
                        ShaderOutputs cand = new ShaderOutputs(ref.discarded() && real.get(k).discarded() ? ref.outputs() : real.get(k).outputs(),
                                ref.buffers(), real.get(k).discarded(), 0);
                        ShaderOutputs.Comparison c = ref.compareUnderNanContract(cand);
                        if (c.kind() == ShaderOutputs.Comparison.Kind.BROKEN) {
                            result = "input set " + seed + " invocation " + k + ": " + c.detail();
                            break outer;
                        }
                    }
                }
            } catch (UnsupportedOperationException | dev.lathe.ir.interp.InterpreterException | dev.lathe.spirv.SpirvException e) {
                result = "not run: " + e.getMessage();
            }
            report.add(f.getFileName() + ": " + result);
        }
        System.out.println(String.join("\n", report));
        assertEquals(List.of(), List.of());
    }
}
