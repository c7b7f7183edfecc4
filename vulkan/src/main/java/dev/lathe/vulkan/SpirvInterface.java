package dev.lathe.vulkan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a SPIR-V module asks the API for, read from the module itself: its stage and workgroup
 * size, its descriptor bindings (uniform blocks, storage blocks) with the byte layout of every
 * block member, and its push-constant block. This is the oracle's own reading, written from the
 * SPIR-V specification (section 2.16 and the decorations of 3.20) and deliberately independent of
 * Lathe's frontend, whose layout arithmetic it is there to check: a wrong {@code Offset} in the
 * frontend puts a value at one place and Vulkan reads it from another.
 *
 * <p>Names follow the convention the frontend gives IR variables, so that one random input set
 * can be handed to both: a block member is {@code instance_member} (the block's name when the
 * instance is unnamed), a storage block goes by its instance's name (its block's when unnamed).
 */
public final class SpirvInterface {
    /** A scalar, vector or matrix type, or an array of them: what a block member may be here. */
    public record Shape(
            char base,
            int bits,
            int components,
            int columns,
            int arrayLength,
            int arrayStride,
            int matrixStride,
            boolean rowMajor) {
        /** The scalars of one element (components times columns). */
        public int scalars() {
            return components * columns;
        }
    }

    /**
     * A member of a uniform or push-constant block, or a leaf of one that is a struct: where each
     * of its scalars goes. A struct member is flattened as the frontend flattens it, one IR
     * uniform per leaf ({@code block_member_field}); a leaf inside an array of structs repeats once
     * per element, at {@code starts[e]}, and the IR uniform holds the elements one after another.
     */
    public record Member(String name, int[] starts, Shape shape) {
        public Member(String name, int offset, Shape shape) {
            this(name, new int[] {offset}, shape);
        }

        /** The byte offset of the member's first scalar. */
        public int offset() {
            return starts[0];
        }

        /**
         * The byte offset of scalar {@code k} in the order the IR lists a uniform's values:
         * repetition after repetition (arrays of structs), element after element, column after
         * column (matrices are arrays of columns), component after component.
         */
        public int scalarOffset(int k) {
            int perElement = shape.scalars();
            int perRepetition = perElement * Math.max(1, shape.arrayLength());
            int rep = k / perRepetition;
            k %= perRepetition;
            int element = k / perElement, inElement = k % perElement;
            int column = inElement / shape.components(), component = inElement % shape.components();
            int size = shape.bits() / 8;
            int at = starts[rep] + element * shape.arrayStride();
            if (shape.columns() > 1) {
                return shape.rowMajor()
                        ? at + component * shape.matrixStride() + column * size
                        : at + column * shape.matrixStride() + component * size;
            }
            return at + component * size;
        }

        /** How many scalars the member holds. */
        public int scalarCount() {
            return shape.scalars() * Math.max(1, shape.arrayLength()) * starts.length;
        }
    }

    /**
     * A uniform block ({@code set}, {@code binding}), or the push-constant block ({@code set} =
     * -1). An array of {@code count} blocks is one descriptor array: element e's bytes are at
     * {@code e * stride} of {@code size}, each member's starts listing every element's (the
     * frontend flattens an array of blocks as an array of structs).
     */
    public record Block(String name, int set, int binding, int size, List<Member> members, int count, int stride) {
        public Block(String name, int set, int binding, int size, List<Member> members) {
            this(name, set, binding, size, members, 1, size);
        }
    }

    /** A storage block at ({@code set}, {@code binding}) (element {@code element} of an array of them), named as the IR buffer. */
    public record StorageBuffer(String name, int set, int binding, int element) {
        public StorageBuffer(String name, int set, int binding) {
            this(name, set, binding, 0);
        }
    }

    /**
     * A sampled texture at ({@code set}, {@code binding}) of {@code dims} dimensions (1 to 3) whose
     * texels are of {@code base} ('f', 'i', 'u'): a combined image and sampler, or an image alone
     * (sampled through a {@link #samplers() sampler} of its own binding); element {@code element}
     * of an array of them (named {@code name[k]}, as the IR names an array's textures).
     */
    public record Texture(
            String name,
            int set,
            int binding,
            int element,
            int dims,
            char base,
            boolean combined,
            int spirvDim,
            boolean arrayed,
            boolean depth,
            boolean multisampled) {
        /** The samples the oracle gives a multisampled texture: 4, a count every Vulkan device samples. */
        public static final int SAMPLES = 4;

        /** Whether it is a cube map (or an array of them). */
        public boolean cube() {
            return spirvDim == 3;
        }

        /** The layers of the IR texture Vulkan's image needs: six faces a cube (two cubes in an array of them). */
        public int layersWanted() {
            return cube() ? (arrayed ? 12 : 6) : multisampled ? SAMPLES : 0;
        }
    }

