package dev.lathe.ir.validate;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.CfList;
import dev.lathe.ir.CfNode;
import dev.lathe.ir.Function;
import dev.lathe.ir.GeometryLayout;
import dev.lathe.ir.IfNode;
import dev.lathe.ir.Instr;
import dev.lathe.ir.IntrinsicInstr;
import dev.lathe.ir.JumpInstr;
import dev.lathe.ir.LoopNode;
import dev.lathe.ir.PhiInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.ShapeProblem;
import dev.lathe.ir.SourceLoc;
import dev.lathe.ir.Src;
import dev.lathe.ir.Stage;
import dev.lathe.ir.Value;
import dev.lathe.ir.Variable;
import dev.lathe.ir.analysis.DominatorTree;
import dev.lathe.ir.analysis.LoopNesting;
import dev.lathe.ir.text.IrPrinter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks every rule the IR must obey, reporting each violation with the instruction and the
 * name of the check. The checks, by name:
 *
 * <ul>
 *   <li>{@code cf-structure}: every list starts and ends with a block, never two blocks in a
 *       row, loops and ifs have non-empty bodies, parent links agree;
 *   <li>{@code instr-links}: the doubly linked instruction lists agree with their blocks;
 *   <li>{@code phi-placement}: phis only at the start of a block;
 *   <li>{@code phi-sources}: exactly one source per predecessor, each of the phi's size;
 *   <li>{@code jump-placement}: a jump is the last instruction of its block, break and
 *       continue only inside a loop;
 *   <li>{@code use-lists}: each source of the IR is in its value's use list and the lists hold
 *       nothing else;
 *   <li>{@code value-defined}: every source reads a value defined by an instruction of the
 *       same function that is in the IR;
 *   <li>{@code ssa-dominance}: every definition dominates its uses (a phi source's, the end of
 *       the predecessor); in unreachable code, definitions come first in program order;
 *   <li>{@code alu-bit-size}, {@code alu-components}, {@code swizzle}: the op table's types
 *       and bit sizes, component counts, swizzles in range (the number of sources cannot be
 *       wrong: {@link dev.lathe.ir.AluInstr} refuses to be built with another count);
 *   <li>{@code if-condition}: a 1-component 1-bit value;
 *   <li>{@code intrinsic-stage}, {@code intrinsic-variable}, {@code intrinsic-sources},
 *       {@code intrinsic-result}: intrinsics in legal stages, with the right kind of variable,
 *       sources and result shape;
 *   <li>{@code entry-point}: the shader has a function named main;
 *   <li>{@code geometry-layout}: a geometry shader has its layout, and its inputs (only its) are
 *       arrays of one element per vertex of its input primitive.
 * </ul>
 */
public final class Validator {
    private final List<ValidationError> errors = new ArrayList<>();
    private Function fn;

    private Validator() {}

    /** All violations in {@code shader}, in program order (empty when valid). */
    public static List<ValidationError> validate(Shader shader) {
        Validator v = new Validator();
        boolean hasMain = false;
        for (Function f : shader.functions()) {
            hasMain |= f.name().equals("main");
            v.validateFunction(f);
        }
        if (!hasMain)
            v.errors.add(new ValidationError("entry-point", "the shader has no function named main", "shader", null));
        v.checkGeometry(shader);
        return v.errors;
    }

    private void checkGeometry(Shader shader) {
        GeometryLayout g = shader.geometry();
        if (shader.stage() == Stage.GEOMETRY && g == null)
            errors.add(new ValidationError("geometry-layout", "a geometry shader needs its layout", "shader", null));
        for (Variable v : shader.variables(Variable.Kind.INPUT)) {
            String problem = GeometryLayout.inputProblem(g, v.name(), v.arrayLength());
            if (problem != null) errors.add(new ValidationError("geometry-layout", problem, "@" + v.name(), v.loc()));
        }
    }

    /** All violations in one function. */
    public static List<ValidationError> validate(Function fn) {
        Validator v = new Validator();
        v.validateFunction(fn);
        return v.errors;
    }

    /** Throws {@link IrValidationException} listing every violation, if there is any. */
    public static void check(Shader shader) {
        List<ValidationError> errs = validate(shader);
        if (!errs.isEmpty()) throw new IrValidationException(errs);
    }

    private void error(String check, Instr i, String message) {
        errors.add(new ValidationError(check, message, describe(i), i.loc()));
    }

