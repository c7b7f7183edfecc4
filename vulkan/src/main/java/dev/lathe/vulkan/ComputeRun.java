package dev.lathe.vulkan;

import static dev.lathe.vulkan.VulkanDevice.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferCreateInfo;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferAllocateInfo;
import org.lwjgl.vulkan.VkCommandBufferBeginInfo;
import org.lwjgl.vulkan.VkCommandPoolCreateInfo;
import org.lwjgl.vulkan.VkComputePipelineCreateInfo;
import org.lwjgl.vulkan.VkDescriptorBufferInfo;
import org.lwjgl.vulkan.VkDescriptorPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorPoolSize;
import org.lwjgl.vulkan.VkDescriptorSetAllocateInfo;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;
import org.lwjgl.vulkan.VkFenceCreateInfo;
import org.lwjgl.vulkan.VkMemoryAllocateInfo;
import org.lwjgl.vulkan.VkMemoryRequirements;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;
import org.lwjgl.vulkan.VkPipelineLayoutCreateInfo;
import org.lwjgl.vulkan.VkPushConstantRange;
import org.lwjgl.vulkan.VkShaderModuleCreateInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkWriteDescriptorSet;

/**
 * One dispatch of a compute shader on a {@link VulkanDevice}: the storage buffers hold what the
 * inputs give (an IR buffer by its name), the uniform and push-constant blocks are laid out by
 * the module's own {@code Offset}s, strides and matrix layouts ({@link SpirvInterface}) from the
 * values the inputs give each IR uniform, and after the dispatch the storage buffers are read
 * back. Every object is made for the run and destroyed after it.
 */
public final class ComputeRun {
    private ComputeRun() {}

    /** A buffer with its memory, mapped. */
    private record Buf(long buffer, long memory, long mapped, int size) {}