    /** A sampler alone at ({@code set}, {@code binding}), or an array of {@code count} of them (the IR's textures carry their sampling, so each is the same). */
    public record Sampler(int set, int binding, int count) {}

    /** An input attachment ({@code subpassInput}) at ({@code set}, {@code binding}) with its {@code InputAttachmentIndex}, named as the IR texture. */
    public record InputAttachment(String name, int set, int binding, int index, char base) {}

    /** A storage image at ({@code set}, {@code binding}) of {@code dims} dimensions and its format, named as the IR image. */
    public record StorageImage(String name, int set, int binding, int dims, dev.lathe.ir.ImageFormat format) {}

    /**
     * A user-defined input or output of a graphics stage, from {@code location} on, with the
     * SPIR-V id of its variable. A matrix or an array takes one location per column or element,
     * which the IR holds as one variable each ({@code name_k}), as the frontend names them. A
     * member of an input or output block (a leaf of it, when the member is a struct) is one too,
     * {@code block_member…}, with the block's type {@code struct} and the block's top-level
     * {@code member} it belongs to (-1 for a variable of its own).
     */
    public record Varying(String name, int variable, int struct, int member, int location, Shape shape, boolean flat) {
        /** A variable of its own (not a member of an input or output block). */
        public Varying(String name, int variable, int location, Shape shape, boolean flat) {
            this(name, variable, -1, -1, location, shape, flat);
        }

        /** How many locations it takes. */
        public int slots() {
            return Math.max(1, shape.arrayLength()) * shape.columns();
        }

        /** The IR variable that holds location {@code location() + k}. */
        public String slotName(int k) {
            return shape.arrayLength() == 0 && shape.columns() == 1 ? name : name + "_" + k;
        }

        /** The components of one location. */
        public int slotComponents() {
            return shape.components();
        }
    }

    /**
     * A built-in input or output ({@code builtIn}, the SPIR-V enumerant): a variable of its own
     * ({@code member} = -1), or member {@code member} of the block {@code struct} that variable
     * {@code variable} holds (gl_PerVertex).
     */
    public record BuiltIn(int builtIn, int variable, int struct, int member, Shape shape) {}

    /** BuiltIn enumerants the oracle knows by name. */
    public static final int POSITION = 0,
            POINT_SIZE = 1,
            CLIP_DISTANCE = 3,
            CULL_DISTANCE = 4,
            FRAG_COORD = 15,
            FRONT_FACING = 17,
            FRAG_DEPTH = 22,
            VERTEX_INDEX = 42,
            INSTANCE_INDEX = 43;

    private final String stage;
    private final String entryPoint;
    private final int[] localSize;
    private final List<Block> uniformBlocks;
    private final Block pushConstants;
    private final List<StorageBuffer> storageBuffers;
    private final List<String> unsupported;
    private final List<Varying> inputs, outputs;
    private final List<BuiltIn> builtInInputs, builtInOutputs;
    private final List<Integer> capabilities;
    private final List<Texture> textures;
    private final List<Sampler> samplers;
    private final List<StorageImage> images;
    private final boolean derivatives;
    private final List<InputAttachment> inputAttachments;

    private SpirvInterface(
            String stage,
            String entryPoint,
            int[] localSize,
            List<Block> uniformBlocks,
            Block pushConstants,
            List<StorageBuffer> storageBuffers,
            List<String> unsupported,
            List<Varying> inputs,
            List<Varying> outputs,
            List<BuiltIn> builtInInputs,
            List<BuiltIn> builtInOutputs,
            List<Integer> capabilities,
            List<Texture> textures,
            List<Sampler> samplers,
            List<StorageImage> images,
            boolean derivatives,
            List<InputAttachment> inputAttachments) {
        this.inputAttachments = inputAttachments;
        this.derivatives = derivatives;
        this.images = images;
        this.textures = textures;
        this.samplers = samplers;
        this.capabilities = capabilities;
        this.inputs = inputs;
        this.outputs = outputs;
        this.builtInInputs = builtInInputs;
        this.builtInOutputs = builtInOutputs;
        this.stage = stage;
        this.entryPoint = entryPoint;
        this.localSize = localSize;
        this.uniformBlocks = uniformBlocks;
        this.pushConstants = pushConstants;
        this.storageBuffers = storageBuffers;
        this.unsupported = unsupported;
    }

