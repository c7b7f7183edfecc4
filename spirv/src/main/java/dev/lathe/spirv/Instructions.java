package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluFlags;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AtomicOp;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Intrinsic;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * The translation of one instruction inside a function: memory, composites, arithmetic,
 * comparisons, conversions, matrices, images, calls and the GLSL.std.450 set
 * ({@link Glsl450}). Every SPIR-V op maps onto op-table ops whose meaning is exact, so the IR
 * interpreter is the reference for what a translated shader computes.
 */
final class Instructions {
    private Instructions() {}

    /** Binary ops with one op-table op (operands in order). */
    private static final Map<Integer, Op> BINARY = new HashMap<>();
    /** Comparisons written with their operands swapped (a > b is b < a). */
    private static final Map<Integer, Op> SWAPPED = new HashMap<>();

    private static final Map<Integer, Op> UNARY = new HashMap<>();

    static {
        int[][] bin = {
            {128, 0}, {129, 1}, {130, 2}, {131, 3}, {132, 4}, {133, 5}, {134, 6}, {135, 7}, {136, 8}, {137, 9},
            {138, 10}, {139, 11}, {140, 12}, {141, 13}
        };
        Op[] binOps = {
            Op.IADD, Op.FADD, Op.ISUB, Op.FSUB, Op.IMUL, Op.FMUL, Op.UDIV, Op.IDIV, Op.FDIV, Op.UMOD, Op.IREM, Op.IMOD,
            Op.FREM, Op.FMOD
        };
        for (int[] p : bin) BINARY.put(p[0], binOps[p[1]]);
        BINARY.put(OpBitwiseOr, Op.IOR);
        BINARY.put(OpBitwiseXor, Op.IXOR);
        BINARY.put(OpBitwiseAnd, Op.IAND);
        BINARY.put(OpLogicalOr, Op.IOR);
        BINARY.put(OpLogicalAnd, Op.IAND);
        BINARY.put(OpLogicalEqual, Op.IEQ);
        BINARY.put(OpLogicalNotEqual, Op.INE);
        BINARY.put(OpIEqual, Op.IEQ);
        BINARY.put(OpINotEqual, Op.INE);
        BINARY.put(OpUGreaterThanEqual, Op.UGE);
        BINARY.put(OpSGreaterThanEqual, Op.IGE);
        BINARY.put(OpULessThan, Op.ULT);
        BINARY.put(OpSLessThan, Op.ILT);
        BINARY.put(OpFOrdEqual, Op.FEQ);
        BINARY.put(OpFUnordEqual, Op.FEQU);
        BINARY.put(OpFUnordNotEqual, Op.FNEU);
        BINARY.put(OpFOrdLessThan, Op.FLT);
        BINARY.put(OpFUnordLessThan, Op.FLTU);
        BINARY.put(OpFOrdGreaterThanEqual, Op.FGE);
        BINARY.put(OpFUnordGreaterThanEqual, Op.FGEU);
        SWAPPED.put(OpUGreaterThan, Op.ULT);
        SWAPPED.put(OpSGreaterThan, Op.ILT);
        SWAPPED.put(OpULessThanEqual, Op.UGE);
        SWAPPED.put(OpSLessThanEqual, Op.IGE);
        SWAPPED.put(OpFOrdGreaterThan, Op.FLT);
        SWAPPED.put(OpFUnordGreaterThan, Op.FLTU);
        SWAPPED.put(OpFOrdLessThanEqual, Op.FGE);
        SWAPPED.put(OpFUnordLessThanEqual, Op.FGEU);
        UNARY.put(OpSNegate, Op.INEG);
        UNARY.put(OpFNegate, Op.FNEG);
        UNARY.put(OpLogicalNot, Op.INOT);
        UNARY.put(OpNot, Op.INOT);
        UNARY.put(OpBitReverse, Op.BITFIELD_REVERSE);
        UNARY.put(OpBitCount, Op.BIT_COUNT);
        UNARY.put(OpIsNan, Op.FISNAN);
        UNARY.put(OpQuantizeToF16, Op.FQUANTIZE2F16);
    }

