package dev.lathe.cli;

import dev.lathe.driver.ShaderSources;
import dev.lathe.spirv.SpirvException;
import dev.lathe.spirv.SpirvFrontend;
import dev.lathe.vulkan.VulkanDevice;
import dev.lathe.vulkan.VulkanOracle;
import dev.lathe.vulkan.VulkanUnavailable;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The process the Vulkan oracle runs in, apart from {@code lathe shaderdb}'s own: a driver that
 * crashes (a SIGSEGV in lavapipe, an abort) takes this process down, not the corpus run, which
 * gives that shader a "crashed the driver" verdict and starts another ({@link VulkanCheck}).
 *
 * <p>The protocol, one line each way: the parent writes a shader's path; the worker answers with
 * a line starting {@link #VERDICT}. Before the first, it says {@link #DEVICE} (or
 * {@link #UNAVAILABLE} and ends). Anything else on standard output (a driver's own chatter) is
 * not the protocol: the parent looks for the markers and passes other lines on to standard error.
 *
 * <p>Arguments: the decided input sets wanted, the device ({@code -}: the default), GLSL's target
 * environment ({@code -}: the default).
 */
final class VulkanWorker {
    private VulkanWorker() {}

    static final String DEVICE = "@@lathe-vulkan-device ";
    static final String UNAVAILABLE = "@@lathe-vulkan-unavailable ";
    static final String VERDICT = "@@lathe-vulkan-verdict ";
    /** A verdict for a file with no SPIR-V to hand a driver (textual IR). */
    static final String SKIPPED = "SKIPPED";
    /**
     * A system property for tests only: a worker handed a shader whose path contains its value
     * calls native address 0, which crashes the process as a driver's fault would.
     */
    static final String CRASH_ON = "lathe.vulkan.crash-on";
    /** A system property for tests only: a worker handed a shader whose path contains its value never answers, as a hung driver. */
    static final String HANG_ON = "lathe.vulkan.hang-on";

    public static void main(String[] args) throws Exception {
        int wanted = Integer.parseInt(args[0]);
        String device = args[1].equals("-") ? null : args[1];
        String targetEnv = args[2].equals("-") ? null : args[2];
        PrintStream out =
                new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        VulkanDevice vk;
        try {
            vk = VulkanDevice.create(device);
        } catch (VulkanUnavailable e) {
            out.println(UNAVAILABLE + escape(e.getMessage()));
            return;
        }
        try (vk) {
            out.println(DEVICE + escape(vk.name() + ", driver " + vk.driver()));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String crashOn = System.getProperty(CRASH_ON), hangOn = System.getProperty(HANG_ON);
            for (String line; (line = in.readLine()) != null; ) {
                if (crashOn != null && line.contains(crashOn)) org.lwjgl.system.JNI.callV(0L);
                if (hangOn != null && line.contains(hangOn)) Thread.sleep(Long.MAX_VALUE);
                VulkanOracle.Verdict v = verdict(vk, Path.of(line), targetEnv, wanted);
                out.println(VERDICT
                        + (v == null
                                ? SKIPPED
                                : v.kind() + "\t" + v.decided() + "\t" + v.seeds() + "\t" + escape(v.detail())));
            }
        }
    }

    /** One shader against the device, each input set also through the compiled binary; null for textual IR. */
    static VulkanOracle.Verdict verdict(VulkanDevice vk, Path f, String targetEnv, int wanted) {
        try {
            byte[] spirv = ShaderSources.spirvOf(f, targetEnv);
            if (spirv == null) return null;
            dev.lathe.ir.Shader shader = SpirvFrontend.read(f.toString(), spirv);
            java.util.function.BiFunction<dev.lathe.ir.interp.ShaderInputs, Integer, dev.lathe.ir.interp.ShaderOutputs>
                    binary;
            try {
                binary = dev.lathe.driver.shaderdb.DifferentialCheck.binary(shader);
            } catch (RuntimeException e) {
                binary = null; // the target does not take it (the corpus run says why): the device and the interpreter
                // still meet
            }
            return VulkanOracle.check(vk, spirv, shader, wanted, 16 * wanted, 2, null, binary);
        } catch (ShaderSources.SourceException | SpirvException e) {
            return new VulkanOracle.Verdict(VulkanOracle.Verdict.Kind.NOT_RUN, e.getMessage(), 0, 0);
        }
    }

    /** A text on one line: backslashes, newlines and tabs escaped ({@link #unescape} undoes it); null as the empty text. */
    static String escape(String s) {
        if (s == null) return "";
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r");
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                b.append(c);
                continue;
            }
            char n = s.charAt(++i);
            b.append(n == 'n' ? '\n' : n == 't' ? '\t' : n == 'r' ? '\r' : n);
        }
        return b.toString();
    }
}
