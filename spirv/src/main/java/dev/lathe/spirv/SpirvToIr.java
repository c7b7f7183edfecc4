package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Function;
import dev.lathe.ir.GeometryLayout;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.ImageFormat;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Stage;
import dev.lathe.ir.TextureDim;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.pass.RepairSsa;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * SPIR-V to Lathe IR, for one entry point.
 *
 * <p>Interface variables become IR variables (inputs, outputs, uniforms — one per member of a
 * uniform block —, buffers addressed by the Offset/ArrayStride/MatrixStride decorations,
 * textures); function and private variables become IR locals that {@code vars_to_ssa} turns into
 * SSA. Outputs are written through a local shadow copied out before every return, so reading an
 * output works. Matrices, arrays and structs exist only during translation ({@link Val}).
 *
 * <p>Structured control flow follows the merge instructions: a selection becomes an IR
 * {@code if} whose arms run until the merge block; a loop becomes an IR loop holding the
 * header, then the body inside a one-iteration inner loop (a branch to the continue target is a
 * break out of it; a branch to the merge block sets a flag and breaks out of it, and the flag
 * then breaks the outer loop), then the continue construct. {@code OpPhi}s become locals stored
 * on each incoming edge. Calls are inlined. What is not supported stops with
 * {@code FILE: word N: unsupported OpXxx (reason)}.
 */
final class SpirvToIr {
    final ModuleInfo m;
    final SpirvModule mod;
    final Shader shader;
    Function fn;
    IrBuilder b;
    final Map<Integer, Val> values = new HashMap<>();
    private final Map<Integer, Ptr> pointers = new HashMap<>();
    final Map<Integer, Variable> phiVars = new HashMap<>();
    /** Texture variables by the id of a loaded sampled image, an OpSampledImage or an OpImage. */
    final Map<Integer, TexChoice> textures = new HashMap<>();

    /**
     * How a sampled image maps onto its IR texture: directly; arrayed (the last IR dimension
     * holds the layers); a cube map (a 3D IR texture of six faces, +X −X +Y −Y +Z −Z); an array
     * of cube maps (a 3D IR texture of 6·L faces, cube k's faces at 6k … 6k + 5); multisampled
     * (a 3D IR texture whose third coordinate is the sample); an input attachment (a 2D IR
     * texture read at the fragment's own position; multisampled: a 3D one, by sample).
     */
    enum TextureShape {
        PLAIN,
        ARRAY,
        CUBE,
        CUBE_ARRAY,
        MULTISAMPLED,
        SUBPASS,
        SUBPASS_MULTISAMPLED
    }

    final Map<Variable, TextureShape> textureShapes = new HashMap<>();
    /** An output and the local it is written through (an element of it when {@code element >= 0}). */
    private record OutputCopy(Variable output, Variable shadow, int element) {}

    private final List<OutputCopy> outputs = new ArrayList<>();
    private final Set<String> usedNames = new HashSet<>();
    /**
     * The function being inlined: a return stores the value (if any), sets the flag and breaks
     * out of the one-iteration loop the body is wrapped in; every loop of the body checks the
     * flag after it ends, so a return from inside a loop leaves all of them.
     */
    record Frame(Ptr value, Variable returned) {}

    final ArrayDeque<Frame> frames = new ArrayDeque<>();
    /** The control flow half of the translation. */
    private final StructuredCfg cfg = new StructuredCfg(this);

    SpirvToIr(ModuleInfo m) {
        this.m = m;
        this.mod = m.module;
        Stage stage = switch (m.executionModel) {
            case 0 -> Stage.VERTEX;
            case 4 -> Stage.FRAGMENT;
            case 5 -> Stage.COMPUTE;
            case 3 -> Stage.GEOMETRY;
            default ->
                throw mod.error(
                        m.entryPoint,
                        "unsupported OpEntryPoint (" + SpirvNames.of("ExecutionModel", m.executionModel)
                                + "; vertex, fragment, compute and geometry are read)");
        };
        shader = new Shader(stage);
        if (stage == Stage.GEOMETRY) shader.setGeometry(geometryLayout());
        if (stage == Stage.COMPUTE) shader.setWorkgroupSize(m.localSize[0], m.localSize[1], m.localSize[2]);
        for (String fc : m.floatControls) shader.addFloatControl(fc);
    }

    /** A geometry shader's layout from its execution modes. */
    private GeometryLayout geometryLayout() {
        if (m.geometryInput < 0 || m.geometryOutput < 0 || m.outputVertices <= 0)
            throw mod.error(m.entryPoint, "a geometry shader needs its input and output primitives and OutputVertices");
        // both enums list the primitives in SPIR-V's order: InputPoints 19 … InputTrianglesAdjacency 23,
        // OutputPoints 27 … OutputTriangleStrip 29
        GeometryLayout.InputPrimitive in = GeometryLayout.InputPrimitive.values()[m.geometryInput - 19];
        GeometryLayout.OutputPrimitive out = GeometryLayout.OutputPrimitive.values()[m.geometryOutput - 27];
        try {
            return new GeometryLayout(in, out, m.outputVertices, m.invocations);
        } catch (IllegalArgumentException e) {
            throw mod.error(m.entryPoint, "unsupported geometry shader: " + e.getMessage());
        }
    }

    Shader run() {
        fn = shader.addFunction("main");
        b = new IrBuilder(fn);
        for (Instruction v : m.globals.values()) global(v);
        // run-time sized descriptor arrays (descriptor indexing) share the slots the rest leaves free
        int freeTextures = 32;
        for (Variable v : shader.variables(Variable.Kind.TEXTURE)) freeTextures -= Math.max(1, v.arrayLength());
        int freeBuffers = 32 - shader.variables(Variable.Kind.BUFFER).size();
        long textureArrays =
                runTimeArrays.stream().filter(a -> a instanceof TextureArray).count();
        long bufferArrays = runTimeArrays.size() - textureArrays;
        for (Object a : runTimeArrays) {
            if (a instanceof TextureArray ta) textureArray(ta, (int) Math.max(1, freeTextures / textureArrays));
            else bufferArray((BufferArray) a, (int) Math.max(1, freeBuffers / bufferArrays));
        }
        // built-in inputs go after the shader's own locations, which are known only now
        for (BuiltinInput bi : builtinInputs) {
            int loc = nextInputLocation();
            Variable var = shader.addVariable(
                    Variable.input(uniqueName(-1, bi.name()), varType(bi.at(), bi.type()), loc, !isFloat(bi.type())));
            pointers.put(bi.id(), new Ptr(new InputPlace(var), bi.type(), List.of()));
        }
        ModuleInfo.Function main = m.functions.get(m.entryFunction);
        cfg.body(main, null); // every path ends in OpReturn or OpKill, which store the outputs themselves
        // the structured translation adds paths SPIR-V's dominance does not cover (see RepairSsa)
        new RepairSsa().run(fn);
        return shader;
    }

    // ---- places and pointers --------------------------------------------------------------------

    /** Where a pointer points: a place and the access path into it (Integer constants or Values). */
    record Ptr(Place place, SpirvType type, List<Object> path) {
        Ptr then(Object index, SpirvType t) {
            List<Object> p = new ArrayList<>(path);
            p.add(index);
            return new Ptr(place, t, p);
        }
    }

    sealed interface Place {}

    /** An IR local: a scalar or vector; an array or matrix of them (indexed elements). */
    record LocalPlace(Variable var, SpirvType type) implements Place {}

    record InputPlace(Variable var) implements Place {}

    /** A matrix or array input: one IR input per column or element, at consecutive locations. */
    record InputListPlace(List<Variable> vars) implements Place {}

    /** A geometry shader's per-vertex input: element k is vertex k's value ({@code load_input @v, k}). */
    record VertexInputPlace(Variable var) implements Place {}

    /** A geometry shader's gl_in[]: each vertex's gl_PerVertex, of which Position (member 0) is read. */
    record VertexPerVertexPlace(Variable position) implements Place {}

    /** A struct local: one place per member (members are locals, nested structs, arrays of scalars or vectors). */
    record StructPlace(SpirvType.Struct type, List<Place> members) implements Place {}

    /**
     * An array of structs of scalars and vectors, kept as one IR local array per member
     * (structure of arrays), so a run-time index selects the element in each.
     */
    record StructArrayPlace(SpirvType.Array type, SpirvType.Struct element, List<Variable> members) implements Place {}

    record BuiltinPlace(Intrinsic intrinsic) implements Place {}

    /** A subgroup builtin (gl_SubgroupSize, gl_SubgroupEqMask, …): see {@link Subgroups}. */
    record SubgroupPlace(int builtin) implements Place {}

    /**
     * Uniform blocks and push constants, one IR uniform per member that holds no struct: the
     * uniform is an array of slots (a scalar or vector each; a matrix is its columns, an array its
     * elements' slots in order), times the lengths of the arrays of structs around it (structure of
     * arrays, so a run-time index into an array of structs selects the element in each member).
     */
    record UniformPlace(Variable var, SpirvType type) implements Place {}

    record UniformStructPlace(SpirvType.Struct type, List<Place> members) implements Place {}

    record UniformArrayPlace(SpirvType.Array type, Place element) implements Place {}

    record BufferPlace(Variable var, SpirvType root) implements Place {}

    /**
     * What a device pointer (buffer_reference) points at: device memory from {@code address}
     * on, laid out as {@code root} by its Offset, ArrayStride and MatrixStride decorations.
     */
    record DevicePlace(Value address, SpirvType root) implements Place {}

    /** Where loads and stores of a laid-out block go: a buffer by its binding, or device memory from a 64-bit address. */
    private record Memory(Variable buffer, Value base) {}

    /** An array of buffer blocks: one IR buffer per element (they share the array's binding). */
    record BufferArrayPlace(List<Variable> vars, SpirvType.Struct block) implements Place {}

    record TexturePlace(Variable var) implements Place {}

    /** An array of textures: one IR texture array, indexed at run time. */
    record TextureArrayPlace(Variable var) implements Place {}

    /** OpImageTexelPointer: one texel of a storage image, for atomics (and atomic loads and stores). */
    record ImageTexelPlace(Variable var, Value coord) implements Place {}

    /** A ray query object: its state in locals (see {@link RayQueries}). */
    record RayQueryPlace(RayQueries.State state) implements Place {}

    /** An acceleration structure: a buffer of triangles (see {@link RayQueries}). */
    record AccelPlace(Variable buffer) implements Place {}

