package dev.lathe.rules;

import dev.lathe.ir.op.Op;
import dev.lathe.rules.ast.Ast;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Unsized conversions: {@code u2f(a)}, {@code f2f(a)}, {@code b2f(a)} … name a conversion to
 * every destination size the op table has ({@code u2f16}, {@code u2f32}, {@code u2f64}), as NIR's
 * unsized opcodes do in its rules. A rule that writes one stands for one rule per choice of
 * sizes that type-checks; the {@link Checker} keeps those and requires that the pattern's choice
 * decides the replacement's (a replacement conversion whose size nothing fixes is an error,
 * never a guess). The variants are named after the pattern's choices: {@code r_u2f16}, {@code r_u2f32}.
 */
final class SizeFamilies {
    private SizeFamilies() {}

    /** The families: an unsized name, by its sized members. */
    private static final List<String> FAMILIES = List.of("u2f", "i2f", "f2f", "f2i", "f2u", "u2u", "i2i", "b2f", "b2i");

    private static final int[] SIZES = {1, 8, 16, 32, 64};

    /** The most variants one rule may stand for. */
    static final int MAX_VARIANTS = 256;

    /** The sized ops an unsized name stands for, or an empty list when it is not one. */
    static List<Op> members(String name) {
        if (!FAMILIES.contains(name) || Op.byName(name) != null) return List.of();
        List<Op> out = new ArrayList<>();
        for (int s : SIZES) {
            Op op = Op.byName(name + s);
            if (op != null) out.add(op);
        }
        return out;
    }

    /** One occurrence of an unsized op: where, and whether in the pattern. */
    record Use(Ast.Call call, boolean inPattern) {}

    /** A variant: the rule with each unsized op replaced by a member, and the pattern's choices. */
    record Variant(Ast.Rule rule, List<String> patternChoice, List<String> replacementChoice) {}

    /** The unsized ops of {@code r}, pattern first, each in the order written. */
    static List<Use> uses(Ast.Rule r) {
        List<Use> out = new ArrayList<>();
        collect(r.pattern(), true, out);
        collect(r.replacement(), false, out);
        return out;
    }

    private static void collect(Ast.Expr e, boolean pattern, List<Use> out) {
        if (e instanceof Ast.Call c) {
            if (!members(c.name()).isEmpty()) out.add(new Use(c, pattern));
            for (Ast.Expr a : c.args()) collect(a, pattern, out);
        } else if (e instanceof Ast.Binary b) {
            collect(b.left(), pattern, out);
            collect(b.right(), pattern, out);
        } else if (e instanceof Ast.Unary u) {
            collect(u.operand(), pattern, out);
        } else if (e instanceof Ast.Annotated a) {
            collect(a.inner(), pattern, out);
        } else if (e instanceof Ast.Swizzled s) {
            collect(s.inner(), pattern, out);
        }
    }

    /** Every choice of members for {@code uses} (at most {@link #MAX_VARIANTS}; null when there would be more). */
    static List<Variant> variants(Ast.Rule r, List<Use> uses) {
        List<List<Op>> options = new ArrayList<>();
        long count = 1;
        for (Use u : uses) {
            options.add(members(u.call().name()));
            count *= options.get(options.size() - 1).size();
        }
        if (count > MAX_VARIANTS) return null;
        List<Variant> out = new ArrayList<>();
        int[] pick = new int[uses.size()];
        while (true) {
            Map<Ast.Call, String> names = new java.util.IdentityHashMap<>();
            List<String> p = new ArrayList<>(), q = new ArrayList<>();
            for (int i = 0; i < uses.size(); i++) {
                String m = options.get(i).get(pick[i]).opName();
                names.put(uses.get(i).call(), m);
                (uses.get(i).inPattern() ? p : q).add(m);
            }
            Ast.Rule v = new Ast.Rule(
                    // named after the pattern's choices, which decide the replacement's; or
                    // after the replacement's, when the pattern has none (the root's size decides)
                    r.name() + "_" + String.join("_", p.isEmpty() ? q : p),
                    r.pos(),
                    rename(r.pattern(), names),
                    r.exact(),
                    rename(r.replacement(), names),
                    r.conditions(),
                    r.text(),
                    r.comment(),
                    r.gates(),
                    r.reassociating(),
                    r.ulpBound());
            out.add(new Variant(v, p, q));
            int k = 0;
            while (k < pick.length && ++pick[k] == options.get(k).size()) pick[k++] = 0;
            if (k == pick.length) return out;
        }
    }

    private static Ast.Expr rename(Ast.Expr e, Map<Ast.Call, String> names) {
        if (e instanceof Ast.Call c) {
            List<Ast.Expr> args = new ArrayList<>();
            for (Ast.Expr a : c.args()) args.add(rename(a, names));
            return new Ast.Call(names.getOrDefault(c, c.name()), c.annotations(), args, c.pos(), c.flags());
        }
        if (e instanceof Ast.Binary b)
            return new Ast.Binary(b.op(), rename(b.left(), names), rename(b.right(), names), b.pos());
        if (e instanceof Ast.Unary u) return new Ast.Unary(u.op(), rename(u.operand(), names), u.pos());
        if (e instanceof Ast.Annotated a) return new Ast.Annotated(rename(a.inner(), names), a.annotation(), a.pos());
        if (e instanceof Ast.Swizzled s) return new Ast.Swizzled(rename(s.inner(), names), s.swizzle(), s.pos());
        return e;
    }
}