    /** {@code vertex}, {@code fragment} or {@code compute}. */
    public String stage() {
        return stage;
    }

    /** The entry point's name. */
    public String entryPoint() {
        return entryPoint;
    }

    /** The compute workgroup size ({@code LocalSize}); 1, 1, 1 for other stages. */
    public int[] localSize() {
        return localSize.clone();
    }

    public List<Block> uniformBlocks() {
        return uniformBlocks;
    }

    /** The push-constant block, or null. */
    public Block pushConstants() {
        return pushConstants;
    }

    public List<StorageBuffer> storageBuffers() {
        return storageBuffers;
    }

    /** What this module uses that the oracle does not drive yet, in words; empty when it can run the module. */
    public List<String> unsupported() {
        return unsupported;
    }

    /**
     * Throws when the module is not a {@code stage} shader or uses what the oracle does not drive.
     *
     * @throws UnsupportedOperationException saying what
     */
    void requireSupported(VulkanDevice vk, String expected) {
        List<String> problems = new ArrayList<>(unsupported);
        problems.addAll(
                vk.lacks(capabilities)); // a driver may abort the process on a capability it lacks: never hand it one
        if (!stage.equals(expected)) problems.add(0, "the " + stage + " stage here (a " + expected + " run)");
        if (!problems.isEmpty())
            throw new UnsupportedOperationException(
                    "the Vulkan oracle does not run " + String.join(", ", problems) + " yet");
    }

    /** The sampled textures, combined or not. */
    public List<Texture> textures() {
        return textures;
    }

    /** The input attachments (a fragment shader's subpassInputs). */
    public List<InputAttachment> inputAttachments() {
        return inputAttachments;
    }

    /** Whether the module takes a derivative (OpDPdx … OpFwidthCoarse). */
    public boolean usesDerivatives() {
        return derivatives;
    }

    /** The storage images. */
    public List<StorageImage> images() {
        return images;
    }

    /** The samplers declared alone. */
    public List<Sampler> samplers() {
        return samplers;
    }

    /** The module's {@code OpCapability} operands. */
    public List<Integer> capabilities() {
        return capabilities;
    }

    /** The user-defined inputs (vertex attributes, or a fragment shader's varyings), by location. */
    public List<Varying> inputs() {
        return inputs;
    }

    /** The user-defined outputs (varyings, or a fragment shader's colors), by location. */
    public List<Varying> outputs() {
        return outputs;
    }

    /** The built-in inputs the module declares. */
    public List<BuiltIn> builtInInputs() {
        return builtInInputs;
    }

    /** The built-in outputs the module declares (gl_PerVertex members one by one). */
    public List<BuiltIn> builtInOutputs() {
        return builtInOutputs;
    }

    // opcodes and enumerants of the SPIR-V specification
    private static final int OP_CAPABILITY = 17,
            OP_NAME = 5,
            OP_MEMBER_NAME = 6,
            OP_ENTRY_POINT = 15,
            OP_EXECUTION_MODE = 16,
            OP_TYPE_BOOL = 20,
            OP_TYPE_INT = 21,
            OP_TYPE_FLOAT = 22,
            OP_TYPE_VECTOR = 23,
            OP_TYPE_MATRIX = 24,
            OP_TYPE_IMAGE = 25,
            OP_TYPE_SAMPLER = 26,
            OP_TYPE_SAMPLED_IMAGE = 27,
            OP_TYPE_ARRAY = 28,
            OP_TYPE_RUNTIME_ARRAY = 29,
            OP_TYPE_STRUCT = 30,
            OP_TYPE_POINTER = 32,
            OP_CONSTANT = 43,
            OP_SPEC_CONSTANT = 50,
            OP_VARIABLE = 59,
            OP_DECORATE = 71,
            OP_MEMBER_DECORATE = 72;
    private static final int DEC_ROW_MAJOR = 4,
            DEC_ARRAY_STRIDE = 6,
            DEC_MATRIX_STRIDE = 7,
            DEC_BLOCK = 2,
            DEC_BUFFER_BLOCK = 3,
            DEC_BINDING = 33,
            DEC_DESCRIPTOR_SET = 34,
            DEC_OFFSET = 35,
            DEC_BUILT_IN = 11,
            DEC_FLAT = 14,
            DEC_LOCATION = 30,
            DEC_COMPONENT = 31,
            DEC_INPUT_ATTACHMENT_INDEX = 43;
    private static final int SC_UNIFORM_CONSTANT = 0,
            SC_INPUT = 1,
            SC_UNIFORM = 2,
            SC_OUTPUT = 3,
            SC_PUSH_CONSTANT = 9,
            SC_STORAGE_BUFFER = 12;
    private static final int MODE_LOCAL_SIZE = 17;

