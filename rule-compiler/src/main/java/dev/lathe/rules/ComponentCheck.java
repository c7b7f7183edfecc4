package dev.lathe.rules;

import dev.lathe.ir.op.Op;
import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ProtoTree.PVar;
import dev.lathe.rules.ProtoTree.VarInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * How many components each value of a rule is read at. Rules work per component on any width,
 * so most values are read at the rule's <i>width</i> — whatever the matched root has (count 0
 * here). A horizontal op fixes the counts below it: {@code fdot3} reads 3 components of each
 * operand, {@code vec4} one of each of four, and a per-component op under it is read at the
 * count its parent reads it at. A swizzle ({@code a.yx}, {@code unpack_64_2x32(a).y}) reads
 * the named components of a value whose count is known.
 *
 * <p>The rules, as NIR's matcher has them: a variable has one count wherever it is used whole;
 * a horizontal op read at the rule's width is read through the identity, so the root may have
 * at most as many components as that op's result ({@link RuleContext#maxWidth}), or read at its
 * swizzle's components, as many as the swizzle names; a rule whose
 * width can only be 1 is a rule on one component, where a swizzle may stand anywhere. NIR reads a
 * variable used in a smaller context through its first components; a Lathe rule says so with a
 * swizzle ({@code fmul(a, b.x)}), so that its meaning is in its text.
 */
final class ComponentCheck {
    private final RuleContext ctx;
    private final List<PVar> swizzledVars = new ArrayList<>();

    ComponentCheck(RuleContext ctx) {
        this.ctx = ctx;
    }

    private record Item(P node, int comps) {}

    /** Assigns every value its count; false (reported) when the counts do not fit. */
    boolean check() {
        POp root = (POp) ctx.pattern;
        int before = ctx.errors();
        if (root.swizzle != null)
            ctx.error(root.swizzlePos, "the pattern's root is matched whole: it takes no swizzle");
        int rootComps = root.op.isHorizontal() ? root.op.output().components() : 0;
        if (rootComps == 0) {
            int max = widthBound(ctx.pattern, Integer.MAX_VALUE);
            max = widthBound(ctx.replacement, max);
            // Only one component: the rule is about one, and the root's count is fixed.
            if (max == 1) rootComps = 1;
            else if (max != Integer.MAX_VALUE) ctx.maxWidth = max;
        }
        ctx.rootComps = rootComps;
        visit(ctx.pattern, rootComps, true);
        visit(ctx.replacement, rootComps, false);
        for (PVar v : swizzledVars) swizzledVar(v);
        return ctx.errors() == before;
    }

    /**
     * The most components the root may have: the smallest result of a horizontal op read at the
     * rule's width (through the identity, so the width may not exceed it).
     */
    private static int widthBound(P top, int max) {
        ArrayDeque<P> work = new ArrayDeque<>();
        work.push(top);
        while (!work.isEmpty()) {
            P p = work.pop();
            if (!(p instanceof POp op) || op.op == null) {
                if (p instanceof POp infix) infix.srcs.forEach(work::push);
                continue;
            }
            if (op.op.isHorizontal()) {
                // read in order, so at most its count; or at its swizzle's components, exactly that many
                max = Math.min(max, op.swizzle == null ? op.op.output().components() : op.swizzle.length);
                continue; // below it every count is fixed
            }
            op.srcs.forEach(work::push);
        }
        return max;
    }