    /** A separate sampler: Lathe's textures carry their own sampling, so it holds nothing. */
    /**
     * A sampler, or an array of {@code length} of them (0: one): it holds nothing the IR models
     * (the IR's textures carry their sampling), but an index past an array of samplers is Vulkan's
     * undefined, so the frontend notes it.
     */
    record SamplerPlace(int length) implements Place {}

    /**
     * What an image or sampled-image id stands for: one texture, or element {@code index} of an
     * array of textures (the texture instructions take the index as their first source).
     */
    record TexChoice(Variable var, Value index) {
        static TexChoice of(Variable v) {
            return new TexChoice(v, null);
        }
    }

    /** gl_PerVertex: Position goes to an output's shadow, the other members nowhere. */
    record PerVertexPlace(LocalPlace position) implements Place {}

    /** The OpName of an id (made an identifier), or the fallback and the id; unique in the shader. */
    String uniqueName(int id, String fallback) {
        String n = id > 0 ? m.names.getOrDefault(id, "") : "";
        n = n.replaceAll("[^A-Za-z0-9_]", "_");
        if (n.isEmpty()) n = id > 0 ? fallback + id : fallback;
        if (!Character.isLetter(n.charAt(0)) && n.charAt(0) != '_') n = "_" + n;
        String base = n;
        for (int k = 2; !usedNames.add(n); k++) n = base + "_" + k;
        return n;
    }

    VarType varType(Instruction at, SpirvType t) {
        SpirvType s = SpirvType.scalarOf(t);
        BaseType base = s instanceof SpirvType.Float
                ? BaseType.FLOAT
                : s instanceof SpirvType.Bool
                        ? BaseType.BOOL
                        : s instanceof SpirvType.Int i && i.signed()
                                ? BaseType.INT
                                : s instanceof SpirvType.Int || s instanceof SpirvType.DevicePointer
                                        ? BaseType.UINT
                                        : null;
        if (base == null) throw mod.error(at, "unsupported variable type " + t);
        return new VarType(base, SpirvType.bits(t), SpirvType.components(t));
    }

    private void global(Instruction v) {
        current = v;
        int id = m.id(v, 1);
        if (!(m.typeOf(v, m.id(v, 0)) instanceof SpirvType.Pointer pt))
            throw mod.error(v, "OpVariable without a pointer type");
        SpirvType t = pt.pointee();
        int sc = m.arg(v, 2);
        Integer builtin = m.decoration(id, ModuleInfo.BUILTIN);
        switch (sc) {
            case ModuleInfo.INPUT -> {
                if (builtin != null && Subgroups.isBuiltin(builtin)) {
                    pointers.put(id, new Ptr(new SubgroupPlace(builtin), t, List.of()));
                    return;
                }
                if (shader.stage() == Stage.GEOMETRY && geometryInput(v, id, t, builtin)) return;
                if (builtin != null && BUILTIN_INPUTS.containsKey(builtin) && shader.stage() != Stage.COMPUTE) {
                    if (!SpirvType.isSimple(t))
                        throw mod.error(
                                v,
                                "unsupported OpVariable (" + SpirvNames.of("BuiltIn", builtin) + " of type " + t + ")");
                    builtinInputs.add(new BuiltinInput(v, id, BUILTIN_INPUTS.get(builtin), t));
                    return;
                }
                if (builtin != null) {
                    Intrinsic in = switch (builtin) {
                        case 24 -> Intrinsic.LOAD_NUM_WORKGROUPS;
                        case 25 -> Intrinsic.LOAD_WORKGROUP_SIZE;
                        case 26 -> Intrinsic.LOAD_WORKGROUP_ID;
                        case 27 -> Intrinsic.LOAD_LOCAL_INVOCATION_ID;
                        case 28 -> Intrinsic.LOAD_GLOBAL_INVOCATION_ID;
                        case 29 -> Intrinsic.LOAD_LOCAL_INVOCATION_INDEX;
                        case 15 -> Intrinsic.LOAD_FRAG_COORD;
                        case 17 -> Intrinsic.LOAD_FRONT_FACE;
                        case 42 -> Intrinsic.LOAD_VERTEX_ID;
                        case 43 -> Intrinsic.LOAD_INSTANCE_ID;
                        default ->
                            throw mod.error(
                                    v, "unsupported OpVariable (input " + SpirvNames.of("BuiltIn", builtin) + ")");
                    };
                    pointers.put(id, new Ptr(new BuiltinPlace(in), t, List.of()));
                    return;
                }
                if (shader.stage() == Stage.COMPUTE)
                    throw mod.error(
                            v,
                            "unsupported OpVariable (an Input variable without a compute BuiltIn in a compute shader)");
                Integer loc = m.decoration(id, ModuleInfo.LOCATION);
                boolean flat = m.decoration(id, ModuleInfo.FLAT) != null;
                Place place = inputPlace(v, uniqueName(id, "in"), t, new int[] {loc == null ? 0 : loc}, flat);
                pointers.put(id, new Ptr(place, t, List.of()));
            }
            case ModuleInfo.OUTPUT -> {
                if (shader.stage() == Stage.COMPUTE)
                    throw mod.error(v, "unsupported OpVariable (an Output variable in a compute shader)");
                if (t instanceof SpirvType.Struct st && m.memberDecoration(st.id(), 0, ModuleInfo.BUILTIN) != null) {
                    // gl_PerVertex: member 0 is Position
                    Variable out = shader.addVariable(
                            Variable.output(uniqueName(-1, "gl_Position"), VarType.f32(4), nextOutputLocation()));
                    Variable shadow =
                            fn.addLocal(Variable.local(uniqueName(-1, "gl_Position_value"), VarType.f32(4), 0));
                    outputs.add(new OutputCopy(out, shadow, -1));
                    pointers.put(
                            id,
                            new Ptr(
                                    new PerVertexPlace(
                                            new LocalPlace(shadow, st.members().get(0))),
                                    t,
                                    List.of()));
                    return;
                }
                if (builtin != null
                        && shader.stage() == Stage.GEOMETRY
                        && (builtin == 7 || builtin == 9 || builtin == 10)) {
                    // gl_PrimitiveID, gl_Layer, gl_ViewportIndex: per-vertex outputs of the emitted stream, like any
                    // other (named as the fragment shader's inputs of the same builtins)
                    pointers.put(
                            id,
                            new Ptr(
                                    outputPlace(v, uniqueName(-1, BUILTIN_INPUTS.get(builtin)), t, new int[] {
                                        nextOutputLocation()
                                    }),
                                    t,
                                    List.of()));
                    return;
                }
                if (builtin != null)
                    throw mod.error(v, "unsupported OpVariable (output " + SpirvNames.of("BuiltIn", builtin) + ")");
                Integer loc = m.decoration(id, ModuleInfo.LOCATION);
                Place place =
                        outputPlace(v, uniqueName(id, "out"), t, new int[] {loc == null ? nextOutputLocation() : loc});
                pointers.put(id, new Ptr(place, t, List.of()));
            }
            case ModuleInfo.UNIFORM, ModuleInfo.PUSH_CONSTANT, ModuleInfo.STORAGE_BUFFER -> {
                // an array of blocks (uniform UBO { … } ubo[2]) is one descriptor per element
                SpirvType.Array blocks =
                        t instanceof SpirvType.Array a && a.element() instanceof SpirvType.Struct ? a : null;
                SpirvType.RuntimeArray runTimeBlocks =
                        t instanceof SpirvType.RuntimeArray ra && ra.element() instanceof SpirvType.Struct ? ra : null;
                SpirvType blockType =
                        blocks != null ? blocks.element() : runTimeBlocks != null ? runTimeBlocks.element() : t;
                if (!(blockType instanceof SpirvType.Struct st)) {
                    throw mod.error(v, "unsupported OpVariable (a block of type " + t + ", which is no struct)");
                }
                boolean buffer =
                        sc == ModuleInfo.STORAGE_BUFFER || m.decoration(st.id(), ModuleInfo.BUFFER_BLOCK) != null;
                if (buffer) {
                    Integer binding = m.decoration(id, ModuleInfo.BINDING);
                    SpirvType scalar = firstScalar(st);
                    // an unnamed block instance (buffer Data { … };) goes by its block's name
                    String name = m.names.getOrDefault(id, "").isEmpty()
                                    && !m.names.getOrDefault(st.id(), "").isEmpty()
                            ? uniqueName(-1, m.names.get(st.id()).replaceAll("[^A-Za-z0-9_]", "_"))
                            : uniqueName(id, "buf");
                    if (runTimeBlocks != null) {
                        runTimeArrays.add(new BufferArray(v, id, t, name, st, scalar, binding == null ? 0 : binding));
                        return;
                    }
                    if (blocks == null) {
                        Variable var = shader.addVariable(
                                Variable.buffer(name, varType(v, scalar), binding == null ? 0 : binding));
                        pointers.put(id, new Ptr(new BufferPlace(var, t), t, List.of()));
                        return;
                    }
                    if (blocks.length() > 32)
                        throw mod.error(
                                v,
                                "unsupported OpVariable (an array of " + Integer.toUnsignedString(blocks.length())
                                        + " buffers; the target has 32)");
                    List<Variable> vars = new ArrayList<>();
                    for (int k = 0; k < blocks.length(); k++) {
                        vars.add(shader.addVariable(Variable.buffer(
                                uniqueName(-1, name + "_" + k), varType(v, scalar), binding == null ? 0 : binding)));
                    }
                    pointers.put(id, new Ptr(new BufferArrayPlace(vars, st), t, List.of()));
                    return;
                }
                // a run-time sized array of uniform blocks (descriptor indexing) holds RUN_TIME_UNIFORM_BLOCKS here:
                // the IR's uniforms have a length, and an index past it is noted as Vulkan's undefined
                SpirvType placed = runTimeBlocks != null
                        ? new SpirvType.Array(
                                runTimeBlocks.element(), SpirvFrontend.RUN_TIME_UNIFORM_BLOCKS, runTimeBlocks.id())
                        : t;
                String block = m.names.getOrDefault(id, "");
                if (block.isEmpty()) block = m.names.getOrDefault(st.id(), "ubo");
                pointers.put(
                        id,
                        new Ptr(uniformPlace(v, block.replaceAll("[^A-Za-z0-9_]", "_"), placed, 1), placed, List.of()));
            }
            case ModuleInfo.UNIFORM_CONSTANT -> {
                SpirvType el = t instanceof SpirvType.Array a
                        ? a.element()
                        : t instanceof SpirvType.RuntimeArray ra ? ra.element() : t;
                if (t instanceof SpirvType.AccelerationStructure) {
                    Integer binding = m.decoration(id, ModuleInfo.BINDING);
                    Variable var = shader.addVariable(
                            Variable.buffer(uniqueName(id, "accel"), VarType.f32(1), binding == null ? 0 : binding));
                    pointers.put(id, new Ptr(new AccelPlace(var), t, List.of()));
                    return;
                }
                if (el instanceof SpirvType.Sampler) {
                    pointers.put(
                            id,
                            new Ptr(new SamplerPlace(t instanceof SpirvType.Array a ? a.length() : 0), t, List.of()));
                    return;
                }
                SpirvType.Image im = el instanceof SpirvType.SampledImage si
                        ? si.image()
                        : el instanceof SpirvType.Image ii ? ii : null;
                if (im == null) throw mod.error(v, "unsupported OpVariable (UniformConstant of type " + t + ")");
                boolean subpass = im.dim() == 6;
                if (im.dim() > 3 && !subpass)
                    throw mod.error(v, "unsupported OpTypeImage (" + SpirvNames.of("Dim", im.dim()) + ")");
                if (im.multisampled() && (im.arrayed() || im.usage() == 2 && !subpass)) {
                    throw mod.error(
                            v,
                            "unsupported OpTypeImage (multisampled " + (im.arrayed() ? "arrays" : "storage images")
                                    + ")");
                }
                if (im.arrayed() && (im.usage() == 2 && !subpass || im.dim() > 3)) {
                    throw mod.error(
                            v,
                            "unsupported OpTypeImage (arrayed "
                                    + (im.usage() == 2
                                            ? "storage images"
                                            : "images of " + SpirvNames.of("Dim", im.dim()))
                                    + ")");
                }
                // a layered texture is an IR texture with one more dimension (its layers, a cube's faces, the samples)
                TextureShape shape = subpass
                        ? (im.multisampled() ? TextureShape.SUBPASS_MULTISAMPLED : TextureShape.SUBPASS)
                        : im.dim() == 3
                                ? (im.arrayed() ? TextureShape.CUBE_ARRAY : TextureShape.CUBE)
                                : im.multisampled()
                                        ? TextureShape.MULTISAMPLED
                                        : im.arrayed() ? TextureShape.ARRAY : TextureShape.PLAIN;
                if ((shape == TextureShape.CUBE || shape == TextureShape.CUBE_ARRAY) && im.usage() == 2) {
                    throw mod.error(v, "unsupported OpTypeImage (cube storage images)");
                }
                int dims = switch (shape) {
                    case CUBE, CUBE_ARRAY, MULTISAMPLED, SUBPASS_MULTISAMPLED -> 3;
                    case SUBPASS -> 2;
                    default -> im.dim() + 1 + (im.arrayed() ? 1 : 0);
                };
                if (dims > 3) throw mod.error(v, "unsupported OpTypeImage (arrayed 3D images)");
                // cube maps, arrays of them and arrays of 1D and 2D textures are the IR's own (their
                // samples take a direction, a layer, both)
                TextureDim dim = shape == TextureShape.CUBE
                        ? TextureDim.CUBE
                        : shape == TextureShape.CUBE_ARRAY
                                ? TextureDim.CUBE_ARRAY
                                : shape == TextureShape.ARRAY
                                        ? (dims == 2 ? TextureDim.D1_ARRAY : TextureDim.D2_ARRAY)
                                        : dims == 1 ? TextureDim.D1 : dims == 2 ? TextureDim.D2 : TextureDim.D3;
                SpirvType s = im.sampled();
                BaseType base = s instanceof SpirvType.Float
                        ? BaseType.FLOAT
                        : s instanceof SpirvType.Int i && i.signed() ? BaseType.INT : BaseType.UINT;
                int binding = m.decoration(id, ModuleInfo.BINDING) == null ? 0 : m.decoration(id, ModuleInfo.BINDING);
                String name = uniqueName(id, im.usage() == 2 && !subpass ? "img" : "tex");
                if (subpass && shader.stage() != Stage.FRAGMENT)
                    throw mod.error(
                            v, "an input attachment (" + SpirvNames.of("Dim", 6) + ") outside a fragment shader");
                if (im.usage() == 2 && !subpass) {
                    if (t instanceof SpirvType.Array || t instanceof SpirvType.RuntimeArray)
                        throw mod.error(v, "unsupported OpVariable (an array of storage images)");
                    ImageFormat format = im.format() == 0 ? ImageFormat.full(base) : ImageFormat.ofSpirv(im.format());
                    if (format == null)
                        throw mod.error(
                                v, "unsupported OpTypeImage (" + SpirvNames.of("ImageFormat", im.format()) + ")");
                    if (format.base() != base)
                        throw mod.error(v, "OpTypeImage: format " + format.spelling() + " on a " + s + " image");
                    Variable var = shader.addVariable(Variable.image(name, dim, format, binding));
                    pointers.put(id, new Ptr(new TexturePlace(var), t, List.of()));
                    return;
                }
                TextureArray array = new TextureArray(v, id, t, name, dim, base, binding, shape);
                if (t instanceof SpirvType.RuntimeArray) {
                    runTimeArrays.add(array); // sized once every other texture is known
                    return;
                }
                if (!(t instanceof SpirvType.Array a)) {
                    Variable var = shader.addVariable(Variable.texture(name, dim, base, binding, false));
                    textureShapes.put(var, shape);
                    pointers.put(id, new Ptr(new TexturePlace(var), t, List.of()));
                    return;
                }
                if (a.length() > 32)
                    throw mod.error(
                            v, "unsupported OpVariable (an array of " + a.length() + " textures; the target has 32)");
                textureArray(array, a.length());
            }
            case ModuleInfo.PRIVATE -> pointers.put(id, new Ptr(localPlace(v, id, t), t, List.of()));
            case ModuleInfo.WORKGROUP -> {
                // shared memory: the same places as a local, made of shared variables
                if (shader.stage() != Stage.COMPUTE)
                    throw mod.error(v, "unsupported OpVariable (Workgroup storage outside a compute shader)");
                workgroup = true;
                try {
                    pointers.put(id, new Ptr(localPlace(v, id, t), t, List.of()));
                } finally {
                    workgroup = false;
                }
            }
            default -> throw mod.error(v, "unsupported OpVariable (" + SpirvNames.of("StorageClass", sc) + ")");
        }
    }

