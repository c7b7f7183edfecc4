package dev.lathe.vulkan;

import static dev.lathe.vulkan.VulkanDevice.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.List;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkAttachmentDescription;
import org.lwjgl.vulkan.VkAttachmentReference;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDescriptorBufferInfo;
import org.lwjgl.vulkan.VkDescriptorPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorPoolSize;
import org.lwjgl.vulkan.VkDescriptorSetAllocateInfo;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;
import org.lwjgl.vulkan.VkFramebufferCreateInfo;
import org.lwjgl.vulkan.VkGraphicsPipelineCreateInfo;
import org.lwjgl.vulkan.VkPipelineColorBlendAttachmentState;
import org.lwjgl.vulkan.VkPipelineColorBlendStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineInputAssemblyStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineLayoutCreateInfo;
import org.lwjgl.vulkan.VkPipelineMultisampleStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineRasterizationStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineShaderStageCreateInfo;
import org.lwjgl.vulkan.VkPipelineVertexInputStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineViewportStateCreateInfo;
import org.lwjgl.vulkan.VkRect2D;
import org.lwjgl.vulkan.VkRenderPassBeginInfo;
import org.lwjgl.vulkan.VkRenderPassCreateInfo;
import org.lwjgl.vulkan.VkSubpassDescription;
import org.lwjgl.vulkan.VkVertexInputAttributeDescription;
import org.lwjgl.vulkan.VkVertexInputBindingDescription;
import org.lwjgl.vulkan.VkWriteDescriptorSet;

/**
 * Puts given texels into a multisampled image, which no copy can write: one draw over the image
 * at sample rate, whose fragment shader (assembled here) writes sample s of pixel (x, y) from
 * element (s·h + y)·w + x of a buffer — the order of the interpreter's multisampled texture,
 * whose third dimension is the sample.
 */
final class MultisampleFill {
    private MultisampleFill() {}

    private static final int SC_INPUT = 1,
            SC_OUTPUT = 3,
            SC_STORAGE_BUFFER = 12,
            DEC_BUILT_IN = 11,
            DEC_LOCATION = 30,
            DEC_FLAT = 14,
            DEC_BLOCK = 2,
            DEC_OFFSET = 35,
            DEC_ARRAY_STRIDE = 6,
            DEC_SET = 34,
            DEC_BINDING = 33,
            BUILT_IN_FRAG_COORD = 15,
            BUILT_IN_SAMPLE_ID = 18,
            CAPABILITY_SAMPLE_RATE_SHADING = 35,
            MODE_ORIGIN_UPPER_LEFT = 7;