    private void visit(P top, int topComps, boolean pattern) {
        ArrayDeque<Item> work = new ArrayDeque<>();
        work.push(new Item(top, topComps));
        while (!work.isEmpty()) {
            Item it = work.pop();
            P p = it.node();
            int n = it.comps();
            p.comps = n;
            if (p.swizzle != null && !(pattern && p == top)) {
                if (n == 0) {
                    ctx.error(
                            p.swizzlePos,
                            "a swizzle reads a fixed number of components, but here the value is read at the rule's"
                                    + " width (as many components as the matched root has)");
                    continue;
                }
                if (p.swizzle.length != n) {
                    ctx.error(
                            p.swizzlePos,
                            "this swizzle names " + p.swizzle.length + " component" + (p.swizzle.length == 1 ? "" : "s")
                                    + ", but the value is read at " + n + " here");
                    continue;
                }
            }
            if (p instanceof PVar v) {
                if (v.swizzle != null && pattern) {
                    ctx.error(
                            v.swizzlePos,
                            "a pattern binds variables whole: a swizzle in a pattern goes on a horizontal op's"
                                    + " result (unpack_64_2x32(a).y), and " + v.name + "'s parts are read in the"
                                    + " replacement");
                } else if (v.swizzle != null) swizzledVars.add(v);
                else varCount(v, n);
            } else if (p instanceof POp op) {
                if (op.op != null && op.op.isHorizontal()) {
                    horizontal(op, n);
                    for (int i = op.srcs.size() - 1; i >= 0; i--)
                        work.push(new Item(op.srcs.get(i), op.op.input(i).components()));
                } else {
                    for (int i = op.srcs.size() - 1; i >= 0; i--) work.push(new Item(op.srcs.get(i), n));
                }
            } else if (!(p instanceof PLit)) {
                throw new IllegalStateException("unknown node " + p);
            }
        }
    }

    /** A horizontal op's result, read at {@code n} components (0: the rule's width). */
    private void horizontal(POp op, int n) {
        Op o = op.op;
        int out = o.output().components();
        if (op.swizzle != null) {
            for (byte c : op.swizzle) {
                if (c >= out) {
                    ctx.error(
                            op.swizzlePos,
                            o.opName() + " has " + out + " component" + (out == 1 ? "" : "s") + "; the swizzle reads"
                                    + " component " + c);
                    return;
                }
            }
            return;
        }
        if (n > out) {
            ctx.error(
                    op.pos,
                    o.opName() + " has " + out + " component" + (out == 1 ? "" : "s") + ", but it is read at " + n
                            + " here");
        }
    }

    /** A variable used whole, at {@code n} components. */
    private void varCount(PVar v, int n) {
        VarInfo info = ctx.vars.get(v.name);
        if (info.comps < 0) {
            info.comps = n;
            info.compsPos = v.pos;
            return;
        }
        if (info.comps != n) {
            ctx.error(
                    v.pos,
                    v.name + " is read at " + shown(n) + " here and at " + shown(info.comps) + " at column "
                            + info.compsPos.column()
                            + (info.comps > n && n > 0
                                    ? "; a part of it is a swizzle, as in " + v.name + "."
                                            + "xyzw".substring(0, Math.min(n, 4))
                                    : ""));
        }
    }

    private static String shown(int n) {
        return n == 0 ? "the rule's width" : n + " component" + (n == 1 ? "" : "s");
    }

    /** A swizzled variable: its count is what its whole uses say, and the swizzle stays within it. */
    private void swizzledVar(PVar v) {
        VarInfo info = ctx.vars.get(v.name);
        if (info == null) return; // unbound: reported by the tree builder
        if (info.comps < 0) {
            ctx.error(
                    v.swizzlePos,
                    v.name + " is only read through swizzles, so how many components it has is unknown: use it"
                            + " whole where the pattern binds it (as an operand of a horizontal op such as fdot3)");
            return;
        }
        if (info.comps == 0) {
            ctx.error(
                    v.swizzlePos,
                    v.name + " is read at the rule's width (any number of components), so a swizzle cannot name its"
                            + " components");
            return;
        }
        for (byte c : v.swizzle) {
            if (c >= info.comps) {
                ctx.error(
                        v.swizzlePos,
                        v.name + " has " + info.comps + " component" + (info.comps == 1 ? "" : "s")
                                + "; the swizzle reads component " + c);
                return;
            }
        }
    }
}