    /**
     * An input: a scalar or vector is one IR input; a matrix or an array of them one input per
     * column or element at consecutive locations; a struct (an input block) one place per member,
     * at its member Location or the next one.
     */
    /**
     * A geometry shader's input: gl_PrimitiveIDIn and gl_InvocationID as system values, gl_in[]
     * (its Position) and the per-vertex arrays as IR inputs of one element per vertex. False when
     * {@code v} is none of these (it is read as in the other stages).
     */
    private boolean geometryInput(Instruction v, int id, SpirvType t, Integer builtin) {
        int vertices = shader.geometry().input().vertices();
        if (builtin != null && (builtin == 7 || builtin == 8)) {
            Intrinsic in = builtin == 7 ? Intrinsic.LOAD_PRIMITIVE_ID : Intrinsic.LOAD_INVOCATION_ID;
            pointers.put(id, new Ptr(new BuiltinPlace(in), t, List.of()));
            return true;
        }
        if (!(t instanceof SpirvType.Array ar) || ar.length() != vertices)
            throw mod.error(
                    v,
                    "unsupported OpVariable (a geometry shader's input is an array of " + vertices
                            + " vertices, one per vertex of its input primitive)");
        if (ar.element() instanceof SpirvType.Struct st && m.memberDecoration(st.id(), 0, ModuleInfo.BUILTIN) != null) {
            Variable pos = shader.addVariable(Variable.input(
                    uniqueName(-1, "gl_in_Position"), VarType.f32(4), nextInputLocation(), false, vertices));
            pointers.put(id, new Ptr(new VertexPerVertexPlace(pos), t, List.of()));
            return true;
        }
        if (builtin != null || !SpirvType.isSimple(ar.element()))
            throw mod.error(v, "unsupported OpVariable (a geometry shader's input of type " + t + ")");
        Integer loc = m.decoration(id, ModuleInfo.LOCATION);
        boolean flat = m.decoration(id, ModuleInfo.FLAT) != null || !isFloat(ar.element());
        Variable var = shader.addVariable(Variable.input(
                uniqueName(id, "in"),
                varType(v, ar.element()),
                loc == null ? nextInputLocation() : loc,
                flat,
                vertices));
        pointers.put(id, new Ptr(new VertexInputPlace(var), t, List.of()));
        return true;
    }

    private Place inputPlace(Instruction v, String name, SpirvType t, int[] loc, boolean flat) {
        if (t instanceof SpirvType.Struct st) {
            List<Place> members = new ArrayList<>();
            for (int k = 0; k < st.members().size(); k++) {
                Integer ml = m.memberDecoration(st.id(), k, ModuleInfo.LOCATION);
                if (ml != null) loc[0] = ml;
                boolean mflat = flat || m.memberDecoration(st.id(), k, ModuleInfo.FLAT) != null;
                members.add(inputPlace(
                        v,
                        uniqueName(-1, name + "_" + memberName(st, k)),
                        st.members().get(k),
                        loc,
                        mflat));
            }
            return new StructPlace(st, members);
        }
        if (t instanceof SpirvType.Matrix || t instanceof SpirvType.Array ar && SpirvType.isSimple(ar.element())) {
            SpirvType e = t instanceof SpirvType.Matrix mx ? mx.column() : ((SpirvType.Array) t).element();
            int n = t instanceof SpirvType.Matrix mx ? mx.count() : ((SpirvType.Array) t).length();
            if (n > 32) throw mod.error(v, "unsupported OpVariable (an input array of " + n + " elements)");
            List<Variable> vars = new ArrayList<>();
            for (int k = 0; k < n; k++)
                vars.add(shader.addVariable(
                        Variable.input(uniqueName(-1, name + "_" + k), varType(v, e), loc[0]++, flat || !isFloat(e))));
            return new InputListPlace(vars);
        }
        if (!SpirvType.isSimple(t)) throw mod.error(v, "unsupported OpVariable (an input of type " + t + ")");
        return new InputPlace(shader.addVariable(Variable.input(name, varType(v, t), loc[0]++, flat || !isFloat(t))));
    }

