package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayList;
import java.util.List;

/**
 * Ray queries (SPV_KHR_ray_query) on Lathe's model of an acceleration structure: a storage buffer
 * of opaque triangles in world space, nine 32-bit floats each (the three vertices' x, y, z), with
 * one implicit instance whose mask is 0xFF and whose transform is the identity. The target, like
 * Adreno 6xx, has no ray-tracing hardware, so a query is ordinary IR:
 *
 * <ul>
 *   <li>{@code OpRayQueryInitializeKHR} records the ray and clears the committed intersection;
 *   <li>the first {@code OpRayQueryProceedKHR} tests every triangle (Möller–Trumbore) and commits
 *       the closest hit with tMin ≤ t ≤ tMax, or the first one found under TerminateOnFirstHit;
 *       every triangle is opaque, so no candidate is ever left for the shader and Proceed returns
 *       false. SkipTriangles, CullOpaque and a cull mask without a bit of 0xFF find nothing;
 *       CullBackFacingTriangles and CullFrontFacingTriangles drop one side;
 *   <li>a triangle is front-facing when its vertices appear clockwise from the ray origin in a
 *       left-handed system (Vulkan's rule): (v1 − v0) · (d × (v2 − v0)) &gt; 0; a triangle the
 *       ray lies in the plane of (that product 0) is missed;
 *   <li>the getters read the committed intersection (barycentrics (u, v) weigh v1 and v2), the
 *       ray, and the implicit instance (indices 0, identity matrices); candidate queries see the
 *       committed values, as no candidate exists. Generate and Confirm have no candidate to act on.
 * </ul>
 */
final class RayQueries {
    private RayQueries() {}

    static final int SKIP_AND_CULL = 0x40 | 0x100; // CullOpaque, SkipTriangles
    static final int TERMINATE_ON_FIRST_HIT = 0x4, CULL_BACK = 0x10, CULL_FRONT = 0x20;

    /** The locals a ray query object lives in. */
    static final class State {
        final Variable origin, direction, tMin, tMax, flags, cullMask;
        final Variable done, hit, t, primitive, barycentrics, frontFace;
        /** The acceleration structure given to Initialize (one per query object). */
        Variable accel;

        State(SpirvToIr tr, String name) {
            origin = local(tr, name + "_origin", VarType.f32(3));
            direction = local(tr, name + "_direction", VarType.f32(3));
            tMin = local(tr, name + "_tmin", VarType.f32(1));
            tMax = local(tr, name + "_tmax", VarType.f32(1));
            flags = local(tr, name + "_flags", VarType.u32(1));
            cullMask = local(tr, name + "_cull_mask", VarType.u32(1));
            done = local(tr, name + "_done", new VarType(BaseType.BOOL, 1, 1));
            hit = local(tr, name + "_hit", new VarType(BaseType.BOOL, 1, 1));
            t = local(tr, name + "_t", VarType.f32(1));
            primitive = local(tr, name + "_primitive", VarType.u32(1));
            barycentrics = local(tr, name + "_barycentrics", VarType.f32(2));
            frontFace = local(tr, name + "_front_face", new VarType(BaseType.BOOL, 1, 1));
        }

        private static Variable local(SpirvToIr tr, String name, VarType type) {
            return tr.fn.addLocal(Variable.local(tr.freshName(name), type, 0));
        }
    }

    /** Translates one ray query instruction. */
    static void translate(SpirvToIr t, Instruction i) {
        ModuleInfo m = t.m;
        IrBuilder b = t.b;
        int op = i.opcode();
        switch (op) {
            case OpRayQueryInitializeKHR -> { // Initialize: query, accel, flags, cull mask, origin, tmin, direction,
                // tmax
                m.need(i, 8);
                State s = state(t, i, m.id(i, 0));
                Variable accel = t.accelerationStructure(i, m.id(i, 1));
                if (s.accel != null && s.accel != accel) {
                    throw m.module.error(
                            i,
                            "unsupported OpRayQueryInitializeKHR (one ray query object used with two acceleration structures)");
                }
                s.accel = accel;
                b.storeVar(s.flags, scalar(t, i, 2, 32));
                b.storeVar(s.cullMask, scalar(t, i, 3, 32));
                b.storeVar(s.origin, vector(t, i, 4));
                b.storeVar(s.tMin, scalar(t, i, 5, 32));
                b.storeVar(s.direction, vector(t, i, 6));
                b.storeVar(s.tMax, scalar(t, i, 7, 32));
                b.storeVar(s.done, b.bool(false));
                b.storeVar(s.hit, b.bool(false));
                b.storeVar(s.t, b.loadVar(s.tMax));
                b.storeVar(s.primitive, b.i32(0));
                b.storeVar(s.barycentrics, b.f32(0f, 0f));
                b.storeVar(s.frontFace, b.bool(false));
            }
            case OpRayQueryTerminateKHR -> b.storeVar(state(t, i, m.id(i, 0)).done, b.bool(true)); // Terminate
            case OpRayQueryGenerateIntersectionKHR, OpRayQueryConfirmIntersectionKHR ->
                state(t, i, m.id(i, 0)); // Generate, Confirm: no candidate ever waits
            case OpRayQueryProceedKHR -> { // Proceed
                State s = state(t, i, m.id(i, 2));
                if (s.accel == null)
                    throw m.module.error(i, "OpRayQueryProceedKHR before the query's OpRayQueryInitializeKHR");
                IfNode first = b.pushIf(b.alu(Op.INOT, b.loadVar(s.done)));
                b.storeVar(s.done, b.bool(true));
                traverse(t, s);
                b.pushElse(first);
                b.popIf(first);
                t.define(m.id(i, 1), new Val.Simple(b.bool(false)));
            }
            default -> t.define(m.id(i, 1), getter(t, i, op, state(t, i, m.id(i, 2))));
        }
    }

