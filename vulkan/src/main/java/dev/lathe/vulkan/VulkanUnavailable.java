package dev.lathe.vulkan;

/** No Vulkan device could be made; the message says what to install. */
public final class VulkanUnavailable extends RuntimeException {
    /** What to install for the oracle to run on a machine without a GPU. */
    public static final String HOW_TO_INSTALL = "install Mesa's software Vulkan driver and the loader "
            + "(Debian/Ubuntu: apt-get install mesa-vulkan-drivers libvulkan1; vulkaninfo --summary, from vulkan-tools, should then list llvmpipe)";

    public VulkanUnavailable(String what) {
        super("no Vulkan device: " + what + "; " + HOW_TO_INSTALL);
    }
}