    /**
     * An output, written through a local shadow that every return copies out: a scalar or
     * vector has one output; a matrix or an array of them one per column or element (the shadow
     * is a local array); a struct (an output block) one place per member.
     */
    private Place outputPlace(Instruction v, String name, SpirvType t, int[] loc) {
        if (t instanceof SpirvType.Struct st) {
            List<Place> members = new ArrayList<>();
            for (int k = 0; k < st.members().size(); k++) {
                Integer ml = m.memberDecoration(st.id(), k, ModuleInfo.LOCATION);
                if (ml != null) loc[0] = ml;
                members.add(outputPlace(
                        v,
                        uniqueName(-1, name + "_" + memberName(st, k)),
                        st.members().get(k),
                        loc));
            }
            return new StructPlace(st, members);
        }
        if (t instanceof SpirvType.Matrix || t instanceof SpirvType.Array ar && SpirvType.isSimple(ar.element())) {
            SpirvType e = t instanceof SpirvType.Matrix mx ? mx.column() : ((SpirvType.Array) t).element();
            int n = t instanceof SpirvType.Matrix mx ? mx.count() : ((SpirvType.Array) t).length();
            if (n > 32) throw mod.error(v, "unsupported OpVariable (an output array of " + n + " elements)");
            Variable shadow = fn.addLocal(Variable.local(uniqueName(-1, name + "_value"), varType(v, e), n));
            for (int k = 0; k < n; k++) {
                outputs.add(new OutputCopy(
                        shader.addVariable(Variable.output(uniqueName(-1, name + "_" + k), varType(v, e), loc[0]++)),
                        shadow,
                        k));
            }
            return new LocalPlace(shadow, t);
        }
        if (!SpirvType.isSimple(t)) throw mod.error(v, "unsupported OpVariable (an output of type " + t + ")");
        Variable out = shader.addVariable(Variable.output(name, varType(v, t), loc[0]++));
        Variable shadow = fn.addLocal(Variable.local(uniqueName(-1, name + "_value"), varType(v, t), 0));
        outputs.add(new OutputCopy(out, shadow, -1));
        return new LocalPlace(shadow, t);
    }

    private String memberName(SpirvType.Struct st, int k) {
        return m.memberNames
                .getOrDefault(st.id(), Map.of())
                .getOrDefault(k, "m" + k)
                .replaceAll("[^A-Za-z0-9_]", "_");
    }

    private static boolean isFloat(SpirvType t) {
        return SpirvType.scalarOf(t) instanceof SpirvType.Float;
    }

    /** The slots of a uniform type that holds no struct. */
    private static int slots(SpirvType t) {
        if (t instanceof SpirvType.Matrix mx) return mx.count();
        if (t instanceof SpirvType.Array a)
            return (int) Math.min((long) a.length() * slots(a.element()), Integer.MAX_VALUE);
        return 1;
    }

    private static boolean holdsStruct(SpirvType t) {
        if (t instanceof SpirvType.Struct) return true;
        if (t instanceof SpirvType.Array a) return holdsStruct(a.element());
        return false;
    }

    /** Uniforms hold this many slots at most (the constant file is far smaller anyway). */
    private static final int MAX_UNIFORM_SLOTS = 1 << 16;

    /** The place of a uniform block member of type {@code t}, repeated {@code times} over by the arrays of structs around it. */
    private Place uniformPlace(Instruction v, String name, SpirvType t, int times) {
        if (t instanceof SpirvType.Struct st) {
            List<Place> members = new ArrayList<>();
            for (int k = 0; k < st.members().size(); k++) {
                members.add(uniformPlace(
                        v, name + "_" + memberName(st, k), st.members().get(k), times));
            }
            return new UniformStructPlace(st, members);
        }
        if (t instanceof SpirvType.Array ar && holdsStruct(ar.element())) {
            if ((long) times * ar.length() > MAX_UNIFORM_SLOTS)
                throw mod.error(v, "unsupported OpVariable (a uniform array of " + ar.length() + " structs)");
            return new UniformArrayPlace(ar, uniformPlace(v, name, ar.element(), times * ar.length()));
        }
        SpirvType leaf = t;
        while (!SpirvType.isSimple(leaf)) {
            if (leaf instanceof SpirvType.Matrix mx) leaf = mx.column();
            else if (leaf instanceof SpirvType.Array ar) leaf = ar.element();
            else throw mod.error(v, "unsupported OpVariable (uniform block member of type " + t + ")");
        }
        long n = (long) slots(t) * times;
        if (n > MAX_UNIFORM_SLOTS) throw mod.error(v, "unsupported OpVariable (a uniform of " + n + " vectors)");
        int len = SpirvType.isSimple(t) && times == 1 ? 0 : (int) n;
        return new UniformPlace(
                shader.addVariable(
                        Variable.uniform(uniqueName(-1, name), varType(v, leaf), len, shader.nextUniformLocation())),
                t);
    }

    /** a + b on 32-bit indices, folded when both are constants (so vars_to_ssa sees constant indices). */
    private Value plus(Value x, Value y) {
        Long cx = constantOf(x), cy = constantOf(y);
        if (cx != null && cy != null) return b.i32((int) (cx + cy));
        if (cx != null && cx == 0) return y;
        if (cy != null && cy == 0) return x;
        return b.alu(Op.IADD, x, y);
    }

    /** x · k on 32-bit indices, folded like {@link #plus}. */
    private Value times(Value x, int k) {
        Long cx = constantOf(x);
        if (cx != null) return b.i32((int) (cx * k));
        return k == 1 ? x : b.alu(Op.IMUL, x, b.i32(k));
    }

    private static Long constantOf(Value v) {
        return v.parent() instanceof LoadConstInstr lc && v.numComponents() == 1 ? lc.values()[0] : null;
    }

    /** Loads along a path in a local array of scalars or vectors (the slots of {@code t}, from {@code slot}). */
    private Val localSlots(Instruction at, Variable var, SpirvType t, Value slot, List<Object> path) {
        return loadSlots(at, t, slot, path, s -> b.loadVar(var, s));
    }

    /**
     * Loads along a path in an array of slots (a scalar or vector each; matrices are their
     * columns, arrays their elements' slots in order) starting at {@code slot}; {@code leaf}
     * loads one slot.
     */
    private Val loadSlots(Instruction at, SpirvType t, Value slot, List<Object> path, UnaryOperator<Value> leaf) {
        if (SpirvType.isSimple(t)) return component(leaf.apply(slot), path);
        SpirvType e = t instanceof SpirvType.Matrix mx ? mx.column() : ((SpirvType.Array) t).element();
        int n = t instanceof SpirvType.Matrix mx ? mx.count() : ((SpirvType.Array) t).length();
        int stride = slots(e);
        if (path.isEmpty()) {
            checkLeaves(at, t, "OpLoad");
            List<Val> parts = new ArrayList<>();
            for (int k = 0; k < n; k++) parts.add(loadSlots(at, e, plus(slot, b.i32(k * stride)), List.of(), leaf));
            return new Val.Composite(parts);
        }
        // a run-time index past the array (or matrix) reads zero here; Vulkan leaves it undefined
        if (path.get(0) instanceof Value v) fn.noteDescriptorIndex(v, n);
        Value next = plus(slot, times(index(path.get(0)), stride));
        return loadSlots(at, e, next, path.subList(1, path.size()), leaf);
    }

    /**
     * A value a SPIR-V instruction stores into {@code var} (whole, or one of its components): it
     * must have the variable's size and width, which SPIR-V's types promise and a malformed
     * module breaks.
     */
    Value fitting(Instruction at, Value x, Variable var, boolean component) {
        VarType t = var.type();
        int comps = component ? 1 : t.components();
        if (x.bitSize() != t.bitSize() || x.numComponents() != comps) {
            throw mod.error(
                    at,
                    SpirvNames.opcode(at.opcode()) + " stores a " + x.numComponents() + "-component " + x.bitSize()
                            + "-bit value where " + (component ? "a component of " : "") + "its variable holds "
                            + (component ? t.scalarName() : t));
        }
        return x;
    }

    private void storeSlots(Instruction at, Variable var, SpirvType t, Value slot, List<Object> path, Val val) {
        if (SpirvType.isSimple(t)) {
            Value x = fitting(at, simple(at, val), var, !path.isEmpty());
            if (!path.isEmpty()) x = insert(b.loadVar(var, slot), path.get(0), x);
            b.storeVar(var, slot, x);
            return;
        }
        SpirvType e = t instanceof SpirvType.Matrix mx ? mx.column() : ((SpirvType.Array) t).element();
        int n = t instanceof SpirvType.Matrix mx ? mx.count() : ((SpirvType.Array) t).length();
        int stride = slots(e);
        if (path.isEmpty()) {
            checkLeaves(at, t, "OpStore");
            if (!(val instanceof Val.Composite c) || c.members().size() != n)
                throw mod.error(at, "storing a value that is no " + t);
            for (int k = 0; k < n; k++)
                storeSlots(
                        at,
                        var,
                        e,
                        plus(slot, b.i32(k * stride)),
                        List.of(),
                        c.members().get(k));
            return;
        }
        Value next = plus(slot, times(index(path.get(0)), stride));
        storeSlots(at, var, e, next, path.subList(1, path.size()), val);
    }

    /** Loads along a path in a uniform block; {@code outer} is the element index among the arrays of structs passed. */
    private Val loadUniform(Instruction at, Place place, List<Object> path, Value outer) {
        if (place instanceof UniformArrayPlace ua) {
            int len = ua.type().length();
            if (path.isEmpty()) {
                checkLeaves(at, ua.type(), "OpLoad");
                List<Val> elems = new ArrayList<>();
                for (int e = 0; e < len; e++) elems.add(loadUniform(at, place, List.of(e), outer));
                return new Val.Composite(elems);
            }
            Value idx = index(path.get(0));
            // past the array (of blocks, or in a block): Vulkan's undefined, zero here
            if (path.get(0) instanceof Value) fn.noteDescriptorIndex(idx, len);
            Value o = outer == null ? idx : plus(times(outer, len), idx);
            return loadUniform(at, ua.element(), path.subList(1, path.size()), o);
        }
        if (place instanceof UniformStructPlace us) {
            if (path.isEmpty()) {
                List<Val> parts = new ArrayList<>();
                for (Place mp : us.members()) parts.add(loadUniform(at, mp, List.of(), outer));
                return new Val.Composite(parts);
            }
            int k = memberIndex(at, path.get(0), us.members().size());
            return loadUniform(at, us.members().get(k), path.subList(1, path.size()), outer);
        }
        UniformPlace up = (UniformPlace) place;
        Value slot = outer == null ? b.i32(0) : times(outer, slots(up.type()));
        return uniformSlots(at, up.var(), up.type(), slot, path);
    }

