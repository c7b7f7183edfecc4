package dev.lathe.cli;

import picocli.CommandLine.Option;

/** How shader sources are read, for every command that reads one: the GLSL target environment. */
final class SourceOptions {
    @Option(
            names = "--target-env",
            paramLabel = "ENV",
            description = "GLSL input: glslang's --target-env (vulkan1.0 … vulkan1.3, spirv1.0 … spirv1.6); "
                    + "default: vulkan1.1, or the next newer one glslang asks for (GL_EXT_ray_tracing needs vulkan1.2)")
    String targetEnv;
}