    /**
     * Runs {@code spirv} as a dispatch of {@code groupsX} workgroups on inputs {@code in}; the
     * outputs hold the storage buffers' contents afterwards, each as long as the inputs gave it.
     *
     * @throws UnsupportedOperationException naming what the module uses that the oracle does not drive yet
     */
    public static ShaderOutputs dispatch(VulkanDevice vk, byte[] spirv, ShaderInputs in, int groupsX) {
        SpirvInterface iface = SpirvInterface.read(spirv);
        if (!iface.unsupported().isEmpty()) {
            throw new UnsupportedOperationException("the Vulkan oracle does not run " + String.join(", ", iface.unsupported()) + " yet");
        }
        var d = vk.device;
        List<Buf> buffers = new ArrayList<>();
        List<Long> layouts = new ArrayList<>();
        long module = 0, pipelineLayout = 0, pipeline = 0, pool = 0, commandPool = 0, fence = 0;
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            // descriptors: every block by (set, binding)
            TreeMap<Integer, Map<Integer, Integer>> sets = new TreeMap<>(); // set -> binding -> descriptor type
            for (SpirvInterface.Block b : iface.uniformBlocks()) sets.computeIfAbsent(b.set(), k -> new TreeMap<>()).put(b.binding(), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
            for (SpirvInterface.StorageBuffer b : iface.storageBuffers()) sets.computeIfAbsent(b.set(), k -> new TreeMap<>()).put(b.binding(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
            int setCount = sets.isEmpty() ? 0 : sets.lastKey() + 1;
            for (int s = 0; s < setCount; s++) {
                Map<Integer, Integer> bindings = sets.getOrDefault(s, Map.of());
                VkDescriptorSetLayoutBinding.Buffer lb = VkDescriptorSetLayoutBinding.calloc(bindings.size(), stack);
                int k = 0;
                for (var e : bindings.entrySet()) {
                    lb.get(k++).binding(e.getKey()).descriptorType(e.getValue()).descriptorCount(1).stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
                }
                check(vkCreateDescriptorSetLayout(d, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default().pBindings(lb), null, lp),
                        "vkCreateDescriptorSetLayout");
                layouts.add(lp.get(0));
            }
            long[] setLayouts = layouts.stream().mapToLong(Long::longValue).toArray();
            SpirvInterface.Block push = iface.pushConstants();
            VkPipelineLayoutCreateInfo plci = VkPipelineLayoutCreateInfo.calloc(stack).sType$Default();
            if (setCount > 0) plci.pSetLayouts(stack.longs(setLayouts));
            if (push != null) {
                plci.pPushConstantRanges(VkPushConstantRange.calloc(1, stack).stageFlags(VK_SHADER_STAGE_COMPUTE_BIT).offset(0).size(roundUp(push.size(), 4)));
            }
            check(vkCreatePipelineLayout(d, plci, null, lp), "vkCreatePipelineLayout");
            pipelineLayout = lp.get(0);
            ByteBuffer code = stack.malloc(spirv.length);
            code.put(spirv).flip();
            check(vkCreateShaderModule(d, VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(code), null, lp), "vkCreateShaderModule");
            module = lp.get(0);
            VkComputePipelineCreateInfo.Buffer cpci = VkComputePipelineCreateInfo.calloc(1, stack).sType$Default().layout(pipelineLayout);
            cpci.stage().sType$Default().stage(VK_SHADER_STAGE_COMPUTE_BIT).module(module).pName(stack.UTF8(iface.entryPoint()));
            check(vkCreateComputePipelines(d, VK_NULL_HANDLE, cpci, null, lp), "vkCreateComputePipelines");
            pipeline = lp.get(0);

            // buffers and descriptor sets
            long[] descriptorSets = new long[setCount];
            if (setCount > 0) {
                VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(2, stack);
                sizes.get(0).type(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER).descriptorCount(Math.max(1, iface.uniformBlocks().size()));
                sizes.get(1).type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(Math.max(1, iface.storageBuffers().size()));
                check(vkCreateDescriptorPool(d, VkDescriptorPoolCreateInfo.calloc(stack).sType$Default().maxSets(setCount).pPoolSizes(sizes), null, lp),
                        "vkCreateDescriptorPool");
                pool = lp.get(0);
                LongBuffer ds = stack.mallocLong(setCount);
                check(vkAllocateDescriptorSets(d, VkDescriptorSetAllocateInfo.calloc(stack).sType$Default().descriptorPool(pool)
                        .pSetLayouts(stack.longs(setLayouts)), ds), "vkAllocateDescriptorSets");
                ds.get(descriptorSets);
            }
            Map<String, Buf> storage = new LinkedHashMap<>();
            Map<String, Integer> storageSizes = new LinkedHashMap<>();
            for (SpirvInterface.StorageBuffer b : iface.storageBuffers()) {
                byte[] bytes = in.buffer(b.name());
                if (bytes == null) bytes = new byte[0];
                Buf buf = buffer(vk, Math.max(16, roundUp(bytes.length, 16)), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
                buffers.add(buf);
                copy(bytes, buf.mapped());
                storage.put(b.name(), buf);
                storageSizes.put(b.name(), bytes.length);
                write(d, stack, descriptorSets[b.set()], b.binding(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buf);
            }
            for (SpirvInterface.Block b : iface.uniformBlocks()) {
                byte[] bytes = layOut(b, in);
                Buf buf = buffer(vk, Math.max(16, roundUp(bytes.length, 16)), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
                buffers.add(buf);
                copy(bytes, buf.mapped());
                write(d, stack, descriptorSets[b.set()], b.binding(), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, buf);
            }

            // record, submit, wait
            check(vkCreateCommandPool(d, VkCommandPoolCreateInfo.calloc(stack).sType$Default().queueFamilyIndex(vk.queueFamily), null, lp),
                    "vkCreateCommandPool");
            commandPool = lp.get(0);
            PointerBuffer pp = stack.mallocPointer(1);
            check(vkAllocateCommandBuffers(d, VkCommandBufferAllocateInfo.calloc(stack).sType$Default().commandPool(commandPool)
                    .level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), pp), "vkAllocateCommandBuffers");
            VkCommandBuffer cb = new VkCommandBuffer(pp.get(0), d);
            check(vkBeginCommandBuffer(cb, VkCommandBufferBeginInfo.calloc(stack).sType$Default().flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)),
                    "vkBeginCommandBuffer");
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            if (setCount > 0) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, stack.longs(descriptorSets), null);
            if (push != null) {
                byte[] bytes = layOut(push, in);
                ByteBuffer pc = stack.calloc(roundUp(push.size(), 4));
                pc.put(bytes, 0, Math.min(bytes.length, pc.capacity())).flip();
                pc.limit(pc.capacity());
                vkCmdPushConstants(cb, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pc);
            }
            vkCmdDispatch(cb, groupsX, 1, 1);
            check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
            check(vkCreateFence(d, VkFenceCreateInfo.calloc(stack).sType$Default(), null, lp), "vkCreateFence");
            fence = lp.get(0);
            check(vkQueueSubmit(vk.queue, VkSubmitInfo.calloc(stack).sType$Default().pCommandBuffers(pp), fence), "vkQueueSubmit");
            check(vkWaitForFences(d, fence, true, 60_000_000_000L), "vkWaitForFences (a minute)");

            Map<String, byte[]> out = new LinkedHashMap<>();
            for (var e : storage.entrySet()) {
                byte[] bytes = new byte[storageSizes.get(e.getKey())];
                MemoryUtil.memByteBuffer(e.getValue().mapped(), bytes.length).get(bytes);
                out.put(e.getKey(), bytes);
            }
            return new ShaderOutputs(Map.of(), out, false, 0);
        } finally {
            if (fence != 0) vkDestroyFence(d, fence, null);
            if (commandPool != 0) vkDestroyCommandPool(d, commandPool, null);
            if (pool != 0) vkDestroyDescriptorPool(d, pool, null);
            for (Buf b : buffers) {
                vkUnmapMemory(d, b.memory());
                vkDestroyBuffer(d, b.buffer(), null);
                vkFreeMemory(d, b.memory(), null);
            }
            if (pipeline != 0) vkDestroyPipeline(d, pipeline, null);
            if (module != 0) vkDestroyShaderModule(d, module, null);
            if (pipelineLayout != 0) vkDestroyPipelineLayout(d, pipelineLayout, null);
            for (long l : layouts) vkDestroyDescriptorSetLayout(d, l, null);
        }
    }

    /** A block's bytes: each member's values (as the inputs give the IR uniform of its name) at the member's offsets. */
    static byte[] layOut(SpirvInterface.Block b, ShaderInputs in) {
        byte[] bytes = new byte[roundUp(Math.max(b.size(), 4), 16)];
        for (SpirvInterface.Member m : b.members()) {
            long[] values = in.value(m.name());
            if (values == null) continue;
            int size = m.shape().bits() / 8;
            for (int k = 0; k < Math.min(values.length, m.scalarCount()); k++) {
                int at = m.scalarOffset(k);
                for (int i = 0; i < size && at + i < bytes.length; i++) bytes[at + i] = (byte) (values[k] >>> (8 * i));
            }
        }
        return bytes;
    }

    private static void copy(byte[] bytes, long address) {
        MemoryUtil.memByteBuffer(address, bytes.length).put(bytes);
    }

    private static void write(org.lwjgl.vulkan.VkDevice d, MemoryStack stack, long set, int binding, int type, Buf buf) {
        VkDescriptorBufferInfo.Buffer info = VkDescriptorBufferInfo.calloc(1, stack).buffer(buf.buffer()).offset(0).range(buf.size());
        VkWriteDescriptorSet.Buffer w = VkWriteDescriptorSet.calloc(1, stack).sType$Default().dstSet(set).dstBinding(binding)
                .descriptorType(type).descriptorCount(1).pBufferInfo(info);
        vkUpdateDescriptorSets(d, w, null);
    }

    /** A host-visible, coherent buffer of {@code size} bytes, zeroed and mapped. */
    private static Buf buffer(VulkanDevice vk, int size, int usage) {
        var d = vk.device;
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            check(vkCreateBuffer(d, VkBufferCreateInfo.calloc(stack).sType$Default().size(size).usage(usage).sharingMode(VK_SHARING_MODE_EXCLUSIVE),
                    null, lp), "vkCreateBuffer");
            long buffer = lp.get(0);
            VkMemoryRequirements req = VkMemoryRequirements.calloc(stack);
            vkGetBufferMemoryRequirements(d, buffer, req);
            VkPhysicalDeviceMemoryProperties mem = VkPhysicalDeviceMemoryProperties.calloc(stack);
            vkGetPhysicalDeviceMemoryProperties(vk.physical, mem);
            int wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
            int type = -1;
            for (int i = 0; i < mem.memoryTypeCount(); i++) {
                if ((req.memoryTypeBits() & (1 << i)) != 0 && (mem.memoryTypes(i).propertyFlags() & wanted) == wanted) {
                    type = i;
                    break;
                }
            }
            if (type < 0) throw new IllegalStateException("no host-visible coherent memory on " + vk.name());
            check(vkAllocateMemory(d, VkMemoryAllocateInfo.calloc(stack).sType$Default().allocationSize(req.size()).memoryTypeIndex(type), null, lp),
                    "vkAllocateMemory");
            long memory = lp.get(0);
            check(vkBindBufferMemory(d, buffer, memory, 0), "vkBindBufferMemory");
            PointerBuffer pp = stack.mallocPointer(1);
            check(vkMapMemory(d, memory, 0, VK_WHOLE_SIZE, 0, pp), "vkMapMemory");
            long mapped = pp.get(0);
            MemoryUtil.memSet(mapped, 0, size);
            return new Buf(buffer, memory, mapped, size);
        }
    }

    private static int roundUp(int n, int to) {
        return (n + to - 1) / to * to;
    }
}