    private Val uniformSlots(Instruction at, Variable var, SpirvType t, Value slot, List<Object> path) {
        return loadSlots(at, t, slot, path, s -> var.isArray() ? b.loadUniform(var, s) : b.loadUniform(var));
    }

    /**
     * Built-ins that are plain inputs to the shader: values the rasterizer or the draw provides
     * that the IR has no system value for. Like ir3, which reads gl_PointCoord as a varying, they
     * become IR inputs (named after GLSL, at the locations after the shader's own), so the
     * interpreter takes them from {@code --input} and the backend reads them as any input.
     */
    private static final Map<Integer, String> BUILTIN_INPUTS = Map.ofEntries(
            Map.entry(16, "gl_PointCoord"),
            Map.entry(7, "gl_PrimitiveID"),
            Map.entry(9, "gl_Layer"),
            Map.entry(10, "gl_ViewportIndex"),
            Map.entry(18, "gl_SampleID"),
            Map.entry(19, "gl_SamplePosition"),
            Map.entry(4424, "gl_BaseVertex"),
            Map.entry(4425, "gl_BaseInstance"),
            Map.entry(4426, "gl_DrawID"),
            Map.entry(4440, "gl_ViewIndex"),
            Map.entry(4444, "gl_ShadingRateEXT"),
            Map.entry(5286, "gl_BaryCoordEXT"),
            Map.entry(5287, "gl_BaryCoordNoPerspEXT"));

    private record BuiltinInput(Instruction at, int id, String name, SpirvType type) {}

    /**
     * An array of textures, made once its length is known. A run-time sized one
     * ({@code sampler2D textures[]}, descriptor indexing) gets the texture slots the shader's
     * other textures leave free (the target has 32), shared among such arrays; an index past
     * the end reads the last element, as the IR's texture instructions define it.
     */
    private record TextureArray(
            Instruction at,
            int id,
            SpirvType type,
            String name,
            TextureDim dim,
            BaseType base,
            int binding,
            TextureShape shape) {}

    /** An array of buffer blocks, made once its length is known (run-time sized ones share the free buffer slots). */
    private record BufferArray(
            Instruction at,
            int id,
            SpirvType type,
            String name,
            SpirvType.Struct block,
            SpirvType scalar,
            int binding) {}

    /** Run-time sized descriptor arrays ({@link TextureArray}, {@link BufferArray}) waiting for their lengths. */
    private final List<Object> runTimeArrays = new ArrayList<>();

    private void textureArray(TextureArray a, int length) {
        Variable var = shader.addVariable(Variable.texture(a.name(), a.dim(), a.base(), a.binding(), false, length));
        textureShapes.put(var, a.shape());
        pointers.put(a.id(), new Ptr(new TextureArrayPlace(var), a.type(), List.of()));
    }

    private void bufferArray(BufferArray a, int length) {
        List<Variable> vars = new ArrayList<>();
        for (int k = 0; k < length; k++) {
            vars.add(shader.addVariable(
                    Variable.buffer(uniqueName(-1, a.name() + "_" + k), varType(a.at(), a.scalar()), a.binding())));
        }
        pointers.put(a.id(), new Ptr(new BufferArrayPlace(vars, a.block()), a.type(), List.of()));
    }

    private final List<BuiltinInput> builtinInputs = new ArrayList<>();

    private int nextInputLocation() {
        int max = -1;
        for (Variable i : shader.variables(Variable.Kind.INPUT)) max = Math.max(max, i.location());
        return max + 1;
    }

    private int nextOutputLocation() {
        int max = -1;
        for (Variable o : shader.variables(Variable.Kind.OUTPUT)) max = Math.max(max, o.location());
        return max + 1;
    }

    private SpirvType firstScalar(SpirvType t) {
        while (true) {
            if (t instanceof SpirvType.Struct s && !s.members().isEmpty())
                t = s.members().get(0);
            else if (t instanceof SpirvType.Array a) t = a.element();
            else if (t instanceof SpirvType.RuntimeArray a) t = a.element();
            else if (t instanceof SpirvType.Matrix mx) t = mx.column();
            else return SpirvType.scalarOf(t);
        }
    }

    /** A function or private variable: an IR local, or for a struct one place per member. */
    private Place localPlace(Instruction at, int id, SpirvType t) {
        if (t instanceof SpirvType.RayQuery)
            return new RayQueryPlace(new RayQueries.State(this, uniqueName(id, "ray_query")));
        if (t instanceof SpirvType.Struct st) {
            List<Place> ms = new ArrayList<>();
            for (SpirvType mt : st.members()) ms.add(localPlace(at, id, mt));
            return new StructPlace(st, ms);
        }
        if (t instanceof SpirvType.Array ar && ar.element() instanceof SpirvType.Struct st) {
            List<Variable> ms = new ArrayList<>();
            for (SpirvType mt : st.members()) {
                if (!SpirvType.isSimple(mt))
                    throw mod.error(
                            at, "unsupported OpVariable (an array of structs with a member of type " + mt + ")");
                VarType vt = varType(at, mt);
                ms.add(newVariable(uniqueName(id, "v"), vt, ar.length()));
            }
            return new StructArrayPlace(ar, st, ms);
        }
        return local(at, id, t);
    }

    private LocalPlace local(Instruction at, int id, SpirvType t) {
        VarType vt;
        int len = 0;
        if (SpirvType.isSimple(t)) {
            vt = varType(at, t);
        } else if (t instanceof SpirvType.Matrix mx) {
            vt = varType(at, mx.column());
            len = mx.count();
        } else if (t instanceof SpirvType.Array ar && !holdsStruct(ar)) {
            // arrays of arrays and of matrices: one array of their scalars or vectors, in order
            SpirvType leaf = ar.element();
            while (!SpirvType.isSimple(leaf))
                leaf = leaf instanceof SpirvType.Matrix mx ? mx.column() : ((SpirvType.Array) leaf).element();
            vt = varType(at, leaf);
            if (slots(t) > MAX_UNIFORM_SLOTS)
                throw mod.error(at, "unsupported OpVariable (an array of " + slots(t) + " elements)");
            len = slots(t);
        } else {
            throw mod.error(at, "unsupported OpVariable (a local of type " + t + ")");
        }
        if (vt.bitSize() == 1) vt = new VarType(BaseType.BOOL, 1, vt.components());
        return new LocalPlace(newVariable(uniqueName(id, "v"), vt, len), t);
    }

    /** While a Workgroup variable is declared: its places are shared variables, not locals. */
    private boolean workgroup;

    private Variable newVariable(String name, VarType vt, int len) {
        if (!workgroup) return fn.addLocal(Variable.local(name, vt, len));
        return shader.addVariable(Variable.shared(name, vt, len));
    }

    void storeOutputs() {
        for (OutputCopy o : outputs)
            b.storeOutput(
                    o.output(), o.element() < 0 ? b.loadVar(o.shadow()) : b.loadVar(o.shadow(), b.i32(o.element())));
    }

    // ---- loads and stores ---------------------------------------------------------------------

    Value index(Object o) {
        return o instanceof Integer k ? b.i32(k) : (Value) o;
    }

    Val load(Instruction at, Ptr p) {
        Place place = p.place();
        List<Object> path = p.path();
        if (place instanceof PerVertexPlace pv) {
            if (path.isEmpty() || !Integer.valueOf(0).equals(path.get(0)))
                throw mod.error(at, "unsupported OpLoad (gl_PerVertex other than Position)");
            return load(at, new Ptr(pv.position(), p.type(), path.subList(1, path.size())));
        }
        if (place instanceof StructArrayPlace sa) {
            if (path.isEmpty()) {
                List<Val> elems = new ArrayList<>();
                for (int e = 0; e < sa.type().length(); e++)
                    elems.add(load(at, new Ptr(place, sa.element(), List.of(e))));
                return new Val.Composite(elems);
            }
            Value idx = index(path.get(0));
            if (path.size() == 1) {
                List<Val> ms = new ArrayList<>();
                for (Variable v : sa.members()) ms.add(new Val.Simple(b.loadVar(v, idx)));
                return new Val.Composite(ms);
            }
            int k = memberIndex(at, path.get(1), sa.members().size());
            return component(b.loadVar(sa.members().get(k), idx), path.subList(2, path.size()));
        }
        if (place instanceof StructPlace sp) {
            if (path.isEmpty()) {
                List<Val> parts = new ArrayList<>();
                for (int k = 0; k < sp.members().size(); k++)
                    parts.add(load(
                            at, new Ptr(sp.members().get(k), sp.type().members().get(k), List.of())));
                return new Val.Composite(parts);
            }
            int k = memberIndex(at, path.get(0), sp.members().size());
            return load(at, new Ptr(sp.members().get(k), p.type(), path.subList(1, path.size())));
        }
        if (place instanceof LocalPlace lp) {
            if (SpirvType.isSimple(lp.type())) return component(b.loadVar(lp.var()), path);
            return localSlots(at, lp.var(), lp.type(), b.i32(0), path);
        }
        if (place instanceof InputPlace ip) return component(b.loadInput(ip.var()), path);
        if (place instanceof VertexInputPlace vi) {
            if (path.isEmpty()) {
                List<Val> parts = new ArrayList<>();
                for (int k = 0; k < vi.var().arrayLength(); k++)
                    parts.add(new Val.Simple(b.loadInput(vi.var(), b.i32(k))));
                return new Val.Composite(parts);
            }
            return component(b.loadInput(vi.var(), index(path.get(0))), path.subList(1, path.size()));
        }
        if (place instanceof VertexPerVertexPlace vp) {
            if (path.size() < 2) throw mod.error(at, "unsupported load of a whole gl_in[] element (read its members)");
            if (!(path.get(1) instanceof Integer member) || member != 0)
                throw mod.error(at, "unsupported gl_in[] member (only gl_Position is read)");
            return component(b.loadInput(vp.position(), index(path.get(0))), path.subList(2, path.size()));
        }
        if (place instanceof InputListPlace il) {
            if (path.isEmpty()) {
                List<Val> parts = new ArrayList<>();
                for (Variable v : il.vars()) parts.add(new Val.Simple(b.loadInput(v)));
                return new Val.Composite(parts);
            }
            Value picked;
            if (path.get(0) instanceof Integer k) {
                if (k < 0 || k >= il.vars().size()) throw mod.error(at, "input element " + k + " out of range");
                picked = b.loadInput(il.vars().get(k));
            } else {
                // a run-time index: select among the elements
                Value idx = (Value) path.get(0);
                picked = b.loadInput(il.vars().get(0));
                for (int k = 1; k < il.vars().size(); k++)
                    picked = b.alu(
                            Op.BCSEL,
                            b.alu(Op.IEQ, idx, b.i32(k)),
                            b.loadInput(il.vars().get(k)),
                            picked);
            }
            return component(picked, path.subList(1, path.size()));
        }
        if (place instanceof ImageTexelPlace it) return new Val.Simple(b.channel(b.imageLoad(it.var(), it.coord()), 0));
        if (place instanceof SubgroupPlace sp) {
            SpirvType bt = p.path().isEmpty() ? p.type() : null;
            return component(Subgroups.builtin(b, sp.builtin(), shader.stage() == Stage.COMPUTE, bt), path);
        }
        if (place instanceof BuiltinPlace bp) {
            Value v = b.sysval(bp.intrinsic());
            return component(v, path);
        }
        if (place instanceof UniformPlace
                || place instanceof UniformStructPlace
                || place instanceof UniformArrayPlace) {
            return loadUniform(at, place, path, null);
        }
        if (place instanceof BufferPlace bp) return loadMemory(at, new Memory(bp.var(), null), address(at, p));
        if (place instanceof DevicePlace dp) return loadMemory(at, new Memory(null, dp.address()), address(at, p));
        if (place instanceof BufferArrayPlace ba) {
            if (path.isEmpty()) throw mod.error(at, "unsupported OpLoad (a whole array of buffers)");
            if (path.get(0) instanceof Integer k) return load(at, bufferElement(at, ba, k, p));
            // a run-time (nonuniform) index: load from each buffer and select
            Value idx = (Value) path.get(0);
            fn.noteDescriptorIndex(idx, ba.vars().size()); // past the array: Vulkan's undefined, the first one here
            Val r = load(at, bufferElement(at, ba, 0, p));
            for (int k = 1; k < ba.vars().size(); k++) {
                Val c = new Val.Simple(b.alu(Op.IEQ, idx, b.i32(k)));
                r = Instructions.select(this, at, c, load(at, bufferElement(at, ba, k, p)), r);
            }
            return r;
        }
        throw mod.error(at, "unsupported OpLoad (from " + describe(place) + ")");
    }

