package dev.lathe.vulkan;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceFeatures2;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.EXTDebugUtils;
import org.lwjgl.vulkan.EXTTransformFeedback;
import org.lwjgl.vulkan.VK;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkDeviceQueueCreateInfo;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceDriverProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDeviceTransformFeedbackFeaturesEXT;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan11Features;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan12Features;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan13Features;
import org.lwjgl.vulkan.VkQueue;
import org.lwjgl.vulkan.VkQueueFamilyProperties;

/**
 * A headless Vulkan 1.3 device with one compute-and-graphics queue, and every feature the device
 * has enabled (64-bit floats and integers, 8- and 16-bit storage, buffer device addresses…: the
 * corpus uses them). Unless asked for another ({@link #create(String)}: an index in
 * {@link #list()} or part of a name), it prefers Mesa's lavapipe ({@code llvmpipe}), so that the
 * answers are the same on every machine whatever GPU it has. No window, no surface.
 */
public final class VulkanDevice implements AutoCloseable {
    private final VkInstance instance;
    final VkPhysicalDevice physical;
    final VkDevice device;
    final VkQueue queue;
    final int queueFamily;
    private final String name;
    /** Whether VK_EXT_transform_feedback is enabled: the vertex stage's outputs are captured through it. */
    final boolean transformFeedback;
    /** The device's extensions (only VK_EXT_transform_feedback is enabled) and whether it has sparse residency. */
    private final Set<String> extensions;

    private final boolean sparseResidency;
    /** The feature chain device creation took, allocated outside any stack frame: freed on close. */
    private final List<org.lwjgl.system.NativeResource> features;

    private VulkanDevice(
            VkInstance instance,
            VkPhysicalDevice physical,
            VkDevice device,
            VkQueue queue,
            int queueFamily,
            String name,
            boolean transformFeedback,
            Set<String> extensions,
            boolean sparseResidency,
            List<org.lwjgl.system.NativeResource> features) {
        this.extensions = extensions;
        this.sparseResidency = sparseResidency;
        this.transformFeedback = transformFeedback;
        this.instance = instance;
        this.physical = physical;
        this.device = device;
        this.queue = queue;
        this.queueFamily = queueFamily;
        this.name = name;
        this.features = features;
    }

    /** The device's {@code subTexelPrecisionBits} limit: the fraction bits its texel selection keeps. */
    public int subTexelPrecisionBits() {
        if (subTexelPrecisionBits < 0) { // asked for every input set: read once
            try (MemoryStack stack = stackPush()) {
                VkPhysicalDeviceProperties props = VkPhysicalDeviceProperties.calloc(stack);
                vkGetPhysicalDeviceProperties(physical, props);
                subTexelPrecisionBits = props.limits().subTexelPrecisionBits();
            }
        }
        return subTexelPrecisionBits;
    }

    private int subTexelPrecisionBits = -1;

    /** The device's name, e.g. {@code llvmpipe (LLVM 15.0.6, 256 bits)}. */
    public String name() {
        return name;
    }

    /** One device the Vulkan loader sees: its index in the loader's order, its name, and its driver's name and version. */
    public record Listed(int index, String name, String driver) {
        /** "0: llvmpipe (LLVM 15.0.6, 256 bits), driver llvmpipe Mesa 25.0.7". */
        @Override
        public String toString() {
            return index + ": " + name + ", driver " + driver;
        }
    }

    /** The device's driver: its name and version as the driver gives them, e.g. {@code NVIDIA 580.159.04}. */
    public String driver() {
        return driver;
    }

    private String driver = "";

    /**
     * Creates the device the loader lists first among Mesa's lavapipe, or else its first device.
     *
     * @throws VulkanUnavailable when there is no Vulkan loader, no driver or no device, saying what to install
     */
    public static VulkanDevice create() {
        return create(null);
    }

    /**
     * The devices the Vulkan loader sees, in its order.
     *
     * @throws VulkanUnavailable when there is no Vulkan loader or driver
     */
    public static List<Listed> list() {
        VkInstance instance = instance(false);
        try {
            return listed(instance);
        } finally {
            vkDestroyInstance(instance, null);
        }
    }

    /** The Khronos validation layer (Debian's vulkan-validationlayers). */
    static final String VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation";

