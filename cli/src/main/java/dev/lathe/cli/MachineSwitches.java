package dev.lathe.cli;

import dev.lathe.driver.Pipelines;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Option;

/**
 * The machine pipeline's switches ({@link Pipelines#SWITCHES}), as {@code lathe compile} and
 * {@code lathe shaderdb} spell them: each {@code --no-NAME} leaves out one part of the backend,
 * to measure what it does.
 */
final class MachineSwitches {
    @Option(names = "--no-const-operands", description = "read constants and uniforms through a mov, not as operands")
    boolean noConstOperands;

    @Option(names = "--no-sched", description = "keep each block's instructions in selection order (no scheduling)")
    boolean noSched;

    @Option(names = "--no-coalesce", description = "allocate registers without the coalescing hints (more copies)")
    boolean noCoalesce;

    @Option(names = "--no-branches", description = "keep the jumps as linearization lays them out (no threading or inverting)")
    boolean noBranches;

    @Option(names = "--no-preload", description = "load vertex inputs and system values with instructions (nothing preloaded)")
    boolean noPreload;

    @Option(names = "--no-preamble", description = "compute uniform-only values in the shader (no preamble)")
    boolean noPreamble;

    @Option(names = "--no-postsched", description = "no second scheduling after register allocation")
    boolean noPostsched;

    /** The machine pipeline with the switched-off parts left out. */
    List<String> passes() {
        Set<String> off = new TreeSet<>();
        if (noConstOperands) off.add("const-operands");
        if (noSched) off.add("sched");
        if (noCoalesce) off.add("coalesce");
        if (noBranches) off.add("branches");
        if (noPreload) off.add("preload");
        if (noPreamble) off.add("preamble");
        if (noPostsched) off.add("postsched");
        return Pipelines.machine(off);
    }
}
