package dev.lathe.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.lathe.ir.ImageFormat;
import dev.lathe.ir.op.Fp16;

/**
 * A storage image's texels between the interpreter's form and Vulkan's: the interpreter keeps a
 * texel as four 32-bit words (the format's components as f32, u32 or i32 bits, a missing
 * component 0 and a missing alpha 1, as {@link ImageFormat#store} leaves them); Vulkan keeps the
 * format's own bytes. Formats whose components are whole bytes are supported; packed ones
 * (r11f_g11f_b10f, rgb10_a2) are not yet.
 */
final class StorageImageFormats {
    private StorageImageFormats() {}

    /** The Vulkan format of {@code f}, or 0 when the oracle does not handle it. */
    static int vulkanFormat(ImageFormat f) {
        return switch (f) {
            case RGBA32F -> VK_FORMAT_R32G32B32A32_SFLOAT;
            case RG32F -> VK_FORMAT_R32G32_SFLOAT;
            case R32F -> VK_FORMAT_R32_SFLOAT;
            case RGBA16F -> VK_FORMAT_R16G16B16A16_SFLOAT;
            case RG16F -> VK_FORMAT_R16G16_SFLOAT;
            case R16F -> VK_FORMAT_R16_SFLOAT;
            case RGBA8 -> VK_FORMAT_R8G8B8A8_UNORM;
            case RG8 -> VK_FORMAT_R8G8_UNORM;
            case R8 -> VK_FORMAT_R8_UNORM;
            case RGBA16 -> VK_FORMAT_R16G16B16A16_UNORM;
            case RG16 -> VK_FORMAT_R16G16_UNORM;
            case R16 -> VK_FORMAT_R16_UNORM;
            case RGBA8_SNORM -> VK_FORMAT_R8G8B8A8_SNORM;
            case RG8_SNORM -> VK_FORMAT_R8G8_SNORM;
            case R8_SNORM -> VK_FORMAT_R8_SNORM;
            case RGBA16_SNORM -> VK_FORMAT_R16G16B16A16_SNORM;
            case RG16_SNORM -> VK_FORMAT_R16G16_SNORM;
            case R16_SNORM -> VK_FORMAT_R16_SNORM;
            case RGBA32UI -> VK_FORMAT_R32G32B32A32_UINT;
            case RG32UI -> VK_FORMAT_R32G32_UINT;
            case R32UI -> VK_FORMAT_R32_UINT;
            case RGBA16UI -> VK_FORMAT_R16G16B16A16_UINT;
            case RG16UI -> VK_FORMAT_R16G16_UINT;
            case R16UI -> VK_FORMAT_R16_UINT;
            case RGBA8UI -> VK_FORMAT_R8G8B8A8_UINT;
            case RG8UI -> VK_FORMAT_R8G8_UINT;
            case R8UI -> VK_FORMAT_R8_UINT;
            case RGBA32I -> VK_FORMAT_R32G32B32A32_SINT;
            case RG32I -> VK_FORMAT_R32G32_SINT;
            case R32I -> VK_FORMAT_R32_SINT;
            case RGBA16I -> VK_FORMAT_R16G16B16A16_SINT;
            case RG16I -> VK_FORMAT_R16G16_SINT;
            case R16I -> VK_FORMAT_R16_SINT;
            case RGBA8I -> VK_FORMAT_R8G8B8A8_SINT;
            case RG8I -> VK_FORMAT_R8G8_SINT;
            case R8I -> VK_FORMAT_R8_SINT;
            default -> 0;
        };
    }

    /** The bits of each component of {@code f} (all the same for the formats handled). */
    static int componentBits(ImageFormat f) {
        return f.bits(0);
    }

    /** The bytes of one texel in Vulkan's form, from the interpreter's four words (already at the format's precision). */
    static void encode(ImageFormat f, long[] words, byte[] out, int at) {
        int bits = componentBits(f), bytes = bits / 8;
        for (int c = 0; c < f.components(); c++) {
            long w = words[c] & 0xffffffffL;
            float x = Float.intBitsToFloat((int) w);
            long code = switch (f.kind()) {
                case FLOAT -> bits == 32 ? w : Fp16.fromDouble(x);
                case UNORM -> Math.round((double) x * ((1L << bits) - 1));
                case SNORM -> Math.round((double) x * ((1L << (bits - 1)) - 1));
                default -> w;
            };
            for (int k = 0; k < bytes; k++) out[at + c * bytes + k] = (byte) (code >>> (8 * k));
        }
    }

    /** The interpreter's four words of one texel read back in Vulkan's form. */
    static long[] decode(ImageFormat f, byte[] in, int at) {
        int bits = componentBits(f), bytes = bits / 8;
        boolean floats = f.base() == dev.lathe.ir.BaseType.FLOAT;
        long[] words = {0, 0, 0, floats ? Float.floatToRawIntBits(1f) & 0xffffffffL : 1};
        for (int c = 0; c < f.components(); c++) {
            long code = 0;
            for (int k = bytes - 1; k >= 0; k--) code = code << 8 | (in[at + c * bytes + k] & 0xff);
            long signedCode = (code << (64 - bits)) >> (64 - bits);
            words[c] = switch (f.kind()) {
                case FLOAT ->
                    bits == 32 ? code : Float.floatToRawIntBits((float) Fp16.toDouble((int) code)) & 0xffffffffL;
                case UNORM -> Float.floatToRawIntBits((float) ((double) code / ((1L << bits) - 1))) & 0xffffffffL;
                case SNORM ->
                    Float.floatToRawIntBits((float) Math.max(-1, (double) signedCode / ((1L << (bits - 1)) - 1)))
                            & 0xffffffffL;
                case SINT -> signedCode & 0xffffffffL;
                default -> code;
            };
        }
        return words;
    }
}
