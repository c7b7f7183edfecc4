package dev.lathe.cli;

import dev.lathe.vulkan.VulkanOracle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code lathe shaderdb --check-vulkan N}: every shader with SPIR-V (a .spv, or GLSL compiled by
 * glslang) against a Vulkan device through {@link VulkanOracle}, each input set also through the
 * compiled binary in the simulator, one line each, in the corpus's order, and a count. Textual IR
 * has no SPIR-V to hand a driver and is skipped.
 *
 * <p>The device work runs in a child process ({@link VulkanWorker}), one for as many shaders as it
 * lives: a driver that crashes ends that process, the shader it was running gets "crashed the
 * driver", and the next shader starts a new one; one that gives no answer in the time allowed
 * ({@code --vulkan-timeout}) is killed as hung, with the same verdict. The crash's JVM report
 * goes to the temporary directory, not the working one.
 */
final class VulkanCheck {
    private VulkanCheck() {}

    /** Runs the check; false when a shader disagreed or crashed the driver. */
    static boolean run(
            List<Path> files, String targetEnv, int wanted, String device, int timeoutSeconds, PrintWriter out) {
        Map<VulkanOracle.Verdict.Kind, Integer> counts = new EnumMap<>(VulkanOracle.Verdict.Kind.class);
        int skipped = 0;
        Worker w = null;
        boolean named = false;
        try {
            for (Path f : files) {
                if (w == null) {
                    w = new Worker(wanted, device, targetEnv, timeoutSeconds);
                    if (!named) out.println("vulkan: " + w.device);
                    named = true;
                }
                String answer = w.ask(f);
                VulkanOracle.Verdict v;
                if (answer == null) {
                    v = new VulkanOracle.Verdict(VulkanOracle.Verdict.Kind.CRASHED, w.death(), 0, 0);
                    w = null;
                } else if (answer.equals(VulkanWorker.SKIPPED)) {
                    skipped++;
                    continue;
                } else {
                    String[] p = answer.split("\t", 4);
                    v = new VulkanOracle.Verdict(
                            VulkanOracle.Verdict.Kind.valueOf(p[0]),
                            p[3].isEmpty() ? null : VulkanWorker.unescape(p[3]),
                            Integer.parseInt(p[1]),
                            Long.parseLong(p[2]));
                }
                counts.merge(v.kind(), 1, Integer::sum);
                String prefix = switch (v.kind()) {
                    case AGREE, NOT_RUN -> "vulkan ";
                    case DISAGREE -> "DISAGREES vulkan ";
                    case TOO_FEW_DECIDED -> "WARNING vulkan ";
                    case CRASHED -> "CRASHED vulkan ";
                };
                out.println(prefix + f + ": " + v.summary());
                out.flush();
            }
        } finally {
            if (w != null) w.close();
        }
        int crashed = counts.getOrDefault(VulkanOracle.Verdict.Kind.CRASHED, 0);
        out.println("vulkan: " + counts.getOrDefault(VulkanOracle.Verdict.Kind.AGREE, 0) + " agree, "
                + counts.getOrDefault(VulkanOracle.Verdict.Kind.DISAGREE, 0) + " disagree, "
                + counts.getOrDefault(VulkanOracle.Verdict.Kind.TOO_FEW_DECIDED, 0)
                + " with too few decided input sets, "
                + counts.getOrDefault(VulkanOracle.Verdict.Kind.NOT_RUN, 0) + " not run"
                + (crashed > 0 ? ", " + crashed + " crashed the driver" : "")
                + (skipped > 0 ? ", " + skipped + " textual IR skipped" : ""));
        return counts.getOrDefault(VulkanOracle.Verdict.Kind.DISAGREE, 0) == 0 && crashed == 0;
    }

    /** A {@link VulkanWorker} process and the device it opened. */
    private static final class Worker implements AutoCloseable {
        final Process process;
        /** The worker's standard output, a line at a time, read on a thread of its own so that a hung driver can be waited for with a limit. */
        final java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        /** A line that stands for the end of the worker's output. */
        static final String END = new String("end"); // compared by identity: no line read is this object

        final int timeoutSeconds;
        boolean hung;
        final Writer to;
        final String device;