    static void translate(SpirvToIr t, ModuleInfo.Function f, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        int op = i.opcode();
        switch (op) {
            case OpNop,
                    OpName,
                    OpMemberName,
                    OpLine,
                    OpExecutionModeId,
                    OpLifetimeStart,
                    OpLifetimeStop -> {} // nop, names, lines, lifetimes
            case OpVariable -> { // OpVariable (Function)
                int id = m.id(i, 1);
                if (!(m.typeOf(i, m.id(i, 0)) instanceof SpirvType.Pointer ptr)) {
                    throw m.module.error(
                            i, "OpVariable of type " + m.typeOf(i, m.id(i, 0)) + ", which is no pointer type");
                }
                SpirvType pt = ptr.pointee();
                SpirvToIr.Place lp = t.newLocal(i, id, pt);
                SpirvToIr.Ptr p = new SpirvToIr.Ptr(lp, pt, List.of());
                t.definePointer(id, p);
                if (i.count() > 3) t.store(i, p, t.val(i, m.id(i, 3)));
            }
            case OpLoad -> {
                int id = m.id(i, 1);
                SpirvToIr.Ptr p = t.pointer(i, m.id(i, 2));
                if (p.place() instanceof SpirvToIr.TexturePlace tp) {
                    t.textures.put(id, SpirvToIr.TexChoice.of(tp.var()));
                    return;
                }
                if (p.place() instanceof SpirvToIr.AccelPlace ap) {
                    t.accels.put(id, ap.buffer());
                    return;
                }
                if (p.place() instanceof SpirvToIr.TextureArrayPlace ta) {
                    if (p.path().size() != 1) throw m.module.error(i, "unsupported OpLoad (a whole array of textures)");
                    Object k = p.path().get(0);
                    if (k instanceof Integer c && (c < 0 || c >= ta.var().arrayLength()))
                        throw m.module.error(i, "texture array element " + c + " out of range");
                    t.textures.put(id, new SpirvToIr.TexChoice(ta.var(), t.index(k)));
                    return;
                }
                if (p.place()
                        instanceof
                        SpirvToIr.SamplerPlace sp) { // samplers hold nothing; an index past their array is undefined
                    if (sp.length() > 0 && p.path().size() == 1 && p.path().get(0) instanceof dev.lathe.ir.Value v)
                        t.fn.noteDescriptorIndex(v, sp.length());
                    return;
                }
                t.define(id, t.load(i, p));
            }
            case OpStore -> t.store(i, t.pointer(i, m.id(i, 0)), t.val(i, m.id(i, 1)));
            case OpCopyMemory -> {
                SpirvToIr.Ptr src = t.pointer(i, m.id(i, 1));
                t.store(i, t.pointer(i, m.id(i, 0)), t.load(i, src));
            }
            case OpAccessChain, OpInBoundsAccessChain ->
                t.definePointer(m.id(i, 1), indexes(t, i, t.pointer(i, m.id(i, 2)), 3)); // OpAccessChain
            case OpCopyObject, OpCopyLogical ->
                t.define(m.id(i, 1), t.val(i, m.id(i, 2))); // OpCopyObject, OpCopyLogical
            case OpPtrAccessChain, OpInBoundsPtrAccessChain ->
                t.definePointer(m.id(i, 1), ptrAccessChain(t, i)); // OpPtrAccessChain, OpInBoundsPtrAccessChain
            case OpConvertUToPtr -> { // OpConvertUToPtr: an integer becomes a device address
                if (!(m.typeOf(i, m.id(i, 0)) instanceof SpirvType.DevicePointer)) {
                    throw m.module.error(
                            i,
                            "unsupported OpConvertUToPtr (to " + m.typeOf(i, m.id(i, 0))
                                    + "; only PhysicalStorageBuffer pointers)");
                }
                Value x = t.simple(i, t.val(i, m.id(i, 2)));
                if (x.numComponents() != 1) throw m.module.error(i, "OpConvertUToPtr needs a scalar integer");
                t.define(m.id(i, 1), new Val.Simple(x.bitSize() == 64 ? x : b.alu(Op.U2U64, x)));
            }
            case OpConvertPtrToU -> { // OpConvertPtrToU: a device address becomes an integer
                int id = m.id(i, 2);
                if (!t.devicePointers.containsKey(id))
                    throw m.module.error(i, "unsupported OpConvertPtrToU (of %" + id + ", which is no device pointer)");
                Value x = t.simple(i, t.val(i, id));
                int to = SpirvType.bits(m.typeOf(i, m.id(i, 0)));
                t.define(
                        m.id(i, 1),
                        new Val.Simple(to == 64 ? x : b.alu(to == 32 ? Op.U2U32 : to == 16 ? Op.U2U16 : Op.U2U8, x)));
            }
            case OpPtrEqual, OpPtrNotEqual -> { // OpPtrEqual, OpPtrNotEqual: device pointers compare their addresses
                int x = m.id(i, 2), y = m.id(i, 3);
                if (!t.devicePointers.containsKey(x) || !t.devicePointers.containsKey(y)) {
                    throw m.module.error(
                            i, "unsupported " + SpirvNames.opcode(op) + " (only device pointers are compared)");
                }
                t.define(
                        m.id(i, 1),
                        new Val.Simple(b.alu(
                                op == OpPtrEqual ? Op.IEQ : Op.INE,
                                t.simple(i, t.val(i, x)),
                                t.simple(i, t.val(i, y)))));
            }
            case OpImageTexelPointer -> { // OpImageTexelPointer: result type, result, image (a pointer), coordinate,
                // sample
                SpirvToIr.Ptr p = t.pointer(i, m.id(i, 2));
                if (!(p.place() instanceof SpirvToIr.TexturePlace tp)
                        || tp.var().kind() != Variable.Kind.IMAGE) {
                    throw m.module.error(i, "OpImageTexelPointer needs a storage image");
                }
                t.definePointer(
                        m.id(i, 1),
                        new SpirvToIr.Ptr(
                                new SpirvToIr.ImageTexelPlace(tp.var(), imageCoord(t, i, tp.var(), m.id(i, 3))),
                                null,
                                List.of()));
            }
            case OpArrayLength -> { // OpArrayLength: structure pointer, member number (a literal)
                m.need(i, 4);
                t.define(m.id(i, 1), new Val.Simple(t.arrayLength(i, t.pointer(i, m.id(i, 2)), i.operand(3))));
            }
            case OpUndef -> t.define(m.id(i, 1), undef(t, i, m.typeOf(i, m.id(i, 0))));
            case OpCompositeConstruct -> {
                List<Val> parts = new ArrayList<>();
                for (int k = 2; k < i.count(); k++) parts.add(t.val(i, m.id(i, k)));
                t.define(m.id(i, 1), t.construct(i, m.typeOf(i, m.id(i, 0)), parts));
            }
            case OpCompositeExtract -> {
                Val v = t.val(i, m.id(i, 2));
                for (int k = 3; k < i.count(); k++) v = extract(t, i, v, i.operand(k));
                t.define(m.id(i, 1), v);
            }
            case OpCompositeInsert -> { // OpCompositeInsert object composite indices
                int[] path = new int[i.count() - 4];
                for (int k = 4; k < i.count(); k++) path[k - 4] = i.operand(k);
                t.define(m.id(i, 1), insert(t, i, t.val(i, m.id(i, 3)), path, 0, t.val(i, m.id(i, 2))));
            }
            case OpVectorShuffle -> {
                Value a = t.simple(i, t.val(i, m.id(i, 2))), c = t.simple(i, t.val(i, m.id(i, 3)));
                Value[] comps = new Value[i.count() - 4];
                for (int k = 4; k < i.count(); k++) {
                    long s = i.operand(k) & 0xffffffffL;
                    if (s == 0xffffffffL) comps[k - 4] = b.constant(a.bitSize(), 0);
                    else if (s < a.numComponents()) comps[k - 4] = b.channel(a, (int) s);
                    else if (s < a.numComponents() + c.numComponents())
                        comps[k - 4] = b.channel(c, (int) s - a.numComponents());
                    else throw m.module.error(i, "OpVectorShuffle component " + s + " is out of range");
                }
                t.define(m.id(i, 1), new Val.Simple(comps.length == 1 ? comps[0] : b.vec(comps)));
            }
            case OpVectorExtractDynamic ->
                t.define(
                        m.id(i, 1),
                        new Val.Simple(t.extract(
                                t.simple(i, t.val(i, m.id(i, 2))), t.simple(i, t.val(i, m.id(i, 3))))));
            case OpVectorInsertDynamic ->
                t.define(
                        m.id(i, 1),
                        new Val.Simple(t.insert(
                                t.simple(i, t.val(i, m.id(i, 2))),
                                t.simple(i, t.val(i, m.id(i, 4))),
                                t.simple(i, t.val(i, m.id(i, 3))))));
            case OpSelect ->
                t.define(m.id(i, 1), select(t, i, t.val(i, m.id(i, 2)), t.val(i, m.id(i, 3)), t.val(i, m.id(i, 4))));
            case OpAny, OpAll -> { // OpAny, OpAll
                Value v = t.simple(i, t.val(i, m.id(i, 2)));
                Value r = b.channel(v, 0);
                for (int k = 1; k < v.numComponents(); k++) r = b.alu(op == OpAny ? Op.IOR : Op.IAND, r, b.comp(v, k));
                t.define(m.id(i, 1), new Val.Simple(r));
            }
            case OpIsInf -> { // OpIsInf: |x| == inf
                Value x = t.simple(i, t.val(i, m.id(i, 2)));
                Value inf = splat(
                        b,
                        b.constant(x.bitSize(), FloatBits.fromDouble(Double.POSITIVE_INFINITY, x.bitSize())),
                        x.numComponents());
                t.define(m.id(i, 1), new Val.Simple(exact(t, i, b.alu(Op.FEQ, b.alu(Op.FABS, x), inf))));
            }
            case OpFOrdNotEqual -> { // OpFOrdNotEqual: ordered and unequal = not (unordered or equal)
                Value x = t.simple(i, t.val(i, m.id(i, 2))), y = t.simple(i, t.val(i, m.id(i, 3)));
                t.define(m.id(i, 1), new Val.Simple(b.alu(Op.INOT, b.alu(Op.FEQU, x, y))));
            }
            case OpShiftRightLogical,
                    OpShiftRightArithmetic,
                    OpShiftLeftLogical -> { // shifts: the count is 32-bit in the IR
                Value x = t.simple(i, t.val(i, m.id(i, 2))), s = t.simple(i, t.val(i, m.id(i, 3)));
                if (s.bitSize() != 32) s = b.alu(Op.U2U32, s);
                Op o = op == OpShiftRightLogical ? Op.USHR : op == OpShiftRightArithmetic ? Op.ISHR : Op.ISHL;
                t.define(m.id(i, 1), new Val.Simple(exact(t, i, b.alu(o, x, s))));
            }
            case OpBitFieldInsert,
                    OpBitFieldSExtract,
                    OpBitFieldUExtract -> { // bitfield insert / extract: offset and count are 32-bit
                Value base = t.simple(i, t.val(i, m.id(i, 2)));
                if (op == OpBitFieldInsert) {
                    Value ins = t.simple(i, t.val(i, m.id(i, 3)));
                    Value off = to32(b, t.simple(i, t.val(i, m.id(i, 4)))),
                            cnt = to32(b, t.simple(i, t.val(i, m.id(i, 5))));
                    t.define(
                            m.id(i, 1),
                            new Val.Simple(b.alu(
                                    Op.BITFIELD_INSERT,
                                    base,
                                    ins,
                                    splat(b, off, base.numComponents()),
                                    splat(b, cnt, base.numComponents()))));
                } else {
                    Value off = to32(b, t.simple(i, t.val(i, m.id(i, 3)))),
                            cnt = to32(b, t.simple(i, t.val(i, m.id(i, 4))));
                    t.define(
                            m.id(i, 1),
                            new Val.Simple(b.alu(
                                    op == OpBitFieldSExtract ? Op.IBITFIELD_EXTRACT : Op.UBITFIELD_EXTRACT,
                                    base,
                                    splat(b, off, base.numComponents()),
                                    splat(b, cnt, base.numComponents()))));
                }
            }
            case OpConvertFToU, OpConvertFToS, OpConvertSToF, OpConvertUToF, OpUConvert, OpSConvert, OpFConvert ->
                t.define(m.id(i, 1), convert(t, i, op));
            case OpBitcast -> t.define(m.id(i, 1), bitcast(t, i));
            case OpDot -> {
                Value x = t.simple(i, t.val(i, m.id(i, 2))), y = t.simple(i, t.val(i, m.id(i, 3)));
                Op d = x.numComponents() == 2 ? Op.FDOT2 : x.numComponents() == 3 ? Op.FDOT3 : Op.FDOT4;
                t.define(m.id(i, 1), new Val.Simple(exact(t, i, b.alu(d, x, y))));
            }
            case OpVectorTimesScalar -> {
                Value v = t.simple(i, t.val(i, m.id(i, 2))), s = t.simple(i, t.val(i, m.id(i, 3)));
                t.define(m.id(i, 1), new Val.Simple(exact(t, i, b.alu(Op.FMUL, v, splat(b, s, v.numComponents())))));
            }
            case OpMatrixTimesScalar,
                    OpVectorTimesMatrix,
                    OpMatrixTimesVector,
                    OpMatrixTimesMatrix,
                    OpOuterProduct,
                    OpTranspose -> t.define(m.id(i, 1), Matrices.translate(t, i));
            case OpSampledImage -> t.textures.put(m.id(i, 1), texture(t, i, m.id(i, 2)));
            case OpImage -> t.textures.put(m.id(i, 1), texture(t, i, m.id(i, 2)));
            case OpImageSampleImplicitLod,
                    OpImageSampleExplicitLod,
                    OpImageSampleDrefImplicitLod,
                    OpImageSampleDrefExplicitLod,
                    OpImageSampleProjImplicitLod,
                    OpImageSampleProjExplicitLod,
                    OpImageSampleProjDrefImplicitLod,
                    OpImageSampleProjDrefExplicitLod,
                    OpImageFetch,
                    OpImageGather,
                    OpImageQuerySizeLod,
                    OpImageQuerySize,
                    OpImageQueryLevels,
                    OpImageQuerySamples -> t.define(m.id(i, 1), image(t, i));
            case OpRayQueryInitializeKHR,
                    OpRayQueryTerminateKHR,
                    OpRayQueryGenerateIntersectionKHR,
                    OpRayQueryConfirmIntersectionKHR,
                    OpRayQueryProceedKHR,
                    OpRayQueryGetIntersectionTypeKHR,
                    OpRayQueryGetRayTMinKHR,
                    OpRayQueryGetRayFlagsKHR,
                    OpRayQueryGetIntersectionTKHR,
                    OpRayQueryGetIntersectionInstanceCustomIndexKHR,
                    OpRayQueryGetIntersectionInstanceIdKHR,
                    OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
                    OpRayQueryGetIntersectionGeometryIndexKHR,
                    OpRayQueryGetIntersectionPrimitiveIndexKHR,
                    OpRayQueryGetIntersectionBarycentricsKHR,
                    OpRayQueryGetIntersectionFrontFaceKHR,
                    OpRayQueryGetIntersectionCandidateAABBOpaqueKHR,
                    OpRayQueryGetIntersectionObjectRayDirectionKHR,
                    OpRayQueryGetIntersectionObjectRayOriginKHR,
                    OpRayQueryGetWorldRayDirectionKHR,
                    OpRayQueryGetWorldRayOriginKHR,
                    OpRayQueryGetIntersectionObjectToWorldKHR,
                    OpRayQueryGetIntersectionWorldToObjectKHR -> RayQueries.translate(t, i);
            case OpImageSparseSampleImplicitLod,
                    OpImageSparseSampleExplicitLod,
                    OpImageSparseSampleDrefImplicitLod,
                    OpImageSparseSampleDrefExplicitLod,
                    OpImageSparseSampleProjImplicitLod,
                    OpImageSparseSampleProjExplicitLod,
                    OpImageSparseSampleProjDrefImplicitLod,
                    OpImageSparseSampleProjDrefExplicitLod,
                    OpImageSparseFetch,
                    OpImageSparseGather,
                    OpImageSparseRead -> {
                // sparse forms: Lathe's textures are fully resident, so the residency code is 0
                // (resident) and the texel is the one the plain instruction gives
                int plain = op == OpImageSparseRead
                        ? OpImageRead
                        : op - OpImageSparseSampleImplicitLod + OpImageSampleImplicitLod;
                Instruction same = new Instruction(plain, i.operands(), i.word());
                Value texel = t.simple(i, op == OpImageSparseRead ? storageRead(t, same) : image(t, same));
                if (!(m.typeOf(i, m.id(i, 0)) instanceof SpirvType.Struct st)
                        || st.members().size() != 2) {
                    throw m.module.error(
                            i, SpirvNames.opcode(op) + " needs a result of a struct of a residency code and a texel");
                }
                int n = SpirvType.components(st.members().get(1));
                t.define(
                        m.id(i, 1),
                        new Val.Composite(
                                List.of(new Val.Simple(b.i32(0)), new Val.Simple(n == 4 ? texel : pick(b, texel, n)))));
            }
            case OpImageSparseTexelsResident -> { // OpImageSparseTexelsResident: a residency code of 0 means every
                // texel was resident
                t.define(m.id(i, 1), new Val.Simple(b.alu(Op.IEQ, t.simple(i, t.val(i, m.id(i, 2))), b.i32(0))));
            }
            case OpImageRead -> { // OpImageRead: result type, result, image, coordinate [, operands]
                if (inputAttachment(t, i, m.id(i, 2)) != null) {
                    t.define(m.id(i, 1), new Val.Simple(subpassLoad(t, i)));
                    return;
                }
                t.define(m.id(i, 1), storageRead(t, i));
            }
            case OpImageWrite -> { // OpImageWrite: image, coordinate, texel [, operands]
                Variable img = storageImage(t, i, m.id(i, 0));
                Value texel = t.simple(i, t.val(i, m.id(i, 2)));
                if (texel.bitSize() != 32)
                    throw m.module.error(i, "unsupported OpImageWrite (" + texel.bitSize() + "-bit texels)");
                if (texel.numComponents() != 4) {
                    Value[] c = new Value[4];
                    for (int k = 0; k < 4; k++) c[k] = k < texel.numComponents() ? b.channel(texel, k) : b.i32(0);
                    texel = b.vec(c);
                }
                b.imageStore(img, imageCoord(t, i, img, m.id(i, 1)), texel);
            }
            case OpDPdx,
                    OpDPdy,
                    OpFwidth,
                    OpDPdxFine,
                    OpDPdyFine,
                    OpFwidthFine,
                    OpDPdxCoarse,
                    OpDPdyCoarse,
                    OpFwidthCoarse -> {
                // derivatives: Lathe runs one fragment at a time, as if the other three of its quad
                // had the same inputs, so every derivative (and fwidth) is exactly 0
                if (t.shader.stage() != Stage.FRAGMENT)
                    throw m.module.error(i, SpirvNames.opcode(op) + " outside a fragment shader");
                Value x = t.simple(i, t.val(i, m.id(i, 2)));
                t.define(m.id(i, 1), new Val.Simple(b.constant(x.bitSize(), new long[x.numComponents()])));
            }
            case OpGroupNonUniformElect,
                    OpGroupNonUniformAll,
                    OpGroupNonUniformAny,
                    OpGroupNonUniformAllEqual,
                    OpGroupNonUniformBroadcast,
                    OpGroupNonUniformBroadcastFirst,
                    OpGroupNonUniformBallot,
                    OpGroupNonUniformInverseBallot,
                    OpGroupNonUniformBallotBitExtract,
                    OpGroupNonUniformBallotBitCount,
                    OpGroupNonUniformBallotFindLSB,
                    OpGroupNonUniformBallotFindMSB,
                    OpGroupNonUniformShuffle,
                    OpGroupNonUniformShuffleXor,
                    OpGroupNonUniformShuffleUp,
                    OpGroupNonUniformShuffleDown,
                    OpGroupNonUniformIAdd,
                    OpGroupNonUniformFAdd,
                    OpGroupNonUniformIMul,
                    OpGroupNonUniformFMul,
                    OpGroupNonUniformSMin,
                    OpGroupNonUniformUMin,
                    OpGroupNonUniformFMin,
                    OpGroupNonUniformSMax,
                    OpGroupNonUniformUMax,
                    OpGroupNonUniformFMax,
                    OpGroupNonUniformBitwiseAnd,
                    OpGroupNonUniformBitwiseOr,
                    OpGroupNonUniformBitwiseXor,
                    OpGroupNonUniformLogicalAnd,
                    OpGroupNonUniformLogicalOr,
                    OpGroupNonUniformLogicalXor,
                    OpGroupNonUniformQuadBroadcast,
                    OpGroupNonUniformQuadSwap,
                    OpSubgroupBallotKHR,
                    OpSubgroupFirstInvocationKHR,
                    OpSubgroupAllKHR,
                    OpSubgroupAnyKHR,
                    OpSubgroupAllEqualKHR,
                    OpSubgroupReadInvocationKHR -> t.define(m.id(i, 1), Subgroups.translate(t, i));
            case OpControlBarrier -> b.barrier();
            case OpEmitVertex -> {
                // the outputs live in their shadows until the vertex is emitted
                t.storeOutputs();
                b.emitVertex();
            }
            case OpEndPrimitive -> b.endPrimitive();
            case OpMemoryBarrier -> {} // OpMemoryBarrier: invocations run one at a time
            case OpAtomicLoad -> { // OpAtomicLoad: invocations run one at a time, so a plain load
                SpirvToIr.Ptr p = t.pointer(i, m.id(i, 2));
                t.define(m.id(i, 1), t.load(i, p));
            }
            case OpAtomicStore -> t.store(i, t.pointer(i, m.id(i, 0)), t.val(i, m.id(i, 3)));
            case OpAtomicExchange,
                    OpAtomicCompareExchange,
                    OpAtomicCompareExchangeWeak,
                    OpAtomicIIncrement,
                    OpAtomicIDecrement,
                    OpAtomicIAdd,
                    OpAtomicISub,
                    OpAtomicSMin,
                    OpAtomicUMin,
                    OpAtomicSMax,
                    OpAtomicUMax,
                    OpAtomicAnd,
                    OpAtomicOr,
                    OpAtomicXor -> t.define(m.id(i, 1), atomic(t, i, op));
            case OpPhi -> { // OpPhi: stored on each incoming edge
                int id = m.id(i, 1);
                t.define(id, new Val.Simple(b.loadVar(phiVariable(t, i))));
            }
            case OpFunctionCall -> {
                ModuleInfo.Function callee = m.functions.get(m.id(i, 2));
                if (callee == null)
                    throw m.module.error(i, "OpFunctionCall of %" + i.operand(2) + ", which is no function");
                List<Integer> args = new ArrayList<>();
                for (int k = 3; k < i.count(); k++) args.add(m.id(i, k));
                t.inline(i, callee, args);
            }
            case OpExtInst -> {
                if (m.nonSemantic.contains(m.id(i, 2))) return;
                if (m.id(i, 2) != m.glsl450)
                    throw m.module.error(
                            i, "unsupported OpExtInst (only GLSL.std.450 and NonSemantic.* sets are read)");
                t.define(m.id(i, 1), Glsl450.translate(t, i));
            }
            default -> {
                Op bin = BINARY.get(op), sw = SWAPPED.get(op), un = UNARY.get(op);
                if (bin != null || sw != null) {
                    // matrices (m + n, m - n, m / n) work column by column
                    t.define(
                            m.id(i, 1),
                            memberwise(
                                    t,
                                    i,
                                    t.val(i, m.id(i, 2)),
                                    t.val(i, m.id(i, 3)),
                                    (x, y) -> exact(t, i, bin != null ? b.alu(bin, x, y) : b.alu(sw, y, x))));
                } else if (un != null) {
                    Val x = t.val(i, m.id(i, 2));
                    t.define(m.id(i, 1), memberwise(t, i, x, x, (v, unused) -> exact(t, i, b.alu(un, v))));
                } else {
                    throw m.module.error(i, "unsupported " + SpirvNames.opcode(op));
                }
            }
        }
    }

