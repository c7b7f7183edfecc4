package dev.lathe.vulkan;

import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.InterpreterException;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import java.util.List;
import java.util.Map;

/**
 * A shader's SPIR-V on a {@link VulkanDevice} against Lathe's interpreter on the IR the frontend
 * made of it, on the same random input sets ({@link OracleInputs}), compared under the NaN
 * contract and within the precision Vulkan requires ({@link PrecisionTracker}). An input
 * set counts when its outcome is decided — every invocation compared (two workgroups of a compute
 * shader, the four fragments of a 2x2 quad, the three vertices of a triangle) and none undecided —
 * and seeds are drawn until enough are, or the seed budget is spent.
 */
public final class VulkanOracle {
    private VulkanOracle() {}

    /** How a shader fared. */
    public record Verdict(Kind kind, String detail, int decided, long seeds) {
        /** The outcome. */
        public enum Kind {
            /** Agreed on the input sets wanted, all decided. */
            AGREE,
            /** Disagreed on an input set: {@code detail} says where. */
            DISAGREE,
            /** Agreed wherever compared, but too few input sets were decided. */
            TOO_FEW_DECIDED,
            /** Could not be run: {@code detail} says why. */
            NOT_RUN,
            /** The device's driver ended the process that ran it ({@code detail}: how); the oracle goes on in a new one. */
            CRASHED
        }

        /** One line: "agree (16 decided sets of 20)", "input set 3, fragment 0: …", "not run: …". */
        public String summary() {
            return switch (kind) {
                case AGREE -> "agree (" + decided + " decided sets of " + seeds + ")";
                case DISAGREE -> detail;
                case TOO_FEW_DECIDED ->
                    "only " + decided + " of " + seeds + " input sets decided"
                            + (detail == null ? "" : "; most often undecided: " + detail);
                case NOT_RUN -> "not run: " + detail;
                case CRASHED -> "crashed the driver: " + detail;
            };
        }
    }

    /** Words of a compute shader's buffer not compared: their value depends on the order invocations run in. */
    public record Words(String buffer, int first, int last) {}

    /**
     * Compares {@code shader} (the frontend's IR of {@code spirv}, possibly changed by the caller)
     * with the device: {@code wanted} decided input sets from at most {@code maxSeeds} seeds. A
     * compute shader runs as {@code workgroups} workgroups; {@code unordered} (or null) names the
     * words not compared.
     */
    public static Verdict check(
            VulkanDevice vk, byte[] spirv, Shader shader, int wanted, int maxSeeds, int workgroups, Words unordered) {
        return check(vk, spirv, shader, wanted, maxSeeds, workgroups, unordered, null);
    }

    /**
     * {@link #check(VulkanDevice, byte[], Shader, int, int, int, Words)}, and every input set also
     * through {@code binary} (the shader compiled and simulated: inputs and workgroups to
     * outputs; null: none), which must match the interpreter bit for bit under the NaN contract.
     */
    public static Verdict check(
            VulkanDevice vk,
            byte[] spirv,
            Shader shader,
            int wanted,
            int maxSeeds,
            int workgroups,
            Words unordered,
            java.util.function.BiFunction<ShaderInputs, Integer, ShaderOutputs> binary) {
        int decided = 0;
        long seed = 0;
        Map<String, Integer> why = new java.util.LinkedHashMap<>(); // why input sets were not decided, numbers made N
        SpirvInterface iface;
        try {
            iface = SpirvInterface.read(spirv, runtimeLengths(shader));
        } catch (IllegalArgumentException e) {
            return new Verdict(Verdict.Kind.NOT_RUN, "the module's interface cannot be read: " + e.getMessage(), 0, 0);
        }
        Map<String, Integer> layers = new java.util.HashMap<>();
        for (SpirvInterface.Texture t : iface.textures())
            if (t.layersWanted() > 0) layers.put(t.name(), t.layersWanted());
        Map<String, Integer> indices = indexInputs(shader);
        // once a seed's inputs make a loop run past the interpreter's limit (a sample count or a
        // step read from a uniform), every seed draws small inputs: the interpreter runs before the
        // device, so no device is handed a loop that would not end
        boolean small = false;
        try {
            for (; seed < maxSeeds && decided < wanted; seed++) {
                List<Invocation> pairs = null;
                for (int attempt = 0; pairs == null && attempt < 2; attempt++) {
                    ShaderInputs in = OracleInputs.draw(shader, seed, layers, indices, small);
                    try {
                        pairs = shader.stage() == Stage.COMPUTE
                                ? List.of(compute(vk, spirv, iface, shader, in, workgroups, unordered, binary))
                                : graphics(vk, spirv, iface, shader, in, seed, binary);
                    } catch (InterpreterException.IterationLimit e) {
                        if (small) break;
                        small = true;
                    }
                }
                if (pairs == null) {
                    why.merge("a loop ran past the interpreter's limit even on small inputs", 1, Integer::sum);
                    continue;
                }
                for (int k = 0; k < pairs.size(); k++) {
                    Invocation p = pairs.get(k);
                    if (p.simulated() == null) continue;
                    ShaderOutputs.Comparison c = p.exact().compareUnderNanContract(p.simulated());
                    if (c.kind() == ShaderOutputs.Comparison.Kind.BROKEN) {
                        return new Verdict(
                                Verdict.Kind.DISAGREE,
                                "input set " + seed + where(shader, k)
                                        + ": the simulated binary disagrees with the interpreter: " + c.detail(),
                                decided,
                                seed + 1);
                    }
                }
                boolean setDecided = true;
                for (int k = 0; k < pairs.size(); k++) {
                    ShaderOutputs reference = pairs.get(k).reference(),
                            real = pairs.get(k).device();
                    ShaderOutputs.Comparison c = reference.compareUnderNanContract(real);
                    if (c.kind() == ShaderOutputs.Comparison.Kind.BROKEN) {
                        return new Verdict(
                                Verdict.Kind.DISAGREE,
                                "input set " + seed + where(shader, k) + ": " + c.detail(),
                                decided,
                                seed + 1);
                    }
                    String open = reference.undecidedUnderNanContract();
                    if (open == null && c.kind() != ShaderOutputs.Comparison.Kind.KEPT) open = c.detail();
                    if (open != null && setDecided)
                        why.merge(open.replaceAll("-?[0-9][0-9.eE+-]*", "N"), 1, Integer::sum);
                    setDecided &= open == null;
                }
                if (setDecided) decided++;
            }
        } catch (UnsupportedOperationException | InterpreterException e) {
            return new Verdict(Verdict.Kind.NOT_RUN, e.getMessage(), decided, seed);
        }
        if (decided >= wanted) return new Verdict(Verdict.Kind.AGREE, null, decided, seed);
        Map.Entry<String, Integer> top = null;
        for (Map.Entry<String, Integer> e : why.entrySet()) if (top == null || e.getValue() > top.getValue()) top = e;
        return new Verdict(
                Verdict.Kind.TOO_FEW_DECIDED,
                top == null ? null : top.getKey() + " (" + top.getValue() + " sets)",
                decided,
                seed);
    }