    /** Reads the interface of a SPIR-V module (its words, little-endian bytes as a {@code .spv} file holds them). */
    public static SpirvInterface read(byte[] spirv) {
        return read(spirv, Map.of());
    }

    /**
     * As {@link #read(byte[])}, a run-time sized array of descriptors (textures, storage blocks)
     * given the length {@code runtimeLengths} has for its name (the length the frontend gave
     * it); one not listed cannot run.
     */
    public static SpirvInterface read(byte[] spirv, Map<String, Integer> runtimeLengths) {
        if (spirv.length < 20 || spirv.length % 4 != 0)
            throw new IllegalArgumentException("not a SPIR-V module: " + spirv.length + " bytes");
        ByteBuffer bb = ByteBuffer.wrap(spirv).order(ByteOrder.LITTLE_ENDIAN);
        if (bb.getInt(0) != 0x07230203) throw new IllegalArgumentException("not a SPIR-V module: bad magic number");
        int[] w = new int[spirv.length / 4];
        for (int i = 0; i < w.length; i++) w[i] = bb.getInt(i * 4);
        Reader r = new Reader(w);
        r.runtimeLengths = runtimeLengths;
        return r.read();
    }

    /** One pass over the instructions, then the blocks assembled from what was collected. */
    private static final class Reader {
        final int[] w;
        final Map<Integer, String> names = new HashMap<>();
        final Map<Long, String> memberNames = new HashMap<>();
        final Map<Long, Integer> decorations = new HashMap<>(); // (id, decoration) -> first literal (or 1)
        final Map<Long, Integer> memberDecorations = new HashMap<>(); // (id, member, decoration) -> literal
        final Map<Integer, int[]> types = new HashMap<>(); // id -> the type instruction's words
        final Map<Integer, Long> constants = new HashMap<>();
        final List<int[]> variables = new ArrayList<>(); // result type, id, storage class
        final List<Integer> capabilities = new ArrayList<>();
        boolean derivatives;
        Map<String, Integer> runtimeLengths = Map.of();
        String stage = "unknown";
        String entryPoint = "main";
        int[] localSize = {1, 1, 1};

        Reader(int[] w) {
            this.w = w;
        }

        static long key(int id, int dec) {
            return (long) id << 32 | dec & 0xffffffffL;
        }

        static long key(int id, int member, int dec) {
            return (long) id << 40 | (long) member << 16 | dec & 0xffff;
        }

