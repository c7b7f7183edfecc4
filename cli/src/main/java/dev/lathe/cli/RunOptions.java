package dev.lathe.cli;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.RunValues;
import dev.lathe.ir.interp.ShaderInputs;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The inputs of a run, shared by {@code lathe run} (the interpreter) and {@code lathe sim}
 * (the simulator), so both take the same options and mean the same by them.
 */
final class RunOptions {
    @Option(
            names = "--input",
            paramLabel = "NAME=VALUES",
            description = "an input or uniform value (arrays: every element)")
    List<String> inputs = new ArrayList<>();

    @Option(
            names = "--buffer",
            paramLabel = "NAME=VALUES",
            description = "initial buffer contents, in the buffer's element type")
    List<String> buffers = new ArrayList<>();

    @Option(names = "--buffer-size", paramLabel = "NAME=BYTES", description = "a zero-filled buffer of BYTES bytes")
    List<String> bufferSizes = new ArrayList<>();

    @Option(
            names = "--texture",
            paramLabel = "NAME=SIZE:VALUES",
            description =
                    "texels, 4 components each, row by row; SIZE is W (1d), WxH (2d) or WxHxD (3d); NAME[K] is element K of an array of textures")
    List<String> textures = new ArrayList<>();

    @Option(
            names = "--device-memory",
            paramLabel = "[TYPE:]VALUES",
            description =
                    "device memory (buffer_reference pointers) from address 0x100000000 on, as values of TYPE (default u32)")
    String deviceMemory;

    @Option(
            names = "--invocation",
            paramLabel = "X,Y,Z",
            description = "compute: the local invocation id (default 0,0,0)")
    String invocation;

    @Option(names = "--workgroup", paramLabel = "X,Y,Z", description = "compute: the workgroup id (default 0,0,0)")
    String workgroup;

    @Option(
            names = "--dispatch",
            paramLabel = "X,Y,Z",
            description = "compute: run every invocation of X*Y*Z workgroups in order")
    String dispatch;

    @Option(
            names = "--frag-coord",
            paramLabel = "X,Y,Z,W",
            description = "fragment: the fragment position (default 0.5,0.5,0,1)")
    String fragCoord;

    @Option(names = "--back-face", description = "fragment: the primitive faces away (front_face is false)")
    boolean backFace;

    @Option(names = "--vertex-id", paramLabel = "N", description = "vertex: the vertex id")
    int vertexId;

    @Option(names = "--instance-id", paramLabel = "N", description = "vertex: the instance id")
    int instanceId;

    @Option(names = "--primitive-id", paramLabel = "N", description = "geometry: the input primitive's number")
    int primitiveId;

    @Option(
            names = "--invocation-id",
            paramLabel = "N",
            description = "geometry: which of the primitive's invocations runs")
    int invocationId;

    @Option(
            names = "--iteration-limit",
            paramLabel = "N",
            description = "stop after N loop iterations (default ${DEFAULT-VALUE})")
    long iterationLimit = Interpreter.DEFAULT_ITERATION_LIMIT;

    @Option(names = "--hex", description = "also print the raw bits of every value")
    boolean hex;

    /** The inputs for shader {@code s}; bad values are IllegalArgumentExceptions with the option's name. */
    ShaderInputs inputs(Shader s) {
        ShaderInputs in = new ShaderInputs();
        for (String a : inputs) RunValues.applyInput(s, in, a);
        for (String a : bufferSizes) RunValues.applyBufferSize(s, in, a);
        for (String a : buffers) RunValues.applyBuffer(s, in, a);
        for (String a : textures) RunValues.applyTexture(s, in, a);
        if (deviceMemory != null) RunValues.applyDeviceMemory(in, deviceMemory);
        boolean compute = s.stage() == Stage.COMPUTE;
        if ((invocation != null || workgroup != null || dispatch != null) && !compute) {
            throw new IllegalArgumentException("--invocation, --workgroup and --dispatch are for compute shaders");
        }
        if (invocation != null) {
            int[] v = RunValues.parseTriple("--invocation", invocation, 0);
            int[] size = s.workgroupSize();
            for (int i = 0; i < 3; i++) {
                if (v[i] >= size[i]) {
                    throw new IllegalArgumentException("--invocation " + invocation + ": outside the workgroup size "
                            + size[0] + "," + size[1] + "," + size[2]);
                }
            }
            in.setLocalInvocationId(v[0], v[1], v[2]);
        }
        if (workgroup != null) {
            int[] v = RunValues.parseTriple("--workgroup", workgroup, 0);
            in.setWorkgroupId(v[0], v[1], v[2]);
            in.setNumWorkgroups(v[0] + 1, v[1] + 1, v[2] + 1);
        }
        if (fragCoord != null) {
            String[] parts = fragCoord.split(",");
            if (parts.length != 4) throw new IllegalArgumentException("--frag-coord: expected four numbers x,y,z,w");
            float[] f = new float[4];
            for (int i = 0; i < 4; i++) {
                try {
                    f[i] = Float.parseFloat(parts[i].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--frag-coord: '" + parts[i] + "' is not a number");
                }
            }
            in.setFragCoord(f[0], f[1], f[2], f[3]);
        }
        in.setFrontFace(!backFace)
                .setVertexId(vertexId)
                .setInstanceId(instanceId)
                .setPrimitiveId(primitiveId)
                .setInvocationId(invocationId);
        if (iterationLimit < 1) throw new IllegalArgumentException("--iteration-limit must be positive");
        return in;
    }

    /** The --dispatch workgroup counts, checked, or null for a single invocation. */
    int[] dispatchCounts(Shader s) {
        if (dispatch == null) return null;
        int[] g = RunValues.parseTriple("--dispatch", dispatch, 1);
        long total = (long) g[0] * g[1] * g[2] * s.workgroupSize()[0] * s.workgroupSize()[1] * s.workgroupSize()[2];
        if (total == 0 || total > 1 << 22)
            throw new IllegalArgumentException("--dispatch: 1 to 4194304 invocations in all");
        return g;
    }
}
