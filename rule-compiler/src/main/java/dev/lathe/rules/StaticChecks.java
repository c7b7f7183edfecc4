package dev.lathe.rules;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.SizeClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Checks between the rules of a file, after each rule passed its own checks:
 *
 * <ul>
 *   <li><b>duplicates</b> (errors): two rules with the same pattern, modulo commutative operand
 *       order and variable names, and the same conditions;
 *   <li><b>shadowing</b> (errors): a rule that can never fire because an earlier unconditional
 *       rule matches everything it matches (its pattern is at least as general, including bit
 *       sizes, {@code @once} and exactness);
 *   <li><b>identities</b> (errors): a replacement that is the pattern itself;
 *   <li><b>rewrite loops</b> (warnings): a rule whose replacement matches its own pattern, two
 *       rules whose replacements match each other's patterns, and longer cycles of rules each
 *       rewriting into the next ({@link RewriteCycles}); the driver's fuel limit stays the
 *       backstop, since conditions may still break such a loop.
 * </ul>
 */
final class StaticChecks {
    private final String text;
    private final List<Diagnostic> errors = new ArrayList<>();
    private final List<Diagnostic> warnings = new ArrayList<>();
    /**
     * Literals by spelling and each rule's {@link #effectiveRule}, made once: the checks compare
     * every pair of rules on one op, and parsing a literal at every size each time made a file
     * of 1,000 rules take 20 s.
     */
    private final Map<String, RuleLiteral> literals = new HashMap<>();

    private final Map<CheckedRule, CheckedRule> effectiveRules = new IdentityHashMap<>();

    private StaticChecks(String text) {
        this.text = text;
    }

    /**
     * @param rejected every rule in error here (a duplicate, a rule an earlier one hides, an
     *                 identity) with why, in the file's order: the importer of NIR's rules keeps
     *                 such rules apart rather than losing them ({@link NirImport})
     */
    record Result(List<Diagnostic> errors, List<Diagnostic> warnings, Map<CheckedRule, String> rejected) {}

    /** Why each rejected rule is rejected, in words that name the rule that decides it. */
    private final Map<CheckedRule, String> why = new LinkedHashMap<>();

    static Result check(List<CheckedRule> rules, String text) {
        StaticChecks c = new StaticChecks(text);
        c.run(rules);
        return new Result(c.errors, c.warnings, c.why);
    }

    private Diagnostic at(CheckedRule r, String severity, String message) {
        return new Diagnostic(r.file(), r.line(), r.column(), severity, message, Diagnostic.lineOf(text, r.line()));
    }

