package dev.lathe.spirv;

import static dev.lathe.spirv.SpirvOps.*;

import dev.lathe.ir.BaseType;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.op.Op;
import dev.lathe.spirv.SpirvModule.Instruction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The control flow half of the SPIR-V translation (as Mesa's {@code vtn_cfg.c} is to
 * {@code vtn_variables.c}): structured constructs to the IR's structured control flow. A
 * selection becomes an if, a switch a chain of ifs, a loop two nested loops (the inner one runs
 * the body once, so that a continue is a break out of it and the continue construct runs after),
 * a phi a local stored on each incoming edge; a return inside an inlined function sets a flag
 * and leaves every loop. Malformed merges are caught by a translation budget and a nesting
 * limit, never by a hang. {@link SpirvToIr} translates the instructions of each block.
 */
final class StructuredCfg {
    private final SpirvToIr t;
    /** How deeply function calls are inlined. */
    private int depth;

    StructuredCfg(SpirvToIr t) {
        this.t = t;
    }

    /** Where branches lead in the construct being translated. */
    record Ctx(int merge, int breakTo, int continueTo, Variable breakFlag, boolean inInner) {}

    void body(ModuleInfo.Function f, Map<Integer, Val> args) {
        if (++depth > 64)
            throw t.mod.error(f.def, "unsupported OpFunctionCall (calls nested deeper than 64: recursion?)");
        Integer first = f.blocks.keySet().stream().findFirst().orElse(null);
        if (first == null) throw t.mod.error(f.def, "a function without blocks");
        if (args != null) t.values.putAll(args);
        blocks(f, first, new Ctx(-1, -1, -1, null, false));
        depth--;
    }

    /** Translates blocks from {@code label} until the construct's merge (or a jump out). */
    private void blocks(ModuleInfo.Function f, int label, Ctx ctx) {
        if (++nesting > MAX_NESTING)
            throw t.mod.error(f.def, "control flow nested deeper than " + MAX_NESTING + " constructs");
        try {
            walk(f, label, ctx);
        } finally {
            nesting--;
        }
    }

    private static final int MAX_NESTING = 400;
    private int nesting;
    private long translated;

    /** Translation budget: structured control flow translates each block once; malformed merges could repeat code endlessly. */
    private void spend(Instruction at, int n) {
        translated += n;
        if (translated > 20L * t.mod.instructions().size() + 100_000) {
            throw t.mod.error(
                    at,
                    "the control flow does not follow its merge instructions (code would be translated over and over)");
        }
    }