    /** An operation on scalars and vectors applied member by member to matrices (and arrays, structs). */
    private static Val memberwise(SpirvToIr t, Instruction i, Val x, Val y, BinaryOperator<Value> f) {
        if (x instanceof Val.Composite cx
                && y instanceof Val.Composite cy
                && cx.members().size() == cy.members().size()) {
            List<Val> out = new ArrayList<>();
            for (int k = 0; k < cx.members().size(); k++)
                out.add(memberwise(t, i, cx.members().get(k), cy.members().get(k), f));
            return new Val.Composite(out);
        }
        return new Val.Simple(f.apply(t.simple(i, x), t.simple(i, y)));
    }

    private static Variable storageImage(SpirvToIr t, Instruction i, int id) {
        SpirvToIr.TexChoice c = texture(t, i, id);
        Variable v = c.var();
        if (c.index() != null || v.kind() != Variable.Kind.IMAGE)
            throw t.m.module.error(i, SpirvNames.opcode(i.opcode()) + " on %" + id + ", which is no storage image");
        return v;
    }

    /** OpImageRead on a storage image: its texel, as many components as the result type has. */
    private static Val storageRead(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        Variable img = storageImage(t, i, m.id(i, 2));
        Value texel = t.b.imageLoad(img, imageCoord(t, i, img, m.id(i, 3)));
        SpirvType rt = m.typeOf(i, m.id(i, 0));
        int n = rt instanceof SpirvType.Struct st && st.members().size() == 2
                ? SpirvType.components(st.members().get(1))
                : SpirvType.components(rt);
        return new Val.Simple(n == 4 ? texel : pick(t.b, texel, n));
    }

