package dev.lathe.rules;

import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ProtoTree.PVar;
import dev.lathe.rules.ProtoTree.VarInfo;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.SizeClass;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last phase of a rule's check: the worked-out {@link ProtoTree} values become the immutable
 * {@link Node}s of a {@link dev.lathe.rules.model.CheckedRule}, size classes renumbered in the
 * order the pattern meets them.
 */
final class RuleFreezer {
    private final Map<String, VarInfo> vars;
    private final SizeClasses sizes;
    private int nextId;
    private final Map<Integer, Integer> classIds = new LinkedHashMap<>();
    /** Each pattern variable's first occurrence, which the conditions ask about. */
    final Map<String, Node.VarNode> firstVars = new LinkedHashMap<>();

    RuleFreezer(RuleContext ctx) {
        this.vars = ctx.vars;
        this.sizes = ctx.sizes;
    }

    int cls(int c) {
        return classIds.computeIfAbsent(sizes.find(c), k -> classIds.size());
    }

    List<SizeClass> classes() {
        List<SizeClass> out = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : classIds.entrySet()) {
            int r = e.getKey();
            out.add(new SizeClass(e.getValue(), sizes.fixed(r), sizes.legal(r), sizes.patternLegal(r)));
        }
        return out;
    }

    Node freeze(P p, boolean pattern) {
        int id = nextId++;
        if (p instanceof POp o) {
            List<Node> srcs = new ArrayList<>();
            boolean constant = true;
            for (P s : o.srcs) {
                Node n = freeze(s, pattern);
                srcs.add(n);
                // a vector constant is built, not folded: folding works at the root's width
                constant &= o.comps == 0 && !(o.op != null && o.op.isHorizontal());
                constant &= n instanceof Node.ConstNode
                        || n instanceof Node.VarNode v && vars.get(v.name()).constOnly
                        || n instanceof Node.OpNode on && on.constant();
            }
            return new Node.OpNode(
                    id,
                    o.op,
                    List.copyOf(srcs),
                    o.opCls < 0 ? -1 : cls(o.opCls),
                    cls(o.cls),
                    o.once,
                    !pattern && constant,
                    o.pos,
                    o.flags,
                    o.builtExact,
                    java.util.Set.copyOf(o.uses),
                    o.comps,
                    Node.swizzleText(o.swizzle));
        }
        if (p instanceof PVar v) {
            VarInfo info = vars.get(v.name);
            Node.VarNode n = new Node.VarNode(
                    id,
                    v.name,
                    v.constOnly || info.constOnly,
                    cls(v.cls),
                    v.pos,
                    Math.max(info.comps, 0),
                    Node.swizzleText(v.swizzle));
            if (pattern) firstVars.putIfAbsent(v.name, n);
            return n;
        }
        PLit l = (PLit) p;
        TypeClass ctx = l.annType != null ? l.annType : l.context != null ? l.context : TypeClass.ANY;
        boolean asFloat = ctx == TypeClass.FLOAT || (ctx == TypeClass.ANY && l.floatSpelling());
        return new Node.ConstNode(id, l.text, asFloat, ctx, cls(l.cls), l.pos, l.comps);
    }
}
