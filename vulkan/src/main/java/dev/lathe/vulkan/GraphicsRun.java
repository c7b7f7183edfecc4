package dev.lathe.vulkan;

import static dev.lathe.vulkan.VulkanDevice.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.EXTTransformFeedback;
import org.lwjgl.vulkan.VK13;
import org.lwjgl.vulkan.VkAttachmentDescription;
import org.lwjgl.vulkan.VkAttachmentReference;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkClearValue;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkFormatProperties;
import org.lwjgl.vulkan.VkFramebufferCreateInfo;
import org.lwjgl.vulkan.VkGraphicsPipelineCreateInfo;
import org.lwjgl.vulkan.VkPipelineColorBlendAttachmentState;
import org.lwjgl.vulkan.VkPipelineColorBlendStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineDepthStencilStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineInputAssemblyStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineMultisampleStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineRasterizationStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineRenderingCreateInfo;
import org.lwjgl.vulkan.VkPipelineShaderStageCreateInfo;
import org.lwjgl.vulkan.VkPipelineVertexInputStateCreateInfo;
import org.lwjgl.vulkan.VkPipelineViewportStateCreateInfo;
import org.lwjgl.vulkan.VkRect2D;
import org.lwjgl.vulkan.VkRenderPassBeginInfo;
import org.lwjgl.vulkan.VkRenderPassCreateInfo;
import org.lwjgl.vulkan.VkRenderingAttachmentInfo;
import org.lwjgl.vulkan.VkRenderingInfo;
import org.lwjgl.vulkan.VkStencilOpState;
import org.lwjgl.vulkan.VkSubpassDescription;
import org.lwjgl.vulkan.VkVertexInputAttributeDescription;
import org.lwjgl.vulkan.VkVertexInputBindingDescription;
import org.lwjgl.vulkan.VkViewport;

/**
 * Draws with a vertex or a fragment shader on a {@link VulkanDevice} and reads back what it
 * output, as the interpreter gives it (outputs by IR name, one location per IR variable).
 *
 * <p><b>A fragment shader</b> covers a {@value #WIDTH}x{@value #HEIGHT} image with one triangle
 * larger than the viewport, drawn by {@link FeederVertexShader}, which hands every vertex the same
 * value of each varying (as the inputs give it), so that every fragment sees exactly those values.
 * Each output location goes to a 32-bit RGBA image of its type; a stencil image, set to 1 where a
 * fragment survives, tells which were discarded. {@link #fragmentInputs} says what else the draw
 * gives fragment (x, y): its {@code gl_FragCoord} at the pixel centre, depth 0 and w 1, front-facing,
 * primitive 0, sample 0. A shader that reads {@code gl_PointCoord} is drawn as one point of size 2
 * over the image instead, each fragment's point coordinate its pixel centre's place in it.
 *
 * <p><b>A vertex shader</b> runs on one triangle whose three vertices read the same attribute
 * values (a vertex buffer of stride 0), with {@code gl_VertexIndex} = the inputs' vertex id + 0,
 * 1, 2 and {@code gl_InstanceIndex} = their instance id; its user outputs and {@code gl_Position}
 * are captured by transform feedback ({@link TransformFeedbackPatch}), with rasterization off.
 */
public final class GraphicsRun {
    private GraphicsRun() {}

    /** The size of the image a fragment shader is drawn into: one 2x2 quad. */
    public static final int WIDTH = 2, HEIGHT = 2;

    /** The size of the point a fragment shader that reads gl_PointCoord is drawn as, centred on the image. */
    static final float POINT_SIZE = 2;

    private static final int POINT_COORD = 16;

    /** Built-ins that differ between the fragments of a quad: FragCoord, PointCoord, SamplePosition, the barycentrics. */
    private static final java.util.Set<Integer> QUAD_VARYING = java.util.Set.of(15, 16, 19, 5286, 5287);

    /**
     * The inputs fragment ({@code x}, {@code y}) of a {@link #fragment} draw sees: {@code in} with
     * the built-ins the draw defines set as it defines them (changes {@code in} and returns it).
     */
    public static ShaderInputs fragmentInputs(ShaderInputs in, int x, int y) {
        in.setFragCoord(x + 0.5f, y + 0.5f, 0f, 1f);
        in.setFrontFace(true);
        for (String zero : List.of(
                "gl_PrimitiveID", "gl_Layer", "gl_ViewportIndex", "gl_SampleID", "gl_ViewIndex", "gl_ShadingRateEXT")) {
            in.set(zero, 0);
        }
        in.set("gl_SamplePosition", f32(0.5f), f32(0.5f));
        // a shader that reads gl_PointCoord is drawn as one point of size 2 over the image (upper-left origin)
        in.set("gl_PointCoord", f32((x + 0.5f) / POINT_SIZE), f32((y + 0.5f) / POINT_SIZE));
        return in;
    }

