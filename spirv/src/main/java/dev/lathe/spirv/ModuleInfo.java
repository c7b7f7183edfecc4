package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.FloatControls;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a module declares, gathered in one walk before translation: names, decorations, types,
 * constants, global variables, the entry point and its execution modes, and every function's
 * blocks. Ids are checked against the bound; a use of an id no instruction defines is an error
 * at the using instruction.
 */
final class ModuleInfo {
    // storage classes
    static final int UNIFORM_CONSTANT = 0,
            INPUT = 1,
            UNIFORM = 2,
            OUTPUT = 3,
            WORKGROUP = 4,
            PRIVATE = 6,
            FUNCTION = 7,
            PUSH_CONSTANT = 9,
            STORAGE_BUFFER = 12,
            PHYSICAL_STORAGE_BUFFER = 5349;
    // decorations
    static final int BLOCK = 2,
            BUFFER_BLOCK = 3,
            ROW_MAJOR = 4,
            ARRAY_STRIDE = 6,
            MATRIX_STRIDE = 7,
            BUILTIN = 11,
            NO_CONTRACTION = 42,
            FP_FAST_MATH_MODE = 40,
            NO_SIGNED_WRAP = 4469,
            NO_UNSIGNED_WRAP = 4470,
            FLAT = 14,
            LOCATION = 30,
            BINDING = 33,
            DESCRIPTOR_SET = 34,
            OFFSET = 35;

    final SpirvModule module;
    final Map<Integer, String> names = new HashMap<>();
    final Map<Integer, Map<Integer, Integer>> decorations = new HashMap<>();
    final Map<Integer, Map<Integer, Map<Integer, Integer>>> memberDecorations = new HashMap<>();
    final Map<Integer, Map<Integer, String>> memberNames = new HashMap<>();
    final Map<Integer, SpirvType> types = new HashMap<>();
    final Map<Integer, Instruction> constants = new HashMap<>();
    final Map<Integer, Instruction> globals = new LinkedHashMap<>();
    final Map<Integer, Function> functions = new LinkedHashMap<>();
    int glsl450 = -1;
    /** Device pointer types (PhysicalStorageBuffer): the pointee type id of each, and where each is first declared. */
    private final Map<Integer, Integer> devicePointees = new HashMap<>();

    private final Map<Integer, Instruction> devicePointerDecls = new HashMap<>();
    /** OpExtInstImport ids of NonSemantic.* instruction sets, whose instructions are skipped. */
    final Set<Integer> nonSemantic = new HashSet<>();

    int executionModel = -1, entryFunction = -1;
    /** The float-control execution modes asked for ({@link FloatControls} spellings). */
    final java.util.Set<String> floatControls = new java.util.TreeSet<>();

    int[] localSize = {1, 1, 1};
    /**
     * A geometry shader's execution modes: the input primitive (SPIR-V's InputPoints 19 …
     * InputTrianglesAdjacency 23), the output (OutputPoints 27, OutputLineStrip 28,
     * OutputTriangleStrip 29), OutputVertices (26) and Invocations (0); -1 or 0 when not given.
     */
    int geometryInput = -1, geometryOutput = -1, outputVertices, invocations = 1;

    Instruction entryPoint;

    /** A function: its defining instruction, parameters, and blocks by label in order. */
    static final class Function {
        final Instruction def;
        final List<Instruction> params = new ArrayList<>();
        final Map<Integer, List<Instruction>> blocks = new LinkedHashMap<>();

        Function(Instruction def) {
            this.def = def;
        }
    }

    /** Gathers a module's declarations; a failure names the instruction being read. */
    static ModuleInfo read(SpirvModule module) {
        Instruction[] at = new Instruction[1];
        try {
            return new ModuleInfo(module, at);
        } catch (IllegalArgumentException
                | IllegalStateException
                | IndexOutOfBoundsException
                | ClassCastException
                | NullPointerException e) {
            String what = e.getMessage() == null ? "an operand of the wrong kind or shape" : e.getMessage();
            if (at[0] == null) throw new SpirvException(module.file() + ": cannot read the module: " + what);
            throw module.error(at[0], SpirvNames.opcode(at[0].opcode()) + " cannot be read: " + what);
        }
    }