    private static String where(Shader shader, int k) {
        return shader.stage() == Stage.COMPUTE
                ? ""
                : ", " + (shader.stage() == Stage.FRAGMENT ? "fragment " : "vertex ") + k;
    }

    /**
     * One invocation compared (a dispatch, a fragment, a vertex): the interpreter's run with
     * Vulkan's precision and what the device gave; with a binary, also the interpreter's plain run
     * and the simulator's, which must match it bit for bit (null without one): the binary is held
     * to the interpreter's bits, not to Vulkan's latitude.
     */
    private record Invocation(
            ShaderOutputs reference, ShaderOutputs device, ShaderOutputs exact, ShaderOutputs simulated) {}

    private static Invocation compute(
            VulkanDevice vk,
            byte[] spirv,
            SpirvInterface iface,
            Shader shader,
            ShaderInputs in,
            int workgroups,
            Words unordered,
            java.util.function.BiFunction<ShaderInputs, Integer, ShaderOutputs> binary) {
        ShaderOutputs reference = new Interpreter(shader)
                .trackNans()
                .track(PrecisionTracker.model(vk.subTexelPrecisionBits()))
                .dispatch(in, workgroups, 1, 1);
        ShaderOutputs real = ComputeRun.dispatch(vk, spirv, iface, in, workgroups);
        if (binary == null)
            return new Invocation(reference, withReferenceWords(real, reference, unordered), null, null);
        return new Invocation(
                reference,
                withReferenceWords(real, reference, unordered),
                new Interpreter(shader).trackNans().dispatch(in, workgroups, 1, 1),
                binary.apply(in, workgroups));
    }

    /**
     * Inputs and uniforms that index an array of descriptors directly (a texture array's element,
     * or a value the frontend noted as a descriptor index), with the array's length: a random
     * index past it is undefined in Vulkan, so the inputs keep most of them inside.
     */
    static Map<String, Integer> indexInputs(Shader shader) {
        Map<String, Integer> out = new java.util.HashMap<>();
        for (dev.lathe.ir.Function fn : shader.functions()) {
            for (dev.lathe.ir.Instr i : fn.instructions()) {
                if (!(i instanceof dev.lathe.ir.IntrinsicInstr x)) continue;
                dev.lathe.ir.Value d = x.def();
                if (d != null && fn.descriptorIndexLength(d) >= 0) indexedBy(d, fn.descriptorIndexLength(d), out);
                dev.lathe.ir.Variable v = x.var();
                if (v != null && v.kind() == dev.lathe.ir.Variable.Kind.TEXTURE && v.isArray() && x.numSrcs() > 0) {
                    indexedBy(x.src(0).value(), v.arrayLength(), out);
                }
            }
        }
        return out;
    }

