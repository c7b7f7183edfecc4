package dev.lathe.cli;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.interp.RunValues;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code lathe run FILE.ir --input NAME=VALUES …}: the interpreter. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a shader in the IR interpreter and print its outputs and buffers.",
                "Values are comma-separated: 1.5, -2, 0x3f800000 (raw bits), inf, nan, true.",
                "Anything not given reads as zero.",
                "Example: lathe run examples/ir/lambert.ir --input normal=0,0,1 --input light_dir=0,0.6,0.8"})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", description = "the shader to run")
    Path file;

    @Option(names = "--input", paramLabel = "NAME=VALUES", description = "an input or uniform value (arrays: every element)")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--buffer", paramLabel = "NAME=VALUES", description = "initial buffer contents, in the buffer's element type")
    List<String> buffers = new ArrayList<>();

    @Option(names = "--buffer-size", paramLabel = "NAME=BYTES", description = "a zero-filled buffer of BYTES bytes")
    List<String> bufferSizes = new ArrayList<>();

    @Option(names = "--texture", paramLabel = "NAME=SIZE:VALUES",
            description = "texels, 4 components each, row by row; SIZE is W (1d), WxH (2d) or WxHxD (3d)")
    List<String> textures = new ArrayList<>();

    @Option(names = "--invocation", paramLabel = "X,Y,Z", description = "compute: the local invocation id (default 0,0,0)")
    String invocation;

    @Option(names = "--workgroup", paramLabel = "X,Y,Z", description = "compute: the workgroup id (default 0,0,0)")
    String workgroup;

    @Option(names = "--dispatch", paramLabel = "X,Y,Z", description = "compute: run every invocation of X*Y*Z workgroups in order")
    String dispatch;

    @Option(names = "--frag-coord", paramLabel = "X,Y,Z,W", description = "fragment: the fragment position (default 0.5,0.5,0,1)")
    String fragCoord;

    @Option(names = "--back-face", description = "fragment: the primitive faces away (front_face is false)")
    boolean backFace;

    @Option(names = "--vertex-id", paramLabel = "N", description = "vertex: the vertex id")
    int vertexId;

    @Option(names = "--instance-id", paramLabel = "N", description = "vertex: the instance id")
    int instanceId;

    @Option(names = "--iteration-limit", paramLabel = "N", description = "stop after N loop iterations (default ${DEFAULT-VALUE})")
    long iterationLimit = Interpreter.DEFAULT_ITERATION_LIMIT;

    @Option(names = "--hex", description = "also print the raw bits of every value")
    boolean hex;

    @Override
    public Integer call() {
        Shader s = ShaderFiles.load(file);
        ShaderInputs in = new ShaderInputs();
        try {
            for (String a : inputs) RunValues.applyInput(s, in, a);
            for (String a : bufferSizes) RunValues.applyBufferSize(s, in, a);
            for (String a : buffers) RunValues.applyBuffer(s, in, a);
            for (String a : textures) RunValues.applyTexture(s, in, a);
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
            in.setFrontFace(!backFace).setVertexId(vertexId).setInstanceId(instanceId);
            if (iterationLimit < 1) throw new IllegalArgumentException("--iteration-limit must be positive");
            Interpreter interp = new Interpreter(s, iterationLimit);
            ShaderOutputs out;
            if (dispatch != null) {
                int[] g = RunValues.parseTriple("--dispatch", dispatch, 1);
                long total = (long) g[0] * g[1] * g[2] * s.workgroupSize()[0] * s.workgroupSize()[1] * s.workgroupSize()[2];
                if (total == 0 || total > 1 << 22) throw new IllegalArgumentException("--dispatch: 1 to 4194304 invocations in all");
                out = interp.dispatch(in, g[0], g[1], g[2]);
            } else {
                out = interp.run(in);
            }
            spec.commandLine().getOut().print(RunValues.format(s, out, hex));
            return 0;
        } catch (IllegalArgumentException e) {
            throw new CliException("lathe run: " + e.getMessage());
        } catch (InterpreterException e) {
            throw new CliException(file + ": " + e.getMessage());
        }
    }
}
