package dev.lathe.vulkan;

import static dev.lathe.vulkan.VulkanDevice.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.nio.LongBuffer;
import java.util.Map;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkComputePipelineCreateInfo;

/**
 * One dispatch of a compute shader on a {@link VulkanDevice}: the storage buffers hold what the
 * inputs give (an IR buffer by its name), the uniform and push-constant blocks are laid out by
 * the module's own {@code Offset}s, strides and matrix layouts ({@link SpirvInterface}) from the
 * values the inputs give each IR uniform, and after the dispatch the storage buffers are read
 * back. Every object is made for the run and destroyed after it.
 */
public final class ComputeRun {
    private ComputeRun() {}

    /**
     * Runs {@code spirv} as a dispatch of {@code groupsX} workgroups on inputs {@code in}; the
     * outputs hold the storage buffers' contents afterwards, each as long as the inputs gave it.
     *
     * @throws UnsupportedOperationException naming what the module uses that the oracle does not drive yet
     */
    public static ShaderOutputs dispatch(VulkanDevice vk, byte[] spirv, ShaderInputs in, int groupsX) {
        return dispatch(vk, spirv, SpirvInterface.read(spirv), in, groupsX);
    }

    /** As {@link #dispatch(VulkanDevice, byte[], ShaderInputs, int)}, with the module's interface read already. */
    public static ShaderOutputs dispatch(
            VulkanDevice vk, byte[] spirv, SpirvInterface iface, ShaderInputs in, int groupsX) {
        iface.requireSupported(vk, "compute");
        try (RunScope scope = new RunScope(vk);
                MemoryStack stack = stackPush()) {
            RunScope.Bindings bindings = scope.bind(iface, in, VK_SHADER_STAGE_COMPUTE_BIT);
            long module = scope.shaderModule(spirv);
            VkComputePipelineCreateInfo.Buffer cpci =
                    VkComputePipelineCreateInfo.calloc(1, stack).sType$Default().layout(bindings.pipelineLayout());
            cpci.stage()
                    .sType$Default()
                    .stage(VK_SHADER_STAGE_COMPUTE_BIT)
                    .module(module)
                    .pName(stack.UTF8(iface.entryPoint()));
            LongBuffer lp = stack.mallocLong(1);
            check(vkCreateComputePipelines(scope.d, VK_NULL_HANDLE, cpci, null, lp), "vkCreateComputePipelines");
            long pipeline = lp.get(0);
            scope.onClose(() -> vkDestroyPipeline(scope.d, pipeline, null));

            VkCommandBuffer cb = scope.begin();
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            scope.record(cb, VK_PIPELINE_BIND_POINT_COMPUTE, bindings, in);
            vkCmdDispatch(cb, groupsX, 1, 1);
            scope.submitAndWait(cb);
            Map<String, byte[]> memory = new java.util.LinkedHashMap<>(RunScope.readStorage(bindings));
            memory.putAll(scope.images.readImages(bindings));
            return new ShaderOutputs(Map.of(), memory, false, 0);
        }
    }
}