    /** The texture of an input attachment the id names, or null when it names none. */
    private static Variable inputAttachment(SpirvToIr t, Instruction i, int id) {
        SpirvToIr.TexChoice c = t.textures.get(id);
        if (c == null || c.index() != null) return null;
        SpirvToIr.TextureShape shape = t.textureShapes.get(c.var());
        return shape == SpirvToIr.TextureShape.SUBPASS || shape == SpirvToIr.TextureShape.SUBPASS_MULTISAMPLED
                ? c.var()
                : null;
    }

    /**
     * subpassLoad: the attachment's texel at the fragment's own pixel plus the (constant)
     * offset the coordinate gives, as Mesa's Vulkan drivers lower input attachments to a texel
     * fetch at gl_FragCoord; a multisampled attachment at the Sample operand's sample.
     */
    private static Value subpassLoad(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        Variable tex = inputAttachment(t, i, m.id(i, 2));
        Value offset = t.simple(i, t.val(i, m.id(i, 3)));
        if (offset.bitSize() != 32 || offset.numComponents() != 2)
            throw m.module.error(i, "OpImageRead on an input attachment needs an ivec2 coordinate");
        Value pixel = b.alu(Op.F2I32, b.alu(Op.FFLOOR, pick(b, b.sysval(Intrinsic.LOAD_FRAG_COORD), 2)));
        Value at = b.alu(Op.IADD, pixel, offset);
        int mask = i.count() > 4 ? i.operand(4) : 0;
        boolean multisampled = t.textureShapes.get(tex) == SpirvToIr.TextureShape.SUBPASS_MULTISAMPLED;
        if (mask != (multisampled ? 0x40 : 0)) {
            throw m.module.error(
                    i,
                    "OpImageRead on "
                            + (multisampled
                                    ? "a multisampled input attachment needs exactly a Sample operand"
                                    : "an input attachment takes no image operands"));
        }
        Value texel = multisampled
                ? b.txf(tex, b.vec(b.channel(at, 0), b.channel(at, 1), t.simple(i, t.val(i, m.id(i, 5)))))
                : b.txf(tex, at);
        int n = SpirvType.components(m.typeOf(i, m.id(i, 0)));
        return n == 4 ? texel : pick(b, texel, n);
    }

