package dev.lathe.vulkan;

/** No Vulkan device could be made; the message says what to install. */
public final class VulkanUnavailable extends RuntimeException {
    /** What to install for the oracle to run on a machine without a GPU. */
    public static final String HOW_TO_INSTALL = "install Mesa's software Vulkan driver and the loader "
            + "(Debian/Ubuntu: apt-get install mesa-vulkan-drivers libvulkan1; vulkaninfo --summary, from vulkan-tools, should then list llvmpipe)";

    public VulkanUnavailable(String what) {
        super("no Vulkan device: " + what + "; " + HOW_TO_INSTALL);
    }

    private VulkanUnavailable(String message, boolean whole) { // whole: the message as it is, no advice to install
        super(message);
    }

    /** The device asked for is not among those the loader sees ({@code seen}): nothing to install, another name to give. */
    static VulkanUnavailable noSuchDevice(String selector, java.util.List<VulkanDevice.Listed> seen) {
        StringBuilder b = new StringBuilder("no Vulkan device '" + selector + "'; the loader sees:");
        for (VulkanDevice.Listed l : seen) b.append("\n  ").append(l);
        return new VulkanUnavailable(b.toString(), true);
    }
}
