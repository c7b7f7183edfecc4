package dev.lathe.cli;

import dev.lathe.vulkan.VulkanDevice;
import dev.lathe.vulkan.VulkanUnavailable;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lathe vulkan-devices}: the devices the Vulkan loader sees, as {@code --vulkan-device} picks them. */
@Command(
        name = "vulkan-devices",
        mixinStandardHelpOptions = true,
        description = {
            "List the devices the Vulkan loader sees, one a line: the index and the name that "
                    + "lathe shaderdb --check-vulkan N --vulkan-device INDEX|NAME takes, and the driver with its version.",
            "Example: lathe vulkan-devices"
        })
final class VulkanDevicesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        try {
            for (VulkanDevice.Listed d : VulkanDevice.list()) out.println(d);
        } catch (VulkanUnavailable e) {
            throw new CliException("lathe vulkan-devices: " + e.getMessage());
        }
        out.flush();
        return 0;
    }
}