    private static Value imageCoord(SpirvToIr t, Instruction i, Variable img, int id) {
        Value c = t.simple(i, t.val(i, id));
        int dims = img.dim().coordinates();
        if (c.bitSize() != 32 || c.numComponents() < dims)
            throw t.m.module.error(i, SpirvNames.opcode(i.opcode()) + " needs " + dims + " 32-bit integer coordinates");
        return c.numComponents() == dims ? c : pick(t.b, c, dims);
    }

    private static SpirvToIr.TexChoice texture(SpirvToIr t, Instruction i, int id) {
        SpirvToIr.TexChoice v = t.textures.get(id);
        if (v == null)
            throw t.m.module.error(
                    i, "%" + id + " is not a texture Lathe knows (sampled images and their arrays are read)");
        return v;
    }

    /** Image instructions on a sampled image, or on an element of an array of them. */
    private static Val image(SpirvToIr t, Instruction i) {
        SpirvToIr.TexChoice tc = texture(t, i, t.m.id(i, 2));
        return new Val.Simple(imageOn(t, i, new Tex(tc.var(), tc.index())));
    }

    /** A texture, or element {@code element} of an array of textures: what its texture instructions read. */
    private record Tex(Variable var, Value element) {
        Value tex(IrBuilder b, Value coord) {
            return b.texture(Intrinsic.TEX, var, element, coord);
        }

        Value txl(IrBuilder b, Value coord, Value lod) {
            return b.texture(Intrinsic.TXL, var, element, coord, lod);
        }

        Value txf(IrBuilder b, Value coord) {
            return b.texture(Intrinsic.TXF, var, element, coord);
        }

        Value txs(IrBuilder b) {
            return b.texture(Intrinsic.TXS, var, element);
        }
    }