    private static Val getter(SpirvToIr t, Instruction i, int op, State s) {
        IrBuilder b = t.b;
        if (op == OpRayQueryGetIntersectionObjectToWorldKHR || op == OpRayQueryGetIntersectionWorldToObjectKHR) {
            // identity object-to-world and world-to-object: four columns of three rows
            List<Val> cols = new ArrayList<>();
            for (int c = 0; c < 4; c++)
                cols.add(new Val.Simple(b.f32(c == 0 ? 1f : 0f, c == 1 ? 1f : 0f, c == 2 ? 1f : 0f)));
            return new Val.Composite(cols);
        }
        return new Val.Simple(
                switch (op) {
                    // committed: 1 (a triangle) or 0 (none); a candidate would be a triangle (0), were there one
                    case OpRayQueryGetIntersectionTypeKHR ->
                        committed(t, i) ? b.alu(Op.B2I32, b.loadVar(s.hit)) : b.i32(0);
                    case OpRayQueryGetRayTMinKHR -> b.loadVar(s.tMin);
                    case OpRayQueryGetRayFlagsKHR -> b.loadVar(s.flags);
                    case OpRayQueryGetIntersectionTKHR -> b.loadVar(s.t);
                    case OpRayQueryGetIntersectionInstanceCustomIndexKHR,
                            OpRayQueryGetIntersectionInstanceIdKHR,
                            OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
                            OpRayQueryGetIntersectionGeometryIndexKHR ->
                        b.i32(0); // the one implicit instance and geometry
                    case OpRayQueryGetIntersectionPrimitiveIndexKHR -> b.loadVar(s.primitive);
                    case OpRayQueryGetIntersectionBarycentricsKHR -> b.loadVar(s.barycentrics);
                    case OpRayQueryGetIntersectionFrontFaceKHR -> b.loadVar(s.frontFace);
                    case OpRayQueryGetIntersectionCandidateAABBOpaqueKHR -> b.bool(false); // no AABBs
                    case OpRayQueryGetIntersectionObjectRayDirectionKHR, OpRayQueryGetWorldRayDirectionKHR ->
                        b.loadVar(s.direction);
                    case OpRayQueryGetIntersectionObjectRayOriginKHR, OpRayQueryGetWorldRayOriginKHR ->
                        b.loadVar(s.origin);
                    default -> throw t.m.module.error(i, "unsupported " + SpirvNames.opcode(op));
                });
    }

    private static boolean committed(SpirvToIr t, Instruction i) {
        t.m.need(i, 4);
        Long k = t.m.integerConstant(i, t.m.id(i, 3), 0);
        if (k == null)
            throw t.m.module.error(i, SpirvNames.opcode(i.opcode()) + " needs a constant Intersection operand");
        return k != 0;
    }

