package dev.lathe.vulkan;

import static dev.lathe.vulkan.VulkanDevice.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

import dev.lathe.ir.interp.ShaderInputs;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
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
import org.lwjgl.vulkan.VkDescriptorBufferInfo;
import org.lwjgl.vulkan.VkDescriptorImageInfo;
import org.lwjgl.vulkan.VkDescriptorPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorPoolSize;
import org.lwjgl.vulkan.VkDescriptorSetAllocateInfo;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkFenceCreateInfo;
import org.lwjgl.vulkan.VkMemoryAllocateInfo;
import org.lwjgl.vulkan.VkMemoryBarrier;
import org.lwjgl.vulkan.VkMemoryRequirements;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;
import org.lwjgl.vulkan.VkPipelineLayoutCreateInfo;
import org.lwjgl.vulkan.VkPushConstantRange;
import org.lwjgl.vulkan.VkShaderModuleCreateInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkWriteDescriptorSet;

/**
 * The Vulkan objects one run makes — buffers, images, descriptors, pipelines, a command buffer —
 * destroyed together when the run ends, the last made first. Compute and graphics runs share what
 * is common: the descriptor sets a module's interface asks for, filled from the inputs, its push
 * constants, one command buffer submitted and waited for.
 */
final class RunScope implements AutoCloseable {
    final VulkanDevice vk;
    /** The run's images. */
    final Images images = new Images(this);

    final VkDevice d;
    private final Deque<Runnable> destroy = new ArrayDeque<>();

    /** A buffer with its memory, mapped. */
    record Buf(long buffer, long memory, long mapped, int size) {}

    /**
     * What a module's descriptors and push constants became: the pipeline layout, the sets to
     * bind, and the storage buffers with the length the inputs gave each.
     */
    record Bindings(
            long pipelineLayout,
            long[] sets,
            SpirvInterface.Block push,
            int stages,
            Map<String, Buf> storage,
            Map<String, Integer> storageSizes,
            Map<SpirvInterface.StorageImage, Bound> images,
            Map<SpirvInterface.InputAttachment, Images.Img> inputAttachments) {}

    /** A storage image made for a run: its image and sizes. */
    record Bound(Images.Img img, int width, int height, int depth) {}

    RunScope(VulkanDevice vk) {
        this.vk = vk;
        this.d = vk.device;
    }

    void onClose(Runnable r) {
        destroy.push(r);
    }

    @Override
    public void close() {
        while (!destroy.isEmpty()) destroy.pop().run();
    }

    long shaderModule(byte[] spirv) {
        try (MemoryStack stack = stackPush()) {
            ByteBuffer code = stack.malloc(spirv.length);
            code.put(spirv).flip();
            LongBuffer lp = stack.mallocLong(1);
            check(
                    vkCreateShaderModule(
                            d,
                            VkShaderModuleCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .pCode(code),
                            null,
                            lp),
                    "vkCreateShaderModule");
            long module = lp.get(0);
            onClose(() -> vkDestroyShaderModule(d, module, null));
            return module;
        }
    }