    /** What a place is, in words, for messages. */
    static String describe(Place place) {
        if (place instanceof LocalPlace || place instanceof StructPlace || place instanceof StructArrayPlace)
            return "a variable";
        if (place instanceof InputPlace
                || place instanceof InputListPlace
                || place instanceof VertexInputPlace
                || place instanceof VertexPerVertexPlace) return "an input";
        if (place instanceof BuiltinPlace || place instanceof SubgroupPlace) return "a built-in";
        if (place instanceof PerVertexPlace) return "gl_PerVertex";
        if (place instanceof UniformPlace || place instanceof UniformStructPlace || place instanceof UniformArrayPlace)
            return "a uniform block";
        if (place instanceof BufferPlace) return "a buffer";
        if (place instanceof BufferArrayPlace) return "an array of buffers";
        if (place instanceof DevicePlace) return "device memory";
        if (place instanceof TexturePlace || place instanceof TextureArrayPlace) return "a texture or image";
        if (place instanceof ImageTexelPlace) return "an image texel";
        if (place instanceof SamplerPlace) return "a sampler";
        if (place instanceof RayQueryPlace) return "a ray query object";
        if (place instanceof AccelPlace) return "an acceleration structure";
        return "a place Lathe does not read";
    }

    private int memberIndex(Instruction at, Object idx, int n) {
        if (!(idx instanceof Integer k) || k < 0 || k >= n)
            throw mod.error(at, "a struct member index must be a constant in range");
        return k;
    }

    /** Picks a vector component along the rest of a path (a constant, or a run-time index). */
    Val component(Value v, List<Object> path) {
        if (path.isEmpty()) return new Val.Simple(v);
        return new Val.Simple(extract(v, path.get(0)));
    }

    /**
     * Component {@code idx} of a vector. A constant index past the end (spirv-val accepts it; the
     * access is undefined in SPIR-V) reads an undefined value, and {@link #insert} drops a store
     * there.
     */
    Value extract(Value v, Object idx) {
        if (idx instanceof Integer k)
            return k >= 0 && k < v.numComponents() ? b.channel(v, k) : b.undef(1, v.bitSize());
        // a run-time index: select among the components
        Value i = (Value) idx;
        Value r = b.channel(v, 0);
        for (int k = 1; k < v.numComponents(); k++) r = b.alu(Op.BCSEL, b.alu(Op.IEQ, i, b.i32(k)), b.comp(v, k), r);
        return r;
    }

    void store(Instruction at, Ptr p, Val val) {
        Place place = p.place();
        List<Object> path = p.path();
        if (place instanceof PerVertexPlace pv) {
            if (path.isEmpty() || !Integer.valueOf(0).equals(path.get(0))) return; // PointSize, ClipDistance: nowhere
            store(at, new Ptr(pv.position(), p.type(), path.subList(1, path.size())), val);
            return;
        }
        if (place instanceof StructArrayPlace sa) {
            if (path.isEmpty()) {
                if (!(val instanceof Val.Composite c)
                        || c.members().size() != sa.type().length())
                    throw mod.error(at, "storing a value that is no such array");
                for (int e = 0; e < c.members().size(); e++)
                    store(
                            at,
                            new Ptr(place, sa.element(), List.of(e)),
                            c.members().get(e));
                return;
            }
            Value idx = index(path.get(0));
            if (path.size() == 1) {
                if (!(val instanceof Val.Composite c)
                        || c.members().size() != sa.members().size())
                    throw mod.error(at, "storing a value that is no such struct");
                for (int k = 0; k < sa.members().size(); k++)
                    b.storeVar(
                            sa.members().get(k),
                            idx,
                            fitting(
                                    at,
                                    simple(at, c.members().get(k)),
                                    sa.members().get(k),
                                    false));
                return;
            }
            int k = memberIndex(at, path.get(1), sa.members().size());
            Variable v = sa.members().get(k);
            Value x = fitting(at, simple(at, val), v, path.size() > 2);
            if (path.size() > 2) x = insert(b.loadVar(v, idx), path.get(2), x);
            b.storeVar(v, idx, x);
            return;
        }
        if (place instanceof StructPlace sp) {
            if (path.isEmpty()) {
                if (!(val instanceof Val.Composite c)
                        || c.members().size() != sp.members().size())
                    throw mod.error(at, "storing a value that is no such struct");
                for (int k = 0; k < sp.members().size(); k++)
                    store(
                            at,
                            new Ptr(sp.members().get(k), sp.type().members().get(k), List.of()),
                            c.members().get(k));
                return;
            }
            int k = memberIndex(at, path.get(0), sp.members().size());
            store(at, new Ptr(sp.members().get(k), p.type(), path.subList(1, path.size())), val);
            return;
        }
        if (place instanceof LocalPlace lp) {
            if (SpirvType.isSimple(lp.type())) {
                Value x = fitting(at, simple(at, val), lp.var(), !path.isEmpty());
                if (!path.isEmpty()) x = insert(b.loadVar(lp.var()), path.get(0), x);
                b.storeVar(lp.var(), x);
                return;
            }
            storeSlots(at, lp.var(), lp.type(), b.i32(0), path, val);
            return;
        }
        if (place instanceof BufferPlace bp) {
            storeMemory(at, new Memory(bp.var(), null), address(at, p), val);
            return;
        }
        if (place instanceof DevicePlace dp) {
            storeMemory(at, new Memory(null, dp.address()), address(at, p), val);
            return;
        }
        if (place instanceof BufferArrayPlace ba) {
            if (path.isEmpty()) throw mod.error(at, "unsupported OpStore (to a whole array of buffers)");
            if (path.get(0) instanceof Integer k) {
                store(at, bufferElement(at, ba, k, p), val);
                return;
            }
            // a run-time index: store to the buffer it names, in an if per element
            Value idx = (Value) path.get(0);
            fn.noteDescriptorIndex(idx, ba.vars().size()); // past the array: Vulkan's undefined, none here
            for (int k = 0; k < ba.vars().size(); k++) {
                IfNode node = b.pushIf(b.alu(Op.IEQ, idx, b.i32(k)));
                store(at, bufferElement(at, ba, k, p), val);
                b.pushElse(node);
                b.popIf(node);
            }
            return;
        }
        if (place instanceof ImageTexelPlace it) {
            Value x = simple(at, val);
            b.imageStore(it.var(), it.coord(), b.vec(x, b.i32(0), b.i32(0), b.i32(0)));
            return;
        }
        throw mod.error(at, "unsupported OpStore (to " + describe(place) + ")");
    }

    /** The pointer into element {@code k} of an array of buffers that {@code p} goes through. */
    private Ptr bufferElement(Instruction at, BufferArrayPlace ba, int k, Ptr p) {
        if (k < 0 || k >= ba.vars().size())
            throw mod.error(
                    at,
                    "buffer array element " + k + " out of range (the array has "
                            + ba.vars().size() + ")");
        return new Ptr(
                new BufferPlace(ba.vars().get(k), ba.block()),
                p.type(),
                p.path().subList(1, p.path().size()));
    }

    /**
     * The length of the run-time array that is member {@code member} of the buffer block a
     * pointer names: what fits in the bound buffer after the member's offset, zero when the
     * buffer ends before it.
     */
    Value arrayLength(Instruction at, Ptr p, int member) {
        if (p.place() instanceof BufferArrayPlace ba
                && p.path().size() == 1
                && p.path().get(0) instanceof Integer k) {
            p = bufferElement(at, ba, k, p);
        }
        if (!(p.place() instanceof BufferPlace bp)
                || !p.path().isEmpty()
                || !(bp.root() instanceof SpirvType.Struct st)
                || member < 0
                || member >= st.members().size()
                || !(st.members().get(member) instanceof SpirvType.RuntimeArray ra)) {
            throw mod.error(at, "unsupported OpArrayLength (only of a run-time array member of a buffer block)");
        }
        Integer o = m.memberDecoration(st.id(), member, ModuleInfo.OFFSET);
        if (o == null) throw mod.error(at, "unsupported buffer layout (member " + member + " has no Offset)");
        int stride = arrayStride(at, ra);
        if (stride <= 0) throw mod.error(at, "unsupported buffer layout (ArrayStride " + stride + ")");
        Value size = b.bufferSize(bp.var()), off = b.i32(o);
        Value past = b.alu(Op.ISUB, b.alu(Op.UMAX, size, off), off);
        return b.alu(Op.UDIV, past, b.i32(stride));
    }

