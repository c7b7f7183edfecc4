package dev.lathe.vulkan;

import static dev.lathe.vulkan.VulkanDevice.check;
import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;

import java.nio.LongBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkBufferImageCopy;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkImageCreateInfo;
import org.lwjgl.vulkan.VkImageMemoryBarrier;
import org.lwjgl.vulkan.VkImageViewCreateInfo;
import org.lwjgl.vulkan.VkMemoryAllocateInfo;
import org.lwjgl.vulkan.VkMemoryRequirements;
import org.lwjgl.vulkan.VkSamplerCreateInfo;

/**
 * The images of one run ({@link RunScope}): sampled textures (plain, layered, cube, depth,
 * multisampled), storage images and input attachments, each made from the texels the inputs
 * give, as the interpreter reads them, and read back where the shader writes them; the sampler
 * of the interpreter's model.
 */
final class Images {
    private final RunScope scope;

    Images(RunScope scope) {
        this.scope = scope;
    }

    /**
     * The sampler of the interpreter's model: the nearest texel of the one level, clamped to the
     * edge (Vulkan's NEAREST filter and CLAMP_TO_EDGE addressing); for depth comparisons, the
     * compare op the frontend takes every shadow sampler to have, LESS_OR_EQUAL (spirv/README.md).
     */
    long nearestSampler(boolean compare) {
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            check(
                    vkCreateSampler(
                            scope.d,
                            VkSamplerCreateInfo.calloc(stack)
                                    .sType$Default()
                                    .magFilter(VK_FILTER_NEAREST)
                                    .minFilter(VK_FILTER_NEAREST)
                                    .mipmapMode(VK_SAMPLER_MIPMAP_MODE_NEAREST)
                                    .addressModeU(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
                                    .addressModeV(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
                                    .addressModeW(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
                                    .compareEnable(compare)
                                    .compareOp(VK_COMPARE_OP_LESS_OR_EQUAL)
                                    .minLod(0)
                                    .maxLod(0)
                                    .unnormalizedCoordinates(false),
                            null,
                            lp),
                    "vkCreateSampler");
            long sampler = lp.get(0);
            scope.onClose(() -> vkDestroySampler(scope.d, sampler, null));
            return sampler;
        }
    }

    /** An image with its memory and a view. */
    record Img(long image, long view, int aspect, int layers) {}

    /** A one-level, one-layer image of {@code dims} dimensions (its view of the same type). */
    Img image(int dims, int format, int width, int height, int depth, int usage, int aspect) {
        int type = dims == 1 ? VK_IMAGE_TYPE_1D : dims == 2 ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_3D;
        int viewType = dims == 1 ? VK_IMAGE_VIEW_TYPE_1D : dims == 2 ? VK_IMAGE_VIEW_TYPE_2D : VK_IMAGE_VIEW_TYPE_3D;
        return image(type, viewType, 0, 1, format, width, height, depth, usage, aspect);
    }

    /** A one-level image of {@code layers} layers, and a view of {@code viewType} on all of them. */
    Img image(
            int type,
            int viewType,
            int flags,
            int layers,
            int format,
            int width,
            int height,
            int depth,
            int usage,
            int aspect) {
        return image(type, viewType, flags, layers, VK_SAMPLE_COUNT_1_BIT, format, width, height, depth, usage, aspect);
    }

    /** As {@link #image(int, int, int, int, int, int, int, int, int, int)}, of {@code samples} samples a texel. */
    Img image(
            int type,
            int viewType,
            int flags,
            int layers,
            int samples,
            int format,
            int width,
            int height,
            int depth,
            int usage,
            int aspect) {
        try (MemoryStack stack = stackPush()) {
            LongBuffer lp = stack.mallocLong(1);
            VkImageCreateInfo ici = VkImageCreateInfo.calloc(stack)
                    .sType$Default()
                    .flags(flags)
                    .imageType(type)
                    .format(format)
                    .mipLevels(1)
                    .arrayLayers(layers)
                    .samples(samples)
                    .tiling(VK_IMAGE_TILING_OPTIMAL)
                    .usage(usage)
                    .sharingMode(VK_SHARING_MODE_EXCLUSIVE)
                    .initialLayout(VK_IMAGE_LAYOUT_UNDEFINED);
            ici.extent().set(width, height, depth);
            check(vkCreateImage(scope.d, ici, null, lp), "vkCreateImage");
            long image = lp.get(0);
            scope.onClose(() -> vkDestroyImage(scope.d, image, null));
            VkMemoryRequirements req = VkMemoryRequirements.calloc(stack);
            vkGetImageMemoryRequirements(scope.d, image, req);
            check(
                    vkAllocateMemory(
                            scope.d,
                            VkMemoryAllocateInfo.calloc(stack)
                                    .sType$Default()
                                    .allocationSize(req.size())
                                    .memoryTypeIndex(scope.memoryType(req.memoryTypeBits(), 0)),
                            null,
                            lp),
                    "vkAllocateMemory");
            long memory = lp.get(0);
            scope.onClose(() -> vkFreeMemory(scope.d, memory, null));
            check(vkBindImageMemory(scope.d, image, memory, 0), "vkBindImageMemory");
            VkImageViewCreateInfo vci = VkImageViewCreateInfo.calloc(stack)
                    .sType$Default()
                    .image(image)
                    .viewType(viewType)
                    .format(format);
            vci.subresourceRange().aspectMask(aspect).levelCount(1).layerCount(layers);
            check(vkCreateImageView(scope.d, vci, null, lp), "vkCreateImageView");
            long view = lp.get(0);
            scope.onClose(() -> vkDestroyImageView(scope.d, view, null));
            return new Img(image, view, aspect, layers);
        }
    }

    /** A whole-image layout transition with the barrier that orders everything before it against everything after. */
    static void transition(VkCommandBuffer cb, Img img, int from, int to) {
        try (MemoryStack stack = stackPush()) {
            VkImageMemoryBarrier.Buffer b = VkImageMemoryBarrier.calloc(1, stack)
                    .sType$Default()
                    .oldLayout(from)
                    .newLayout(to)
                    .srcAccessMask(VK_ACCESS_MEMORY_WRITE_BIT)
                    .dstAccessMask(VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT)
                    .srcQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED)
                    .dstQueueFamilyIndex(VK_QUEUE_FAMILY_IGNORED)
                    .image(img.image());
            b.get(0).subresourceRange().aspectMask(img.aspect()).levelCount(1).layerCount(img.layers());
            vkCmdPipelineBarrier(
                    cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, null, null, b);
        }
    }

    /**
     * The texture the inputs give (a texture not given is one texel of zeros, as in the
     * interpreter), as a 32-bit RGBA image of its texel type holding exactly its texels' bits, ready to sample.
     */
    long texture(dev.lathe.ir.interp.Texture t, SpirvInterface.Texture tex) {
        if (t == null) t = new dev.lathe.ir.interp.Texture(1, 1, 1, new long[4]);
        char base = tex.base();
        // a depth texture holds the red channel as 32-bit float depth
        int format = tex.depth()
                ? VK_FORMAT_D32_SFLOAT
                : base == 'f'
                        ? VK_FORMAT_R32G32B32A32_SFLOAT
                        : base == 'i' ? VK_FORMAT_R32G32B32A32_SINT : VK_FORMAT_R32G32B32A32_UINT;
        int aspect = tex.depth() ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
        // the IR texture's last dimension is an array's layers or a cube's faces: Vulkan's layers
        int dims = tex.dims();
        int h = dims >= 2 ? t.height() : 1, depth = dims == 3 ? t.depth() : 1;
        int usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        Img img;
        if (tex.multisampled()) {
            // the samples are the IR texture's third dimension; a copy cannot write them, a draw does
            int samples = depth;
            if (samples != SpirvInterface.Texture.SAMPLES) {
                throw new UnsupportedOperationException(
                        "multisampled texture " + tex.name() + " of " + samples + " samples (the oracle gives them 4)");
            }
            img = image(
                    VK_IMAGE_TYPE_2D,
                    VK_IMAGE_VIEW_TYPE_2D,
                    0,
                    1,
                    VK_SAMPLE_COUNT_4_BIT,
                    format,
                    t.width(),
                    h,
                    1,
                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                    aspect);
            MultisampleFill.fill(scope, img, format, base, t.texels(), t.width(), h, VK_SAMPLE_COUNT_4_BIT);
            return img.view();
        } else if (tex.cube() || tex.arrayed()) {
            int layers = tex.spirvDim() == 0 ? h : depth;
            if (tex.cube() && (layers % 6 != 0 || t.width() != h)) {
                throw new UnsupportedOperationException("cube texture " + tex.name() + " of " + t.width() + "x" + h
                        + "x" + layers + " (square faces, six a cube)");
            }
            int type = tex.spirvDim() == 0 ? VK_IMAGE_TYPE_1D : VK_IMAGE_TYPE_2D;
            int viewType = tex.cube()
                    ? (tex.arrayed() ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE)
                    : tex.spirvDim() == 0 ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_2D_ARRAY;
            img = image(
                    type,
                    viewType,
                    tex.cube() ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
                    layers,
                    format,
                    t.width(),
                    tex.spirvDim() == 0 ? 1 : h,
                    1,
                    usage,
                    aspect);
        } else {
            img = image(dims, format, t.width(), h, depth, usage, aspect);
        }
        long[] texels = t.texels();
        int per = tex.depth() ? 1 : 4; // a depth texel is its red channel
        int count = t.width() * h * depth;
        byte[] bytes = new byte[4 * per * count];
        for (int k = 0; k < count; k++) {
            for (int c = 0; c < per; c++)
                for (int i = 0; i < 4; i++) bytes[4 * (per * k + c) + i] = (byte) (texels[4 * k + c] >>> (8 * i));
        }
        if (img.layers() > 1)
            upload(img, bytes, t.width(), tex.spirvDim() == 0 ? 1 : h, 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        else upload(img, bytes, t.width(), h, depth, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        return img.view();
    }

    /**
     * A storage image holding the inputs' texels (one texel of zeros when none is given, as the
     * interpreter starts it), in the GENERAL layout shaders read and write it in.
     */
    RunScope.Bound storageImage(dev.lathe.ir.interp.Texture t, SpirvInterface.StorageImage si) {
        if (t == null) t = new dev.lathe.ir.interp.Texture(1, 1, 1, new long[4]);
        int h = si.dims() >= 2 ? t.height() : 1, depth = si.dims() == 3 ? t.depth() : 1;
        int format = StorageImageFormats.vulkanFormat(si.format());
        Img img = image(
                si.dims(),
                format,
                t.width(),
                h,
                depth,
                VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT);
        int texelBytes = si.format().components() * StorageImageFormats.componentBits(si.format()) / 8;
        int count = t.width() * h * depth;
        byte[] bytes = new byte[count * texelBytes];
        long[] texels = t.texels();
        for (int k = 0; k < count; k++) {
            StorageImageFormats.encode(
                    si.format(), java.util.Arrays.copyOfRange(texels, 4 * k, 4 * k + 4), bytes, k * texelBytes);
        }
        upload(img, bytes, t.width(), h, depth, VK_IMAGE_LAYOUT_GENERAL);
        return new RunScope.Bound(img, t.width(), h, depth);
    }

    /**
     * An input attachment holding the inputs' texels, at least as large as the draw (a texel
     * outside the texture the inputs give is zero, as the interpreter reads one), ready to be read
     * in the subpass.
     */
    Img inputAttachment(dev.lathe.ir.interp.Texture t, SpirvInterface.InputAttachment ia) {
        if (t == null) t = new dev.lathe.ir.interp.Texture(1, 1, 1, new long[4]);
        int w = Math.max(t.width(), GraphicsRun.WIDTH), h = Math.max(t.height(), GraphicsRun.HEIGHT);
        int format = ia.base() == 'f'
                ? VK_FORMAT_R32G32B32A32_SFLOAT
                : ia.base() == 'i' ? VK_FORMAT_R32G32B32A32_SINT : VK_FORMAT_R32G32B32A32_UINT;
        Img img = image(
                2,
                format,
                w,
                h,
                1,
                VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT);
        long[] texels = t.texels();
        byte[] bytes = new byte[w * h * 16];
        for (int y = 0; y < t.height(); y++) {
            for (int x = 0; x < t.width(); x++) {
                for (int c = 0; c < 4; c++) {
                    long v = texels[(y * t.width() + x) * 4 + c];
                    for (int i = 0; i < 4; i++) bytes[((y * w + x) * 4 + c) * 4 + i] = (byte) (v >>> (8 * i));
                }
            }
        }
        upload(img, bytes, w, h, 1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        return img;
    }

    /** Copies {@code bytes} (the image's texels in its format, x fastest) into {@code img} and leaves it in {@code layout}. */
    private void upload(Img img, byte[] bytes, int width, int height, int depth, int layout) {
        RunScope.Buf staging = scope.buffer(Math.max(16, bytes.length), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
        RunScope.copy(bytes, staging.mapped());
        VkCommandBuffer cb = scope.begin();
        transition(cb, img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
        try (MemoryStack stack = stackPush()) {
            VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
            region.get(0).imageSubresource().aspectMask(img.aspect()).layerCount(img.layers());
            region.get(0).imageExtent().set(width, height, depth);
            vkCmdCopyBufferToImage(cb, staging.buffer(), img.image(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, region);
        }
        transition(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout);
        scope.submitAndWait(cb);
    }

    /** The storage images' texels now, as the interpreter keeps an image in its memory (four words a texel, x fastest). */
    Map<String, byte[]> readImages(RunScope.Bindings b) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (var e : b.images().entrySet()) {
            SpirvInterface.StorageImage si = e.getKey();
            RunScope.Bound bound = e.getValue();
            int texelBytes = si.format().components() * StorageImageFormats.componentBits(si.format()) / 8;
            int count = bound.width() * bound.height() * bound.depth();
            RunScope.Buf readback = scope.buffer(Math.max(16, count * texelBytes), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            VkCommandBuffer cb = scope.begin();
            try (MemoryStack stack = stackPush()) {
                VkBufferImageCopy.Buffer region = VkBufferImageCopy.calloc(1, stack);
                region.get(0)
                        .imageSubresource()
                        .aspectMask(VK_IMAGE_ASPECT_COLOR_BIT)
                        .layerCount(1);
                region.get(0).imageExtent().set(bound.width(), bound.height(), bound.depth());
                vkCmdCopyImageToBuffer(cb, bound.img().image(), VK_IMAGE_LAYOUT_GENERAL, readback.buffer(), region);
            }
            scope.submitAndWait(cb);
            byte[] bytes = new byte[count * texelBytes];
            MemoryUtil.memByteBuffer(readback.mapped(), bytes.length).get(bytes);
            byte[] words = new byte[count * 16];
            for (int k = 0; k < count; k++) {
                long[] w = StorageImageFormats.decode(si.format(), bytes, k * texelBytes);
                for (int c = 0; c < 4; c++)
                    for (int i = 0; i < 4; i++) words[16 * k + 4 * c + i] = (byte) (w[c] >>> (8 * i));
            }
            out.put(si.name(), words);
        }
        return out;
    }
}