    private void run(List<CheckedRule> rules) {
        // The rules each earlier rule shadows: reported once, at the first of them, so that a rule
        // made too general by a typo gives one error naming what it hides, not one per rule.
        Map<CheckedRule, List<CheckedRule>> shadowed = new LinkedHashMap<>();
        // Rules already in error here (a duplicate, a hidden rule, an identity): loops through
        // them are not warned about as well, the error says what to do with them.
        Set<CheckedRule> rejected = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int j = 0; j < rules.size(); j++) {
            CheckedRule later = rules.get(j);
            for (int i = 0; i < j; i++) {
                CheckedRule earlier = rules.get(i);
                if (earlier.pattern().op() != later.pattern().op()) continue;
                if (duplicates(earlier, later)) {
                    why.put(later, "it duplicates " + earlier.name() + ": the same pattern and conditions");
                    errors.add(at(
                            later,
                            "error",
                            "rule " + later.name() + " duplicates rule " + earlier.name() + " (line " + earlier.line()
                                    + "): the same pattern and conditions"));
                    rejected.add(later);
                    break;
                }
                if (shadows(earlier, later)) {
                    why.put(
                            later,
                            "it can never fire: " + earlier.name() + " comes first, "
                                    + (earlier.conditions().isEmpty()
                                            ? "has no conditions"
                                            : "asks nothing it does not ask too")
                                    + " and matches everything it matches");
                    shadowed.computeIfAbsent(earlier, k -> new ArrayList<>()).add(later);
                    rejected.add(later);
                    break;
                }
            }
        }
        for (Map.Entry<CheckedRule, List<CheckedRule>> e : shadowed.entrySet()) {
            CheckedRule earlier = e.getKey();
            List<CheckedRule> hidden = e.getValue();
            CheckedRule first = hidden.get(0);
            String more = "";
            if (hidden.size() > 1) {
                List<String> names = new ArrayList<>();
                for (CheckedRule h : hidden.subList(1, hidden.size())) names.add(h.name() + " (line " + h.line() + ")");
                more = "; it also hides " + String.join(", ", names);
            }
            errors.add(at(
                    first,
                    "error",
                    "rule " + first.name() + " can never fire: rule " + earlier.name()
                            + " (line " + earlier.line() + ") comes first, "
                            + (earlier.conditions().isEmpty()
                                    ? "has no conditions"
                                    : "asks nothing it does not ask too")
                            + " and matches everything it matches" + more));
        }
        // Which rules each rule's replacement can be matched by, candidates found by the
        // replacement's root op (a file of 3,000 rules has few rules per op).
        Map<Op, List<Integer>> byRoot = new HashMap<>();
        for (int i = 0; i < rules.size(); i++)
            byRoot.computeIfAbsent(rules.get(i).pattern().op(), k -> new ArrayList<>())
                    .add(i);
        List<List<Integer>> into = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            CheckedRule a = rules.get(i);
            List<Integer> next = new ArrayList<>();
            // Any op the replacement builds can be rewritten again, not only its root.
            TreeSet<Integer> candidates = new TreeSet<>();
            List<Node> work = new ArrayList<>(List.of(a.replacement()));
            while (!work.isEmpty()) {
                if (!(work.remove(work.size() - 1) instanceof Node.OpNode r) || r.constant()) continue;
                candidates.addAll(byRoot.getOrDefault(r.op(), List.of()));
                work.addAll(r.srcs());
            }
            for (int j : candidates) {
                if (rewritesInto(a, rules.get(j))) next.add(j);
            }
            into.add(next);
        }
        for (CheckedRule r : rules) {
            if (identity(r)) {
                rejected.add(r);
                why.put(r, "it does nothing: its replacement is its pattern");
            }
        }
        for (int i = 0; i < rules.size(); i++) {
            CheckedRule a = rules.get(i);
            if (identity(a)) {
                errors.add(
                        at(
                                a,
                                "error",
                                "rule " + a.name() + " does nothing: its replacement is its pattern"
                                        + (same(a.pattern(), a.replacement())
                                                ? ""
                                                : " (operands swapped or literals spelled otherwise), so it would fire again on its own result")));
            } else if (into.get(i).contains(i) && !rejected.contains(a)) {
                warnings.add(at(
                        a,
                        "warning",
                        "rule " + a.name() + " may rewrite forever: its replacement matches its own pattern"));
            }
            for (int j : into.get(i)) {
                CheckedRule b = rules.get(j);
                if (j > i && into.get(j).contains(i) && !rejected.contains(a) && !rejected.contains(b)) {
                    warnings.add(
                            at(
                                    b,
                                    "warning",
                                    "rules " + a.name() + " (line " + a.line() + ") and " + b.name()
                                            + " may rewrite into each other: each one's replacement matches the other's pattern"));
                }
            }
        }
        for (List<Integer> cycle : RewriteCycles.longerThanTwo(into)) {
            if (cycle.stream().anyMatch(k -> rejected.contains(rules.get(k)))) continue;
            List<String> names = new ArrayList<>();
            int last = cycle.get(0);
            for (int k : cycle) {
                names.add(rules.get(k).name() + " (line " + rules.get(k).line() + ")");
                last = Math.max(last, k);
            }
            StringBuilder path = new StringBuilder();
            for (int k : cycle) path.append(rules.get(k).name()).append(" -> ");
            path.append(rules.get(cycle.get(0)).name());
            warnings.add(at(
                    rules.get(last),
                    "warning",
                    "rules " + String.join(", ", names.subList(0, names.size() - 1))
                            + " and " + names.get(names.size() - 1)
                            + " may rewrite around a cycle, each one's replacement matching"
                            + " the next one's pattern: " + path));
        }
    }

    /** Same pattern both ways, same conditions (after renaming), same exactness. */
    private boolean duplicates(CheckedRule x, CheckedRule y) {
        if (x.strictness() != y.strictness() || x.usedBits() != y.usedBits()) return false;
        if (!new java.util.HashSet<>(x.gates()).equals(new java.util.HashSet<>(y.gates()))) return false;
        // Some way of matching x's pattern onto y's must also map x's conditions onto y's: the
        // conditions are compared for every operand order the commutative ops allow.
        return match(y.pattern(), x.pattern(), new HashMap<>(), y, x, true, b -> true)
                && match(x.pattern(), y.pattern(), new HashMap<>(), x, y, true, xy -> sameConditions(x, y, xy));
    }

    private boolean sameConditions(CheckedRule x, CheckedRule y, Map<String, Node> xy) {
        if (x.conditions().size() != y.conditions().size()) return false;
        List<Condition> left = new ArrayList<>(y.conditions());
        for (Condition cx : x.conditions()) {
            // One condition of y for each of x.
            Condition cy = left.stream()
                    .filter(c -> sameCondition(cx, c, xy))
                    .findFirst()
                    .orElse(null);
            if (cy == null) return false;
            left.remove(cy);
        }
        return true;
    }

    /**
     * The earlier rule fires on everything the later one would: at least as general, and each of
     * its conditions (if any) is one of the later rule's, on the same value.
     */
    private boolean shadows(CheckedRule earlier, CheckedRule later) {
        // the earlier one skips instructions the later one fires on (exact ones, ones without reassoc)
        if (earlier.strictness() > later.strictness()) return false;
        // an earlier rule that needs the high bits unused fires on fewer roots
        if (earlier.usedBits() != 0 && (later.usedBits() == 0 || later.usedBits() > earlier.usedBits())) return false;
        // a gated rule is off where its option says so: it shadows only rules gated at least as much
        if (!later.gates().containsAll(earlier.gates())) return false;
        // an earlier rule whose root may have at most N components fires on fewer roots
        // (a rule on one component included: its root is fixed at 1)
        int earlierMost = earlier.maxRootComponents(), laterMost = later.maxRootComponents();
        if (earlierMost != 0 && (laterMost == 0 || laterMost > earlierMost)) return false;
        return match(
                earlier.pattern(),
                later.pattern(),
                new HashMap<>(),
                effectiveRules.computeIfAbsent(earlier, this::effectiveRule),
                later,
                true,
                b -> conditionsImplied(earlier, later, b));
    }

    /** Whether every condition of {@code x}, its variables mapped by {@code xy}, is among {@code y}'s. */
    private static boolean conditionsImplied(CheckedRule x, CheckedRule y, Map<String, Node> xy) {
        for (Condition cx : x.conditions()) {
            if (y.conditions().stream().noneMatch(cy -> sameCondition(cx, cy, xy))) return false;
        }
        return true;
    }

    /** Whether {@code cx} asks what {@code cy} asks, of the value {@code xy} maps cx's variable to. */
    private static boolean sameCondition(Condition cx, Condition cy, Map<String, Node> xy) {
        return cy.predicate() == cx.predicate()
                && cy.bound() == cx.bound()
                && cy.type() == cx.type()
                && xy.get(cx.var().name()) instanceof Node.VarNode tv
                && tv.name().equals(cy.var().name());
    }

    /**
     * Whether the rule rewrites a value into itself: its replacement is its pattern up to the
     * order of commutative operands and the spelling of literals ({@code fmul(a, b) => fmul(b, a)},
     * {@code ieq(a@8, 255) => ieq(a, -1)}), each variable standing for itself.
     */
    private boolean identity(CheckedRule r) {
        if (!(r.replacement() instanceof Node.OpNode)) return false;
        return match(r.pattern(), r.replacement(), new HashMap<>(), r, r, false, b -> {
            for (Map.Entry<String, Node> e : b.entrySet()) {
                if (!(e.getValue() instanceof Node.VarNode v) || !v.name().equals(e.getKey())) return false;
            }
            return true;
        });
    }

    /**
     * The rule with each class narrowed to the sizes where all its literals (pattern and
     * replacement) have a value: at other sizes the rule does not fire, so it shadows nothing
     * there ({@code ior(a, inot(a)) => -1} fires at 1 bit, {@code => 0xff} would not).
     */
    private CheckedRule effectiveRule(CheckedRule r) {
        int[] mask = new int[r.classes().size()];
        Arrays.fill(mask, 31);
        narrow(r.pattern(), mask);
        narrow(r.replacement(), mask);
        List<SizeClass> classes = new ArrayList<>();
        for (SizeClass c : r.classes()) {
            classes.add(new SizeClass(c.id(), c.fixed(), c.legal() & mask[c.id()], c.patternLegal() & mask[c.id()]));
        }
        return new CheckedRule(
                r.file(),
                r.name(),
                r.line(),
                r.column(),
                r.text(),
                r.comment(),
                r.exact(),
                r.pattern(),
                r.replacement(),
                r.conditions(),
                r.variables(),
                r.varTypes(),
                classes,
                r.gates(),
                r.reassociating(),
                r.usedBits(),
                r.maxWidth(),
                r.ulpBound());
    }

    private void narrow(Node n, int[] mask) {
        if (n instanceof Node.ConstNode c) {
            RuleLiteral lit = literal(c.text());
            int fits = 0;
            for (int bits : new int[] {1, 8, 16, 32, 64}) {
                if (lit.fits(bits, c.asFloat())) fits |= Bits.sizeFlag(bits);
            }
            mask[c.sizeClass()] &= fits;
        } else if (n instanceof Node.OpNode op) {
            for (Node s : op.srcs()) narrow(s, mask);
        }
    }

    /** A replacement's constant expression, folded into one constant when the rule fires. */
    private static boolean folded(Node t) {
        return t instanceof Node.OpNode o && o.constant();
    }

    /** Whether {@code from}'s replacement is matched by {@code to}'s pattern (conditions aside). */
    private boolean rewritesInto(CheckedRule from, CheckedRule to) {
        List<Node> work = new ArrayList<>(List.of(from.replacement()));
        while (!work.isEmpty()) {
            if (!(work.remove(work.size() - 1) instanceof Node.OpNode r) || r.constant()) continue;
            if (r.op() == to.pattern().op() && match(to.pattern(), r, new HashMap<>(), to, from, false, b -> true))
                return true;
            work.addAll(r.srcs());
        }
        return false;
    }

    /**
     * Whether pattern {@code p} (of rule {@code pr}) matches tree {@code t} (of rule {@code tr}),
     * whose variables stand for anything, in some way for which {@code then} accepts the
     * variable bindings: every operand order of the commutative ops is tried (backtracking), so
     * an order that fits the operands but not {@code then} does not hide one that fits both.
     * {@code strict} also requires that whatever {@code t} can match, {@code p} can too
     * ({@code @once}, sizes). {@code bind} is left as it was when the answer is false.
     */
    private boolean match(
            Node p,
            Node t,
            Map<String, Node> bind,
            CheckedRule pr,
            CheckedRule tr,
            boolean strict,
            Predicate<Map<String, Node>> then) {
        if (strict && !sizeCovers(pr.sizeClass(p.sizeClass()), tr.sizeClass(t.sizeClass()))) return false;
        if (p instanceof Node.VarNode pv && !pv.swizzle().isEmpty()) {
            // a.x: only the same part of the same variable, bound whole to the same name (conservative)
            return t instanceof Node.VarNode tv
                    && tv.swizzle().equals(pv.swizzle())
                    && bind.get(pv.name()) instanceof Node.VarNode whole
                    && whole.swizzle().isEmpty()
                    && whole.name().equals(tv.name())
                    && then.test(bind);
        }
        if (p instanceof Node.VarNode pv) {
            if (pv.constOnly()
                    && !(t instanceof Node.ConstNode || t instanceof Node.VarNode tv && tv.constOnly() || folded(t))) {
                return false;
            }
            Node prev = bind.get(pv.name());
            if (prev != null) return same(prev, t) && then.test(bind);
            bind.put(pv.name(), t);
            if (then.test(bind)) return true;
            bind.remove(pv.name());
            return false;
        }
        // A replacement's constant expression (-c, c + 1) is folded into one constant when the
        // rule fires: no op of it is built, and which literal it gives is not known here.
        if (folded(t)) return false;
        if (p instanceof Node.ConstNode pc) {
            return t instanceof Node.ConstNode tc
                    && pc.asFloat() == tc.asFloat()
                    && sameLiteral(
                            pc.text(),
                            tc.text(),
                            pc.asFloat(),
                            commonSizes(pr.sizeClass(pc.sizeClass()), tr.sizeClass(tc.sizeClass())))
                    && then.test(bind);
        }
        Node.OpNode po = (Node.OpNode) p;
        if (!(t instanceof Node.OpNode to)
                || to.op() != po.op()
                || !to.swizzle().equals(po.swizzle())) return false;
        if (strict && po.once() && !to.once()) return false;
        // a pattern that asks for flags matches only instructions that carry them
        if (strict && !to.flags().containsAll(po.flags())) return false;
        if (strict && !to.uses().containsAll(po.uses())) return false;
        if (strict
                && po.opClass() >= 0
                && to.opClass() >= 0
                && !sizeCovers(pr.sizeClass(po.opClass()), tr.sizeClass(to.opClass()))) {
            return false;
        }
        int orders = po.op().isCommutative() ? 2 : 1;
        for (int s = 0; s < orders; s++) {
            if (matchOperands(po, to, s == 1, 0, bind, pr, tr, strict, then)) return true;
        }
        return false;
    }

    /** Operands {@code j} onward of {@code po} against {@code to}'s, the first two swapped if asked. */
    private boolean matchOperands(
            Node.OpNode po,
            Node.OpNode to,
            boolean swapped,
            int j,
            Map<String, Node> bind,
            CheckedRule pr,
            CheckedRule tr,
            boolean strict,
            Predicate<Map<String, Node>> then) {
        if (j == po.srcs().size()) return then.test(bind);
        int k = swapped && j < 2 ? 1 - j : j;
        return match(
                po.srcs().get(j),
                to.srcs().get(k),
                bind,
                pr,
                tr,
                strict,
                b -> matchOperands(po, to, swapped, j + 1, b, pr, tr, strict, then));
    }

    /** The sizes (as flags) both classes can take; every size when they share none. */
    private static int commonSizes(SizeClass a, SizeClass b) {
        int both = sizes(a) & sizes(b);
        return both == 0 ? Bits.ALL_SIZES : both;
    }

    private static int sizes(SizeClass c) {
        return c.isFixed() ? Bits.sizeFlag(c.fixed()) : c.legal();
    }

    /** Every size the tree's class can take, the pattern's class can too. */
    private static boolean sizeCovers(SizeClass p, SizeClass t) {
        if (p.isFixed()) return t.isFixed() && t.fixed() == p.fixed();
        if (t.isFixed()) return (p.legal() & Bits.sizeFlag(t.fixed())) != 0;
        return (t.legal() & ~p.legal()) == 0;
    }

    /** Structural equality of two trees (variables by name). */
    private boolean same(Node a, Node b) {
        if (a instanceof Node.VarNode va)
            return b instanceof Node.VarNode vb
                    && va.name().equals(vb.name())
                    && va.swizzle().equals(vb.swizzle());
        if (a instanceof Node.ConstNode ca) {
            return b instanceof Node.ConstNode cb
                    && ca.asFloat() == cb.asFloat()
                    && sameLiteral(ca.text(), cb.text(), ca.asFloat(), Bits.ALL_SIZES);
        }
        Node.OpNode oa = (Node.OpNode) a;
        // A folded constant expression (-c) is not the instruction a pattern's fneg(c) matches.
        if (!(b instanceof Node.OpNode ob)
                || oa.op() != ob.op()
                || !oa.swizzle().equals(ob.swizzle())
                || oa.srcs().size() != ob.srcs().size()
                || oa.constant() != ob.constant()) {
            return false;
        }
        for (int i = 0; i < oa.srcs().size(); i++) {
            if (!same(oa.srcs().get(i), ob.srcs().get(i))) return false;
        }
        return true;
    }

    private RuleLiteral literal(String spelling) {
        return literals.computeIfAbsent(spelling, RuleLiteral::of);
    }

    /**
     * Two literal spellings with the same value at every size of {@code sizes} (flags): "1.0" and
     * "1" as floats at any size; 1.0 and 0x3f800000 at 32 bits only.
     */
    private boolean sameLiteral(String x, String y, boolean asFloat, int sizes) {
        if (x.equals(y)) return true;
        RuleLiteral a = literal(x), b = literal(y);
        for (int bits : Bits.sizesIn(sizes)) {
            if (a.fits(bits, asFloat) != b.fits(bits, asFloat)) return false;
            if (a.fits(bits, asFloat) && a.bits(bits, asFloat) != b.bits(bits, asFloat)) return false;
        }
        return true;
    }
}
