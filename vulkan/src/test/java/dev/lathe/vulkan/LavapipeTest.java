package dev.lathe.vulkan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class that runs on one Vulkan device for all its tests, under the Khronos validation
 * layer: a test fails on anything the layer says at warning or error severity (invalid use of the
 * API is the oracle's fault, and may crash a driver). It fails, saying what to install, where
 * there is no device or no layer.
 */
abstract class LavapipeTest {
    static VulkanDevice vk;

    @BeforeAll
    static void device() {
        vk = VulkanDevice.create(null, true);
    }

    @AfterEach
    void validationSaidNothing() {
        List<String> said = vk.validationMessages();
        vk.clearValidationMessages();
        assertTrue(
                said.isEmpty(),
                () -> "the validation layer said " + said.size() + " things, first: "
                        + String.join("\n", said.subList(0, Math.min(5, said.size()))));
    }

    @AfterAll
    static void close() {
        if (vk != null) vk.close();
        vk = null;
    }
}