    private void walk(ModuleInfo.Function f, int label, Ctx ctx) {
        Set<Integer> seen = new HashSet<>();
        while (true) {
            if (label == ctx.merge()) return;
            if (!seen.add(label))
                throw t.mod.error(f.def, "block %" + label + " is reached again without a loop construct");
            List<Instruction> insts = f.blocks.get(label);
            if (insts == null)
                throw t.mod.error(f.def, "a branch to %" + label + ", which is no block of the function");
            Instruction mergeInst = null;
            if (!insts.isEmpty()) spend(insts.get(0), insts.size());
            int k = 0;
            for (; k < insts.size(); k++) {
                Instruction i = insts.get(k);
                int op = i.opcode();
                if (op == OpLoopMerge || op == OpSelectionMerge) {
                    mergeInst = i;
                    continue;
                }
                if (op == OpBranch
                        || op == OpBranchConditional
                        || op == OpSwitch
                        || op == OpKill
                        || op == OpReturn
                        || op == OpReturnValue
                        || op == OpUnreachable
                        || op == OpTerminateInvocation
                        || op == OpDemoteToHelperInvocation) break;
                t.instruction(f, i);
            }
            if (k == insts.size()) throw t.mod.error(f.def, "block %" + label + " has no terminator");
            Instruction term = insts.get(k);
            t.current = term;
            if (mergeInst != null && mergeInst.opcode() == OpLoopMerge) {
                loop(f, label, mergeInst, term, ctx);
                label = t.m.id(mergeInst, 0);
                continue;
            }
            switch (term.opcode()) {
                case OpReturn, OpReturnValue -> {
                    SpirvToIr.Frame fr = t.frames.peek();
                    if (fr != null) {
                        if (term.opcode() == OpReturnValue) {
                            if (fr.value() == null)
                                throw t.mod.error(term, "OpReturnValue in a function returning void");
                            t.store(term, fr.value(), t.val(term, t.m.id(term, 0)));
                        }
                        t.b.storeVar(fr.returned(), t.b.bool(true));
                        t.b.breakLoop();
                        return;
                    }
                    t.storeOutputs();
                    t.b.ret();
                    return;
                }
                case OpKill, OpTerminateInvocation, OpDemoteToHelperInvocation -> {
                    t.b.discard();
                    return;
                }
                case OpUnreachable -> {
                    return;
                }
                case OpBranch -> {
                    int target = t.m.id(term, 0);
                    phiStores(f, label, target);
                    if (jump(target, ctx)) return;
                    label = target;
                }
                case OpBranchConditional -> {
                    // without a selection merge the branch leaves the construct on one side (a break, a
                    // loop's back edge): the if ends where the construct does
                    int merge = mergeInst != null ? t.m.id(mergeInst, 0) : ctx.merge();
                    Value c = t.simple(term, t.val(term, t.m.id(term, 0)));
                    IfNode node = t.b.pushIf(c);
                    arm(f, label, t.m.id(term, 1), merge, ctx);
                    t.b.pushElse(node);
                    arm(f, label, t.m.id(term, 2), merge, ctx);
                    t.b.popIf(node);
                    label = merge;
                }
                case OpSwitch -> {
                    if (mergeInst == null) throw t.mod.error(term, "unsupported OpSwitch without OpSelectionMerge");
                    switchConstruct(f, label, term, t.m.id(mergeInst, 0), ctx);
                    label = t.m.id(mergeInst, 0);
                }
                default -> throw t.mod.error(term, "unsupported " + SpirvNames.opcode(term.opcode()));
            }
        }
    }

    /** A branch to a construct's exit: emits it and says so; false when control just goes on at {@code target}. */
    private boolean jump(int target, Ctx ctx) {
        if (target == ctx.breakTo()) {
            if (ctx.inInner()) {
                t.b.storeVar(ctx.breakFlag(), t.b.bool(true));
                t.b.breakLoop();
            } else {
                t.b.breakLoop();
            }
            return true;
        }
        if (target == ctx.continueTo()) {
            if (ctx.inInner()) t.b.breakLoop();
            else t.b.continueLoop();
            return true;
        }
        return target == ctx.merge();
    }

    private void arm(ModuleInfo.Function f, int from, int target, int merge, Ctx ctx) {
        phiStores(f, from, target);
        if (target == merge) return;
        if (jump(target, ctx)) return;
        blocks(f, target, new Ctx(merge, ctx.breakTo(), ctx.continueTo(), ctx.breakFlag(), ctx.inInner()));
    }

    private void switchConstruct(ModuleInfo.Function f, int label, Instruction term, int merge, Ctx ctx) {
        Value sel = t.simple(term, t.val(term, t.m.id(term, 0)));
        int def = t.m.id(term, 1);
        List<int[]> cases = new ArrayList<>();
        int words = sel.bitSize() == 64 ? 2 : 1;
        for (int k = 2; k < term.count(); k += words + 1) {
            if (k + words >= term.count()) throw t.mod.error(term, "OpSwitch with a case literal but no label");
            cases.add(new int[] {term.operand(k), t.m.id(term, k + words)});
        }
        // a break in a case branches to the switch's merge: the end of the arm
        Ctx sw = new Ctx(merge, ctx.breakTo(), ctx.continueTo(), ctx.breakFlag(), ctx.inInner());
        List<IfNode> open = new ArrayList<>();
        for (int[] c : cases) {
            Value eq = t.b.alu(
                    Op.IEQ, sel, sel.bitSize() == 64 ? t.b.i64(c[0]) : t.b.constant(sel.bitSize(), c[0] & 0xffffffffL));
            IfNode node = t.b.pushIf(eq);
            open.add(node);
            arm(f, label, c[1], merge, sw);
            t.b.pushElse(node);
        }
        arm(f, label, def, merge, sw);
        for (int k = open.size() - 1; k >= 0; k--) t.b.popIf(open.get(k));
    }