    private ModuleInfo(SpirvModule module, Instruction[] current) {
        this.module = module;
        Function cur = null;
        List<Instruction> block = null;
        for (Instruction i : module.instructions()) {
            current[0] = i;
            int op = i.opcode();
            switch (op) {
                case OpName -> names.put(id(i, 0), SpirvReader.string(module, i, 1, null));
                case OpMemberName ->
                    memberNames
                            .computeIfAbsent(id(i, 0), k -> new HashMap<>())
                            .put(arg(i, 1), SpirvReader.string(module, i, 2, null));
                case OpExtInstImport -> {
                    String set = SpirvReader.string(module, i, 1, null);
                    if (set.equals("GLSL.std.450")) glsl450 = id(i, 0);
                    // the SPIR-V specification lets a consumer ignore every NonSemantic.* set (debugPrintfEXT, debug
                    // info)
                    if (set.startsWith("NonSemantic.")) nonSemantic.add(id(i, 0));
                }
                case OpEntryPoint -> { // OpEntryPoint model fn name interface...
                    if (entryPoint == null) {
                        entryPoint = i;
                        executionModel = arg(i, 0);
                        entryFunction = id(i, 1);
                    }
                }
                case OpExecutionMode -> { // OpExecutionMode fn mode literals
                    if (arg(i, 1) == 17 && i.count() >= 5) {
                        long x = i.operand(2) & 0xffffffffL,
                                y = i.operand(3) & 0xffffffffL,
                                z = i.operand(4) & 0xffffffffL;
                        String problem = Shader.workgroupSizeProblem(x, y, z);
                        if (problem != null) throw module.error(i, "unsupported LocalSize: " + problem);
                        localSize = new int[] {(int) x, (int) y, (int) z};
                    }
                    int mode = arg(i, 1);
                    if (mode >= 19 && mode <= 23) geometryInput = mode;
                    if (mode >= 27 && mode <= 29) geometryOutput = mode;
                    if (mode == 26 && i.count() >= 3)
                        outputVertices = (int) Math.min(i.operand(2) & 0xffffffffL, 1 << 20);
                    if (mode == 0 && i.count() >= 3) invocations = (int) Math.min(i.operand(2) & 0xffffffffL, 1 << 20);
                    // SPV_KHR_float_controls' modes: DenormPreserve … RoundingModeRTZ, each with a width
                    String fc = i.count() >= 3 ? FloatControls.ofSpirv(arg(i, 1), i.operand(2) & 0xffffffffL) : null;
                    if (fc != null) floatControls.add(fc);
                }
                case OpDecorate -> {
                    need(i, 2);
                    checkNumber(i, i.operand(1), i.count() > 2 ? i.operand(2) : 0);
                    decorations
                            .computeIfAbsent(id(i, 0), k -> new HashMap<>())
                            .put(i.operand(1), i.count() > 2 ? i.operand(2) : 1);
                }
                case OpMemberDecorate -> {
                    need(i, 3);
                    checkNumber(i, i.operand(2), i.count() > 3 ? i.operand(3) : 0);
                    memberDecorations
                            .computeIfAbsent(id(i, 0), k -> new HashMap<>())
                            .computeIfAbsent(i.operand(1), k -> new HashMap<>())
                            .put(i.operand(2), i.count() > 3 ? i.operand(3) : 1);
                }
                case OpTypeVoid,
                        OpTypeBool,
                        OpTypeInt,
                        OpTypeFloat,
                        OpTypeVector,
                        OpTypeMatrix,
                        OpTypeImage,
                        OpTypeSampler,
                        OpTypeSampledImage,
                        OpTypeArray,
                        OpTypeRuntimeArray,
                        OpTypeStruct,
                        OpTypePointer,
                        OpTypeFunction,
                        OpTypeRayQueryKHR,
                        OpTypeAccelerationStructureKHR -> types.put(id(i, 0), type(i));
                case OpTypeForwardPointer -> { // OpTypeForwardPointer: only device pointers (buffer_reference) are
                    // declared ahead
                    need(i, 2);
                    if (i.operand(1) != PHYSICAL_STORAGE_BUFFER) {
                        throw module.error(
                                i,
                                "unsupported OpTypeForwardPointer (" + SpirvNames.of("StorageClass", i.operand(1))
                                        + ")");
                    }
                    devicePointerDecls.put(id(i, 0), i);
                    types.put(id(i, 0), new SpirvType.DevicePointer(id(i, 0), this::devicePointee));
                }
                case OpConstantTrue,
                        OpConstantFalse,
                        OpConstant,
                        OpConstantComposite,
                        OpConstantNull,
                        OpSpecConstantTrue,
                        OpSpecConstantFalse,
                        OpSpecConstant,
                        OpSpecConstantComposite,
                        OpSpecConstantOp -> constants.put(id(i, 1), i);
                case OpUndef -> { // OpUndef: spirv-opt also declares them among the constants
                    if (cur == null) constants.put(id(i, 1), i);
                    else if (block != null) block.add(i);
                }
                case OpVariable -> {
                    if (cur == null) globals.put(id(i, 1), i);
                    else if (block != null) block.add(i);
                }
                case OpFunction -> {
                    cur = new Function(i);
                    functions.put(id(i, 1), cur);
                }
                case OpFunctionParameter -> {
                    if (cur == null) throw module.error(i, "OpFunctionParameter outside a function");
                    cur.params.add(i);
                }
                case OpLabel -> {
                    if (cur == null) throw module.error(i, "OpLabel outside a function");
                    block = new ArrayList<>();
                    cur.blocks.put(id(i, 0), block);
                }
                case OpFunctionEnd -> {
                    cur = null;
                    block = null;
                }
                default -> {
                    if (block != null) block.add(i);
                    else if (cur == null && SpirvNames.opcode(i.opcode()).startsWith("OpType")) {
                        throw module.error(i, "unsupported " + SpirvNames.opcode(i.opcode()));
                    }
                }
            }
        }
        if (entryPoint == null) throw new SpirvException(module.file() + ": word 5: no OpEntryPoint");
        if (!functions.containsKey(entryFunction)) throw module.error(entryPoint, "the entry point names no function");
    }