    private static VkInstance instance(boolean validate) {
        try {
            VK.getFunctionProvider(); // LWJGL loads the loader when VK is first used
        } catch (Throwable e) {
            throw new VulkanUnavailable("the Vulkan loader (libvulkan.so.1) could not be loaded (" + e + ")");
        }
        try (MemoryStack stack = stackPush()) {
            VkApplicationInfo app = VkApplicationInfo.calloc(stack)
                    .sType$Default()
                    .pApplicationName(stack.UTF8("lathe"))
                    .apiVersion(VK_MAKE_API_VERSION(0, 1, 3, 0));
            VkInstanceCreateInfo ici =
                    VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app);
            if (validate) {
                if (!hasLayer(VALIDATION_LAYER)) {
                    throw new VulkanUnavailable("the Khronos validation layer (" + VALIDATION_LAYER
                            + ") is not installed " + "(apt-get install vulkan-validationlayers)");
                }
                ici.ppEnabledLayerNames(stack.pointers(stack.UTF8(VALIDATION_LAYER)))
                        .ppEnabledExtensionNames(
                                stack.pointers(stack.UTF8(EXTDebugUtils.VK_EXT_DEBUG_UTILS_EXTENSION_NAME)));
            }
            PointerBuffer pp = stack.mallocPointer(1);
            int r = vkCreateInstance(ici, null, pp);
            if (r != VK_SUCCESS) throw new VulkanUnavailable("vkCreateInstance failed (" + r + ")");
            return new VkInstance(pp.get(0), ici);
        }
    }

    private static List<VkPhysicalDevice> physicalDevices(VkInstance instance) {
        try (MemoryStack stack = stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            vkEnumeratePhysicalDevices(instance, n, null);
            PointerBuffer devices = stack.mallocPointer(n.get(0));
            vkEnumeratePhysicalDevices(instance, n, devices);
            List<VkPhysicalDevice> out = new ArrayList<>();
            for (int i = 0; i < n.get(0); i++) out.add(new VkPhysicalDevice(devices.get(i), instance));
            return out;
        }
    }

    private static List<Listed> listed(VkInstance instance) {
        List<Listed> out = new ArrayList<>();
        List<VkPhysicalDevice> pds = physicalDevices(instance);
        try (MemoryStack stack = stackPush()) {
            for (int i = 0; i < pds.size(); i++) {
                VkPhysicalDeviceDriverProperties driver =
                        VkPhysicalDeviceDriverProperties.calloc(stack).sType$Default();
                VkPhysicalDeviceProperties2 props = VkPhysicalDeviceProperties2.calloc(stack)
                        .sType$Default()
                        .pNext(driver.address());
                vkGetPhysicalDeviceProperties2(pds.get(i), props);
                out.add(new Listed(
                        i,
                        props.properties().deviceNameString(),
                        (driver.driverNameString() + " " + driver.driverInfoString()).trim()));
            }
        }
        return out;
    }

    /**
     * Creates the device {@code selector} names: its index in {@link #list()}, or text its name
     * contains (case aside); null: the first lavapipe, or else the first device.
     *
     * @throws VulkanUnavailable when there is no Vulkan loader, no driver or no such device, saying what to install or which devices there are
     */
    public static VulkanDevice create(String selector) {
        return create(selector, false);
    }

    /**
     * {@link #create(String)}, with the Khronos validation layer when {@code validate}: every
     * message it gives at warning or error severity is kept ({@link #validationMessages}), so a
     * test can fail on invalid use of the API, which is then the oracle's fault, not the driver's.
     */
    public static VulkanDevice create(String selector, boolean validate) {
        VkInstance instance = instance(validate);
        List<String> validation = validate ? new ArrayList<>() : null;
        long[] messenger = {0};
        org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT callback =
                validate ? listen(instance, validation, messenger) : null;
        try (MemoryStack stack = stackPush()) {
            PointerBuffer pp = stack.mallocPointer(1);
            IntBuffer n = stack.mallocInt(1);
            List<Listed> all = listed(instance);
            if (all.isEmpty()) {
                vkDestroyInstance(instance, null);
                throw new VulkanUnavailable("the Vulkan loader found no device");
            }
            Listed pick = choose(all, selector);
            if (pick == null) {
                vkDestroyInstance(instance, null);
                throw VulkanUnavailable.noSuchDevice(selector, all);
            }
            VkPhysicalDevice chosen = physicalDevices(instance).get(pick.index());
            String chosenName = pick.name();
            int r;
            vkGetPhysicalDeviceQueueFamilyProperties(chosen, n, null);
            VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.calloc(n.get(0), stack);
            vkGetPhysicalDeviceQueueFamilyProperties(chosen, n, families);
            int family = -1;
            for (int i = 0; i < families.capacity(); i++) {
                int flags = families.get(i).queueFlags();
                if ((flags & VK_QUEUE_COMPUTE_BIT) != 0 && (flags & VK_QUEUE_GRAPHICS_BIT) != 0) {
                    family = i;
                    break;
                }
            }
            if (family < 0) throw new VulkanUnavailable(chosenName + " has no queue for both graphics and compute");
            // every feature the device has, enabled: the structures it fills in are the ones device creation takes
            // transform feedback (how the oracle captures a vertex shader's outputs) is an extension
            Set<String> extensions = extensions(chosen);
            boolean xfb = extensions.contains(EXTTransformFeedback.VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
            VkPhysicalDeviceTransformFeedbackFeaturesEXT fx =
                    VkPhysicalDeviceTransformFeedbackFeaturesEXT.calloc().sType$Default();
            VkPhysicalDeviceVulkan13Features f13 =
                    VkPhysicalDeviceVulkan13Features.calloc().sType$Default();
            if (xfb) f13.pNext(fx.address());
            VkPhysicalDeviceVulkan12Features f12 =
                    VkPhysicalDeviceVulkan12Features.calloc().sType$Default().pNext(f13.address());
            VkPhysicalDeviceVulkan11Features f11 =
                    VkPhysicalDeviceVulkan11Features.calloc().sType$Default().pNext(f12.address());
            VkPhysicalDeviceFeatures2 features =
                    VkPhysicalDeviceFeatures2.calloc().sType$Default().pNext(f11.address());
            vkGetPhysicalDeviceFeatures2(chosen, features);
            VkDeviceQueueCreateInfo.Buffer queues = VkDeviceQueueCreateInfo.calloc(1, stack)
                    .sType$Default()
                    .queueFamilyIndex(family)
                    .pQueuePriorities(stack.floats(1f));
            VkDeviceCreateInfo dci = VkDeviceCreateInfo.calloc(stack)
                    .sType$Default()
                    .pNext(features.address())
                    .pQueueCreateInfos(queues);
            if (xfb)
                dci.ppEnabledExtensionNames(
                        stack.pointers(stack.UTF8(EXTTransformFeedback.VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME)));
            r = vkCreateDevice(chosen, dci, null, pp);
            if (r != VK_SUCCESS) throw new VulkanUnavailable("vkCreateDevice failed on " + chosenName + " (" + r + ")");
            VkDevice device = new VkDevice(pp.get(0), chosen, dci);
            vkGetDeviceQueue(device, family, 0, pp);
            VulkanDevice made = new VulkanDevice(
                    instance,
                    chosen,
                    device,
                    new VkQueue(pp.get(0), device),
                    family,
                    chosenName,
                    xfb && fx.transformFeedback(),
                    extensions,
                    features.features().shaderResourceResidency(),
                    List.of(features, f11, f12, f13, fx));
            made.driver = pick.driver();
            made.indexingFeatures = indexingFeatures(f12);
            made.validation = validation;
            made.callback = callback;
            made.messenger = messenger[0];
            return made;
        }
    }

    /** What the validation layer said (null without validation), its callback and its messenger. */
    private List<String> validation;

    private org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT callback;
    private long messenger;

    /**
     * What the validation layer said at warning or error severity since the device was made or
     * the last {@link #clearValidationMessages}, oldest first; empty without validation.
     */
    public List<String> validationMessages() {
        if (validation == null) return List.of();
        synchronized (validation) {
            return List.copyOf(validation);
        }
    }

    /** Forgets what the validation layer has said. */
    public void clearValidationMessages() {
        if (validation == null) return;
        synchronized (validation) {
            validation.clear();
        }
    }

    /** A messenger that keeps the layer's warnings and errors in {@code into} (the layer calls back on the driver's threads). */
    private static org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT listen(
            VkInstance instance, List<String> into, long[] handle) {
        org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT cb =
                org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT.create((severity, types, data, user) -> {
                    String text = org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackDataEXT.create(data)
                            .pMessageString();
                    synchronized (into) {
                        into.add(text);
                    }
                    return VK_FALSE;
                });
        try (MemoryStack stack = stackPush()) {
            org.lwjgl.vulkan.VkDebugUtilsMessengerCreateInfoEXT ci =
                    org.lwjgl.vulkan.VkDebugUtilsMessengerCreateInfoEXT.calloc(stack)
                            .sType$Default()
                            .messageSeverity(EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT
                                    | EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                            .messageType(EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT
                                    | EXTDebugUtils.VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)
                            .pfnUserCallback(cb);
            java.nio.LongBuffer lp = stack.mallocLong(1);
            check(
                    EXTDebugUtils.vkCreateDebugUtilsMessengerEXT(instance, ci, null, lp),
                    "vkCreateDebugUtilsMessengerEXT");
            handle[0] = lp.get(0);
        }
        return cb;
    }

    private static boolean hasLayer(String layer) {
        try (MemoryStack stack = stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            vkEnumerateInstanceLayerProperties(n, null);
            org.lwjgl.vulkan.VkLayerProperties.Buffer props =
                    org.lwjgl.vulkan.VkLayerProperties.malloc(n.get(0), stack);
            vkEnumerateInstanceLayerProperties(n, props);
            for (org.lwjgl.vulkan.VkLayerProperties p : props)
                if (p.layerNameString().equals(layer)) return true;
            return false;
        }
    }

    /** The device {@code selector} picks among {@code all} (see {@link #create(String)}), or null when none matches. */
    static Listed choose(List<Listed> all, String selector) {
        if (selector == null) {
            for (Listed l : all) if (l.name().contains("llvmpipe")) return l;
            return all.get(0);
        }
        if (selector.matches("[0-9]+")) {
            int k = Integer.parseInt(selector);
            return k < all.size() ? all.get(k) : null;
        }
        String want = selector.toLowerCase(java.util.Locale.ROOT);
        for (Listed l : all) if (l.name().toLowerCase(java.util.Locale.ROOT).contains(want)) return l;
        return null;
    }

    private static Set<String> extensions(VkPhysicalDevice pd) {
        try (MemoryStack stack = stackPush()) {
            IntBuffer n = stack.mallocInt(1);
            vkEnumerateDeviceExtensionProperties(pd, (java.nio.ByteBuffer) null, n, null);
            VkExtensionProperties.Buffer props = VkExtensionProperties.malloc(n.get(0), stack);
            vkEnumerateDeviceExtensionProperties(pd, (java.nio.ByteBuffer) null, n, props);
            Set<String> names = new HashSet<>();
            for (VkExtensionProperties p : props) names.add(p.extensionNameString());
            return names;
        }
    }

    /** The descriptor indexing features the device has, by the SPIR-V capability that needs each (the SPIR-V environment appendix). */
    private Map<Integer, Boolean> indexingFeatures = Map.of();

    private static Map<Integer, Boolean> indexingFeatures(VkPhysicalDeviceVulkan12Features f) {
        return Map.of(
                5302,
                f.runtimeDescriptorArray(),
                5306,
                f.shaderUniformBufferArrayNonUniformIndexing(),
                5307,
                f.shaderSampledImageArrayNonUniformIndexing(),
                5308,
                f.shaderStorageBufferArrayNonUniformIndexing(),
                5309,
                f.shaderStorageImageArrayNonUniformIndexing(),
                5310,
                f.shaderInputAttachmentArrayNonUniformIndexing());
    }

    /** The names of the capabilities of {@link #indexingFeatures}, for messages. */
    private static final Map<Integer, String> INDEXING_CAPABILITIES = Map.of(
            5302,
            "RuntimeDescriptorArray",
            5306,
            "UniformBufferArrayNonUniformIndexing",
            5307,
            "SampledImageArrayNonUniformIndexing",
            5308,
            "StorageBufferArrayNonUniformIndexing",
            5309,
            "StorageImageArrayNonUniformIndexing",
            5310,
            "InputAttachmentArrayNonUniformIndexing");

    /** SPIR-V capabilities that need a device extension, with the extension. */
    private static final Map<Integer, String> CAPABILITY_EXTENSIONS = Map.of(
            4422,
            "VK_KHR_fragment_shading_rate",
            4472,
            "VK_KHR_ray_query",
            4479,
            "VK_KHR_ray_tracing_pipeline",
            5284,
            "VK_KHR_fragment_shader_barycentric",
            5055,
            "VK_KHR_shader_clock");

    private static final int CAPABILITY_SPARSE_RESIDENCY = 41;

    /**
     * The capabilities among {@code capabilities} this device cannot run, in words. Checked before
     * a module reaches the driver: lavapipe aborts the process on an intrinsic it does not have.
     */
    List<String> lacks(List<Integer> capabilities) {
        List<String> lacking = new ArrayList<>();
        for (int c : capabilities) {
            String ext = CAPABILITY_EXTENSIONS.get(c);
            if (ext != null && !extensions.contains(ext))
                lacking.add("SPIR-V capability " + c + " (" + name + " has no " + ext + ")");
            if (c == CAPABILITY_SPARSE_RESIDENCY && !sparseResidency)
                lacking.add("sparse residency (" + name + " has no shaderResourceResidency)");
            if (indexingFeatures.get(c) == Boolean.FALSE) {
                lacking.add("SPIR-V capability " + INDEXING_CAPABILITIES.get(c) + " (" + name
                        + " lacks the descriptor indexing feature it needs)");
            }
        }
        return lacking;
    }

    static void check(int result, String call) {
        if (result != VK_SUCCESS) throw new IllegalStateException(call + " failed: VkResult " + result);
    }

    @Override
    public void close() {
        vkDeviceWaitIdle(device);
        vkDestroyDevice(device, null);
        if (messenger != 0) EXTDebugUtils.vkDestroyDebugUtilsMessengerEXT(instance, messenger, null);
        if (callback != null) callback.free();
        vkDestroyInstance(instance, null);
        features.forEach(org.lwjgl.system.NativeResource::free);
    }
}
