package dev.lathe.vulkan;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A test class that runs on one Vulkan device for all its tests: it fails, saying what to install, where there is none. */
abstract class LavapipeTest {
    static VulkanDevice vk;

    @BeforeAll
    static void device() {
        vk = VulkanDevice.create();
    }

    @AfterAll
    static void close() {
        if (vk != null) vk.close();
        vk = null;
    }
}