    /**
     * One image instruction on one texture. Textures have a single level, so a bias, a lod,
     * gradients and a minimum lod are read and change nothing. Depth comparisons (Dref) take
     * the sampler's compare op to be LESS_OR_EQUAL: 1.0 when the reference is at most the
     * texel's red channel, else 0.0. Projective forms divide the coordinates (and the
     * reference) by q, the component after them.
     */
    private static Value imageOn(SpirvToIr t, Instruction i, Tex tx) {
        Variable tex = tx.var();
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        int dims = tex.dim().coordinates();
        int op = i.opcode();
        if (tex.kind() == Variable.Kind.IMAGE && op != OpImageQuerySizeLod && op != OpImageQuerySize)
            throw m.module.error(i, SpirvNames.opcode(op) + " on a storage image");
        SpirvToIr.TextureShape shape = t.textureShapes.getOrDefault(tex, SpirvToIr.TextureShape.PLAIN);
        boolean subpass =
                shape == SpirvToIr.TextureShape.SUBPASS || shape == SpirvToIr.TextureShape.SUBPASS_MULTISAMPLED;
        if (subpass)
            throw m.module.error(i, SpirvNames.opcode(op) + " on an input attachment (only OpImageRead reads one)");
        if (op == OpImageQuerySizeLod || op == OpImageQuerySize) {
            Value size = tex.kind() == Variable.Kind.IMAGE ? b.imageSize(tex) : tx.txs(b);
            int n = SpirvType.components(m.typeOf(i, m.id(i, 0)));
            return n >= size.numComponents() ? size : pick(b, size, n);
        }
        if (op == OpImageQueryLevels) return b.i32(1); // OpImageQueryLevels: textures have one level
        if (op == OpImageQuerySamples) { // OpImageQuerySamples
            if (shape != SpirvToIr.TextureShape.MULTISAMPLED)
                throw m.module.error(i, "OpImageQuerySamples on a texture that is not multisampled");
            return b.channel(tx.txs(b), 2);
        }
        if (shape == SpirvToIr.TextureShape.MULTISAMPLED && op != OpImageFetch) {
            throw m.module.error(i, SpirvNames.opcode(op) + " on a multisampled texture (only texel fetches read one)");
        }
        boolean dref = op == OpImageSampleDrefImplicitLod
                || op == OpImageSampleDrefExplicitLod
                || op == OpImageSampleProjDrefImplicitLod
                || op == OpImageSampleProjDrefExplicitLod;
        boolean proj = op >= OpImageSampleProjImplicitLod && op <= OpImageSampleProjDrefExplicitLod;
        Value full = t.simple(i, t.val(i, m.id(i, 3)));
        if (proj && full.numComponents() <= dims)
            throw m.module.error(i, SpirvNames.opcode(op) + " needs a q component after the coordinates");
        if (proj && shape != SpirvToIr.TextureShape.PLAIN)
            throw m.module.error(i, SpirvNames.opcode(op) + " on an arrayed or cube texture");
        if ((shape == SpirvToIr.TextureShape.CUBE || shape == SpirvToIr.TextureShape.CUBE_ARRAY)
                && (op == OpImageFetch || op == OpImageGather))
            throw m.module.error(i, "unsupported " + SpirvNames.opcode(op) + " on a cube map");
        // coordinates given: a multisampled texel's x, y (the sample comes apart)
        int given = shape == SpirvToIr.TextureShape.MULTISAMPLED ? 2 : dims;
        if (full.numComponents() < given)
            throw m.module.error(i, SpirvNames.opcode(op) + " needs " + given + " coordinates");
        Value coord = full.numComponents() != given ? pick(b, full, given) : full;
        int next = 4;
        Value ref = null;
        Integer component = null;
        if (dref) {
            if (tex.type().base() != BaseType.FLOAT)
                throw m.module.error(i, SpirvNames.opcode(op) + " on an integer texture");
            ref = t.simple(i, t.val(i, m.id(i, next++)));
        }
        if (op == OpImageGather) {
            component = constIndex(m, m.id(i, next++));
            if (component == null || component < 0 || component > 3)
                throw m.module.error(i, "OpImageGather needs a constant component 0 to 3");
            if (dims != 2) throw m.module.error(i, "unsupported OpImageGather (on a " + dims + "-dimensional texture)");
        }
        if (proj) {
            Value q = b.channel(full, dims);
            coord = b.alu(Op.FDIV, coord, splat(b, q, dims));
            if (ref != null) ref = b.alu(Op.FDIV, ref, q);
        }
        // image operands, in the order of their mask bits: Bias 0x1, Lod 0x2, Grad 0x4 (two),
        // ConstOffset 0x8, Offset 0x10, Sample 0x40, MinLod 0x80
        int mask = i.count() > next ? i.operand(next++) : 0;
        if ((mask & ~0xdf) != 0) {
            throw m.module.error(
                    i,
                    "unsupported " + SpirvNames.opcode(op) + " operands (mask 0x" + Integer.toHexString(mask)
                            + "; bias, lod, gradients, offsets, a sample and a minimum lod are read)");
        }
        if ((mask & 0x1) != 0) next++;
        Value lod = null;
        if ((mask & 0x2) != 0) lod = t.simple(i, t.val(i, m.id(i, next++)));
        boolean grad = (mask & 0x4) != 0;
        if (grad) next += 2;
        Value offset = null;
        if ((mask & 0x8) != 0) offset = t.simple(i, t.val(i, m.id(i, next++)));
        if ((mask & 0x10) != 0) {
            if (offset != null) throw m.module.error(i, "both ConstOffset and Offset");
            offset = t.simple(i, t.val(i, m.id(i, next++)));
        }
        Value sample = null;
        if ((mask & 0x40) != 0) sample = t.simple(i, t.val(i, m.id(i, next++)));
        if ((mask & 0x80) != 0) next++;
        m.need(i, next);
        if (shape == SpirvToIr.TextureShape.MULTISAMPLED) {
            if (sample == null)
                throw m.module.error(i, "OpImageFetch on a multisampled texture needs a Sample operand");
            Value at = offset == null
                    ? coord
                    : b.alu(Op.IADD, coord, offset.numComponents() == 2 ? offset : pick(b, offset, 2));
            return tx.txf(b, b.vec(b.channel(at, 0), b.channel(at, 1), sample));
        }
        if (sample != null)
            throw m.module.error(
                    i, SpirvNames.opcode(op) + " with a Sample operand on a texture that is not multisampled");
        if (offset != null && shape == SpirvToIr.TextureShape.CUBE_ARRAY)
            throw m.module.error(i, SpirvNames.opcode(op) + " with an offset on a cube map");
        if (offset != null && shape == SpirvToIr.TextureShape.CUBE)
            throw m.module.error(i, SpirvNames.opcode(op) + " with an offset on a cube map");
        if (offset != null && shape == SpirvToIr.TextureShape.ARRAY) {
            // the offset moves within a layer: none on the layer coordinate
            Value[] c = new Value[dims];
            for (int k = 0; k < dims; k++)
                c[k] = k < dims - 1 && k < offset.numComponents() ? b.channel(offset, k) : b.i32(0);
            offset = dims == 1 ? c[0] : b.vec(c);
        }
        if (offset != null && offset.numComponents() != dims) offset = pick(b, offset, dims);
        if (op == OpImageFetch) {
            // texel coordinates: the offset adds in texels
            return tx.txf(b, offset == null ? coord : b.alu(Op.IADD, coord, offset));
        }
        if (offset != null) {
            // normalized coordinates: the offset in texels, divided by the size
            Value size = tx.txs(b);
            if (size.numComponents() != dims) size = pick(b, size, dims);
            coord = b.alu(Op.FADD, coord, b.alu(Op.FDIV, b.alu(Op.I2F32, offset), b.alu(Op.U2F32, size)));
        }
        if (op == OpImageGather) {
            if (shape != SpirvToIr.TextureShape.PLAIN)
                throw m.module.error(i, "unsupported OpImageGather (on an arrayed texture)");
            return gather(b, tx, coord, component);
        }
        boolean explicit = op == OpImageSampleExplicitLod
                || op == OpImageSampleDrefExplicitLod
                || op == OpImageSampleProjExplicitLod
                || op == OpImageSampleProjDrefExplicitLod;
        Value texel;
        if (!explicit) {
            if (lod != null || grad) throw m.module.error(i, SpirvNames.opcode(op) + " with a Lod or Grad operand");
            texel = tx.tex(b, coord);
        } else if (lod != null) {
            texel = tx.txl(b, coord, lod);
        } else if (grad) {
            texel = tx.tex(b, coord);
        } else {
            throw m.module.error(i, SpirvNames.opcode(op) + " without a Lod or Grad operand");
        }
        if (!dref) return texel;
        Value pass = b.alu(Op.FGE, b.channel(texel, 0), ref);
        return b.alu(Op.BCSEL, pass, b.f32(1.0f), b.f32(0.0f));
    }

    /**
     * OpImageGather: one component of the four texels bilinear filtering would blend, as
     * (i0, j1), (i1, j1), (i1, j0), (i0, j0) with i0 = floor(u·width − 0.5), i1 = i0 + 1 (the
     * same for j), clamped to the edge like sampling.
     */
    private static Value gather(IrBuilder b, Tex tx, Value coord, int component) {
        Value size = tx.txs(b);
        Value p = b.alu(Op.FSUB, b.alu(Op.FMUL, coord, b.alu(Op.U2F32, size)), b.f32(0.5f, 0.5f));
        Value base = b.alu(Op.F2I32, b.alu(Op.FFLOOR, p));
        Value max = b.alu(Op.ISUB, size, b.i32(1, 1));
        int[][] corners = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
        Value[] out = new Value[4];
        for (int k = 0; k < 4; k++) {
            Value at = b.alu(Op.IADD, base, b.i32(corners[k][0], corners[k][1]));
            at = b.alu(Op.IMIN, b.alu(Op.IMAX, at, b.i32(0, 0)), max);
            out[k] = b.channel(tx.txf(b, at), component);
        }
        return b.vec(out);
    }