    /** The fragment shader for a {@code width}-wide, {@code height}-high image whose texels are vectors of {@code base}. */
    static byte[] shader(char base, int width, int height) {
        SpirvAssembler a = new SpirvAssembler();
        int voidT = a.type(SpirvAssembler.OP_TYPE_VOID), fnT = a.type(SpirvAssembler.OP_TYPE_FUNCTION, voidT);
        int f32 = a.type(SpirvAssembler.OP_TYPE_FLOAT, 32), i32 = a.type(SpirvAssembler.OP_TYPE_INT, 32, 1);
        int vec4f = a.type(SpirvAssembler.OP_TYPE_VECTOR, f32, 4);
        int scalar = base == 'f' ? f32 : base == 'i' ? i32 : a.type(SpirvAssembler.OP_TYPE_INT, 32, 0);
        int texel = a.type(SpirvAssembler.OP_TYPE_VECTOR, scalar, 4);
        int texels = a.type(SpirvAssembler.OP_TYPE_RUNTIME_ARRAY, texel);
        a.decorate(texels, DEC_ARRAY_STRIDE, 16);
        int block = a.struct(texels);
        a.decorate(block, DEC_BLOCK);
        a.memberDecorate(block, 0, DEC_OFFSET, 0);
        int buffer = a.variable(block, SC_STORAGE_BUFFER);
        a.decorate(buffer, DEC_SET, 0);
        a.decorate(buffer, DEC_BINDING, 0);
        int fragCoord = a.variable(vec4f, SC_INPUT);
        a.decorate(fragCoord, DEC_BUILT_IN, BUILT_IN_FRAG_COORD);
        int sampleId = a.variable(i32, SC_INPUT);
        a.decorate(sampleId, DEC_BUILT_IN, BUILT_IN_SAMPLE_ID);
        a.decorate(sampleId, DEC_FLAT);
        int out = a.variable(texel, SC_OUTPUT);
        a.decorate(out, DEC_LOCATION, 0);
        int zero = a.constant(i32, 0), w = a.constant(i32, width), h = a.constant(i32, height);
        int texelPtr = a.type(SpirvAssembler.OP_TYPE_POINTER, SC_STORAGE_BUFFER, texel);

        int main = a.id();
        a.code(SpirvAssembler.OP_FUNCTION, voidT, main, 0, fnT);
        a.code(SpirvAssembler.OP_LABEL, a.id());
        int fc = a.id(), fx = a.id(), fy = a.id(), x = a.id(), y = a.id(), s = a.id();
        a.code(SpirvAssembler.OP_LOAD, vec4f, fc, fragCoord);
        a.code(SpirvAssembler.OP_COMPOSITE_EXTRACT, f32, fx, fc, 0);
        a.code(SpirvAssembler.OP_COMPOSITE_EXTRACT, f32, fy, fc, 1);
        a.code(SpirvAssembler.OP_CONVERT_F_TO_S, i32, x, fx);
        a.code(SpirvAssembler.OP_CONVERT_F_TO_S, i32, y, fy);
        a.code(SpirvAssembler.OP_LOAD, i32, s, sampleId);
        int sh = a.id(), row = a.id(), roww = a.id(), index = a.id(), ptr = a.id(), value = a.id();
        a.code(SpirvAssembler.OP_I_MUL, i32, sh, s, h);
        a.code(SpirvAssembler.OP_I_ADD, i32, row, sh, y);
        a.code(SpirvAssembler.OP_I_MUL, i32, roww, row, w);
        a.code(SpirvAssembler.OP_I_ADD, i32, index, roww, x);
        a.code(SpirvAssembler.OP_ACCESS_CHAIN, texelPtr, ptr, buffer, zero, index);
        a.code(SpirvAssembler.OP_LOAD, texel, value, ptr);
        a.code(SpirvAssembler.OP_STORE, out, value);
        a.code(SpirvAssembler.OP_RETURN);
        a.code(SpirvAssembler.OP_FUNCTION_END);
        // SPIR-V 1.3: the StorageBuffer storage class
        return a.module(
                4,
                main,
                List.of(fragCoord, sampleId, out),
                List.of(CAPABILITY_SAMPLE_RATE_SHADING),
                List.of(new int[] {MODE_ORIGIN_UPPER_LEFT}),
                0x00010300);
    }