        Worker(int wanted, String device, String targetEnv, int timeoutSeconds) {
            this.timeoutSeconds = timeoutSeconds;
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(List.of(
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-XX:-UsePerfData",
                    "-XX:-CreateCoredumpOnCrash",
                    "-XX:ErrorFile=" + Path.of(System.getProperty("java.io.tmpdir"), "lathe-vulkan-hs_err_pid%p.log")));
            boolean assertions = false;
            assert assertions = true; // the precision model checks itself under -ea (tests): so does the worker then
            if (assertions) cmd.add("-ea");
            for (String hook : List.of(VulkanWorker.CRASH_ON, VulkanWorker.HANG_ON)) {
                String value = System.getProperty(hook);
                if (value != null) cmd.add("-D" + hook + "=" + value);
            }
            cmd.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    VulkanWorker.class.getName(),
                    Integer.toString(wanted),
                    device == null ? "-" : device,
                    targetEnv == null ? "-" : targetEnv));
            try {
                process = new ProcessBuilder(cmd)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
            } catch (IOException e) {
                throw new CliException(
                        "lathe shaderdb: --check-vulkan: could not start the oracle's process: " + e.getMessage());
            }
            BufferedReader from =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            Thread reader = new Thread(
                    () -> {
                        try {
                            for (String line; (line = from.readLine()) != null; ) lines.add(line);
                        } catch (IOException e) {
                            // as the end
                        }
                        lines.add(END);
                    },
                    "lathe-vulkan-worker-output");
            reader.setDaemon(true);
            reader.start();
            to = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            // starting a JVM and a device is not a shader's run: it gets two minutes at least
            String first = next(VulkanWorker.DEVICE, VulkanWorker.UNAVAILABLE, Math.max(timeoutSeconds, 120));
            if (first == null)
                throw new CliException(
                        "lathe shaderdb: --check-vulkan: the oracle's process ended before it opened a device: "
                                + death());
            if (first.startsWith(VulkanWorker.UNAVAILABLE)) {
                close();
                throw new CliException("lathe shaderdb: --check-vulkan: "
                        + VulkanWorker.unescape(first.substring(VulkanWorker.UNAVAILABLE.length())));
            }
            this.device = VulkanWorker.unescape(first.substring(VulkanWorker.DEVICE.length()));
        }

        /** The worker's verdict line on {@code f} (after the marker), or null when the process ended first. */
        String ask(Path f) {
            try {
                to.write(f.toString() + "\n");
                to.flush();
            } catch (IOException e) {
                return null; // the pipe is gone: the process ended
            }
            String line = next(VulkanWorker.VERDICT, null, timeoutSeconds);
            return line == null ? null : line.substring(VulkanWorker.VERDICT.length());
        }

        /**
         * The next protocol line starting with one of the markers (found anywhere in a line), other
         * lines passed to standard error; null at the end, or when no line comes for the time
         * allowed (the process is then killed as hung).
         */
        private String next(String marker, String other, int seconds) {
            try {
                for (; ; ) {
                    String line = lines.poll(seconds, java.util.concurrent.TimeUnit.SECONDS);
                    if (line == null) {
                        hung = true;
                        process.destroyForcibly();
                        return null;
                    }
                    if (line == END) return null;
                    int at = line.indexOf(marker);
                    if (at < 0 && other != null) at = line.indexOf(other);
                    if (at >= 0) {
                        if (at > 0) System.err.println(line.substring(0, at));
                        return line.substring(at);
                    }
                    System.err.println(line);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                return null;
            }
        }

        /** How the process ended, in words, once it has. */
        String death() {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // already closed
            }
            int code;
            try {
                code = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                return "interrupted";
            }
            if (hung)
                return "no answer in " + timeoutSeconds
                        + " s (--vulkan-timeout): the oracle's process was killed; the next shader runs in a new one";
            String how = code > 128 ? "killed by signal " + (code - 128) : "exit code " + code;
            if (code == 134)
                how += " (an abort, or a crash the JVM reported: "
                        + Path.of(System.getProperty("java.io.tmpdir"), "lathe-vulkan-hs_err_pid*.log") + ")";
            return "the oracle's process ended with " + how + " running it; the next shader runs in a new one";
        }

        @Override
        public void close() {
            try {
                to.close();
            } catch (IOException e) {
                // the process has gone
            }
            try {
                if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