    /**
     * The inputs vertex {@code k} (0, 1 or 2) of a {@link #vertex} run sees, the run having been
     * given {@code firstVertex} and {@code instance}: {@code in} with the vertex and instance ids
     * and the draw's built-ins set (changes {@code in} and returns it).
     */
    public static ShaderInputs vertexInputs(ShaderInputs in, int firstVertex, int instance, int k) {
        in.setVertexId(firstVertex + k);
        in.setInstanceId(instance);
        in.set("gl_BaseVertex", firstVertex);
        in.set("gl_BaseInstance", instance);
        in.set("gl_DrawID", 0);
        in.set("gl_ViewIndex", 0);
        return in;
    }

    /** Built-ins of a fragment shader whose value the draw does not make the same as the interpreter's input. */
    private static final Map<Integer, String> FRAGMENT_BUILT_INS_NOT_MODELLED = Map.of(
            5286,
            "gl_BaryCoordEXT (varies across the triangle)",
            5287,
            "gl_BaryCoordNoPerspEXT (varies across the triangle)",
            20,
            "gl_SampleMask",
            4416,
            "gl_HelperInvocation");

    /**
     * Draws fragment shader {@code spirv} with inputs {@code in} (varyings and uniforms as the IR
     * names them) and returns each fragment's outputs, row after row ({@code y * WIDTH + x}).
     *
     * @throws UnsupportedOperationException naming what the module uses that the oracle does not drive yet
     */
    public static List<ShaderOutputs> fragment(VulkanDevice vk, byte[] spirv, ShaderInputs in) {
        return fragment(vk, spirv, SpirvInterface.read(spirv), in);
    }