    private static Value pick(IrBuilder b, Value v, int n) {
        Value[] c = new Value[n];
        for (int k = 0; k < n; k++) c[k] = b.channel(v, k);
        return n == 1 ? c[0] : b.vec(c);
    }

    private static Variable phiVariable(SpirvToIr t, Instruction phi) {
        return t.phiVariableFor(phi);
    }

    /**
     * The instruction's exact mark and flags from its decorations: {@code NoContraction} makes it
     * exact; {@code FPFastMathMode} gives nnan (NotNaN), ninf (NotInf), nsz (NSZ) and reassoc
     * (AllowContract, AllowReassoc, AllowTransform; Fast gives all four) and nothing else; without
     * it a float instruction may reassociate and contract, which is what SPIR-V allows unless
     * {@code NoContraction} (its definition: such operations "are not allowed to reassociate"),
     * and what NIR assumes of an instruction that is not exact. {@code NoSignedWrap} and
     * {@code NoUnsignedWrap} give nsw and nuw. Signed zeros, infinities and NaNs are kept unless
     * a decoration lets them go, which is also what {@code SignedZeroInfNanPreserve} asks.
     */
    static Value exact(SpirvToIr t, Instruction i, Value v) {
        if (i.count() <= 1 || !(v.parent() instanceof AluInstr a)) return v;
        int id = i.operand(1);
        boolean exact = t.m.decoration(id, ModuleInfo.NO_CONTRACTION) != null;
        Integer fast = t.m.decoration(id, ModuleInfo.FP_FAST_MATH_MODE);
        AluFlags flags = AluFlags.NONE;
        if (fast == null) {
            if (!exact) flags = flags.with(AluFlag.REASSOC);
        } else {
            boolean all = (fast & 0x10) != 0; // Fast
            if (all || (fast & 0x1) != 0) flags = flags.with(AluFlag.NNAN);
            if (all || (fast & 0x2) != 0) flags = flags.with(AluFlag.NINF);
            if (all || (fast & 0x4) != 0) flags = flags.with(AluFlag.NSZ);
            if (!exact && (all || (fast & 0x70000) != 0)) flags = flags.with(AluFlag.REASSOC);
        }
        if (t.m.decoration(id, ModuleInfo.NO_SIGNED_WRAP) != null) flags = flags.with(AluFlag.NSW);
        if (t.m.decoration(id, ModuleInfo.NO_UNSIGNED_WRAP) != null) flags = flags.with(AluFlag.NUW);
        a.setExact(exact);
        a.setFlags(flags.applicableTo(a.op()));
        return v;
    }

    static Value splat(IrBuilder b, Value s, int n) {
        if (n == 1 || s.numComponents() == n) return s;
        Value[] c = new Value[n];
        for (int k = 0; k < n; k++) c[k] = s.numComponents() == 1 ? s : b.channel(s, 0);
        return b.vec(c);
    }

    private static Value to32(IrBuilder b, Value v) {
        return v.bitSize() == 32 ? v : b.alu(Op.U2U32, v);
    }

    private static Integer constIndex(ModuleInfo m, int id) {
        SpirvModule.Instruction c = m.constants.get(id);
        if (c == null || c.opcode() != OpConstant || c.count() < 3) return null;
        return c.operand(2);
    }

    private static SpirvType element(SpirvToIr t, Instruction i, SpirvType ty, Object index) {
        if (ty instanceof SpirvType.Struct s) {
            if (!(index instanceof Integer k) || k < 0 || k >= s.members().size())
                throw t.m.module.error(i, "a struct member index must be a constant in range");
            return s.members().get(k);
        }
        if (ty instanceof SpirvType.Array a) return a.element();
        if (ty instanceof SpirvType.RuntimeArray a) return a.element();
        if (ty instanceof SpirvType.Matrix mx) return mx.column();
        if (ty instanceof SpirvType.Vector v) return v.element();
        throw t.m.module.error(i, "an access chain goes past a scalar");
    }

    static Val undef(SpirvToIr t, Instruction i, SpirvType ty) {
        if (SpirvType.isSimple(ty)) return new Val.Simple(t.b.undef(SpirvType.components(ty), SpirvType.bits(ty)));
        List<Val> parts = new ArrayList<>();
        if (ty instanceof SpirvType.Matrix mx) for (int k = 0; k < mx.count(); k++) parts.add(undef(t, i, mx.column()));
        else if (ty instanceof SpirvType.Array a)
            for (int k = 0; k < a.length(); k++) parts.add(undef(t, i, a.element()));
        else if (ty instanceof SpirvType.Struct s) for (SpirvType mt : s.members()) parts.add(undef(t, i, mt));
        else throw t.m.module.error(i, "unsupported OpUndef of " + ty);
        return new Val.Composite(parts);
    }

    private static Val extract(SpirvToIr t, Instruction i, Val v, int index) {
        if (v instanceof Val.Composite c) {
            if (index < 0 || index >= c.members().size())
                throw t.m.module.error(i, "composite index " + index + " out of range");
            return c.members().get(index);
        }
        Value x = ((Val.Simple) v).value();
        if (index < 0 || index >= x.numComponents()) throw t.m.module.error(i, "component " + index + " out of range");
        return new Val.Simple(t.b.channel(x, index));
    }

    private static Val insert(SpirvToIr t, Instruction i, Val into, int[] path, int at, Val object) {
        if (at == path.length) return object;
        if (into instanceof Val.Composite c) {
            List<Val> parts = new ArrayList<>(c.members());
            if (path[at] < 0 || path[at] >= parts.size())
                throw t.m.module.error(i, "composite index " + path[at] + " out of range");
            parts.set(path[at], insert(t, i, parts.get(path[at]), path, at + 1, object));
            return new Val.Composite(parts);
        }
        Value x = ((Val.Simple) into).value();
        if (path[at] < 0 || path[at] >= x.numComponents())
            throw t.m.module.error(i, "component " + path[at] + " out of range");
        return new Val.Simple(t.insert(x, path[at], t.simple(i, object)));
    }

    /**
     * OpAtomicExchange … OpAtomicXor: result type, result, pointer, scope, semantics (two for the
     * compare-exchanges), then the value (and the comparator). Scopes and semantics need no
     * code: invocations never interleave inside an atomic.
     */
    private static Val atomic(SpirvToIr t, Instruction i, int op) {
        SpirvToIr.Ptr p = t.pointer(i, t.m.id(i, 2));
        IrBuilder b = t.b;
        Value compare = null, data;
        AtomicOp a;
        switch (op) {
            case OpAtomicCompareExchange, OpAtomicCompareExchangeWeak -> {
                a = AtomicOp.COMP_SWAP;
                data = t.simple(i, t.val(i, t.m.id(i, 6)));
                compare = t.simple(i, t.val(i, t.m.id(i, 7)));
            }
            case OpAtomicIIncrement, OpAtomicIDecrement -> {
                a = AtomicOp.ADD;
                data = b.i32(op == OpAtomicIIncrement ? 1 : -1);
            }
            default -> {
                data = t.simple(i, t.val(i, t.m.id(i, 5)));
                a = switch (op) {
                    case OpAtomicExchange -> AtomicOp.EXCHANGE;
                    case OpAtomicIAdd, OpAtomicISub -> AtomicOp.ADD;
                    case OpAtomicSMin -> AtomicOp.IMIN;
                    case OpAtomicUMin -> AtomicOp.UMIN;
                    case OpAtomicSMax -> AtomicOp.IMAX;
                    case OpAtomicUMax -> AtomicOp.UMAX;
                    case OpAtomicAnd -> AtomicOp.AND;
                    case OpAtomicOr -> AtomicOp.OR;
                    default -> AtomicOp.XOR;
                };
                if (op == OpAtomicISub) data = b.alu(Op.INEG, data);
            }
        }
        if (data.bitSize() != 32)
            throw t.mod.error(
                    i,
                    "unsupported " + SpirvNames.opcode(op) + " (on " + data.bitSize()
                            + "-bit values; only 32-bit integers)");
        return new Val.Simple(t.atomic(i, p, a, compare, data));
    }