    private void loop(ModuleInfo.Function f, int header, Instruction merge, Instruction term, Ctx outer) {
        int mergeL = t.m.id(merge, 0), cont = t.m.id(merge, 1);
        Variable flag =
                t.fn.addLocal(Variable.local(t.uniqueName(-1, "loop_break"), new VarType(BaseType.BOOL, 1, 1), 0));
        LoopNode loop = t.b.pushLoop();
        // the header's own instructions run at the top of every iteration
        List<Instruction> insts = f.blocks.get(header);
        for (Instruction i : insts) {
            int op = i.opcode();
            if (op == OpLoopMerge || op == OpSelectionMerge) continue;
            if (op == OpBranch || op == OpBranchConditional || op == OpSwitch) break;
            t.instruction(f, i);
        }
        t.b.storeVar(flag, t.b.bool(false));
        Ctx body = new Ctx(cont, mergeL, cont, flag, true);
        LoopNode inner = t.b.pushLoop();
        if (term.opcode() == OpBranch) {
            int target = t.m.id(term, 0);
            phiStores(f, header, target);
            if (!jump(target, body)) blocks(f, target, body);
        } else if (term.opcode() == OpBranchConditional) {
            Value c = t.simple(term, t.val(term, t.m.id(term, 0)));
            IfNode node = t.b.pushIf(c);
            int then = t.m.id(term, 1), e = t.m.id(term, 2);
            phiStores(f, header, then);
            if (!jump(then, body)) blocks(f, then, body);
            t.b.pushElse(node);
            phiStores(f, header, e);
            if (!jump(e, body)) blocks(f, e, body);
            t.b.popIf(node);
        } else {
            throw t.mod.error(term, "unsupported " + SpirvNames.opcode(term.opcode()) + " ending a loop header");
        }
        if (!ended()) t.b.breakLoop(); // the inner loop runs once
        t.b.popLoop(inner);
        leaveIfReturned();
        IfNode out = t.b.pushIf(t.b.loadVar(flag));
        t.b.breakLoop();
        t.b.popIf(out);
        // the continue construct, then back to the header (the end of the loop body)
        if (cont != header) {
            Ctx c = new Ctx(header, mergeL, header, null, false);
            blocks(f, cont, c);
        }
        t.b.popLoop(loop);
        leaveIfReturned();
    }

    /** Whether the t.current block already ends in a jump (nothing may follow it). */
    boolean ended() {
        return t.b.block().jump() != null;
    }

    /** Inside an inlined function: after a loop, a return that happened in it leaves the enclosing loop too. */
    private void leaveIfReturned() {
        SpirvToIr.Frame fr = t.frames.peek();
        if (fr == null) return;
        IfNode n = t.b.pushIf(t.b.loadVar(fr.returned()));
        t.b.breakLoop();
        t.b.popIf(n);
    }

    /** Stores the t.values an edge gives the target's phis into their locals. */
    private void phiStores(ModuleInfo.Function f, int from, int target) {
        List<Instruction> insts = f.blocks.get(target);
        if (insts == null) return;
        for (Instruction i : insts) {
            if (i.opcode() != OpPhi) break;
            int id = t.m.id(i, 1);
            for (int k = 2; k + 1 < i.count(); k += 2) {
                if (t.m.id(i, k + 1) == from)
                    t.b.storeVar(phiVar(i), t.fitting(i, t.simple(i, t.val(i, t.m.id(i, k))), phiVar(i), false));
            }
            if (!t.phiVars.containsKey(id)) phiVar(i);
        }
    }

    Variable phiVar(Instruction phi) {
        int id = t.m.id(phi, 1);
        return t.phiVars.computeIfAbsent(id, k -> {
            SpirvType type = t.m.typeOf(phi, t.m.id(phi, 0));
            if (!SpirvType.isSimple(type)) throw t.mod.error(phi, "unsupported OpPhi of type " + type);
            return t.fn.addLocal(Variable.local(t.uniqueName(-1, "phi" + id), t.varType(phi, type), 0));
        });
    }
}