    /**
     * Fills {@code img} (a {@code samples}-sampled {@code width} x {@code height} colour image of
     * {@code format}) with {@code texels} (four 32-bit words each, x fastest, then y, then the
     * sample) and leaves it ready to be sampled.
     */
    static void fill(
            RunScope scope, Images.Img img, int format, char base, long[] texels, int width, int height, int samples) {
        var d = scope.d;
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            RunScope.Buf data = scope.buffer(Math.max(16, 4 * texels.length), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
            ByteBuffer db = MemoryUtil.memByteBuffer(data.mapped(), data.size()).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < texels.length; k++) db.putInt(4 * k, (int) texels[k]);
            RunScope.Buf corners = scope.buffer(48, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
            ByteBuffer cb0 = MemoryUtil.memByteBuffer(corners.mapped(), 48).order(ByteOrder.LITTLE_ENDIAN);
            float[] c = {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
            for (int k = 0; k < c.length; k++) cb0.putFloat(4 * k, c[k]);

            // the buffer's descriptor
            VkDescriptorSetLayoutBinding.Buffer lb = VkDescriptorSetLayoutBinding.calloc(1, stack);
            lb.get(0)
                    .binding(0)
                    .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
                    .descriptorCount(1)
                    .stageFlags(VK_SHADER_STAGE_FRAGMENT_BIT);
            check(
                    vkCreateDescriptorSetLayout(
                            d,
                            VkDescriptorSetLayoutCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .pBindings(lb),
                            null,
                            lp),
                    "vkCreateDescriptorSetLayout");
            long setLayout = lp.get(0);
            scope.onClose(() -> vkDestroyDescriptorSetLayout(d, setLayout, null));
            check(
                    vkCreatePipelineLayout(
                            d,
                            VkPipelineLayoutCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .pSetLayouts(stack.longs(setLayout)),
                            null,
                            lp),
                    "vkCreatePipelineLayout");
            long layout = lp.get(0);
            scope.onClose(() -> vkDestroyPipelineLayout(d, layout, null));
            VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack);
            sizes.get(0).type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(1);
            check(
                    vkCreateDescriptorPool(
                            d,
                            VkDescriptorPoolCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .maxSets(1)
                                    .pPoolSizes(sizes),
                            null,
                            lp),
                    "vkCreateDescriptorPool");
            long pool = lp.get(0);
            scope.onClose(() -> vkDestroyDescriptorPool(d, pool, null));
            LongBuffer set = stack.mallocLong(1);
            check(
                    vkAllocateDescriptorSets(
                            d,
                            VkDescriptorSetAllocateInfo.calloc(stack)
                                    .sType$Default()
                                    .descriptorPool(pool)
                                    .pSetLayouts(stack.longs(setLayout)),
                            set),
                    "vkAllocateDescriptorSets");
            vkUpdateDescriptorSets(
                    d,
                    VkWriteDescriptorSet.calloc(1, stack)
                            .sType$Default()
                            .dstSet(set.get(0))
                            .dstBinding(0)
                            .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
                            .descriptorCount(1)
                            .pBufferInfo(VkDescriptorBufferInfo.calloc(1, stack)
                                    .buffer(data.buffer())
                                    .offset(0)
                                    .range(data.size())),
                    null);

            // one subpass: the multisampled image, left ready to sample
            VkAttachmentDescription.Buffer att = VkAttachmentDescription.calloc(1, stack);
            att.get(0)
                    .format(format)
                    .samples(samples)
                    .loadOp(VK_ATTACHMENT_LOAD_OP_DONT_CARE)
                    .storeOp(VK_ATTACHMENT_STORE_OP_STORE)
                    .stencilLoadOp(VK_ATTACHMENT_LOAD_OP_DONT_CARE)
                    .stencilStoreOp(VK_ATTACHMENT_STORE_OP_DONT_CARE)
                    .initialLayout(VK_IMAGE_LAYOUT_UNDEFINED)
                    .finalLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
            VkAttachmentReference.Buffer ref = VkAttachmentReference.calloc(1, stack);
            ref.get(0).attachment(0).layout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            VkSubpassDescription.Buffer sub = VkSubpassDescription.calloc(1, stack)
                    .pipelineBindPoint(VK_PIPELINE_BIND_POINT_GRAPHICS)
                    .colorAttachmentCount(1)
                    .pColorAttachments(ref);
            check(
                    vkCreateRenderPass(
                            d,
                            VkRenderPassCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .pAttachments(att)
                                    .pSubpasses(sub),
                            null,
                            lp),
                    "vkCreateRenderPass");
            long rp = lp.get(0);
            scope.onClose(() -> vkDestroyRenderPass(d, rp, null));
            check(
                    vkCreateFramebuffer(
                            d,
                            VkFramebufferCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .renderPass(rp)
                                    .pAttachments(stack.longs(img.view()))
                                    .width(width)
                                    .height(height)
                                    .layers(1),
                            null,
                            lp),
                    "vkCreateFramebuffer");
            long fb = lp.get(0);
            scope.onClose(() -> vkDestroyFramebuffer(d, fb, null));

            long vs = scope.shaderModule(FeederVertexShader.assemble(List.of(), 0, 0));
            long fs = scope.shaderModule(shader(base, width, height));
            VkPipelineShaderStageCreateInfo.Buffer stages = VkPipelineShaderStageCreateInfo.calloc(2, stack);
            stages.get(0)
                    .sType$Default()
                    .stage(VK_SHADER_STAGE_VERTEX_BIT)
                    .module(vs)
                    .pName(stack.UTF8("main"));
            stages.get(1)
                    .sType$Default()
                    .stage(VK_SHADER_STAGE_FRAGMENT_BIT)
                    .module(fs)
                    .pName(stack.UTF8("main"));
            VkVertexInputBindingDescription.Buffer vb = VkVertexInputBindingDescription.calloc(1, stack);
            vb.get(0).binding(0).stride(16).inputRate(VK_VERTEX_INPUT_RATE_VERTEX);
            VkVertexInputAttributeDescription.Buffer va = VkVertexInputAttributeDescription.calloc(1, stack);
            va.get(0)
                    .location(0)
                    .binding(0)
                    .format(VK_FORMAT_R32G32B32A32_SFLOAT)
                    .offset(0);
            VkRect2D.Buffer area = VkRect2D.calloc(1, stack);
            area.get(0).extent().set(width, height);
            VkPipelineColorBlendAttachmentState.Buffer blend = VkPipelineColorBlendAttachmentState.calloc(1, stack);
            blend.get(0).colorWriteMask(0xf);
            VkGraphicsPipelineCreateInfo.Buffer gpci = VkGraphicsPipelineCreateInfo.calloc(1, stack)
                    .sType$Default()
                    .pStages(stages)
                    .pVertexInputState(VkPipelineVertexInputStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .pVertexBindingDescriptions(vb)
                            .pVertexAttributeDescriptions(va))
                    .pInputAssemblyState(VkPipelineInputAssemblyStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .topology(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST))
                    .pViewportState(VkPipelineViewportStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .pViewports(org.lwjgl.vulkan.VkViewport.calloc(1, stack)
                                    .width(width)
                                    .height(height)
                                    .maxDepth(1))
                            .pScissors(area))
                    .pRasterizationState(VkPipelineRasterizationStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .polygonMode(VK_POLYGON_MODE_FILL)
                            .cullMode(VK_CULL_MODE_NONE)
                            .lineWidth(1))
                    .pMultisampleState(VkPipelineMultisampleStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .rasterizationSamples(samples)
                            .sampleShadingEnable(true)
                            .minSampleShading(1f))
                    .pColorBlendState(VkPipelineColorBlendStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .pAttachments(blend))
                    .layout(layout)
                    .renderPass(rp)
                    .subpass(0);
            check(vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, gpci, null, lp), "vkCreateGraphicsPipelines");
            long pipeline = lp.get(0);
            scope.onClose(() -> vkDestroyPipeline(d, pipeline, null));

            VkCommandBuffer cb = scope.begin();
            vkCmdBeginRenderPass(
                    cb,
                    VkRenderPassBeginInfo.calloc(stack)
                            .sType$Default()
                            .renderPass(rp)
                            .framebuffer(fb)
                            .renderArea(area.get(0)),
                    VK_SUBPASS_CONTENTS_INLINE);
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, set, null);
            vkCmdBindVertexBuffers(cb, 0, stack.longs(corners.buffer()), stack.longs(0));
            vkCmdDraw(cb, 3, 1, 0, 0);
            vkCmdEndRenderPass(cb);
            scope.submitAndWait(cb);
        }
    }
}