    /**
     * The descriptor sets and push constants {@code iface} asks for, visible to {@code stages}:
     * storage buffers filled from the inputs' IR buffers (by name), uniform blocks laid out from
     * the inputs' IR uniforms.
     */
    Bindings bind(SpirvInterface iface, ShaderInputs in, int stages) {
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            TreeMap<Integer, Map<Integer, Integer>> sets = new TreeMap<>(); // set -> binding -> descriptor type
            Map<Long, Integer> counts = new java.util.HashMap<>(); // (set, binding) -> descriptors in the array
            for (SpirvInterface.Block b : iface.uniformBlocks()) {
                sets.computeIfAbsent(b.set(), k -> new TreeMap<>()).put(b.binding(), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
                counts.put((long) b.set() << 32 | b.binding(), b.count());
            }
            for (SpirvInterface.StorageBuffer b : iface.storageBuffers()) {
                sets.computeIfAbsent(b.set(), k -> new TreeMap<>()).put(b.binding(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
                counts.merge((long) b.set() << 32 | b.binding(), b.element() + 1, Math::max);
            }
            for (SpirvInterface.Texture t : iface.textures()) {
                sets.computeIfAbsent(t.set(), k -> new TreeMap<>())
                        .put(
                                t.binding(),
                                t.combined()
                                        ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                        : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE);
                counts.merge((long) t.set() << 32 | t.binding(), t.element() + 1, Math::max);
            }
            for (SpirvInterface.Sampler t : iface.samplers()) {
                sets.computeIfAbsent(t.set(), k -> new TreeMap<>()).put(t.binding(), VK_DESCRIPTOR_TYPE_SAMPLER);
                counts.put((long) t.set() << 32 | t.binding(), t.count());
            }
            for (SpirvInterface.StorageImage t : iface.images())
                sets.computeIfAbsent(t.set(), k -> new TreeMap<>()).put(t.binding(), VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
            for (SpirvInterface.InputAttachment t : iface.inputAttachments()) {
                sets.computeIfAbsent(t.set(), k -> new TreeMap<>())
                        .put(t.binding(), VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT);
            }
            int setCount = sets.isEmpty() ? 0 : sets.lastKey() + 1;
            long[] setLayouts = new long[setCount];
            for (int s = 0; s < setCount; s++) {
                Map<Integer, Integer> bindings = sets.getOrDefault(s, Map.of());
                VkDescriptorSetLayoutBinding.Buffer lb = VkDescriptorSetLayoutBinding.calloc(bindings.size(), stack);
                int k = 0;
                for (var e : bindings.entrySet()) {
                    int n = counts.getOrDefault((long) s << 32 | e.getKey(), 1);
                    // an input attachment is for the fragment stage only
                    // (VUID-VkDescriptorSetLayoutBinding-descriptorType-01510)
                    int visible =
                            e.getValue() == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ? VK_SHADER_STAGE_FRAGMENT_BIT : stages;
                    lb.get(k++)
                            .binding(e.getKey())
                            .descriptorType(e.getValue())
                            .descriptorCount(n)
                            .stageFlags(visible);
                }
                check(
                        vkCreateDescriptorSetLayout(
                                d,
                                VkDescriptorSetLayoutCreateInfo.calloc(stack)
                                        .sType$Default()
                                        .pBindings(lb),
                                null,
                                lp),
                        "vkCreateDescriptorSetLayout");
                long layout = lp.get(0);
                setLayouts[s] = layout;
                onClose(() -> vkDestroyDescriptorSetLayout(d, layout, null));
            }
            SpirvInterface.Block push = iface.pushConstants();
            VkPipelineLayoutCreateInfo plci =
                    VkPipelineLayoutCreateInfo.calloc(stack).sType$Default();
            if (setCount > 0) plci.pSetLayouts(stack.longs(setLayouts));
            if (push != null)
                plci.pPushConstantRanges(VkPushConstantRange.calloc(1, stack)
                        .stageFlags(stages)
                        .offset(0)
                        .size(roundUp(push.size(), 4)));
            check(vkCreatePipelineLayout(d, plci, null, lp), "vkCreatePipelineLayout");
            long pipelineLayout = lp.get(0);
            onClose(() -> vkDestroyPipelineLayout(d, pipelineLayout, null));

            long[] descriptorSets = new long[setCount];
            if (setCount > 0) {
                VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(7, stack);
                sizes.get(6)
                        .type(VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)
                        .descriptorCount(Math.max(1, iface.inputAttachments().size()));
                sizes.get(5)
                        .type(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
                        .descriptorCount(Math.max(1, iface.images().size()));
                sizes.get(0)
                        .type(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)
                        .descriptorCount(Math.max(
                                1,
                                iface.uniformBlocks().stream()
                                        .mapToInt(SpirvInterface.Block::count)
                                        .sum()));
                sizes.get(1)
                        .type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
                        .descriptorCount(Math.max(1, iface.storageBuffers().size()));
                sizes.get(2)
                        .type(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
                        .descriptorCount(Math.max(1, iface.textures().size()));
                sizes.get(3)
                        .type(VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE)
                        .descriptorCount(Math.max(1, iface.textures().size()));
                sizes.get(4)
                        .type(VK_DESCRIPTOR_TYPE_SAMPLER)
                        .descriptorCount(Math.max(
                                1,
                                iface.samplers().stream()
                                        .mapToInt(SpirvInterface.Sampler::count)
                                        .sum()));
                check(
                        vkCreateDescriptorPool(
                                d,
                                VkDescriptorPoolCreateInfo.calloc(stack)
                                        .sType$Default()
                                        .maxSets(setCount)
                                        .pPoolSizes(sizes),
                                null,
                                lp),
                        "vkCreateDescriptorPool");
                long pool = lp.get(0);
                onClose(() -> vkDestroyDescriptorPool(d, pool, null));
                LongBuffer ds = stack.mallocLong(setCount);
                check(
                        vkAllocateDescriptorSets(
                                d,
                                VkDescriptorSetAllocateInfo.calloc(stack)
                                        .sType$Default()
                                        .descriptorPool(pool)
                                        .pSetLayouts(stack.longs(setLayouts)),
                                ds),
                        "vkAllocateDescriptorSets");
                ds.get(descriptorSets);
            }
            Map<String, Buf> storage = new LinkedHashMap<>();
            Map<String, Integer> storageSizes = new LinkedHashMap<>();
            for (SpirvInterface.StorageBuffer b : iface.storageBuffers()) {
                byte[] bytes = in.buffer(b.name());
                if (bytes == null) bytes = new byte[0];
                Buf buf = buffer(Math.max(16, roundUp(bytes.length, 16)), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
                copy(bytes, buf.mapped());
                storage.put(b.name(), buf);
                storageSizes.put(b.name(), bytes.length);
                write(
                        stack,
                        descriptorSets[b.set()],
                        b.binding(),
                        b.element(),
                        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                        buf,
                        0,
                        buf.size());
            }
            for (SpirvInterface.Block b : iface.uniformBlocks()) {
                byte[] bytes = layOut(b, in);
                Buf buf = buffer(Math.max(16, roundUp(bytes.length, 16)), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
                copy(bytes, buf.mapped());
                for (int e = 0; e < b.count(); e++) {
                    int range = b.count() == 1 ? buf.size() : b.stride();
                    write(
                            stack,
                            descriptorSets[b.set()],
                            b.binding(),
                            e,
                            VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                            buf,
                            (long) e * b.stride(),
                            range);
                }
            }
            long sampler = iface.textures().isEmpty() && iface.samplers().isEmpty() ? 0 : images.nearestSampler(false);
            long comparing =
                    iface.textures().stream().anyMatch(SpirvInterface.Texture::depth) ? images.nearestSampler(true) : 0;
            for (SpirvInterface.Texture t : iface.textures()) {
                long view = images.texture(in.texture(t.name()), t);
                VkDescriptorImageInfo.Buffer info = VkDescriptorImageInfo.calloc(1, stack)
                        .sampler(t.combined() ? (t.depth() ? comparing : sampler) : 0)
                        .imageView(view)
                        .imageLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                vkUpdateDescriptorSets(
                        d,
                        VkWriteDescriptorSet.calloc(1, stack)
                                .sType$Default()
                                .dstSet(descriptorSets[t.set()])
                                .dstBinding(t.binding())
                                .dstArrayElement(t.element())
                                .descriptorType(
                                        t.combined()
                                                ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                                                : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE)
                                .descriptorCount(1)
                                .pImageInfo(info),
                        null);
            }
            for (SpirvInterface.Sampler t : iface.samplers()) {
                VkDescriptorImageInfo.Buffer info = VkDescriptorImageInfo.calloc(t.count(), stack);
                for (int e = 0; e < t.count(); e++) info.get(e).sampler(sampler);
                vkUpdateDescriptorSets(
                        d,
                        VkWriteDescriptorSet.calloc(1, stack)
                                .sType$Default()
                                .dstSet(descriptorSets[t.set()])
                                .dstBinding(t.binding())
                                .descriptorType(VK_DESCRIPTOR_TYPE_SAMPLER)
                                .descriptorCount(t.count())
                                .pImageInfo(info),
                        null);
            }
            Map<SpirvInterface.StorageImage, Bound> storageImages = new LinkedHashMap<>();
            for (SpirvInterface.StorageImage t : iface.images()) {
                Bound b = images.storageImage(in.texture(t.name()), t);
                storageImages.put(t, b);
                VkDescriptorImageInfo.Buffer info = VkDescriptorImageInfo.calloc(1, stack)
                        .imageView(b.img().view())
                        .imageLayout(VK_IMAGE_LAYOUT_GENERAL);
                vkUpdateDescriptorSets(
                        d,
                        VkWriteDescriptorSet.calloc(1, stack)
                                .sType$Default()
                                .dstSet(descriptorSets[t.set()])
                                .dstBinding(t.binding())
                                .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
                                .descriptorCount(1)
                                .pImageInfo(info),
                        null);
            }
            Map<SpirvInterface.InputAttachment, Images.Img> inputs = new LinkedHashMap<>();
            for (SpirvInterface.InputAttachment t : iface.inputAttachments()) {
                Images.Img img = images.inputAttachment(in.texture(t.name()), t);
                inputs.put(t, img);
                VkDescriptorImageInfo.Buffer info = VkDescriptorImageInfo.calloc(1, stack)
                        .imageView(img.view())
                        .imageLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                vkUpdateDescriptorSets(
                        d,
                        VkWriteDescriptorSet.calloc(1, stack)
                                .sType$Default()
                                .dstSet(descriptorSets[t.set()])
                                .dstBinding(t.binding())
                                .descriptorType(VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)
                                .descriptorCount(1)
                                .pImageInfo(info),
                        null);
            }
            return new Bindings(
                    pipelineLayout, descriptorSets, push, stages, storage, storageSizes, storageImages, inputs);
        }
    }

    /** Binds the sets and pushes the push constants of {@code b} (laid out from {@code in}) into {@code cb}. */
    void record(VkCommandBuffer cb, int bindPoint, Bindings b, ShaderInputs in) {
        try (MemoryStack stack = stackPush()) {
            if (b.sets().length > 0)
                vkCmdBindDescriptorSets(cb, bindPoint, b.pipelineLayout(), 0, stack.longs(b.sets()), null);
            if (b.push() != null) {
                byte[] bytes = layOut(b.push(), in);
                ByteBuffer pc = stack.calloc(roundUp(b.push().size(), 4));
                pc.put(bytes, 0, Math.min(bytes.length, pc.capacity())).flip();
                pc.limit(pc.capacity());
                vkCmdPushConstants(cb, b.pipelineLayout(), b.stages(), 0, pc);
            }
        }
    }

    /** The storage buffers' contents now, each as long as the inputs gave it. */
    static Map<String, byte[]> readStorage(Bindings b) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (var e : b.storage().entrySet()) {
            byte[] bytes = new byte[b.storageSizes().get(e.getKey())];
            MemoryUtil.memByteBuffer(e.getValue().mapped(), bytes.length).get(bytes);
            out.put(e.getKey(), bytes);
        }
        return out;
    }

    /** A primary command buffer, begun for one submission. */
    VkCommandBuffer begin() {
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            check(
                    vkCreateCommandPool(
                            d,
                            VkCommandPoolCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .queueFamilyIndex(vk.queueFamily),
                            null,
                            lp),
                    "vkCreateCommandPool");
            long commandPool = lp.get(0);
            onClose(() -> vkDestroyCommandPool(d, commandPool, null));
            PointerBuffer pp = stack.mallocPointer(1);
            check(
                    vkAllocateCommandBuffers(
                            d,
                            VkCommandBufferAllocateInfo.calloc(stack)
                                    .sType$Default()
                                    .commandPool(commandPool)
                                    .level(VK_COMMAND_BUFFER_LEVEL_PRIMARY)
                                    .commandBufferCount(1),
                            pp),
                    "vkAllocateCommandBuffers");
            VkCommandBuffer cb = new VkCommandBuffer(pp.get(0), d);
            check(
                    vkBeginCommandBuffer(
                            cb,
                            VkCommandBufferBeginInfo.calloc(stack)
                                    .sType$Default()
                                    .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)),
                    "vkBeginCommandBuffer");
            return cb;
        }
    }

    /** Ends {@code cb}, submits it and waits (a minute at most) for it to finish, its writes visible to the host. */
    void submitAndWait(VkCommandBuffer cb) {
        try (MemoryStack stack = stackPush()) {
            vkCmdPipelineBarrier(
                    cb,
                    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                    VK_PIPELINE_STAGE_HOST_BIT,
                    0,
                    VkMemoryBarrier.calloc(1, stack)
                            .sType$Default()
                            .srcAccessMask(VK_ACCESS_MEMORY_WRITE_BIT)
                            .dstAccessMask(VK_ACCESS_HOST_READ_BIT),
                    null,
                    null);
            check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
            LongBuffer lp = stack.mallocLong(1);
            check(vkCreateFence(d, VkFenceCreateInfo.calloc(stack).sType$Default(), null, lp), "vkCreateFence");
            long fence = lp.get(0);
            onClose(() -> vkDestroyFence(d, fence, null));
            check(
                    vkQueueSubmit(
                            vk.queue,
                            VkSubmitInfo.calloc(stack).sType$Default().pCommandBuffers(stack.pointers(cb)),
                            fence),
                    "vkQueueSubmit");
            check(vkWaitForFences(d, fence, true, 60_000_000_000L), "vkWaitForFences (a minute)");
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

    static void copy(byte[] bytes, long address) {
        MemoryUtil.memByteBuffer(address, bytes.length).put(bytes);
    }

    private void write(
            MemoryStack stack, long set, int binding, int element, int type, Buf buf, long offset, long range) {
        VkDescriptorBufferInfo.Buffer info = VkDescriptorBufferInfo.calloc(1, stack)
                .buffer(buf.buffer())
                .offset(offset)
                .range(range);
        VkWriteDescriptorSet.Buffer w = VkWriteDescriptorSet.calloc(1, stack)
                .sType$Default()
                .dstSet(set)
                .dstBinding(binding)
                .dstArrayElement(element)
                .descriptorType(type)
                .descriptorCount(1)
                .pBufferInfo(info);
        vkUpdateDescriptorSets(d, w, null);
    }

    /** The index of a memory type {@code bits} allows with all of {@code wanted}'s properties. */
    int memoryType(int bits, int wanted) {
        try (MemoryStack stack = stackPush()) {
            VkPhysicalDeviceMemoryProperties mem = VkPhysicalDeviceMemoryProperties.calloc(stack);
            vkGetPhysicalDeviceMemoryProperties(vk.physical, mem);
            for (int i = 0; i < mem.memoryTypeCount(); i++) {
                if ((bits & (1 << i)) != 0 && (mem.memoryTypes(i).propertyFlags() & wanted) == wanted) return i;
            }
            throw new IllegalStateException("no memory of properties " + wanted + " on " + vk.name());
        }
    }

    /** A host-visible, coherent buffer of {@code size} bytes, zeroed and mapped. */
    Buf buffer(int size, int usage) {
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            check(
                    vkCreateBuffer(
                            d,
                            VkBufferCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .size(size)
                                    .usage(usage)
                                    .sharingMode(VK_SHARING_MODE_EXCLUSIVE),
                            null,
                            lp),
                    "vkCreateBuffer");
            long buffer = lp.get(0);
            onClose(() -> vkDestroyBuffer(d, buffer, null));
            VkMemoryRequirements req = VkMemoryRequirements.calloc(stack);
            vkGetBufferMemoryRequirements(d, buffer, req);
            int type = memoryType(
                    req.memoryTypeBits(), VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
            check(
                    vkAllocateMemory(
                            d,
                            VkMemoryAllocateInfo.calloc(stack)
                                    .sType$Default()
                                    .allocationSize(req.size())
                                    .memoryTypeIndex(type),
                            null,
                            lp),
                    "vkAllocateMemory");
            long memory = lp.get(0);
            onClose(() -> vkFreeMemory(d, memory, null));
            check(vkBindBufferMemory(d, buffer, memory, 0), "vkBindBufferMemory");
            PointerBuffer pp = stack.mallocPointer(1);
            check(vkMapMemory(d, memory, 0, VK_WHOLE_SIZE, 0, pp), "vkMapMemory");
            long mapped = pp.get(0);
            onClose(() -> vkUnmapMemory(d, memory));
            MemoryUtil.memSet(mapped, 0, size);
            return new Buf(buffer, memory, mapped, size);
        }
    }

    static int roundUp(int n, int to) {
        return (n + to - 1) / to * to;
    }
}