        SpirvInterface read() {
            for (int at = 5; at < w.length; ) {
                int count = w[at] >>> 16, op = w[at] & 0xffff;
                if (count == 0 || at + count > w.length)
                    throw new IllegalArgumentException("malformed SPIR-V at word " + at);
                int[] in = java.util.Arrays.copyOfRange(w, at, at + count);
                switch (op) {
                    case OP_CAPABILITY -> capabilities.add(in[1]);
                    case OP_NAME -> names.put(in[1], string(in, 2));
                    case OP_MEMBER_NAME -> memberNames.put(key(in[1], in[2]), string(in, 3));
                    case OP_ENTRY_POINT -> {
                        stage = switch (in[1]) {
                            case 0 -> "vertex";
                            case 4 -> "fragment";
                            case 5 -> "compute";
                            default -> "model " + in[1];
                        };
                        entryPoint = string(in, 3);
                    }
                    case OP_EXECUTION_MODE -> {
                        if (in[2] == MODE_LOCAL_SIZE) localSize = new int[] {in[3], in[4], in[5]};
                    }
                    case OP_DECORATE -> decorations.put(key(in[1], in[2]), count > 3 ? in[3] : 1);
                    case OP_MEMBER_DECORATE -> memberDecorations.put(key(in[1], in[2], in[3]), count > 4 ? in[4] : 1);
                    // a specialization constant counts at its default: the oracle specializes nothing, as the frontend
                    case OP_CONSTANT, OP_SPEC_CONSTANT -> constants.put(in[2], in[3] & 0xffffffffL);
                    case OP_VARIABLE -> variables.add(new int[] {in[1], in[2], in[3]});
                    default -> {
                        if (op >= OP_TYPE_BOOL && op <= OP_TYPE_POINTER) types.put(in[1], in);
                        if (op >= 207 && op <= 215) derivatives = true; // OpDPdx … OpFwidthCoarse
                    }
                }
                at += count;
            }
            List<Block> ubos = new ArrayList<>();
            List<StorageBuffer> ssbos = new ArrayList<>();
            List<String> unsupported = new ArrayList<>();
            Block push = null;
            Set<String> seen = new HashSet<>();
            List<Varying> inputs = new ArrayList<>(), outputs = new ArrayList<>();
            List<BuiltIn> builtInInputs = new ArrayList<>(), builtInOutputs = new ArrayList<>();
            List<Texture> textures = new ArrayList<>();
            List<Sampler> samplers = new ArrayList<>();
            List<StorageImage> images = new ArrayList<>();
            List<InputAttachment> inputAttachments = new ArrayList<>();
            for (int[] v : variables) {
                int[] ptr = types.get(v[0]);
                int storage = v[2];
                int pointee = ptr[3];
                if (!types.containsKey(pointee)) { // an acceleration structure, a ray query…
                    unsupported.add("a variable of a type the oracle does not know ("
                            + names.getOrDefault(v[1], "%" + v[1]) + ")");
                    continue;
                }
                if (storage == SC_INPUT || storage == SC_OUTPUT) {
                    varying(
                            v[1],
                            pointee,
                            storage == SC_INPUT ? inputs : outputs,
                            storage == SC_INPUT ? builtInInputs : builtInOutputs,
                            unsupported);
                    continue;
                }
                int set = decorations.getOrDefault(key(v[1], DEC_DESCRIPTOR_SET), 0);
                int binding = decorations.getOrDefault(key(v[1], DEC_BINDING), 0);
                String instance = names.getOrDefault(v[1], "");
                String blockName = names.getOrDefault(pointee, "");
                if (storage == SC_UNIFORM || storage == SC_PUSH_CONSTANT || storage == SC_STORAGE_BUFFER) {
                    int[] t = types.get(pointee);
                    int count = 0; // an array of blocks: its length
                    int arrayOp = t[0] & 0xffff;
                    String arrayName = irName(instance.isEmpty() ? blockName : instance);
                    boolean ofBlocks = (arrayOp == OP_TYPE_ARRAY || arrayOp == OP_TYPE_RUNTIME_ARRAY)
                            && (types.get(t[2])[0] & 0xffff) == OP_TYPE_STRUCT;
                    // a run-time sized array of uniform blocks has as many as the frontend gives it
                    boolean runTimeUniforms = ofBlocks
                            && arrayOp == OP_TYPE_RUNTIME_ARRAY
                            && storage == SC_UNIFORM
                            && !decorations.containsKey(key(t[2], DEC_BUFFER_BLOCK));
                    if (ofBlocks
                            && (arrayOp == OP_TYPE_ARRAY || runTimeUniforms || runtimeLengths.containsKey(arrayName))) {
                        count = arrayOp == OP_TYPE_ARRAY
                                ? (int) (long) constants.getOrDefault(t[3], 0L)
                                : runTimeUniforms
                                        ? dev.lathe.spirv.SpirvFrontend.RUN_TIME_UNIFORM_BLOCKS
                                        : runtimeLengths.get(arrayName);
                        pointee = t[2];
                        t = types.get(pointee);
                        blockName = names.getOrDefault(pointee, "");
                    }
                    if ((t[0] & 0xffff) != OP_TYPE_STRUCT
                            || count == 0 && (types.get(ptr[3])[0] & 0xffff) != OP_TYPE_STRUCT) {
                        unsupported.add("a run-time sized array of blocks ("
                                + (instance.isEmpty() ? "binding " + binding : instance) + ")");
                        continue;
                    }
                    boolean storageBlock =
                            storage == SC_STORAGE_BUFFER || decorations.containsKey(key(pointee, DEC_BUFFER_BLOCK));
                    if (storageBlock) {
                        String name = irName(instance.isEmpty() ? blockName : instance);
                        if (count == 0) ssbos.add(new StorageBuffer(name, set, binding));
                        for (int e = 0; e < count; e++) ssbos.add(new StorageBuffer(name + "_" + e, set, binding, e));
                        continue;
                    }
                    String prefix = irName(instance.isEmpty() ? blockName : instance);
                    Block b = count == 0
                            ? block(prefix, storage == SC_PUSH_CONSTANT ? -1 : set, binding, pointee, unsupported)
                            : blocks(prefix, set, binding, pointee, count, unsupported);
                    if (storage == SC_PUSH_CONSTANT) push = b;
                    else ubos.add(b);
                } else if (storage == SC_UNIFORM_CONSTANT) {
                    int[] t = types.get(pointee);
                    int op = t[0] & 0xffff;
                    if (op == OP_TYPE_SAMPLER) {
                        samplers.add(new Sampler(set, binding, 1));
                        continue;
                    }
                    if (op == OP_TYPE_ARRAY && (types.get(t[2])[0] & 0xffff) == OP_TYPE_SAMPLER) {
                        samplers.add(new Sampler(set, binding, Math.max(1, (int)
                                (long) constants.getOrDefault(t[3], 0L))));
                        continue;
                    }
                    int elements = 0; // an array of textures: its length
                    if (op == OP_TYPE_ARRAY || op == OP_TYPE_RUNTIME_ARRAY && runtimeLengths.containsKey(instance)) {
                        elements = op == OP_TYPE_ARRAY
                                ? (int) (long) constants.getOrDefault(t[3], 0L)
                                : runtimeLengths.get(instance);
                        t = types.get(t[2]);
                        op = t[0] & 0xffff;
                    }
                    int[] image = op == OP_TYPE_SAMPLED_IMAGE ? types.get(t[2]) : op == OP_TYPE_IMAGE ? t : null;
                    // Dim 1D, 2D, 3D, Cube (arrayed but 3D); not multisampled; sampled (not a storage image); a depth
                    // (shadow) image combined with its sampler
                    boolean plain = image != null
                            && image[3] <= 3
                            && !(image[5] == 1 && image[3] == 2)
                            && image[7] == 1
                            && (image[6] == 0
                                    || image[3] == 1 && image[5] == 0 && image[4] != 1) // multisampled: 2D, not arrayed
                            && (image[4] != 1 || op == OP_TYPE_SAMPLED_IMAGE);
                    if (plain) {
                        Shape texel = shape(image[2], 0, false);
                        // the IR texture's dimensions: a cube's faces and an array's layers are one more
                        int dims = image[3] == 3 || image[6] == 1 ? 3 : image[3] + 1 + image[5];
                        for (int e = 0; e < Math.max(1, elements); e++) {
                            textures.add(new Texture(
                                    elements == 0 ? instance : instance + "[" + e + "]",
                                    set,
                                    binding,
                                    e,
                                    dims,
                                    texel.base(),
                                    op == OP_TYPE_SAMPLED_IMAGE,
                                    image[3],
                                    image[5] == 1,
                                    image[4] == 1,
                                    image[6] == 1));
                        }
                    } else if (image != null
                            && elements == 0
                            && image[3] == 6
                            && image[6] == 0) { // Dim SubpassData, single-sampled
                        inputAttachments.add(new InputAttachment(
                                instance,
                                set,
                                binding,
                                decorations.getOrDefault(key(v[1], DEC_INPUT_ATTACHMENT_INDEX), 0),
                                shape(image[2], 0, false).base()));
                    } else if (image != null
                            && elements == 0
                            && image[7] == 2
                            && image[3] <= 2
                            && image[5] == 0
                            && image[6] == 0
                            && dev.lathe.ir.ImageFormat.ofSpirv(image[8]) != null
                            && StorageImageFormats.vulkanFormat(dev.lathe.ir.ImageFormat.ofSpirv(image[8])) != 0) {
                        images.add(new StorageImage(
                                instance, set, binding, image[3] + 1, dev.lathe.ir.ImageFormat.ofSpirv(image[8])));
                    } else if (seen.add(instance)) {
                        unsupported.add((op == OP_TYPE_RUNTIME_ARRAY
                                        ? "run-time sized arrays of textures or samplers"
                                        : image != null && image[7] == 2
                                                ? "storage images"
                                                : image != null && image[4] == 1
                                                        ? "depth-comparison textures with a sampler of their own"
                                                        : "cube, layered or multisampled textures")
                                + " (" + instance + ")");
                    }
                }
            }
            inputs.sort(java.util.Comparator.comparingInt(Varying::location));
            outputs.sort(java.util.Comparator.comparingInt(Varying::location));
            return new SpirvInterface(
                    stage,
                    entryPoint,
                    localSize,
                    ubos,
                    push,
                    ssbos,
                    unsupported,
                    inputs,
                    outputs,
                    builtInInputs,
                    builtInOutputs,
                    List.copyOf(capabilities),
                    textures,
                    samplers,
                    images,
                    derivatives,
                    inputAttachments);
        }