    static Val select(SpirvToIr t, Instruction i, Val cond, Val a, Val c) {
        if (a instanceof Val.Composite ca) {
            List<Val> parts = new ArrayList<>();
            for (int k = 0; k < ca.members().size(); k++)
                parts.add(select(
                        t,
                        i,
                        cond,
                        ca.members().get(k),
                        ((Val.Composite) c).members().get(k)));
            return new Val.Composite(parts);
        }
        Value x = t.simple(i, a), y = t.simple(i, c), s = t.simple(i, cond);
        return new Val.Simple(t.b.alu(Op.BCSEL, splat(t.b, s, x.numComponents()), x, y));
    }

    private static Val convert(SpirvToIr t, Instruction i, int op) {
        ModuleInfo m = t.m;
        SpirvType rt = m.typeOf(i, m.id(i, 0));
        Value x = t.simple(i, t.val(i, m.id(i, 2)));
        int to = SpirvType.bits(rt);
        Op o = switch (op) {
            case OpConvertFToU -> pick(to, Op.F2U8, Op.F2U16, Op.F2U32, Op.F2U64);
            case OpConvertFToS -> pick(to, Op.F2I8, Op.F2I16, Op.F2I32, Op.F2I64);
            case OpConvertSToF -> pick(to, null, Op.I2F16, Op.I2F32, Op.I2F64);
            case OpConvertUToF -> pick(to, null, Op.U2F16, Op.U2F32, Op.U2F64);
            case OpUConvert -> pick(to, Op.U2U8, Op.U2U16, Op.U2U32, Op.U2U64);
            case OpSConvert -> pick(to, Op.I2I8, Op.I2I16, Op.I2I32, Op.I2I64);
            default -> pick(to, null, Op.F2F16, Op.F2F32, Op.F2F64);
        };
        if (o == null) throw m.module.error(i, "unsupported " + SpirvNames.opcode(op) + " to " + to + " bits");
        return new Val.Simple(t.b.alu(o, x));
    }

    /** The op-table op an opcode computes (operands swapped when {@code swapped}), for constant expressions. */
    record OpChoice(Op op, boolean swapped) {}

    /**
     * What OpSpecConstantOp's integer opcodes compute, from the same op table the translation
     * uses: arithmetic, bit and logical ops, comparisons, shifts, select and integer
     * conversions to {@code toBits}; null for the others.
     */
    static OpChoice constantOp(int opcode, int toBits) {
        Op o = BINARY.get(opcode);
        if (o != null) return new OpChoice(o, false);
        if (SWAPPED.containsKey(opcode)) return new OpChoice(SWAPPED.get(opcode), true);
        if (UNARY.containsKey(opcode)) return new OpChoice(UNARY.get(opcode), false);
        return switch (opcode) {
            case OpShiftRightLogical -> new OpChoice(Op.USHR, false);
            case OpShiftRightArithmetic -> new OpChoice(Op.ISHR, false);
            case OpShiftLeftLogical -> new OpChoice(Op.ISHL, false);
            case OpSelect -> new OpChoice(Op.BCSEL, false);
            case OpUConvert -> new OpChoice(pick(toBits, Op.U2U8, Op.U2U16, Op.U2U32, Op.U2U64), false);
            case OpSConvert -> new OpChoice(pick(toBits, Op.I2I8, Op.I2I16, Op.I2I32, Op.I2I64), false);
            default -> null;
        };
    }

    private static Op pick(int bits, Op b8, Op b16, Op b32, Op b64) {
        return switch (bits) {
            case 8 -> b8;
            case 16 -> b16;
            case 32 -> b32;
            default -> b64;
        };
    }

    /**
     * OpPtrAccessChain on a device pointer value: the Element operand steps the address by the
     * pointer type's ArrayStride (as if the pointer pointed into an array of its pointee), then
     * the indexes go into the pointee as OpAccessChain's do.
     */
    private static SpirvToIr.Ptr ptrAccessChain(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        m.need(i, 4);
        int base = m.id(i, 2);
        SpirvType.DevicePointer dp = t.devicePointers.get(base);
        if (dp == null)
            throw m.module.error(
                    i,
                    "unsupported " + SpirvNames.opcode(i.opcode()) + " (on %" + base + ", which is no device pointer)");
        Integer stride = m.decoration(dp.id(), ModuleInfo.ARRAY_STRIDE);
        Value element = t.simple(i, t.val(i, m.id(i, 3)));
        Value address = t.simple(i, t.val(i, base));
        Integer constant = constIndex(m, m.id(i, 3));
        if (constant == null || constant != 0) {
            if (stride == null)
                throw m.module.error(i, SpirvNames.opcode(i.opcode()) + " on a pointer type without ArrayStride");
            Value e64 = element.bitSize() == 64 ? element : b.alu(Op.I2I64, element);
            address = b.alu(Op.IADD, address, b.alu(Op.IMUL, e64, b.i64(stride)));
        }
        SpirvType ty = dp.pointee();
        return indexes(t, i, new SpirvToIr.Ptr(new SpirvToIr.DevicePlace(address, ty), ty, List.of()), 4);
    }

    /** A pointer {@code p} taken through the indexes of an access chain from operand {@code first} on (constants or values). */
    private static SpirvToIr.Ptr indexes(SpirvToIr t, Instruction i, SpirvToIr.Ptr p, int first) {
        SpirvType ty = p.type();
        for (int k = first; k < i.count(); k++) {
            int idx = t.m.id(i, k);
            Object index = constIndex(t.m, idx);
            if (index == null) index = t.simple(i, t.val(i, idx));
            ty = element(t, i, ty, index);
            p = p.then(index, ty);
        }
        return p;
    }

    private static Val bitcast(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        SpirvType rt = m.typeOf(i, m.id(i, 0));
        Value x = t.simple(i, t.val(i, m.id(i, 2)));
        int bits = SpirvType.bits(rt), comps = SpirvType.components(rt);
        if (bits == x.bitSize() && comps == x.numComponents()) return new Val.Simple(x); // the IR is typeless
        IrBuilder b = t.b;
        if (bits == 64 && comps == 1 && x.bitSize() == 32 && x.numComponents() == 2)
            return new Val.Simple(b.alu(Op.PACK_64_2X32, x));
        if (bits == 32 && comps == 2 && x.bitSize() == 64 && x.numComponents() == 1)
            return new Val.Simple(b.alu(Op.UNPACK_64_2X32, x));
        throw m.module.error(
                i,
                "unsupported OpBitcast from " + x.numComponents() + "x" + x.bitSize() + " to " + comps + "x" + bits
                        + " bits");
    }
}