    /**
     * The traversal: every triangle of the buffer in order, each tested with Möller–Trumbore
     * and committed when it is nearer than the committed one (or the first, with
     * TerminateOnFirstHit, which then stops).
     */
    private static void traverse(SpirvToIr t, State s) {
        IrBuilder b = t.b;
        Value flags = b.loadVar(s.flags);
        Value none = b.alu(
                Op.IOR,
                b.alu(Op.INE, b.alu(Op.IAND, flags, b.i32(SKIP_AND_CULL)), b.i32(0)),
                b.alu(Op.IEQ, b.alu(Op.IAND, b.loadVar(s.cullMask), b.i32(0xff)), b.i32(0)));
        Value count = b.alu(Op.BCSEL, none, b.i32(0), b.alu(Op.UDIV, b.bufferSize(s.accel), b.i32(36)));
        Value firstHitStops = b.alu(Op.INE, b.alu(Op.IAND, flags, b.i32(TERMINATE_ON_FIRST_HIT)), b.i32(0));
        Value cullBack = b.alu(Op.INE, b.alu(Op.IAND, flags, b.i32(CULL_BACK)), b.i32(0));
        Value cullFront = b.alu(Op.INE, b.alu(Op.IAND, flags, b.i32(CULL_FRONT)), b.i32(0));
        Variable index = State.local(t, "ray_triangle", VarType.u32(1));
        b.storeVar(index, b.i32(0));
        LoopNode loop = b.pushLoop();
        Value k = b.loadVar(index);
        IfNode end = b.pushIf(b.alu(Op.UGE, k, count));
        b.breakLoop();
        b.pushElse(end);
        b.popIf(end);
        Value base = b.alu(Op.IMUL, k, b.i32(36));
        Value v0 = b.loadBuffer(s.accel, base, 3, 32);
        Value v1 = b.loadBuffer(s.accel, b.alu(Op.IADD, base, b.i32(12)), 3, 32);
        Value v2 = b.loadBuffer(s.accel, b.alu(Op.IADD, base, b.i32(24)), 3, 32);
        Value origin = b.loadVar(s.origin), dir = b.loadVar(s.direction);
        Value e1 = b.alu(Op.FSUB, v1, v0), e2 = b.alu(Op.FSUB, v2, v0);
        Value p = cross(b, dir, e2);
        Value det = b.alu(Op.FDOT3, e1, p);
        Value inv = b.alu(Op.FDIV, b.f32(1f), det);
        Value sv = b.alu(Op.FSUB, origin, v0);
        Value u = b.alu(Op.FMUL, b.alu(Op.FDOT3, sv, p), inv);
        Value q = cross(b, sv, e1);
        Value v = b.alu(Op.FMUL, b.alu(Op.FDOT3, dir, q), inv);
        Value tt = b.alu(Op.FMUL, b.alu(Op.FDOT3, e2, q), inv);
        Value front = b.alu(Op.FLT, b.f32(0f), det);
        Value ok = b.alu(Op.FNEU, det, b.f32(0f));
        ok = b.alu(Op.IAND, ok, b.alu(Op.FGE, u, b.f32(0f)));
        ok = b.alu(Op.IAND, ok, b.alu(Op.FGE, v, b.f32(0f)));
        ok = b.alu(Op.IAND, ok, b.alu(Op.FGE, b.f32(1f), b.alu(Op.FADD, u, v)));
        ok = b.alu(Op.IAND, ok, b.alu(Op.FGE, tt, b.loadVar(s.tMin)));
        ok = b.alu(Op.IAND, ok, b.alu(Op.FGE, b.loadVar(s.tMax), tt));
        Value nearer = b.alu(Op.IOR, b.alu(Op.INOT, b.loadVar(s.hit)), b.alu(Op.FLT, tt, b.loadVar(s.t)));
        ok = b.alu(Op.IAND, ok, nearer);
        Value culled = b.alu(Op.IOR, b.alu(Op.IAND, cullBack, b.alu(Op.INOT, front)), b.alu(Op.IAND, cullFront, front));
        ok = b.alu(Op.IAND, ok, b.alu(Op.INOT, culled));
        IfNode commit = b.pushIf(ok);
        b.storeVar(s.hit, b.bool(true));
        b.storeVar(s.t, tt);
        b.storeVar(s.primitive, k);
        b.storeVar(s.barycentrics, b.vec(u, v));
        b.storeVar(s.frontFace, front);
        b.pushElse(commit);
        b.popIf(commit);
        b.storeVar(index, b.alu(Op.IADD, k, b.i32(1)));
        IfNode stop = b.pushIf(b.alu(Op.IAND, ok, firstHitStops));
        b.breakLoop();
        b.pushElse(stop);
        b.popIf(stop);
        b.popLoop(loop);
    }

    private static Value cross(IrBuilder b, Value x, Value y) {
        Value l = b.alu(Op.FMUL, b.swz(x, "yzx"), b.swz(y, "zxy"));
        Value r = b.alu(Op.FMUL, b.swz(x, "zxy"), b.swz(y, "yzx"));
        return b.alu(Op.FSUB, l, r);
    }

    private static State state(SpirvToIr t, Instruction i, int id) {
        SpirvToIr.Ptr p = t.pointer(i, id);
        if (!(p.place() instanceof SpirvToIr.RayQueryPlace rq) || !p.path().isEmpty()) {
            throw t.m.module.error(i, SpirvNames.opcode(i.opcode()) + " on %" + id + ", which is no ray query object");
        }
        return rq.state();
    }

    private static Value scalar(SpirvToIr t, Instruction i, int operand, int bits) {
        Value v = t.simple(i, t.val(i, t.m.id(i, operand)));
        if (v.numComponents() != 1 || v.bitSize() != bits)
            throw t.m.module.error(
                    i, SpirvNames.opcode(i.opcode()) + ": operand " + operand + " must be a 32-bit scalar");
        return v;
    }

    private static Value vector(SpirvToIr t, Instruction i, int operand) {
        Value v = t.simple(i, t.val(i, t.m.id(i, operand)));
        if (v.numComponents() != 3 || v.bitSize() != 32)
            throw t.m.module.error(i, SpirvNames.opcode(i.opcode()) + ": operand " + operand + " must be a vec3");
        return v;
    }
}