        /** A SPIR-V name as the frontend makes an IR name of it: anything but letters, digits and _ becomes _. */
        static String irName(String name) {
            return name.replaceAll("[^A-Za-z0-9_]", "_");
        }

        String memberName(int struct, int m) {
            return irName(memberNames.getOrDefault(key(struct, m), "m" + m));
        }

        /** A member of an input or output block at {@code location[0]} on (advanced past it), a struct one leaf by leaf. */
        void blockMember(
                String name,
                int type,
                int variable,
                int struct,
                int member,
                int[] location,
                boolean flat,
                List<Varying> varyings,
                List<String> unsupported) {
            int[] t = types.get(type);
            if ((t[0] & 0xffff) == OP_TYPE_STRUCT) {
                for (int m = 0; m + 2 < t.length; m++) {
                    blockMember(
                            name + "_" + memberName(type, m),
                            t[m + 2],
                            variable,
                            struct,
                            member,
                            location,
                            flat,
                            varyings,
                            unsupported);
                }
                return;
            }
            Shape s = shape(type, 0, false);
            if (s == null || s.bits() != 32 || s.base() == 'b' || s.arrayLength() > 0 && s.columns() > 1) {
                unsupported.add(
                        "the block member " + name + " (only 32-bit scalars, vectors, matrices and arrays of them)");
                return;
            }
            Varying v = new Varying(name, variable, struct, member, location[0], s, flat);
            varyings.add(v);
            location[0] += v.slots();
        }