    private static void indexedBy(dev.lathe.ir.Value index, int length, Map<String, Integer> out) {
        if (index.parent() instanceof dev.lathe.ir.IntrinsicInstr load
                && load.var() != null
                && (load.intrinsic() == dev.lathe.ir.Intrinsic.LOAD_INPUT
                        || load.intrinsic() == dev.lathe.ir.Intrinsic.LOAD_UNIFORM)) {
            out.merge(load.var().name(), length, Math::min);
        }
    }

    /**
     * The lengths the frontend gave run-time sized arrays of descriptors, by name: an array of
     * textures is one IR texture of that length; an array of storage blocks is IR buffers
     * {@code name_0}, {@code name_1}, … (a name may stand for either; the module says which).
     */
    static Map<String, Integer> runtimeLengths(Shader shader) {
        Map<String, Integer> lengths = new java.util.HashMap<>();
        java.util.Set<String> buffers = new java.util.HashSet<>();
        for (dev.lathe.ir.Variable v : shader.variables()) {
            if (v.kind() == dev.lathe.ir.Variable.Kind.TEXTURE && v.isArray()) lengths.put(v.name(), v.arrayLength());
            if (v.kind() == dev.lathe.ir.Variable.Kind.BUFFER) buffers.add(v.name());
        }
        for (String b : buffers) {
            int cut = b.lastIndexOf('_');
            if (cut <= 0 || !b.substring(cut + 1).equals("0")) continue;
            String name = b.substring(0, cut);
            int n = 0;
            while (buffers.contains(name + "_" + n)) n++;
            lengths.putIfAbsent(name, n);
        }
        return lengths;
    }

    /** Each fragment of the quad, or each vertex of the triangle, as an {@link Invocation}. */
    private static List<Invocation> graphics(
            VulkanDevice vk,
            byte[] spirv,
            SpirvInterface iface,
            Shader shader,
            ShaderInputs in,
            long seed,
            java.util.function.BiFunction<ShaderInputs, Integer, ShaderOutputs> binary) {
        boolean fragment = shader.stage() == Stage.FRAGMENT;
        int firstVertex = (int) (seed * 7 % 100), instance = (int) (seed % 3);
        // the interpreter first: inputs that make a loop run past its limit never reach the device
        int invocations = fragment ? GraphicsRun.WIDTH * GraphicsRun.HEIGHT : 3;
        List<ShaderOutputs> references = new java.util.ArrayList<>();
        for (int k = 0; k < invocations; k++) {
            invocationInputs(in, fragment, firstVertex, instance, k);
            references.add(new Interpreter(shader)
                    .trackNans()
                    .track(PrecisionTracker.model(vk.subTexelPrecisionBits()))
                    .run(in));
        }
        in.setVertexId(firstVertex).setInstanceId(instance);
        List<ShaderOutputs> real =
                fragment ? GraphicsRun.fragment(vk, spirv, iface, in) : GraphicsRun.vertex(vk, spirv, iface, in);
        if (real.size() != invocations)
            throw new IllegalStateException("the device gave " + real.size() + " invocations, not " + invocations);
        List<Invocation> pairs = new java.util.ArrayList<>();
        for (int k = 0; k < invocations; k++) {
            ShaderOutputs reference = references.get(k);
            invocationInputs(in, fragment, firstVertex, instance, k);
            if (binary == null) pairs.add(new Invocation(reference, comparable(real.get(k), reference), null, null));
            else
                pairs.add(new Invocation(
                        reference,
                        comparable(real.get(k), reference),
                        new Interpreter(shader).trackNans().run(in),
                        binary.apply(in, 1)));
        }
        return pairs;
    }

    /** Sets in {@code in} what the draw gives fragment or vertex {@code k}. */
    private static void invocationInputs(ShaderInputs in, boolean fragment, int firstVertex, int instance, int k) {
        if (fragment) GraphicsRun.fragmentInputs(in, k % GraphicsRun.WIDTH, k / GraphicsRun.WIDTH);
        else GraphicsRun.vertexInputs(in, firstVertex, instance, k);
    }

    /**
     * What Vulkan drew, as the interpreter's run shows it: its outputs (the reference's where both
     * discarded: a discarded fragment has none), the reference's buffers (a draw's storage buffers
     * are not compared: every fragment writes them).
     */
    private static ShaderOutputs comparable(ShaderOutputs real, ShaderOutputs reference) {
        boolean bothDiscarded = real.discarded() && reference.discarded();
        return new ShaderOutputs(
                bothDiscarded ? reference.outputs() : real.outputs(), reference.buffers(), real.discarded(), 0);
    }

    /** {@code real} with the reference's {@code words} in place of its own (null: none). */
    private static ShaderOutputs withReferenceWords(ShaderOutputs real, ShaderOutputs reference, Words words) {
        if (words == null) return real;
        Map<String, byte[]> buffers = new java.util.LinkedHashMap<>(real.buffers());
        byte[] b = real.buffer(words.buffer()), ref = reference.buffer(words.buffer());
        for (int w = words.first(); w <= words.last(); w++) System.arraycopy(ref, 4 * w, b, 4 * w, 4);
        buffers.put(words.buffer(), b);
        return new ShaderOutputs(real.outputs(), buffers, real.discarded(), real.loopIterations());
    }
}