    private void error(String check, String where, SourceLoc loc, String message) {
        errors.add(new ValidationError(check, message, where, loc));
    }

    private String describe(Instr i) {
        String block = i.block() == null ? "detached" : "b" + i.block().index();
        return "function " + fn.name() + ", " + block + ", '" + IrPrinter.instrToString(i) + "'";
    }

    private void validateFunction(Function f) {
        fn = f;
        int before = errors.size();
        List<Block> blocks = checkStructure(f);
        if (errors.size() > before) return; // the CFG cannot be trusted on a broken structure
        Map<Instr, Integer> position = checkInstrLinks(blocks);
        if (errors.size() > before) return;
        DominatorTree dom = DominatorTree.compute(f);
        LoopNesting loops = LoopNesting.compute(f);
        Set<Src> irSrcs = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Block b : blocks) {
            boolean seenNonPhi = false;
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i instanceof PhiInstr) {
                    if (seenNonPhi)
                        error("phi-placement", i, "phi after a non-phi instruction: phis must start the block");
                } else {
                    seenNonPhi = true;
                }
                if (i instanceof JumpInstr j) checkJump(j, b, loops);
                for (Src s : i.srcs()) irSrcs.add(s);
                checkInstr(i, b);
                checkSources(i, b, dom, position);
            }
        }
        checkIfConditions(f, dom, position, irSrcs);
        checkUseLists(blocks, irSrcs);
        checkCachedAnalyses(f, blocks, dom, loops);
    }

    /**
     * The analyses cached on the function ({@link dev.lathe.ir.analysis.Analyses}) that it
     * calls current must agree with fresh ones computed above: a mutator that forgets to count
     * its edit shows up here, after the pass that made it.
     */
    private void checkCachedAnalyses(Function f, List<Block> blocks, DominatorTree fresh, LoopNesting freshLoops) {
        DominatorTree cached = f.analyses().currentDominators();
        LoopNesting cachedLoops = f.analyses().currentLoops();
        for (Block b : blocks) {
            if (cached != null && cached.idom(b) != fresh.idom(b)) {
                errors.add(new ValidationError(
                        "stale-analysis",
                        "the cached dominator tree says b"
                                + (cached.idom(b) == null ? "-" : cached.idom(b).index())
                                + " dominates b" + b.index() + " immediately, a fresh one b"
                                + (fresh.idom(b) == null ? "-" : fresh.idom(b).index())
                                + ": an edit of the structure was not counted (Function.invalidateCfg)",
                        "function " + f.name(),
                        null));
                return;
            }
            if (cachedLoops != null && cachedLoops.innermostLoop(b) != freshLoops.innermostLoop(b)) {
                errors.add(new ValidationError(
                        "stale-analysis",
                        "the cached loop nesting puts b" + b.index()
                                + " in another loop than a fresh one: an edit of the structure was not counted (Function.invalidateCfg)",
                        "function " + f.name(),
                        null));
                return;
            }
        }
    }

    // ---- structure ----------------------------------------------------------------------------

    private record Pending(CfList list, String where) {}

    private List<Block> checkStructure(Function f) {
        List<Pending> work = new ArrayList<>();
        work.add(new Pending(f.body(), "the function body"));
        List<Block> blocks = new ArrayList<>();
        while (!work.isEmpty()) {
            Pending pl = work.remove(work.size() - 1);
            CfList list = pl.list();
            if (list.isEmpty()) {
                error(
                        "cf-structure",
                        "function " + f.name(),
                        null,
                        pl.where() + " is empty: it needs at least a block");
                continue;
            }
            if (!(list.first() instanceof Block)) {
                error(
                        "cf-structure",
                        "function " + f.name(),
                        nodeLoc(list.first()),
                        pl.where() + " does not start with a block");
            }
            if (!(list.last() instanceof Block)) {
                error(
                        "cf-structure",
                        "function " + f.name(),
                        nodeLoc(list.last()),
                        pl.where() + " does not end with a block");
            }
            CfNode prev = null;
            for (CfNode n = list.first(); n != null; n = n.next()) {
                if (n.parent() != list || n.prev() != prev) {
                    error(
                            "cf-structure",
                            "function " + f.name(),
                            nodeLoc(n),
                            "control-flow links are inconsistent in " + pl.where());
                }
                if (n instanceof Block b && prev instanceof Block) {
                    error("cf-structure", "function " + f.name(), null, "two blocks in a row in " + pl.where());
                }
                if (n instanceof Block b) {
                    blocks.add(b);
                } else if (n instanceof IfNode in) {
                    work.add(new Pending(in.elseList(), "the else side of an if"));
                    work.add(new Pending(in.thenList(), "the then side of an if"));
                } else {
                    work.add(new Pending(((LoopNode) n).body(), "a loop body"));
                }
                prev = n;
            }
            if (list.last() != prev) {
                error("cf-structure", "function " + f.name(), null, "the last node of " + pl.where() + " is wrong");
            }
        }
        if (!errors.isEmpty()) return blocks;
        return f.blocks();
    }

    private static SourceLoc nodeLoc(CfNode n) {
        if (n instanceof IfNode in) return in.loc();
        if (n instanceof LoopNode l) return l.loc();
        if (n instanceof Block b && b.firstInstr() != null)
            return b.firstInstr().loc();
        return null;
    }

    private Map<Instr, Integer> checkInstrLinks(List<Block> blocks) {
        Map<Instr, Integer> position = new IdentityHashMap<>();
        for (Block b : blocks) {
            Instr prev = null;
            int k = 0;
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i.block() != b || i.prev() != prev) {
                    error("instr-links", i, "instruction list links are inconsistent");
                    return position;
                }
                position.put(i, k++);
                prev = i;
            }
            if (b.lastInstr() != prev) {
                error(
                        "instr-links",
                        "function " + fn.name() + ", b" + b.index(),
                        null,
                        "the block's last instruction is wrong");
            }
        }
        return position;
    }

    private void checkJump(JumpInstr j, Block b, LoopNesting loops) {
        if (j.next() != null)
            error("jump-placement", j, j.kind().spelling() + " must be the last instruction of its block");
        if (j.kind() != JumpInstr.Kind.RETURN && loops.innermostLoop(b) == null) {
            error("jump-placement", j, j.kind().spelling() + " outside of a loop");
        }
    }

    // ---- per instruction ----------------------------------------------------------------------

    private void checkInstr(Instr i, Block b) {
        if (i instanceof AluInstr alu) {
            checkAlu(alu);
        } else if (i instanceof IntrinsicInstr in) {
            checkIntrinsic(in);
        } else if (i instanceof PhiInstr phi) {
            checkPhi(phi, b);
        }
    }

    private void checkAlu(AluInstr alu) {
        for (ShapeProblem p : alu.shapeProblems()) error(p.check(), alu, p.message());
    }

    private void checkIntrinsic(IntrinsicInstr in) {
        for (ShapeProblem p : in.shapeProblems(fn.shader().stage())) error(p.check(), in, p.message());
        Variable v = in.var();
        if (v != null && v.kind() == in.intrinsic().varKind()) {
            boolean declared = v.kind() == Variable.Kind.LOCAL
                    ? fn.local(v.name()) == v
                    : fn.shader().variable(v.name()) == v;
            if (!declared) error("intrinsic-variable", in, "@" + v.name() + " is not declared in this shader/function");
        }
    }

    private void checkPhi(PhiInstr phi, Block b) {
        List<Block> preds = b.predecessors();
        Set<Block> seen = new HashSet<>();
        for (PhiInstr.PhiSrc ps : phi.phiSrcs()) {
            if (!preds.contains(ps.pred())) {
                error(
                        "phi-sources",
                        phi,
                        "source for b" + indexOf(ps.pred()) + ", which is not a predecessor of b" + b.index());
            }
            if (!seen.add(ps.pred())) error("phi-sources", phi, "two sources for predecessor b" + indexOf(ps.pred()));
            Value v = ps.src().value();
            if (v.numComponents() != phi.def().numComponents()
                    || v.bitSize() != phi.def().bitSize()) {
                error(
                        "phi-sources",
                        phi,
                        "source " + v + " is vec" + v.numComponents() + " " + v.bitSize() + " but the phi is vec"
                                + phi.def().numComponents() + " " + phi.def().bitSize());
            }
        }
        for (Block p : preds) {
            if (!seen.contains(p)) error("phi-sources", phi, "no source for predecessor b" + p.index());
        }
    }

    private int indexOf(Block b) {
        return b.function() == fn ? b.index() : -1;
    }

    // ---- SSA ----------------------------------------------------------------------------------

    /** Whether {@code v} is defined by an instruction that is in this function's IR. */
    private boolean isLive(Value v) {
        Instr d = v.parent();
        return d.block() != null && d.block().function() == fn;
    }

    private void checkSources(Instr i, Block b, DominatorTree dom, Map<Instr, Integer> position) {
        if (i instanceof PhiInstr phi) {
            for (PhiInstr.PhiSrc ps : phi.phiSrcs()) {
                Value v = ps.src().value();
                if (!isLive(v)) {
                    error("value-defined", i, "reads " + v + ", whose definition is not in the function");
                } else if (ps.pred().function() == fn && !availableAtEnd(v, ps.pred(), dom)) {
                    error(
                            "ssa-dominance",
                            i,
                            "the definition of " + IrPrinter.instrToString(v.parent())
                                    + " does not dominate the end of predecessor b"
                                    + ps.pred().index());
                }
            }
            return;
        }
        for (Src s : i.srcs()) {
            Value v = s.value();
            if (!isLive(v)) {
                error("value-defined", i, "reads " + v + ", whose definition is not in the function");
            } else if (!availableAt(v, b, position.get(i), dom, position)) {
                error(
                        "ssa-dominance",
                        i,
                        "uses a value whose definition '" + IrPrinter.instrToString(v.parent())
                                + "' does not dominate it");
            }
        }
    }

    private boolean availableAt(Value v, Block useBlock, int usePos, DominatorTree dom, Map<Instr, Integer> position) {
        Block defBlock = v.parent().block();
        if (defBlock == useBlock) return position.get(v.parent()) < usePos;
        if (dom.isReachable(useBlock)) return dom.dominates(defBlock, useBlock);
        return defBlock.index() < useBlock.index();
    }

    private boolean availableAtEnd(Value v, Block pred, DominatorTree dom) {
        Block defBlock = v.parent().block();
        if (dom.isReachable(pred)) return dom.dominates(defBlock, pred);
        return defBlock.index() <= pred.index();
    }

    private void checkIfConditions(Function f, DominatorTree dom, Map<Instr, Integer> position, Set<Src> irSrcs) {
        List<CfList> work = new ArrayList<>();
        work.add(f.body());
        while (!work.isEmpty()) {
            for (CfNode n : work.remove(work.size() - 1)) {
                if (n instanceof IfNode in) {
                    Src c = in.condition();
                    irSrcs.add(c);
                    Value v = c.value();
                    String where = "function " + f.name() + ", if " + v;
                    if (v.numComponents() != 1 || v.bitSize() != 1) {
                        error(
                                "if-condition",
                                where,
                                in.loc(),
                                "an if condition must be vec1 1, not vec" + v.numComponents() + " " + v.bitSize());
                    }
                    Block before = (Block) in.prev();
                    if (!isLive(v)) {
                        error(
                                "value-defined",
                                where,
                                in.loc(),
                                "the condition " + v + " is not defined in the function");
                    } else if (before != null && !availableAtEnd(v, before, dom)) {
                        error("ssa-dominance", where, in.loc(), "the condition's definition does not dominate the if");
                    }
                    work.add(in.thenList());
                    work.add(in.elseList());
                } else if (n instanceof LoopNode l) {
                    work.add(l.body());
                }
            }
        }
    }

    private void checkUseLists(List<Block> blocks, Set<Src> irSrcs) {
        Set<Value> values = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Block b : blocks) {
            for (Instr i = b.firstInstr(); i != null; i = i.next()) {
                if (i.def() != null) values.add(i.def());
            }
        }
        for (Src s : irSrcs) {
            values.add(s.value());
            if (!s.isLinked()) {
                report("use-lists", s, "a source of " + s.value() + " is missing from its use list");
            }
        }
        for (Value v : values) {
            int n = 0;
            for (Src u = v.firstUse(); u != null; u = u.nextUse()) {
                n++;
                if (u.value() != v) {
                    report("use-lists", u, "the use list of " + v + " holds a source that reads " + u.value());
                } else if (!irSrcs.contains(u)) {
                    report(
                            "use-lists",
                            u,
                            "the use list of " + v + " holds a source of an instruction that is not in the IR");
                }
            }
            if (n != v.useCount()) {
                errors.add(new ValidationError(
                        "use-lists",
                        "use count of " + v + " is " + v.useCount() + " but its list has " + n,
                        "function " + fn.name(),
                        v.parent().loc()));
            }
        }
    }

    private void report(String check, Src s, String message) {
        Instr i = s.instr();
        if (i != null) {
            error(check, i, message);
        } else {
            IfNode in = (IfNode) s.owner();
            error(check, "function " + fn.name() + ", if " + s.value(), in.loc(), message);
        }
    }
}