    /** A Location or Binding the IR can hold: 0 to {@link dev.lathe.ir.Variable#MAX_NUMBER}. */
    private void checkNumber(Instruction i, int decoration, int value) {
        if ((decoration == LOCATION || decoration == BINDING) && (value & 0xffffffffL) > Variable.MAX_NUMBER) {
            throw module.error(
                    i,
                    "unsupported " + SpirvNames.of("Decoration", decoration) + " " + Integer.toUnsignedString(value)
                            + " (0 to " + Variable.MAX_NUMBER + ")");
        }
    }

    void need(Instruction i, int n) {
        if (i.count() < n)
            throw module.error(i, SpirvNames.opcode(i.opcode()) + " has " + i.count() + " operands, needs " + n);
    }

    /**
     * The value of an integer or boolean constant, a specialization constant at its default, or
     * an OpSpecConstantOp over them, evaluated with the op table (the ops the translation would
     * emit), or null when it is none of these or its operation is no integer one.
     */
    Long integerConstant(Instruction at, int id, int depth) {
        if (depth > 64) throw module.error(at, "constants nested deeper than 64 levels (a constant made of itself?)");
        Instruction c = constants.get(id);
        if (c == null) return null;
        int bits = SpirvType.bits(typeOf(c, id(c, 0)));
        switch (c.opcode()) {
            case OpConstantTrue, OpSpecConstantTrue -> {
                return 1L;
            }
            case OpConstantFalse, OpSpecConstantFalse -> {
                return 0L;
            }
            case OpConstant, OpSpecConstant -> {
                return c.count() > 2 ? c.operand(2) & Bits.mask(Math.min(bits, 32)) : null;
            }
            case OpSpecConstantOp -> {}
            default -> {
                return null;
            }
        }
        need(c, 4);
        Instructions.OpChoice choice = Instructions.constantOp(c.operand(2), bits);
        if (choice == null
                || choice.op() == null
                || c.count() - 3 != choice.op().numInputs()) return null;
        long[][] srcs = new long[choice.op().numInputs()][];
        int unsized = 0;
        for (int k = 0; k < srcs.length; k++) {
            int operand = id(c, 3 + k);
            Long v = integerConstant(at, operand, depth + 1);
            if (v == null) return null;
            srcs[k] = new long[] {v};
            // the unsized operand size: the first non-condition operand's
            if (unsized == 0 && !(choice.op() == Op.BCSEL && k == 0))
                unsized = SpirvType.bits(typeOf(c, id(constants.get(operand), 0)));
        }
        if (choice.swapped()) {
            long[] tmp = srcs[0];
            srcs[0] = srcs[1];
            srcs[1] = tmp;
        }
        return choice.op().evaluate(unsized, 1, srcs)[0];
    }

    /** Operand k as an id, checked against the bound. */
    int id(Instruction i, int k) {
        need(i, k + 1);
        int v = i.operand(k);
        if (v <= 0 || v >= module.bound())
            throw module.error(i, "id " + Integer.toUnsignedString(v) + " is outside the bound " + module.bound());
        return v;
    }

    int arg(Instruction i, int k) {
        need(i, k + 1);
        return i.operand(k);
    }