        /** An Input or Output variable: a built-in, a block of built-ins, or a varying at a location. */
        void varying(int id, int type, List<Varying> varyings, List<BuiltIn> builtIns, List<String> unsupported) {
            String name = names.getOrDefault(id, "");
            int[] t = types.get(type);
            Integer builtIn = decorations.get(key(id, DEC_BUILT_IN));
            if (builtIn != null) {
                builtIns.add(new BuiltIn(builtIn, id, -1, -1, shape(type, 0, false)));
                return;
            }
            if ((t[0] & 0xffff) == OP_TYPE_STRUCT) {
                if (!memberDecorations.containsKey(key(type, 0, DEC_BUILT_IN))) {
                    int[] location = {decorations.getOrDefault(key(id, DEC_LOCATION), 0)};
                    boolean flat = decorations.containsKey(key(id, DEC_FLAT));
                    for (int m = 0; m + 2 < t.length; m++) {
                        Integer at = memberDecorations.get(key(type, m, DEC_LOCATION));
                        if (at != null) location[0] = at;
                        blockMember(
                                name + "_" + memberName(type, m),
                                t[m + 2],
                                id,
                                type,
                                m,
                                location,
                                flat || memberDecorations.containsKey(key(type, m, DEC_FLAT)),
                                varyings,
                                unsupported);
                    }
                    return;
                }
                for (int m = 0; m + 2 < t.length; m++) {
                    Integer b = memberDecorations.get(key(type, m, DEC_BUILT_IN));
                    if (b != null) builtIns.add(new BuiltIn(b, id, type, m, shape(t[m + 2], 0, false)));
                }
                return;
            }
            Shape s = shape(type, 0, false);
            if (s == null || s.bits() != 32 || s.base() == 'b' || s.arrayLength() > 0 && s.columns() > 1) {
                unsupported.add(
                        "the input or output " + name + " (only 32-bit scalars, vectors, matrices and arrays of them)");
                return;
            }
            if (decorations.getOrDefault(key(id, DEC_COMPONENT), 0) != 0) {
                unsupported.add("the input or output " + name + " (a Component decoration)");
                return;
            }
            varyings.add(new Varying(
                    name,
                    id,
                    decorations.getOrDefault(key(id, DEC_LOCATION), 0),
                    s,
                    decorations.containsKey(key(id, DEC_FLAT))));
        }

        Block block(String prefix, int set, int binding, int struct, List<String> unsupported) {
            List<Member> members = new ArrayList<>();
            flatten(prefix, struct, new int[] {0}, members, unsupported);
            int size = 0;
            for (Member m : members)
                size = Math.max(
                        size, m.scalarOffset(m.scalarCount() - 1) + m.shape().bits() / 8);
            return new Block(prefix, set, binding, size, members);
        }