    /** As {@link #fragment(VulkanDevice, byte[], ShaderInputs)}, with the module's interface read already. */
    public static List<ShaderOutputs> fragment(VulkanDevice vk, byte[] spirv, SpirvInterface iface, ShaderInputs in) {
        List<String> problems = new ArrayList<>();
        for (SpirvInterface.BuiltIn b : iface.builtInInputs()) {
            String why = FRAGMENT_BUILT_INS_NOT_MODELLED.get(b.builtIn());
            if (why != null) problems.add(why);
        }
        for (SpirvInterface.BuiltIn b : iface.builtInOutputs())
            problems.add("the built-in output " + b.builtIn() + " (gl_FragDepth and the like)");
        // every varying is the same on the whole quad, so a derivative is 0 on the device as in Lathe's model, unless
        // it
        // may be of a built-in that varies across the quad: compared only where the model defines it
        if (iface.usesDerivatives()
                && iface.builtInInputs().stream().anyMatch(b -> QUAD_VARYING.contains(b.builtIn()))) {
            problems.add(
                    "derivatives in a shader that reads gl_FragCoord or another value that varies across the quad (Lathe's derivatives are 0)");
        }
        if (!problems.isEmpty())
            throw new UnsupportedOperationException(
                    "the Vulkan oracle does not run " + String.join(", ", problems) + " yet");
        iface.requireSupported(vk, "fragment");
        try (RunScope scope = new RunScope(vk);
                MemoryStack stack = stackPush()) {
            int stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
            RunScope.Bindings bindings = scope.bind(iface, in, stages);
            // attributes: the varyings' values at 16 bytes a location, then the triangle's corners
            List<Slot> slots = slots(iface.inputs());
            int positionLocation = 0;
            for (Slot s : slots) positionLocation = Math.max(positionLocation, s.location() + 1);
            int attributeBytes = 16 * slots.size();
            RunScope.Buf vertices = scope.buffer(attributeBytes + 48, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
            ByteBuffer vb =
                    MemoryUtil.memByteBuffer(vertices.mapped(), vertices.size()).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < slots.size(); k++)
                put(vb, 16 * k, in.value(slots.get(k).irName()), slots.get(k).components());
            boolean point = iface.builtInInputs().stream().anyMatch(b -> b.builtIn() == POINT_COORD);
            float[] corners = point ? new float[] {0, 0, 0, 1} : new float[] {-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1};
            for (int k = 0; k < corners.length; k++) vb.putFloat(attributeBytes + 4 * k, corners[k]);

            // color images by location, and a stencil image
            int locations = 0;
            for (Slot s : slots(iface.outputs())) locations = Math.max(locations, s.location() + 1);
            Images.Img[] colors = new Images.Img[locations];
            int[] formats = new int[locations];
            for (Slot s : slots(iface.outputs())) {
                formats[s.location()] = s.base() == 'f'
                        ? VK_FORMAT_R32G32B32A32_SFLOAT
                        : s.base() == 'i' ? VK_FORMAT_R32G32B32A32_SINT : VK_FORMAT_R32G32B32A32_UINT;
                colors[s.location()] = image(
                        scope, formats[s.location()], VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
            }
            int stencilFormat = stencilFormat(vk);
            Images.Img stencil = image(
                    scope,
                    stencilFormat,
                    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                    stencilFormat == VK_FORMAT_S8_UINT
                            ? VK_IMAGE_ASPECT_STENCIL_BIT
                            : VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);

            long vertexModule = scope.shaderModule(
                    FeederVertexShader.assemble(iface.inputs(), positionLocation, point ? POINT_SIZE : 0));
            long fragmentModule = scope.shaderModule(spirv);
            VkPipelineShaderStageCreateInfo.Buffer shaderStages = VkPipelineShaderStageCreateInfo.calloc(2, stack);
            shaderStages
                    .get(0)
                    .sType$Default()
                    .stage(VK_SHADER_STAGE_VERTEX_BIT)
                    .module(vertexModule)
                    .pName(stack.UTF8("main"));
            shaderStages
                    .get(1)
                    .sType$Default()
                    .stage(VK_SHADER_STAGE_FRAGMENT_BIT)
                    .module(fragmentModule)
                    .pName(stack.UTF8(iface.entryPoint()));
            VkVertexInputBindingDescription.Buffer vbind = VkVertexInputBindingDescription.calloc(2, stack);
            vbind.get(0).binding(0).stride(0).inputRate(VK_VERTEX_INPUT_RATE_VERTEX);
            vbind.get(1).binding(1).stride(16).inputRate(VK_VERTEX_INPUT_RATE_VERTEX);
            VkVertexInputAttributeDescription.Buffer attrs =
                    VkVertexInputAttributeDescription.calloc(slots.size() + 1, stack);
            for (int k = 0; k < slots.size(); k++) {
                Slot s = slots.get(k);
                attrs.get(k)
                        .location(s.location())
                        .binding(0)
                        .format(attributeFormat(s.base(), s.components()))
                        .offset(16 * k);
            }
            attrs.get(slots.size())
                    .location(positionLocation)
                    .binding(1)
                    .format(VK_FORMAT_R32G32B32A32_SFLOAT)
                    .offset(attributeBytes);

            VkStencilOpState keep1 = VkStencilOpState.calloc(stack)
                    .failOp(VK_STENCIL_OP_KEEP)
                    .passOp(VK_STENCIL_OP_REPLACE)
                    .depthFailOp(VK_STENCIL_OP_KEEP)
                    .compareOp(VK_COMPARE_OP_ALWAYS)
                    .compareMask(0xff)
                    .writeMask(0xff)
                    .reference(1);
            VkPipelineColorBlendAttachmentState.Buffer blend =
                    VkPipelineColorBlendAttachmentState.calloc(Math.max(1, locations), stack);
            for (int k = 0; k < locations; k++) blend.get(k).blendEnable(false).colorWriteMask(0xf);
            VkPipelineRenderingCreateInfo rendering = VkPipelineRenderingCreateInfo.calloc(stack)
                    .sType$Default()
                    .stencilAttachmentFormat(stencilFormat)
                    .depthAttachmentFormat(stencilFormat == VK_FORMAT_S8_UINT ? VK_FORMAT_UNDEFINED : stencilFormat);
            if (locations > 0) rendering.colorAttachmentCount(locations).pColorAttachmentFormats(stack.ints(formats));
            // input attachments are read in a subpass of a render pass; every other draw renders dynamically
            boolean subpass = !iface.inputAttachments().isEmpty();
            Pass pass = subpass
                    ? renderPass(scope, iface, bindings, colors, formats, locations, stencil, stencilFormat)
                    : null;
            long renderPass = subpass ? pass.renderPass() : 0, framebuffer = subpass ? pass.framebuffer() : 0;
            int attachmentCount = subpass ? pass.attachments() : 0;
            VkGraphicsPipelineCreateInfo.Buffer gpci = VkGraphicsPipelineCreateInfo.calloc(1, stack)
                    .sType$Default()
                    .pNext(subpass ? 0 : rendering.address())
                    .renderPass(renderPass)
                    .subpass(0)
                    .pStages(shaderStages)
                    .pVertexInputState(VkPipelineVertexInputStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .pVertexBindingDescriptions(vbind)
                            .pVertexAttributeDescriptions(attrs))
                    .pInputAssemblyState(VkPipelineInputAssemblyStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .topology(point ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST))
                    .pViewportState(VkPipelineViewportStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .pViewports(VkViewport.calloc(1, stack)
                                    .x(0)
                                    .y(0)
                                    .width(WIDTH)
                                    .height(HEIGHT)
                                    .minDepth(0)
                                    .maxDepth(1))
                            .pScissors(area(stack)))
                    .pRasterizationState(VkPipelineRasterizationStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .polygonMode(VK_POLYGON_MODE_FILL)
                            .cullMode(VK_CULL_MODE_NONE)
                            .frontFace(FRONT_FACE)
                            .lineWidth(1))
                    .pMultisampleState(VkPipelineMultisampleStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .rasterizationSamples(VK_SAMPLE_COUNT_1_BIT))
                    .pDepthStencilState(VkPipelineDepthStencilStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .depthTestEnable(false)
                            .stencilTestEnable(true)
                            .front(keep1)
                            .back(keep1))
                    .pColorBlendState(VkPipelineColorBlendStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .pAttachments(locations > 0 ? blend : null)
                            .attachmentCount(locations))
                    .layout(bindings.pipelineLayout());
            long pipeline = pipeline(scope, gpci);

            VkCommandBuffer cb = scope.begin();
            for (Images.Img c : colors)
                if (c != null)
                    Images.transition(cb, c, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            Images.transition(cb, stencil, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
            VkRenderingAttachmentInfo.Buffer colorInfo =
                    VkRenderingAttachmentInfo.calloc(Math.max(1, locations), stack);
            for (int k = 0; k < locations; k++) {
                colorInfo
                        .get(k)
                        .sType$Default()
                        .imageView(colors[k] == null ? VK_NULL_HANDLE : colors[k].view())
                        .imageLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
                        .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR)
                        .storeOp(VK_ATTACHMENT_STORE_OP_STORE);
            }
            VkRenderingAttachmentInfo stencilInfo = VkRenderingAttachmentInfo.calloc(stack)
                    .sType$Default()
                    .imageView(stencil.view())
                    .imageLayout(VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                    .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR)
                    .storeOp(VK_ATTACHMENT_STORE_OP_STORE);
            stencilInfo.clearValue().depthStencil().set(1f, 0);
            VkRenderingInfo ri = VkRenderingInfo.calloc(stack)
                    .sType$Default()
                    .renderArea(area(stack).get(0))
                    .layerCount(1)
                    .pStencilAttachment(stencilInfo)
                    .pDepthAttachment(stencilFormat == VK_FORMAT_S8_UINT ? null : stencilInfo);
            if (locations > 0) ri.pColorAttachments(colorInfo);
            if (subpass) {
                VkClearValue.Buffer clears = VkClearValue.calloc(attachmentCount, stack);
                for (int k = 0; k < attachmentCount; k++)
                    clears.get(k).depthStencil().set(1f, 0); // colours: zeros either way
                vkCmdBeginRenderPass(
                        cb,
                        VkRenderPassBeginInfo.calloc(stack)
                                .sType$Default()
                                .renderPass(renderPass)
                                .framebuffer(framebuffer)
                                .renderArea(area(stack).get(0))
                                .pClearValues(clears),
                        VK_SUBPASS_CONTENTS_INLINE);
            } else {
                VK13.vkCmdBeginRendering(cb, ri);
            }
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            scope.record(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, bindings, in);
            vkCmdBindVertexBuffers(cb, 0, stack.longs(vertices.buffer(), vertices.buffer()), stack.longs(0, 0));
            vkCmdDraw(cb, point ? 1 : 3, 1, 0, 0);
            if (subpass) vkCmdEndRenderPass(cb);
            else VK13.vkCmdEndRendering(cb);

            RunScope.Buf readback = scope.buffer(
                    16 * WIDTH * HEIGHT * Math.max(1, locations) + WIDTH * HEIGHT, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            for (int k = 0; k < locations; k++) {
                if (colors[k] == null) continue;
                Images.transition(
                        cb, colors[k], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
                copyToBuffer(
                        cb,
                        colors[k].image(),
                        VK_IMAGE_ASPECT_COLOR_BIT,
                        readback.buffer(),
                        16L * WIDTH * HEIGHT * k,
                        stack);
            }
            Images.transition(
                    cb,
                    stencil,
                    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
            int stencilAt = 16 * WIDTH * HEIGHT * Math.max(1, locations);
            copyToBuffer(cb, stencil.image(), VK_IMAGE_ASPECT_STENCIL_BIT, readback.buffer(), stencilAt, stack);
            scope.submitAndWait(cb);

            ByteBuffer rb =
                    MemoryUtil.memByteBuffer(readback.mapped(), readback.size()).order(ByteOrder.LITTLE_ENDIAN);
            List<ShaderOutputs> fragments = new ArrayList<>();
            for (int p = 0; p < WIDTH * HEIGHT; p++) {
                Map<String, long[]> outputs = new LinkedHashMap<>();
                for (Slot s : slots(iface.outputs())) {
                    long[] v = new long[s.components()];
                    for (int c = 0; c < v.length; c++)
                        v[c] = rb.getInt(16 * WIDTH * HEIGHT * s.location() + 16 * p + 4 * c) & 0xffffffffL;
                    outputs.put(s.irName(), v);
                }
                boolean discarded = rb.get(stencilAt + p) == 0;
                fragments.add(new ShaderOutputs(outputs, Map.of(), discarded, 0));
            }
            return fragments;
        }
    }

    /**
     * Runs vertex shader {@code spirv} on three vertices that read the same attributes ({@code in}'s
     * IR inputs), {@code gl_VertexIndex} being {@code in.vertexId()} + 0, 1 and 2, and returns what
     * each output (user outputs, and {@code gl_Position}).
     *
     * @throws UnsupportedOperationException naming what the module uses that the oracle does not drive yet
     */
    public static List<ShaderOutputs> vertex(VulkanDevice vk, byte[] spirv, ShaderInputs in) {
        return vertex(vk, spirv, SpirvInterface.read(spirv), in);
    }

    /** As {@link #vertex(VulkanDevice, byte[], ShaderInputs)}, with the module's interface read already. */
    public static List<ShaderOutputs> vertex(VulkanDevice vk, byte[] spirv, SpirvInterface iface, ShaderInputs in) {
        iface.requireSupported(vk, "vertex");
        if (!vk.transformFeedback)
            throw new UnsupportedOperationException(
                    vk.name() + " has no transform feedback, which the oracle captures vertex outputs with");
        // the captured layout: user outputs by location, 4 bytes a component, then gl_Position
        List<TransformFeedbackPatch.Capture> captures = new ArrayList<>();
        Map<String, int[]> layout = new LinkedHashMap<>(); // IR name -> offset, components
        int stride = 0;
        java.util.Set<Long> capturedMembers = new java.util.HashSet<>();
        for (SpirvInterface.Varying v : iface.outputs()) {
            // a block member is captured once, at its first leaf: its leaves follow it tightly packed
            if (v.member() < 0 || capturedMembers.add((long) v.struct() << 32 | v.member())) {
                captures.add(new TransformFeedbackPatch.Capture(v.variable(), v.struct(), v.member(), stride));
            }
            for (int k = 0; k < v.slots(); k++) {
                layout.put(v.slotName(k), new int[] {stride, v.slotComponents()});
                stride += 4 * v.slotComponents();
            }
        }
        for (SpirvInterface.BuiltIn b : iface.builtInOutputs()) {
            if (b.builtIn() != SpirvInterface.POSITION) continue; // the IR has gl_Position alone
            captures.add(new TransformFeedbackPatch.Capture(b.variable(), b.struct(), b.member(), stride));
            layout.put("gl_Position", new int[] {stride, 4});
            stride += 16;
        }
        byte[] patched = TransformFeedbackPatch.patch(spirv, captures, stride);
        try (RunScope scope = new RunScope(vk);
                MemoryStack stack = stackPush()) {
            RunScope.Bindings bindings = scope.bind(iface, in, VK_SHADER_STAGE_VERTEX_BIT);
            List<Slot> slots = slots(iface.inputs());
            RunScope.Buf vertices = scope.buffer(Math.max(16, 16 * slots.size()), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
            ByteBuffer vb =
                    MemoryUtil.memByteBuffer(vertices.mapped(), vertices.size()).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < slots.size(); k++)
                put(vb, 16 * k, in.value(slots.get(k).irName()), slots.get(k).components());
            RunScope.Buf captured = scope.buffer(
                    Math.max(16, 3 * stride), EXTTransformFeedback.VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT);

            long module = scope.shaderModule(patched);
            VkPipelineShaderStageCreateInfo.Buffer shaderStages = VkPipelineShaderStageCreateInfo.calloc(1, stack);
            shaderStages
                    .get(0)
                    .sType$Default()
                    .stage(VK_SHADER_STAGE_VERTEX_BIT)
                    .module(module)
                    .pName(stack.UTF8(iface.entryPoint()));
            VkVertexInputBindingDescription.Buffer vbind = VkVertexInputBindingDescription.calloc(1, stack);
            vbind.get(0).binding(0).stride(0).inputRate(VK_VERTEX_INPUT_RATE_VERTEX);
            VkVertexInputAttributeDescription.Buffer attrs =
                    VkVertexInputAttributeDescription.calloc(Math.max(1, slots.size()), stack);
            for (int k = 0; k < slots.size(); k++) {
                Slot s = slots.get(k);
                attrs.get(k)
                        .location(s.location())
                        .binding(0)
                        .format(attributeFormat(s.base(), s.components()))
                        .offset(16 * k);
            }
            VkPipelineVertexInputStateCreateInfo vertexInput =
                    VkPipelineVertexInputStateCreateInfo.calloc(stack).sType$Default();
            if (!slots.isEmpty()) vertexInput.pVertexBindingDescriptions(vbind).pVertexAttributeDescriptions(attrs);
            VkGraphicsPipelineCreateInfo.Buffer gpci = VkGraphicsPipelineCreateInfo.calloc(1, stack)
                    .sType$Default()
                    .pNext(VkPipelineRenderingCreateInfo.calloc(stack)
                            .sType$Default()
                            .address())
                    .pStages(shaderStages)
                    .pVertexInputState(vertexInput)
                    .pInputAssemblyState(VkPipelineInputAssemblyStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .topology(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST))
                    .pRasterizationState(VkPipelineRasterizationStateCreateInfo.calloc(stack)
                            .sType$Default()
                            .rasterizerDiscardEnable(true)
                            .polygonMode(VK_POLYGON_MODE_FILL)
                            .cullMode(VK_CULL_MODE_NONE)
                            .lineWidth(1))
                    .layout(bindings.pipelineLayout());
            long pipeline = pipeline(scope, gpci);

            VkCommandBuffer cb = scope.begin();
            VK13.vkCmdBeginRendering(
                    cb,
                    VkRenderingInfo.calloc(stack)
                            .sType$Default()
                            .renderArea(area(stack).get(0))
                            .layerCount(1));
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            scope.record(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, bindings, in);
            if (!slots.isEmpty()) vkCmdBindVertexBuffers(cb, 0, stack.longs(vertices.buffer()), stack.longs(0));
            EXTTransformFeedback.vkCmdBindTransformFeedbackBuffersEXT(
                    cb, 0, stack.longs(captured.buffer()), stack.longs(0), stack.longs(captured.size()));
            EXTTransformFeedback.vkCmdBeginTransformFeedbackEXT(cb, 0, (LongBuffer) null, null);
            vkCmdDraw(cb, 3, 1, in.vertexId(), in.instanceId());
            EXTTransformFeedback.vkCmdEndTransformFeedbackEXT(cb, 0, (LongBuffer) null, null);
            VK13.vkCmdEndRendering(cb);
            scope.submitAndWait(cb);

            ByteBuffer xb =
                    MemoryUtil.memByteBuffer(captured.mapped(), captured.size()).order(ByteOrder.LITTLE_ENDIAN);
            List<ShaderOutputs> out = new ArrayList<>();
            for (int vertex = 0; vertex < 3; vertex++) {
                Map<String, long[]> outputs = new LinkedHashMap<>();
                for (var e : layout.entrySet()) {
                    long[] v = new long[e.getValue()[1]];
                    for (int c = 0; c < v.length; c++)
                        v[c] = xb.getInt(vertex * stride + e.getValue()[0] + 4 * c) & 0xffffffffL;
                    outputs.put(e.getKey(), v);
                }
                out.add(new ShaderOutputs(outputs, Map.of(), false, 0));
            }
            return out;
        }
    }

    /** A render pass and framebuffer for a draw that reads input attachments, and how many attachments they have. */
    private record Pass(long renderPass, long framebuffer, int attachments) {}

    /**
     * The render pass of a fragment shader that reads input attachments: the colour images by
     * location, the stencil image, then the input attachments at their InputAttachmentIndex, each
     * kept in the layout it is used in.
     */
    private static Pass renderPass(
            RunScope scope,
            SpirvInterface iface,
            RunScope.Bindings bindings,
            Images.Img[] colors,
            int[] formats,
            int locations,
            Images.Img stencil,
            int stencilFormat) {
        try (MemoryStack stack = stackPush()) {
            List<Long> views = new ArrayList<>();
            VkAttachmentDescription.Buffer descriptions = VkAttachmentDescription.calloc(
                    locations + 1 + iface.inputAttachments().size(), stack);
            VkAttachmentReference.Buffer colorRefs = VkAttachmentReference.calloc(Math.max(1, locations), stack);
            for (int k = 0; k < locations; k++) {
                if (colors[k] == null) {
                    colorRefs.get(k).attachment(VK_ATTACHMENT_UNUSED).layout(VK_IMAGE_LAYOUT_UNDEFINED);
                    continue;
                }
                descriptions
                        .get(views.size())
                        .format(formats[k])
                        .samples(VK_SAMPLE_COUNT_1_BIT)
                        .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR)
                        .storeOp(VK_ATTACHMENT_STORE_OP_STORE)
                        .stencilLoadOp(VK_ATTACHMENT_LOAD_OP_DONT_CARE)
                        .stencilStoreOp(VK_ATTACHMENT_STORE_OP_DONT_CARE)
                        .initialLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
                        .finalLayout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
                colorRefs.get(k).attachment(views.size()).layout(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
                views.add(colors[k].view());
            }
            VkAttachmentReference stencilRef = VkAttachmentReference.calloc(stack)
                    .attachment(views.size())
                    .layout(VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
            descriptions
                    .get(views.size())
                    .format(stencilFormat)
                    .samples(VK_SAMPLE_COUNT_1_BIT)
                    .loadOp(VK_ATTACHMENT_LOAD_OP_CLEAR)
                    .storeOp(VK_ATTACHMENT_STORE_OP_STORE)
                    .stencilLoadOp(VK_ATTACHMENT_LOAD_OP_CLEAR)
                    .stencilStoreOp(VK_ATTACHMENT_STORE_OP_STORE)
                    .initialLayout(VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                    .finalLayout(VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
            views.add(stencil.view());
            int inputSlots = 0;
            for (SpirvInterface.InputAttachment ia : iface.inputAttachments())
                inputSlots = Math.max(inputSlots, ia.index() + 1);
            VkAttachmentReference.Buffer inputRefs = VkAttachmentReference.calloc(inputSlots, stack);
            for (int k = 0; k < inputSlots; k++)
                inputRefs.get(k).attachment(VK_ATTACHMENT_UNUSED).layout(VK_IMAGE_LAYOUT_UNDEFINED);
            for (var e : bindings.inputAttachments().entrySet()) {
                int format = e.getKey().base() == 'f'
                        ? VK_FORMAT_R32G32B32A32_SFLOAT
                        : e.getKey().base() == 'i' ? VK_FORMAT_R32G32B32A32_SINT : VK_FORMAT_R32G32B32A32_UINT;
                descriptions
                        .get(views.size())
                        .format(format)
                        .samples(VK_SAMPLE_COUNT_1_BIT)
                        .loadOp(VK_ATTACHMENT_LOAD_OP_LOAD)
                        .storeOp(VK_ATTACHMENT_STORE_OP_STORE)
                        .stencilLoadOp(VK_ATTACHMENT_LOAD_OP_DONT_CARE)
                        .stencilStoreOp(VK_ATTACHMENT_STORE_OP_DONT_CARE)
                        .initialLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
                        .finalLayout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                inputRefs
                        .get(e.getKey().index())
                        .attachment(views.size())
                        .layout(VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
                views.add(e.getValue().view());
            }
            descriptions.limit(views.size());
            VkSubpassDescription.Buffer sub = VkSubpassDescription.calloc(1, stack)
                    .pipelineBindPoint(VK_PIPELINE_BIND_POINT_GRAPHICS)
                    .colorAttachmentCount(locations)
                    .pDepthStencilAttachment(stencilRef)
                    .pInputAttachments(inputRefs);
            if (locations > 0) sub.pColorAttachments(colorRefs);
            LongBuffer lp = stack.mallocLong(1);
            check(
                    vkCreateRenderPass(
                            scope.d,
                            VkRenderPassCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .pAttachments(descriptions)
                                    .pSubpasses(sub),
                            null,
                            lp),
                    "vkCreateRenderPass");
            long rp = lp.get(0);
            scope.onClose(() -> vkDestroyRenderPass(scope.d, rp, null));
            check(
                    vkCreateFramebuffer(
                            scope.d,
                            VkFramebufferCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .renderPass(rp)
                                    .pAttachments(stack.longs(views.stream()
                                            .mapToLong(Long::longValue)
                                            .toArray()))
                                    .width(WIDTH)
                                    .height(HEIGHT)
                                    .layers(1),
                            null,
                            lp),
                    "vkCreateFramebuffer");
            long fb = lp.get(0);
            scope.onClose(() -> vkDestroyFramebuffer(scope.d, fb, null));
            return new Pass(rp, fb, views.size());
        }
    }

    /**
     * The triangle {@link #fragment} draws, (-1,-1), (3,-1), (-1,3), winds clockwise in
     * framebuffer coordinates (y down), so clockwise is the front face that makes it front-facing.
     */
    private static final int FRONT_FACE = VK_FRONT_FACE_CLOCKWISE;

    /** One location of a varying: its IR variable and what one location holds. */
    private record Slot(String irName, int location, char base, int components) {}

    private static List<Slot> slots(List<SpirvInterface.Varying> varyings) {
        List<Slot> slots = new ArrayList<>();
        for (SpirvInterface.Varying v : varyings) {
            for (int k = 0; k < v.slots(); k++)
                slots.add(new Slot(v.slotName(k), v.location() + k, v.shape().base(), v.slotComponents()));
        }
        return slots;
    }

    private static void put(ByteBuffer b, int at, long[] values, int components) {
        if (values == null) return; // reads as zero, as in the interpreter
        for (int c = 0; c < Math.min(components, values.length); c++) b.putInt(at + 4 * c, (int) values[c]);
    }

    private static int attributeFormat(char base, int components) {
        int[] f = base == 'f'
                ? new int[] {
                    VK_FORMAT_R32_SFLOAT,
                    VK_FORMAT_R32G32_SFLOAT,
                    VK_FORMAT_R32G32B32_SFLOAT,
                    VK_FORMAT_R32G32B32A32_SFLOAT
                }
                : base == 'i'
                        ? new int[] {
                            VK_FORMAT_R32_SINT,
                            VK_FORMAT_R32G32_SINT,
                            VK_FORMAT_R32G32B32_SINT,
                            VK_FORMAT_R32G32B32A32_SINT
                        }
                        : new int[] {
                            VK_FORMAT_R32_UINT,
                            VK_FORMAT_R32G32_UINT,
                            VK_FORMAT_R32G32B32_UINT,
                            VK_FORMAT_R32G32B32A32_UINT
                        };
        return f[components - 1];
    }

    private static long f32(float v) {
        return Float.floatToRawIntBits(v) & 0xffffffffL;
    }

    private static VkRect2D.Buffer area(MemoryStack stack) {
        VkRect2D.Buffer r = VkRect2D.calloc(1, stack);
        r.get(0).offset().set(0, 0);
        r.get(0).extent().set(WIDTH, HEIGHT);
        return r;
    }

    private static long pipeline(RunScope scope, VkGraphicsPipelineCreateInfo.Buffer gpci) {
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            check(vkCreateGraphicsPipelines(scope.d, VK_NULL_HANDLE, gpci, null, lp), "vkCreateGraphicsPipelines");
            long pipeline = lp.get(0);
            scope.onClose(() -> vkDestroyPipeline(scope.d, pipeline, null));
            return pipeline;
        }
    }

    /** An image of the draw's size. */
    private static Images.Img image(RunScope scope, int format, int usage, int aspect) {
        return scope.images.image(2, format, WIDTH, HEIGHT, 1, usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, aspect);
    }

    /** A stencil format the device can render to: stencil alone where it can, else with depth. */
    private static int stencilFormat(VulkanDevice vk) {
        try (MemoryStack stack = stackPush()) {
            VkFormatProperties props = VkFormatProperties.calloc(stack);
            for (int f : new int[] {VK_FORMAT_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
                vkGetPhysicalDeviceFormatProperties(vk.physical, f, props);
                if ((props.optimalTilingFeatures() & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0) return f;
            }
            throw new IllegalStateException(vk.name() + " renders to no stencil format");
        }
    }

    private static void copyToBuffer(
            VkCommandBuffer cb, long image, int aspect, long buffer, long offset, MemoryStack stack) {
        VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack).bufferOffset(offset);
        region.get(0).imageSubresource().aspectMask(aspect).layerCount(1);
        region.get(0).imageExtent().set(WIDTH, HEIGHT, 1);
        vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, region);
    }
}
