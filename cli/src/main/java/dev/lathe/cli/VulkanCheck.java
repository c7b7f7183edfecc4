package dev.lathe.cli;

import dev.lathe.driver.ShaderSources;
import dev.lathe.spirv.SpirvException;
import dev.lathe.spirv.SpirvFrontend;
import dev.lathe.vulkan.VulkanDevice;
import dev.lathe.vulkan.VulkanOracle;
import dev.lathe.vulkan.VulkanUnavailable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code lathe shaderdb --check-vulkan N}: every shader with SPIR-V (a .spv, or GLSL compiled by
 * glslang) against the system's Vulkan through {@link VulkanOracle}, each input set also through
 * the compiled binary in the simulator, one line each, in the corpus's order, and a count. Textual IR has no SPIR-V to hand a driver and is skipped.
 */
final class VulkanCheck {
    private VulkanCheck() {}

    /** Runs the check; false when a shader disagreed. */
    static boolean run(List<Path> files, String targetEnv, int wanted, String device, PrintWriter out) {
        Map<VulkanOracle.Verdict.Kind, Integer> counts = new EnumMap<>(VulkanOracle.Verdict.Kind.class);
        int skipped = 0;
        VulkanDevice vk;
        try {
            vk = VulkanDevice.create(device);
        } catch (VulkanUnavailable e) {
            throw new CliException("lathe shaderdb: --check-vulkan: " + e.getMessage());
        }
        try (vk) {
            out.println("vulkan: " + vk.name() + ", driver " + vk.driver());
            for (Path f : files) {
                String name = f.toString();
                byte[] spirv;
                VulkanOracle.Verdict v;
                try {
                    spirv = ShaderSources.spirvOf(f, targetEnv);
                    if (spirv == null) {
                        skipped++;
                        continue;
                    }
                    dev.lathe.ir.Shader shader = SpirvFrontend.read(name, spirv);
                    java.util.function.BiFunction<dev.lathe.ir.interp.ShaderInputs, Integer, dev.lathe.ir.interp.ShaderOutputs> binary;
                    try {
                        binary = dev.lathe.driver.shaderdb.DifferentialCheck.binary(shader);
                    } catch (RuntimeException e) {
                        binary = null; // the target does not take it (the corpus run says why): the device and the interpreter still meet
                    }
                    v = VulkanOracle.check(vk, spirv, shader, wanted, 16 * wanted, 2, null, binary);
                } catch (ShaderSources.SourceException | SpirvException e) {
                    v = new VulkanOracle.Verdict(VulkanOracle.Verdict.Kind.NOT_RUN, e.getMessage(), 0, 0);
                }
                counts.merge(v.kind(), 1, Integer::sum);
                String prefix = switch (v.kind()) {
                    case AGREE -> "vulkan ";
                    case DISAGREE -> "DISAGREES vulkan ";
                    case TOO_FEW_DECIDED -> "WARNING vulkan ";
                    case NOT_RUN -> "vulkan ";
                };
                out.println(prefix + name + ": " + v.summary());
            }
        }
        out.println("vulkan: " + counts.getOrDefault(VulkanOracle.Verdict.Kind.AGREE, 0) + " agree, "
                + counts.getOrDefault(VulkanOracle.Verdict.Kind.DISAGREE, 0) + " disagree, "
                + counts.getOrDefault(VulkanOracle.Verdict.Kind.TOO_FEW_DECIDED, 0) + " with too few decided input sets, "
                + counts.getOrDefault(VulkanOracle.Verdict.Kind.NOT_RUN, 0) + " not run" + (skipped > 0 ? ", " + skipped + " textual IR skipped" : ""));
        return counts.getOrDefault(VulkanOracle.Verdict.Kind.DISAGREE, 0) == 0;
    }
}
