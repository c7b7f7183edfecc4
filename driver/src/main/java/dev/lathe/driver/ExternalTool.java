package dev.lathe.driver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Khronos command-line tools Lathe can use when they are on the PATH (Debian's
 * glslang-tools and spirv-tools): {@code glslangValidator}, {@code spirv-val},
 * {@code spirv-opt}. One place runs them, with a time limit and their output kept.
 */
public final class ExternalTool {
    private ExternalTool() {}

    /** What a tool printed (standard output and error together) and its exit code. */
    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /** A tool that could not be started, or did not finish in time. */
    public static final class ToolException extends Exception {
        ToolException(String message) {
            super(message);
        }
    }

    /** Whether {@code name --version} runs. */
    public static boolean available(String name) {
        try {
            return run(30, name, "--version").ok();
        } catch (ToolException e) {
            return false;
        }
    }

    /** Runs a command and waits for it at most {@code seconds}. */
    public static Result run(int seconds, String... command) throws ToolException {
        return run(seconds, List.of(command));
    }

    public static Result run(int seconds, List<String> command) throws ToolException {
        Path log;
        try {
            log = Files.createTempFile("lathe-tool-", ".log");
        } catch (IOException e) {
            throw new ToolException("cannot create a temporary file: " + e.getMessage());
        }
        Process p = null;
        try {
            // output to a file, so a tool that prints much cannot block and the time limit holds
            p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            p.getOutputStream().close();
            if (!p.waitFor(seconds, TimeUnit.SECONDS))
                throw new ToolException(command.get(0) + " did not finish in " + seconds + " s");
            return new Result(
                    p.exitValue(), Files.readString(log, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            throw new ToolException(
                    p == null ? command.get(0) + " is not on the PATH" : command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException(command.get(0) + " was interrupted");
        } finally {
            if (p != null && p.isAlive()) p.destroyForcibly();
            try {
                Files.deleteIfExists(log);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless
            }
        }
    }
}