    /**
     * An atomic on the 32-bit integer a pointer names, in a buffer (at its byte offset) or in
     * shared memory (at its element); defines the word found. {@code compare} only for
     * comp_swap.
     */
    Value atomic(Instruction at, Ptr p, AtomicOp op, Value compare, Value data) {
        Place place = p.place();
        List<Object> path = p.path();
        if (place instanceof StructPlace sp && !path.isEmpty()) {
            int k = memberIndex(at, path.get(0), sp.members().size());
            return atomic(at, new Ptr(sp.members().get(k), p.type(), path.subList(1, path.size())), op, compare, data);
        }
        if (place instanceof ImageTexelPlace it) {
            if (it.var().format() != ImageFormat.R32UI && it.var().format() != ImageFormat.R32I) {
                throw mod.error(
                        at,
                        "unsupported atomic (on a " + it.var().format().spelling() + " image; only r32ui and r32i)");
            }
            return b.atomic(op, it.var(), it.coord(), compare, data);
        }
        if (place instanceof BufferArrayPlace ba && !path.isEmpty() && path.get(0) instanceof Integer k) {
            return atomic(at, bufferElement(at, ba, k, p), op, compare, data);
        }
        if (place instanceof BufferPlace bp) {
            BufAddr a = address(at, p);
            if (!(a.type() instanceof SpirvType.Int i) || i.width() != 32)
                throw mod.error(at, "unsupported atomic (on " + a.type() + "; only 32-bit integers)");
            return b.atomic(op, bp.var(), a.off(), compare, data);
        }
        if (place instanceof LocalPlace lp && lp.var().kind() == Variable.Kind.SHARED) {
            SpirvType t = lp.type();
            Value slot = b.i32(0);
            for (Object idx : path) {
                if (!(t instanceof SpirvType.Array ar))
                    throw mod.error(at, "unsupported atomic (on a vector or matrix component in shared memory)");
                slot = plus(slot, times(index(idx), slots(ar.element())));
                t = ar.element();
            }
            if (!(t instanceof SpirvType.Int i) || i.width() != 32)
                throw mod.error(at, "unsupported atomic (on " + t + "; only 32-bit integers)");
            return b.atomic(op, lp.var(), lp.var().isArray() ? slot : null, compare, data);
        }
        throw mod.error(
                at,
                "unsupported atomic (on "
                        + (place instanceof LocalPlace ? "function or private memory" : describe(place))
                        + "; atomics work on buffers and shared memory)");
    }

    Value insert(Value v, Object idx, Value x) {
        Value[] parts = new Value[v.numComponents()];
        for (int k = 0; k < parts.length; k++) {
            Value old = b.channel(v, k);
            if (idx instanceof Integer c) parts[k] = c == k ? x : old;
            else parts[k] = b.alu(Op.BCSEL, b.alu(Op.IEQ, (Value) idx, b.i32(k)), x, old);
        }
        return b.vec(parts);
    }

    Value simple(Instruction at, Val v) {
        if (v instanceof Val.Simple s) return s.value();
        throw mod.error(at, "a matrix, array or struct where a scalar or vector is needed");
    }

    /**
     * Where a buffer access lands: the byte offset, the type there, the MatrixStride and
     * RowMajor of the matrix member it is in (if any), and the distance between the components
     * of a vector there (0 when they are packed; the matrix stride for a column of a row-major
     * matrix).
     */
    record BufAddr(Value off, SpirvType type, Integer matrixStride, boolean rowMajor, int vecStride) {}

    /** The address of a buffer access path, from the layout decorations. */
    private BufAddr address(Instruction at, Ptr p) {
        SpirvType t = p.place() instanceof DevicePlace dp ? dp.root() : ((BufferPlace) p.place()).root();
        Value off = b.i32(0);
        Integer matrixStride = null;
        boolean rowMajor = false;
        int vecStride = 0;
        for (Object idx : p.path()) {
            if (t instanceof SpirvType.Struct st) {
                int k = memberIndex(at, idx, st.members().size());
                Integer o = m.memberDecoration(st.id(), k, ModuleInfo.OFFSET);
                if (o == null) throw mod.error(at, "unsupported buffer layout (member " + k + " has no Offset)");
                off = b.alu(Op.IADD, off, b.i32(o));
                matrixStride = m.memberDecoration(st.id(), k, ModuleInfo.MATRIX_STRIDE);
                rowMajor = m.memberDecoration(st.id(), k, ModuleInfo.ROW_MAJOR) != null;
                t = st.members().get(k);
            } else if (t instanceof SpirvType.Array || t instanceof SpirvType.RuntimeArray) {
                off = b.alu(Op.IADD, off, b.alu(Op.IMUL, index(idx), b.i32(arrayStride(at, t))));
                t = t instanceof SpirvType.Array a ? a.element() : ((SpirvType.RuntimeArray) t).element();
            } else if (t instanceof SpirvType.Matrix mx) {
                int ms = matrixStride(at, matrixStride);
                if (rowMajor) {
                    off = b.alu(Op.IADD, off, b.alu(Op.IMUL, index(idx), b.i32(SpirvType.bits(mx.column()) / 8)));
                    vecStride = ms;
                } else {
                    off = b.alu(Op.IADD, off, b.alu(Op.IMUL, index(idx), b.i32(ms)));
                }
                t = mx.column();
            } else if (t instanceof SpirvType.Vector vt) {
                int step = vecStride != 0 ? vecStride : SpirvType.bits(vt) / 8;
                off = b.alu(Op.IADD, off, b.alu(Op.IMUL, index(idx), b.i32(step)));
                t = vt.element();
                vecStride = 0;
            } else {
                throw mod.error(at, "an access chain goes past a scalar");
            }
        }
        return new BufAddr(off, t, matrixStride, rowMajor, vecStride);
    }

    private int arrayStride(Instruction at, SpirvType t) {
        int arrayId = t instanceof SpirvType.Array a ? a.id() : ((SpirvType.RuntimeArray) t).id();
        Integer stride = m.decoration(arrayId, ModuleInfo.ARRAY_STRIDE);
        if (stride == null) throw mod.error(at, "unsupported buffer layout (an array without ArrayStride)");
        return stride;
    }

    private int matrixStride(Instruction at, Integer ms) {
        if (ms == null) throw mod.error(at, "unsupported buffer layout (a matrix without MatrixStride)");
        return ms;
    }

    /** Loads or stores of whole aggregates are split into their scalars and vectors; this many at most. */
    private static final int MAX_AGGREGATE_LEAVES = 4096;

    private static int leaves(SpirvType t) {
        if (t instanceof SpirvType.Struct s) {
            long n = 0;
            for (SpirvType mt : s.members()) n += leaves(mt);
            return (int) Math.min(n, Integer.MAX_VALUE);
        }
        if (t instanceof SpirvType.Array a)
            return (int) Math.min((long) a.length() * leaves(a.element()), Integer.MAX_VALUE);
        if (t instanceof SpirvType.Matrix mx) return mx.count();
        if (t instanceof SpirvType.RuntimeArray) return Integer.MAX_VALUE;
        return 1;
    }

    private void checkLeaves(Instruction at, SpirvType t, String what) {
        if (leaves(t) > MAX_AGGREGATE_LEAVES) {
            throw mod.error(
                    at,
                    "unsupported " + what + " (a whole "
                            + (t instanceof SpirvType.RuntimeArray
                                    ? "run-time array"
                                    : "aggregate of more than " + MAX_AGGREGATE_LEAVES + " scalars and vectors")
                            + " in a buffer)");
        }
    }

    /** The addresses of a struct's members, an array's elements or a matrix's columns. */
    private List<BufAddr> parts(Instruction at, BufAddr a) {
        List<BufAddr> out = new ArrayList<>();
        SpirvType t = a.type();
        if (t instanceof SpirvType.Struct st) {
            for (int k = 0; k < st.members().size(); k++) {
                Integer o = m.memberDecoration(st.id(), k, ModuleInfo.OFFSET);
                if (o == null) throw mod.error(at, "unsupported buffer layout (member " + k + " has no Offset)");
                out.add(new BufAddr(
                        b.alu(Op.IADD, a.off(), b.i32(o)),
                        st.members().get(k),
                        m.memberDecoration(st.id(), k, ModuleInfo.MATRIX_STRIDE),
                        m.memberDecoration(st.id(), k, ModuleInfo.ROW_MAJOR) != null,
                        0));
            }
        } else if (t instanceof SpirvType.Array ar) {
            int stride = arrayStride(at, t);
            for (int e = 0; e < ar.length(); e++) {
                out.add(new BufAddr(
                        b.alu(Op.IADD, a.off(), b.i32(e * stride)), ar.element(), a.matrixStride(), a.rowMajor(), 0));
            }
        } else if (t instanceof SpirvType.Matrix mx) {
            int ms = matrixStride(at, a.matrixStride());
            int comp = SpirvType.bits(mx.column()) / 8;
            for (int c = 0; c < mx.count(); c++) {
                out.add(
                        a.rowMajor()
                                ? new BufAddr(b.alu(Op.IADD, a.off(), b.i32(c * comp)), mx.column(), null, false, ms)
                                : new BufAddr(b.alu(Op.IADD, a.off(), b.i32(c * ms)), mx.column(), null, false, 0));
            }
        } else {
            throw mod.error(at, "unsupported buffer access (a whole " + t + ")");
        }
        return out;
    }

