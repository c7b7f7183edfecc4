package dev.lathe.rules;

import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.GateClause;
import dev.lathe.rules.model.GateLiteral;
import dev.lathe.rules.model.Node;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One rule's check, as phases over a shared {@link RuleContext}:
 *
 * <ol>
 *   <li>{@link TreeBuilder}: ops looked up and their arity checked, annotations read, variables
 *       bound by the pattern and looked up by the replacement;
 *   <li>{@link InfixTyping}: infix operators resolved to ops by type evidence, annotations
 *       checked against the ops;
 *   <li>{@link SizeCheck}: bit sizes unified over the whole rule;
 *   <li>{@link LiteralCheck}: literals against the sizes and readings they may have;
 *   <li>{@link ConditionCheck}: each condition, then the conditions together;
 *   <li>{@link RuleFreezer}: the checked rule, immutable.
 * </ol>
 *
 * <p>The cascade policy lives here, in {@link #phases}: each phase trusts what the ones before it
 * worked out, so a phase marked as needing a whole rule does not run after an error — it would
 * only say the same mistake again in other words (an operator of unknown type has no size; a
 * size mismatch makes its literals "not fit"). Two phases run anyway because they have mistakes
 * of their own to find: operator typing after a building error that left both trees standing,
 * and, when the replacement cannot be built, the pattern's own typing and sizes
 * ({@link #checkPatternAlone}). Unknown condition names are refusals: said whatever else is
 * wrong, they stop nothing. The number of commutative ops is checked last, whatever happened.
 */
final class RuleCheck {
    private final RuleContext ctx;
    private final TreeBuilder builder;
    private final InfixTyping infix;
    private final SizeCheck sizes;
    private final ConditionCheck conditions;
    private CheckedRule checked;

    RuleCheck(Checker checker, Ast.Rule rule) {
        this.ctx = new RuleContext(checker, rule);
        this.builder = new TreeBuilder(ctx);
        this.infix = new InfixTyping(ctx);
        this.sizes = new SizeCheck(ctx);
        this.conditions = new ConditionCheck(ctx);
    }

    /** A phase: whether it runs only on a rule without errors so far, and what it does (false: its products are missing, stop). */
    private record Phase(String name, boolean needsWholeRule, BooleanSupplier run) {}

    private List<Phase> phases() {
        return List.of(
                new Phase("build", false, this::build),
                new Phase("infix", false, this::typeOperators),
                new Phase("components", true, () -> new ComponentCheck(ctx).check()),
                new Phase("sizes", true, this::assignSizes),
                new Phase("literals", true, this::checkLiterals),
                new Phase("conditions", true, this::checkConditions),
                new Phase("conditions together", true, this::conditionsHold),
                new Phase("freeze", true, this::freeze));
    }

    /** The checked rule, or null when it has an error (all of them reported). */
    CheckedRule run() {
        preamble();
        for (Phase phase : phases()) {
            if (phase.needsWholeRule() && ctx.errors() > 0 || !phase.run().getAsBoolean()) {
                checked = null;
                break;
            }
        }
        if (ctx.limitRoot != null) {
            int before = ctx.errors();
            commutativeLimit(ctx.limitRoot);
            if (ctx.errors() > before) return null;
        }
        return ctx.rejected() ? null : checked;
    }

    /** What is wrong whatever the rule says: unknown condition names, too many conditions, a name too long. */
    private void preamble() {
        Ast.Rule rule = ctx.rule;
        for (Ast.Condition ac : rule.conditions()) {
            if (Predicate.bySpelling(ac.name()) == null) conditions.unknownCondition(ac);
        }
        if (rule.conditions().size() > Checker.MAX_CONDITIONS) {
            ctx.error(
                    rule.conditions().get(Checker.MAX_CONDITIONS).pos(),
                    "a rule may have at most " + Checker.MAX_CONDITIONS + " conditions");
        }
        if (rule.name().length() > Checker.MAX_NAME) {
            ctx.error(rule.pos(), "a rule name may have at most " + Checker.MAX_NAME + " characters");
        }
    }

    private boolean build() {
        Ast.Rule rule = ctx.rule;
        ctx.patternNames = TreeBuilder.namesIn(rule.pattern());
        int before = ctx.errors();
        ctx.pattern = builder.build(rule.pattern(), true);
        // After a broken pattern, the replacement and conditions are still searched for
        // errors of their own: unknown ops and conditions, and variables the pattern's text
        // does not bind (that needs no working pattern).
        ctx.replacement = builder.build(rule.replacement(), false);
        // A literal or a name too long has said why the text is (one mistake, one error).
        if (rule.text().length() > Checker.MAX_RULE_TEXT && !ctx.tooLongReported) {
            ctx.error(
                    rule.pos(),
                    String.format(
                            "a rule may have at most %,d characters (this one has %,d); split it",
                            Checker.MAX_RULE_TEXT, rule.text().length()));
        }
        if (ctx.pattern == null || ctx.replacement == null) {
            conditions.unboundConditionVariables();
            // A broken replacement leaves the pattern to check alone (its operators and sizes).
            if (ctx.pattern instanceof POp && ctx.errors() == before + ctx.unboundOnly) checkPatternAlone(ctx.pattern);
            if (ctx.pattern instanceof POp root) ctx.limitRoot = root;
            return false;
        }
        if (!(ctx.pattern instanceof POp)) {
            ctx.error(
                    ctx.pattern.pos,
                    "a pattern must be an operation (such as fmul(a, 1.0)), not a variable or a literal");
            return false;
        }
        return true;
    }

    /**
     * The checks that need only the pattern, for a rule whose replacement is broken: its
     * infix operators resolved and its sizes unified.
     */
    private void checkPatternAlone(P pattern) {
        int before = ctx.errors();
        infix.resolve();
        if (ctx.errors() == before) sizes.assign(pattern, true);
    }

    private boolean typeOperators() {
        POp root = (POp) ctx.pattern;
        infix.resolve();
        ctx.limitRoot = root; // checked last, whatever else is wrong
        if (ctx.replacement instanceof PLit l
                && l.context == null
                && root.op != null
                && root.op.output().typeClass() != TypeClass.ANY) {
            l.context = root.op.output().typeClass(); // isub(a, a) => 1.0 replaces an integer
        }
        return true;
    }

    private boolean assignSizes() {
        P pattern = ctx.pattern, replacement = ctx.replacement;
        sizes.assign(pattern, true);
        sizes.checkClasses(); // the pattern's own ops, before the replacement ties more to them
        sizes.assign(replacement, false);
        if (!sizes.sizesMeet(pattern.cls, replacement.cls, replacement.pos)) return false;
        sizes.unify(
                pattern.cls, replacement.cls, replacement.pos, "the replacement must have the bit size of the pattern");
        sizes.checkClasses(); // an op at a size it does not have is a mistake of its own
        return true;
    }

    private boolean checkLiterals() {
        new LiteralCheck(ctx).check();
        sizes.checkReplacementSizes(ctx.replacement);
        return true;
    }

    private RuleFreezer freezer;
    private Node.OpNode frozenPattern;
    private Node frozenReplacement;
    private final List<Condition> conds = new ArrayList<>();

    private boolean checkConditions() {
        freezer = new RuleFreezer(ctx);
        frozenPattern = (Node.OpNode) freezer.freeze(ctx.pattern, true);
        frozenReplacement = freezer.freeze(ctx.replacement, false);
        for (Ast.Condition ac : ctx.rule.conditions()) {
            Condition cond = conditions.condition(ac, freezer.firstVars);
            if (cond != null) conds.add(cond);
        }
        if (ctx.rejected()) {
            // the conditions that are right are still compared: is_zero(b), is_not_zero(b),
            // is_nonzero(a) has two mistakes, not one
            if (conds.size() > 1) conditions.conditionsCanHold(conds);
            return false;
        }
        return true;
    }

    private boolean conditionsHold() {
        conditions.conditionsCanHold(conds);
        return true;
    }

    private boolean freeze() {
        warnAboutNoOps((POp) ctx.pattern, ctx.replacement);
        if (ctx.replacement instanceof POp r
                && dev.lathe.ir.op.MediumPrecision.narrow(r.op) != null
                && !(ctx.pattern instanceof POp p && dev.lathe.ir.op.MediumPrecision.narrow(p.op) != null)) {
            // its users could read it at 32 bits: a value the pattern's users could not read
            ctx.error(
                    r.pos,
                    "a replacement rooted at a mediump conversion (" + r.op.opName() + ") needs a pattern rooted at"
                            + " one: a conversion reading the rewritten value may read it at 32 bits, where the"
                            + " pattern's value has no such reading; write "
                            + dev.lathe.ir.op.MediumPrecision.narrow(r.op).opName());
            return false;
        }
        Map<String, TypeClass> types = new LinkedHashMap<>();
        for (String v : ctx.bindingOrder) {
            TypeClass t = ctx.vars.get(v).type();
            types.put(v, t == null ? TypeClass.ANY : t);
        }
        Ast.Rule rule = ctx.rule;
        checked = new CheckedRule(
                ctx.file(),
                rule.name(),
                rule.pos().line(),
                rule.pos().column(),
                rule.text(),
                rule.comment(),
                rule.exact(),
                frozenPattern,
                frozenReplacement,
                conds,
                List.copyOf(ctx.bindingOrder),
                types,
                freezer.classes(),
                gates(),
                rule.reassociating(),
                usedBits(),
                ctx.maxWidth,
                rule.ulpBound());
        return true;
    }

    /** {@code @low8}/{@code @low16}: on the root's integer result only (an error elsewhere). */
    private int usedBits() {
        POp root = (POp) ctx.pattern;
        for (POp o : patternOps(root)) {
            if (o != root && o.lowBits != 0)
                ctx.error(
                        o.lowBitsPos,
                        "@low" + o.lowBits + " goes on the pattern's root: it says which bits of the replaced value"
                                + " are used");
        }
        if (root.lowBits == 0) return 0;
        TypeClass out = root.op.output().typeClass();
        if (out == TypeClass.FLOAT || out == TypeClass.BOOL) {
            ctx.error(root.lowBitsPos, "@low" + root.lowBits + " is for integer results, not " + out.spelling() + "s");
            return 0;
        }
        return root.lowBits;
    }

    /**
     * The rule's gate clauses; a repeated one is a warning, and two one-literal clauses that
     * contradict each other (option(a) and !option(a)) an error.
     */
    private List<GateClause> gates() {
        List<GateClause> out = new ArrayList<>();
        for (Ast.Gate g : ctx.rule.gates()) {
            GateClause gate = new GateClause(g.any());
            if (out.contains(gate)) {
                ctx.warning(g.pos(), gate.text() + " is written twice");
            } else if (g.any().size() == 1
                    && out.contains(GateClause.of(g.any().get(0).negate()))) {
                GateLiteral l = g.any().get(0);
                ctx.error(
                        g.pos(),
                        l.negate().text() + " and " + l.text() + " cannot hold together: the rule would never fire");
            } else {
                out.add(gate);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Markings that do nothing, as warnings: {@code @once} on the pattern's root (the root is
     * replaced whatever its uses; it only narrows when the rule fires) and {@code ~=>} on a
     * rule without a float operation (exactness is about float rounding: such a rule would
     * only be skipped on exact instructions, for nothing). A conversion from a boolean
     * (b2f32) is no float operation here: its results are exactly 0.0 and 1.0.
     */
    private void warnAboutNoOps(POp root, P replacement) {
        if (root.once) {
            ctx.warning(
                    root.oncePos,
                    "@once on the pattern's root only keeps the rule from firing when the root has"
                            + " several uses; the root is replaced either way (put @once on an inner operation whose"
                            + " instruction the rewrite should free)");
        }
        if (!ctx.rule.exact() && !ctx.rule.reassociating()) {
            List<P> work = new ArrayList<>(List.of(root, replacement));
            while (!work.isEmpty()) {
                P p = work.remove(work.size() - 1);
                if (!(p instanceof POp o)) continue;
                // b2f32 and friends make exactly 0.0 or 1.0 (no rounding, no -0, no NaN)
                boolean fromBool = o.op.numInputs() == 1 && o.op.input(0).typeClass() == TypeClass.BOOL;
                if (o.op.output().typeClass() == TypeClass.FLOAT && !fromBool) return;
                for (int i = 0; i < o.op.numInputs(); i++) {
                    if (o.op.input(i).typeClass() == TypeClass.FLOAT) return;
                }
                work.addAll(o.srcs);
            }
            ctx.warning(
                    ctx.rule.pos(),
                    "rule " + ctx.rule.name() + " is marked inexact (~=>) but has no float operation; integer"
                            + " rewrites are exact: write '=>'");
        }
    }

    private void commutativeLimit(POp root) {
        int commutative = 0;
        for (POp p : patternOps(root)) {
            if (p.op != null && p.op.isCommutative()) commutative++;
        }
        if (commutative > Checker.MAX_COMMUTATIVE) {
            ctx.error(
                    root.pos,
                    "the pattern has " + commutative + " commutative operations, which means 2^" + commutative
                            + " operand orders to try; at most " + Checker.MAX_COMMUTATIVE
                            + " are allowed — split the rule");
        }
    }

    private List<POp> patternOps(POp root) {
        List<POp> out = new ArrayList<>();
        List<P> work = new ArrayList<>(List.of(root));
        while (!work.isEmpty()) {
            P p = work.remove(work.size() - 1);
            if (p instanceof POp o) {
                out.add(o);
                work.addAll(o.srcs);
            }
        }
        return out;
    }
}