    /** The pointee of a device pointer type (by the pointer type's id). */
    private SpirvType devicePointee(int pointerType) {
        Integer pointee = devicePointees.get(pointerType);
        Instruction at = devicePointerDecls.get(pointerType);
        if (pointee == null)
            throw module.error(
                    at, "pointer type %" + pointerType + " is declared ahead (OpTypeForwardPointer) but never defined");
        return typeOf(at, pointee);
    }

    SpirvType typeOf(Instruction at, int id) {
        SpirvType t = types.get(id);
        if (t == null) throw module.error(at, "%" + id + " is not a type");
        return t;
    }

    private SpirvType type(Instruction i) {
        return switch (i.opcode()) {
            case OpTypeVoid -> new SpirvType.Void();
            case OpTypeBool -> new SpirvType.Bool();
            case OpTypeInt -> {
                int w = arg(i, 1);
                if (w != 8 && w != 16 && w != 32 && w != 64)
                    throw module.error(i, "unsupported OpTypeInt (width " + w + ")");
                yield new SpirvType.Int(w, arg(i, 2) != 0);
            }
            case OpTypeFloat -> {
                int w = arg(i, 1);
                if (w != 16 && w != 32 && w != 64) throw module.error(i, "unsupported OpTypeFloat (width " + w + ")");
                yield new SpirvType.Float(w);
            }
            case OpTypeVector -> {
                int n = arg(i, 2);
                if (n < 2 || n > 4) throw module.error(i, "unsupported OpTypeVector (" + n + " components)");
                yield new SpirvType.Vector(typeOf(i, id(i, 1)), n);
            }
            case OpTypeMatrix -> {
                if (!(typeOf(i, id(i, 1)) instanceof SpirvType.Vector col))
                    throw module.error(i, "a matrix column must be a vector");
                int n = arg(i, 2);
                if (n < 2 || n > 4) throw module.error(i, "unsupported OpTypeMatrix (" + n + " columns)");
                yield new SpirvType.Matrix(col, n);
            }
            case OpTypeImage ->
                new SpirvType.Image(
                        typeOf(i, id(i, 1)), arg(i, 2), arg(i, 4) == 1, arg(i, 5) == 1, arg(i, 6), arg(i, 7));
            case OpTypeSampler -> new SpirvType.Sampler();
            case OpTypeSampledImage -> {
                if (!(typeOf(i, id(i, 1)) instanceof SpirvType.Image im))
                    throw module.error(i, "a sampled image needs an image type");
                yield new SpirvType.SampledImage(im);
            }
            case OpTypeArray -> {
                Long value = integerConstant(i, id(i, 2), 0);
                if (value == null) throw module.error(i, "an array length must be a constant");
                long n = value & 0xffffffffL;
                if (n < 1 || n > 1 << 20) throw module.error(i, "unsupported array length " + n);
                yield new SpirvType.Array(typeOf(i, id(i, 1)), (int) n, id(i, 0));
            }
            case OpTypeRuntimeArray -> new SpirvType.RuntimeArray(typeOf(i, id(i, 1)), id(i, 0));
            case OpTypeStruct -> {
                List<SpirvType> ms = new ArrayList<>();
                for (int k = 1; k < i.count(); k++) ms.add(typeOf(i, id(i, k)));
                yield new SpirvType.Struct(ms, id(i, 0));
            }
            case OpTypePointer -> {
                if (arg(i, 1) != PHYSICAL_STORAGE_BUFFER) yield new SpirvType.Pointer(arg(i, 1), typeOf(i, id(i, 2)));
                devicePointees.put(id(i, 0), id(i, 2));
                devicePointerDecls.putIfAbsent(id(i, 0), i);
                yield new SpirvType.DevicePointer(id(i, 0), this::devicePointee);
            }
            case OpTypeRayQueryKHR -> new SpirvType.RayQuery();
            case OpTypeAccelerationStructureKHR -> new SpirvType.AccelerationStructure();
            default -> { // 33 function
                List<SpirvType> ps = new ArrayList<>();
                for (int k = 2; k < i.count(); k++) ps.add(typeOf(i, id(i, k)));
                yield new SpirvType.Function(typeOf(i, id(i, 1)), ps);
            }
        };
    }

    Integer decoration(int id, int decoration) {
        Map<Integer, Integer> d = decorations.get(id);
        return d == null ? null : d.get(decoration);
    }

    Integer memberDecoration(int structId, int member, int decoration) {
        var m = memberDecorations.get(structId);
        if (m == null) return null;
        var d = m.get(member);
        return d == null ? null : d.get(decoration);
    }
}