    private Val loadMemory(Instruction at, Memory mem, BufAddr a) {
        SpirvType t = a.type();
        if (!SpirvType.isSimple(t)) {
            checkLeaves(at, t, "OpLoad");
            List<Val> vals = new ArrayList<>();
            for (BufAddr part : parts(at, a)) vals.add(loadMemory(at, mem, part));
            return new Val.Composite(vals);
        }
        int bits = SpirvType.bits(t);
        int n = SpirvType.components(t);
        if (a.vecStride() != 0 && n > 1) {
            Value[] comps = new Value[n];
            SpirvType e = ((SpirvType.Vector) t).element();
            for (int k = 0; k < n; k++) {
                comps[k] = ((Val.Simple) loadMemory(
                                at,
                                mem,
                                new BufAddr(b.alu(Op.IADD, a.off(), b.i32(k * a.vecStride())), e, null, false, 0)))
                        .value();
            }
            return new Val.Simple(b.vec(comps));
        }
        if (bits == 1) {
            Value w = load(mem, a.off(), n, 32);
            return new Val.Simple(b.alu(Op.INE, w, b.constant(32, new long[n])));
        }
        return new Val.Simple(load(mem, a.off(), n, bits));
    }

    private Value load(Memory mem, Value off, int n, int bits) {
        if (mem.buffer() != null) return b.loadBuffer(mem.buffer(), off, n, bits);
        return b.loadGlobal(b.alu(Op.IADD, mem.base(), b.alu(Op.U2U64, off)), n, bits);
    }

    private void store(Memory mem, Value off, Value x) {
        if (mem.buffer() != null) b.storeBuffer(mem.buffer(), off, x);
        else b.storeGlobal(b.alu(Op.IADD, mem.base(), b.alu(Op.U2U64, off)), x);
    }

    private void storeMemory(Instruction at, Memory mem, BufAddr a, Val val) {
        SpirvType t = a.type();
        if (!SpirvType.isSimple(t)) {
            checkLeaves(at, t, "OpStore");
            List<BufAddr> ps = parts(at, a);
            if (!(val instanceof Val.Composite c) || c.members().size() != ps.size())
                throw mod.error(at, "storing a value that is no " + t);
            for (int k = 0; k < ps.size(); k++)
                storeMemory(at, mem, ps.get(k), c.members().get(k));
            return;
        }
        Value x = simple(at, val);
        if (x.bitSize() == 1) x = b.alu(Op.B2I32, x);
        int n = x.numComponents();
        if (a.vecStride() != 0 && n > 1) {
            for (int k = 0; k < n; k++) store(mem, b.alu(Op.IADD, a.off(), b.i32(k * a.vecStride())), b.channel(x, k));
            return;
        }
        store(mem, a.off(), x);
    }

    // ---- instructions -------------------------------------------------------------------------

    Val val(Instruction at, int id) {
        Val v = values.get(id);
        if (v != null) return v;
        Instruction c = m.constants.get(id);
        if (c != null) return constant(c);
        throw mod.error(at, "%" + id + " is used before it is defined (or is no value)");
    }

    private int constantDepth;

    /** The opcodes OpSpecConstantOp may name in a shader (conversions, integer and logical ops, shuffles). */
    private static final Set<Integer> SPEC_CONSTANT_OPS = Set.of(
            113, 114, 115, 116, 126, 200, 128, 130, 132, 134, 135, 137, 138, 139, 194, 195, 196, 197, 198, 199, 79, 81,
            82, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179);

    Val constant(Instruction c) {
        if (++constantDepth > 64)
            throw mod.error(c, "constants nested deeper than 64 levels (a constant made of itself?)");
        try {
            return constantOf(c);
        } finally {
            constantDepth--;
        }
    }

    private Val constantOf(Instruction c) {
        SpirvType t = m.typeOf(c, m.id(c, 0));
        switch (c.opcode()) {
            case OpConstantTrue, OpSpecConstantTrue -> {
                return new Val.Simple(b.bool(true));
            }
            case OpConstantFalse, OpSpecConstantFalse -> {
                return new Val.Simple(b.bool(false));
            }
            case OpConstant, OpSpecConstant -> {
                if (!SpirvType.isSimple(t) || t instanceof SpirvType.Vector)
                    throw mod.error(c, "OpConstant of a type that is no scalar");
                int bits = SpirvType.bits(t);
                long v = m.arg(c, 2) & 0xffffffffL;
                if (bits == 64) v |= (c.count() > 3 ? (long) c.operand(3) : 0) << 32;
                else if (SpirvType.scalarOf(t) instanceof SpirvType.Int i && i.signed() && bits < 32)
                    v &= (1L << bits) - 1;
                return new Val.Simple(b.constant(bits, v));
            }
            case OpConstantNull -> {
                return zero(c, t);
            }
            case OpUndef -> {
                return Instructions.undef(this, c, t);
            }
            case OpSpecConstantOp -> {
                // OpSpecConstantOp: spec constants are at their defaults, so the operation is
                // translated like the instruction it names, at each use (as constants are)
                int opcode = m.arg(c, 2);
                if (!SPEC_CONSTANT_OPS.contains(opcode))
                    throw mod.error(c, "unsupported OpSpecConstantOp (" + SpirvNames.opcode(opcode) + ")");
                int[] ops = new int[c.count() - 1];
                ops[0] = c.operand(0);
                ops[1] = c.operand(1);
                System.arraycopy(c.operands(), 3, ops, 2, c.count() - 3);
                Val saved = values.remove(c.operand(1));
                Instructions.translate(this, null, new Instruction(opcode, ops, c.word()));
                Val v = values.remove(c.operand(1));
                if (saved != null) values.put(c.operand(1), saved);
                if (v == null)
                    throw mod.error(c, "OpSpecConstantOp (" + SpirvNames.opcode(opcode) + ") defines no value");
                return v;
            }
            default -> { // composite
                List<Val> parts = new ArrayList<>();
                for (int k = 2; k < c.count(); k++) parts.add(val(c, m.id(c, k)));
                return construct(c, t, parts);
            }
        }
    }

    private Val zero(Instruction at, SpirvType t) {
        if (SpirvType.isSimple(t)) {
            long[] zeros = new long[SpirvType.components(t)];
            return new Val.Simple(b.constant(SpirvType.bits(t), zeros));
        }
        List<Val> parts = new ArrayList<>();
        if (t instanceof SpirvType.Matrix mx) for (int k = 0; k < mx.count(); k++) parts.add(zero(at, mx.column()));
        else if (t instanceof SpirvType.Array a) for (int k = 0; k < a.length(); k++) parts.add(zero(at, a.element()));
        else if (t instanceof SpirvType.Struct s) for (SpirvType mt : s.members()) parts.add(zero(at, mt));
        else throw mod.error(at, "no null value of " + t);
        return new Val.Composite(parts);
    }

    Val construct(Instruction at, SpirvType t, List<Val> parts) {
        if (t instanceof SpirvType.Vector) {
            List<Value> comps = new ArrayList<>();
            for (Val p : parts) {
                Value v = simple(at, p);
                for (int k = 0; k < v.numComponents(); k++) comps.add(v.numComponents() == 1 ? v : b.channel(v, k));
            }
            return new Val.Simple(b.vec(comps.toArray(new Value[0])));
        }
        return new Val.Composite(parts);
    }

    /** The instruction being translated, for a message about an unexpected failure. */
    Instruction current;

    void instruction(ModuleInfo.Function f, Instruction i) {
        current = i;
        Instructions.translate(this, f, i);
        // a value of a device pointer type (loaded, converted, selected, extracted …) can be dereferenced
        if (i.count() >= 2
                && m.types.get(i.operand(0)) instanceof SpirvType.DevicePointer dp
                && values.containsKey(i.operand(1))) {
            devicePointers.put(i.operand(1), dp);
        }
    }

    void define(int id, Val v) {
        values.put(id, v);
    }

    void definePointer(int id, Ptr p) {
        pointers.put(id, p);
    }

    Ptr pointer(Instruction at, int id) {
        Ptr p = pointers.get(id);
        if (p != null) return p;
        SpirvType.DevicePointer dp = devicePointers.get(id);
        if (dp != null) return new Ptr(new DevicePlace(simple(at, val(at, id)), dp.pointee()), dp.pointee(), List.of());
        throw mod.error(at, "%" + id + " is not a pointer Lathe knows");
    }

    /** Ids whose values are device pointers (buffer_reference), with their pointer types. */
    final Map<Integer, SpirvType.DevicePointer> devicePointers = new HashMap<>();

    /** Acceleration structures by the id of a loaded one. */
    final Map<Integer, Variable> accels = new HashMap<>();

    Variable accelerationStructure(Instruction at, int id) {
        Variable v = accels.get(id);
        if (v == null)
            throw mod.error(
                    at,
                    "%" + id
                            + " is not an acceleration structure Lathe knows (one loaded from a UniformConstant variable)");
        return v;
    }

    /** A new name for a local made during translation. */
    String freshName(String base) {
        return uniqueName(-1, base);
    }

    Variable phiVariableFor(Instruction phi) {
        return cfg.phiVar(phi);
    }

    Place newLocal(Instruction at, int id, SpirvType t) {
        return localPlace(at, id, t);
    }

    void inline(Instruction call, ModuleInfo.Function callee, List<Integer> args) {
        Map<Integer, Val> vals = new LinkedHashMap<>();
        if (callee.params.size() != args.size())
            throw mod.error(
                    call,
                    "OpFunctionCall with " + args.size() + " arguments for " + callee.params.size() + " parameters");
        for (int k = 0; k < args.size(); k++) {
            Instruction p = callee.params.get(k);
            int pid = m.id(p, 1);
            SpirvType pt = m.typeOf(p, m.id(p, 0));
            if (pt instanceof SpirvType.Pointer) pointers.put(pid, pointer(call, args.get(k)));
            else vals.put(pid, val(call, args.get(k)));
            if (pt instanceof SpirvType.DevicePointer dp) devicePointers.put(pid, dp);
        }
        SpirvType rt = ((SpirvType.Function) m.typeOf(callee.def, m.id(callee.def, 3))).result();
        Ptr value = null;
        if (!(rt instanceof SpirvType.Void)) {
            // the returned value goes through a local place (several for a struct), like any variable
            value = new Ptr(localPlace(call, -1, rt), rt, List.of());
        }
        Variable returned =
                fn.addLocal(Variable.local(uniqueName(-1, "returned"), new VarType(BaseType.BOOL, 1, 1), 0));
        b.storeVar(returned, b.bool(false));
        frames.push(new Frame(value, returned));
        LoopNode once = b.pushLoop();
        cfg.body(callee, vals);
        if (!cfg.ended()) b.breakLoop();
        b.popLoop(once);
        frames.pop();
        if (value != null) define(m.id(call, 1), load(call, value));
    }
}