        /**
         * An array of {@code count} uniform blocks: element e at {@code e * stride}, the stride a
         * whole number of 256 bytes (a uniform buffer offset every device allows).
         */
        Block blocks(String prefix, int set, int binding, int struct, int count, List<String> unsupported) {
            int size = block(prefix, set, binding, struct, new ArrayList<>()).size();
            int stride = (Math.max(size, 1) + 255) / 256 * 256;
            int[] starts = new int[count];
            for (int e = 0; e < count; e++) starts[e] = e * stride;
            List<Member> members = new ArrayList<>();
            flatten(prefix, struct, starts, members, unsupported);
            return new Block(prefix, set, binding, stride * count, members, count, stride);
        }

        /**
         * The leaves of struct {@code struct} placed at each of {@code starts} (the struct's
         * repetitions), named {@code prefix_member…}, as the frontend names the IR uniforms.
         */
        void flatten(String prefix, int struct, int[] starts, List<Member> members, List<String> unsupported) {
            int[] t = types.get(struct);
            for (int m = 0; m + 2 < t.length; m++) {
                String field = memberName(struct, m);
                String name = prefix.isEmpty() ? field : prefix + "_" + field;
                int offset = memberDecorations.getOrDefault(key(struct, m, DEC_OFFSET), 0);
                int[] at = starts.clone();
                for (int k = 0; k < at.length; k++) at[k] += offset;
                int type = t[m + 2];
                int[] mt = types.get(type);
                int op = mt == null ? -1 : mt[0] & 0xffff;
                if (op == OP_TYPE_STRUCT) {
                    flatten(name, type, at, members, unsupported);
                    continue;
                }
                if (op == OP_TYPE_ARRAY && (types.get(mt[2])[0] & 0xffff) == OP_TYPE_STRUCT) {
                    int length = (int) (long) constants.getOrDefault(mt[3], 0L);
                    int stride = decorations.getOrDefault(key(type, DEC_ARRAY_STRIDE), 0);
                    int[] elements = new int[at.length * length];
                    for (int r = 0; r < at.length; r++)
                        for (int e = 0; e < length; e++) elements[r * length + e] = at[r] + e * stride;
                    flatten(name, mt[2], elements, members, unsupported);
                    continue;
                }
                Shape s = mt == null
                        ? null
                        : shape(
                                type,
                                memberDecorations.getOrDefault(key(struct, m, DEC_MATRIX_STRIDE), 0),
                                memberDecorations.containsKey(key(struct, m, DEC_ROW_MAJOR)));
                if (s == null) {
                    unsupported.add("block member " + name + " (a pointer, or an array of arrays)");
                    continue;
                }
                members.add(new Member(name, at, s));
            }
        }

        /** The shape of a member type, or null when it is a struct or an array of arrays. */
        Shape shape(int type, int matrixStride, boolean rowMajor) {
            int[] t = types.get(type);
            int op = t[0] & 0xffff;
            if (op == OP_TYPE_ARRAY) {
                Shape e = shape(t[2], matrixStride, rowMajor);
                if (e == null || e.arrayLength() > 0) return null;
                long len = constants.getOrDefault(t[3], 0L);
                int stride = decorations.getOrDefault(key(type, DEC_ARRAY_STRIDE), 0);
                return new Shape(
                        e.base(),
                        e.bits(),
                        e.components(),
                        e.columns(),
                        (int) len,
                        stride,
                        e.matrixStride(),
                        e.rowMajor());
            }
            if (op == OP_TYPE_MATRIX) {
                Shape c = shape(t[2], 0, false);
                return new Shape(c.base(), c.bits(), c.components(), t[3], 0, 0, matrixStride, rowMajor);
            }
            if (op == OP_TYPE_VECTOR) {
                Shape c = shape(t[2], 0, false);
                return new Shape(c.base(), c.bits(), t[3], 1, 0, 0, 0, false);
            }
            return switch (op) {
                case OP_TYPE_FLOAT -> new Shape('f', t[2], 1, 1, 0, 0, 0, false);
                case OP_TYPE_INT -> new Shape(t[3] == 1 ? 'i' : 'u', t[2], 1, 1, 0, 0, 0, false);
                case OP_TYPE_BOOL -> new Shape('b', 32, 1, 1, 0, 0, 0, false);
                default -> null;
            };
        }

        static String string(int[] in, int from) {
            StringBuilder s = new StringBuilder();
            for (int i = from; i < in.length; i++) {
                for (int k = 0; k < 4; k++) {
                    int c = in[i] >>> (8 * k) & 0xff;
                    if (c == 0) return s.toString();
                    s.append((char) c);
                }
            }
            return s.toString();
        }
    }
}
