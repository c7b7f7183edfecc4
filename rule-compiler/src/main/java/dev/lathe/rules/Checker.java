package dev.lathe.rules;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.OperandType;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.SizeClass;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Semantic analysis of a rule file. For each rule:
 *
 * <ol>
 *   <li>ops are looked up in the op table and their arity checked;
 *   <li>infix operators are resolved to ops by type evidence — literal spellings, annotations,
 *       and how variables are used elsewhere in the rule — repeated until nothing changes
 *       ({@code a * 1.0} is {@code fmul}; {@code a * b} alone is an error);
 *   <li>bit sizes are unified over the whole rule with union-find: operands an op requires to
 *       share a size, all occurrences of a variable, the pattern and replacement roots, and the
 *       sizes annotations fix; each class keeps the sizes every op on it allows;
 *   <li>literals are checked against the sizes and types they may take, replacement variables
 *       must be bound by the pattern, replacement sizes must be decidable from the pattern,
 *       and conditions must be known predicates applicable to their variable's type.
 * </ol>
 *
 * Every problem is reported with its position; checking goes on, so one run reports all the
 * errors of a file.
 */
public final class Checker {

    /**
     * The checked rules (only those without errors), every diagnostic, and every rule that passed
     * its own checks, including those whose name was taken: those are not kept, but the checks
     * between rules still look at them, so that a copied rule reports its duplicate pattern too.
     */
    public record Result(CheckedFile file, List<Diagnostic> errors, List<Diagnostic> warnings,
                         List<CheckedRule> checkedAlone) {}

    /** The most commutative ops a pattern may have: each doubles the operand orders tried. */
    public static final int MAX_COMMUTATIVE = 6;

    private static final String NEGATED_HEX =
            "hex literals are raw bits and cannot be negated; write the bits of the negative value";

    /** Limits far above any real rule, so that generated methods stay within what javac takes. */
    static final int MAX_CONDITIONS = 64;
    static final int MAX_NAME = 200;
    /** Rules a file: its generated class stays within the constant pool (5,500 measured to compile). */
    static final int MAX_RULES = 5_000;
    /** A literal's text is a field name and a string constant of the generated class. */
    static final int MAX_LITERAL = 200;
    /** A rule's text is a string constant (javac takes at most 65,535 UTF-8 bytes). */
    static final int MAX_RULE_TEXT = 10_000;

    private final String file;
    private final String text;
    private final List<Diagnostic> errors = new ArrayList<>();
    private final List<Diagnostic> warnings = new ArrayList<>();

    private Checker(String file, String text) {
        this.file = file;
        this.text = text;
    }

    public static Result check(Ast.RuleFile ast, String text) {
        Checker c = new Checker(ast.file(), text);
        if (ast.rules().size() > MAX_RULES) {
            // One class a file: javac refuses a class of more constants than about 9,000 rules make.
            c.error(ast.rules().get(MAX_RULES).pos(), String.format("a file may have at most %,d rules (this one has %,d):"
                    + " split it into several files, each its own pass", MAX_RULES, ast.rules().size()));
            return new Result(new CheckedFile(ast.file(), ast.passName(), List.of()), c.errors, c.warnings, List.of());
        }
        List<CheckedRule> rules = new ArrayList<>();
        List<CheckedRule> alone = new ArrayList<>();
        Map<String, Ast.Pos> names = new HashMap<>();
        for (Ast.Rule r : ast.rules()) {
            Ast.Pos prev = names.putIfAbsent(r.name(), r.pos());
            if (prev != null) c.error(r.pos(), "rule name " + r.name() + " is already used at line " + prev.line());
            // A rule with a taken name is still checked, for its own errors, but not kept.
            CheckedRule checked = new RuleCheck(c, r).run();
            if (checked != null && prev == null) rules.add(checked);
            if (checked != null) alone.add(checked);
        }
        return new Result(new CheckedFile(ast.file(), ast.passName(), rules), c.errors, c.warnings, alone);
    }

    void error(Ast.Pos pos, String message) {
        errors.add(Diagnostic.error(file, pos.line(), pos.column(), message, Diagnostic.lineOf(text, pos.line())));
    }

    void warning(Ast.Pos pos, String message) {
        warnings.add(new Diagnostic(file, pos.line(), pos.column(), "warning", message, Diagnostic.lineOf(text, pos.line())));
    }

    // ---- proto nodes: mutable while types and sizes are worked out ------------------------------

    private abstract static class P {
        final Ast.Pos pos;
        int cls = -1;
        int outSize;           // from an annotation on the value: expr@32
        Ast.Pos outSizePos;    // where that annotation is
        TypeClass annType;     // from a type annotation: expr@f32
        Ast.Pos annPos;        // where that annotation is

        P(Ast.Pos pos) {
            this.pos = pos;
        }
    }

    private static final class POp extends P {
        Op op;
        String infix;          // the operator while unresolved
        final List<P> srcs;
        int opCls = -1;
        int opSize;            // op@16(…)
        boolean once;
        Ast.Pos oncePos;
        boolean failed;        // an infix operator whose operands' annotations disagree (reported)

        POp(Ast.Pos pos, Op op, String infix, List<P> srcs) {
            super(pos);
            this.op = op;
            this.infix = infix;
            this.srcs = srcs;
        }
    }

    private static final class PVar extends P {
        final String name;
        final boolean constOnly;

        PVar(Ast.Pos pos, String name, boolean constOnly) {
            super(pos);
            this.name = name;
            this.constOnly = constOnly;
        }
    }

    private static final class PLit extends P {
        final String text;
        final Ast.LitKind kind;
        TypeClass context;
        Op consumer;           // the op reading the literal, and as which operand
        int operand;

        PLit(Ast.Pos pos, String text, Ast.LitKind kind) {
            super(pos);
            this.text = text;
            this.kind = kind;
        }

        boolean floatSpelling() {
            return kind == Ast.LitKind.FLOAT || kind == Ast.LitKind.INF || kind == Ast.LitKind.NAN;
        }

        boolean bool() {
            return kind == Ast.LitKind.TRUE || kind == Ast.LitKind.FALSE;
        }
    }

    /** What the rule knows of a variable. */
    private static final class VarInfo {
        int cls = -1;
        boolean constOnly;
        /** How the pattern first wrote it: #c (true) or c (false); null before the pattern names it. */
        Boolean firstSpelledConst;
        TypeClass annType;
        final java.util.EnumSet<TypeClass> contexts = java.util.EnumSet.noneOf(TypeClass.class);
        /**
         * Read by an integer op that computes the same bits signed or unsigned (iand, iadd …):
         * an integer, but of no particular signedness, unlike the op table's class for it.
         */
        boolean signBlind;
        /** The ops that read it (for messages), in rule order. */
        final java.util.Set<String> readers = new java.util.LinkedHashSet<>();

        boolean readAsFloat() {
            return contexts.contains(TypeClass.FLOAT);
        }

        /** Read as an integer by some op: a sign-blind one, or one that reads it signed or unsigned. */
        boolean readAsInteger() {
            return signBlind || contexts.contains(TypeClass.INT) || contexts.contains(TypeClass.UINT);
        }
    }

    // ---- one rule ---------------------------------------------------------------------------------

    private static final class RuleCheck {
        private final Checker c;
        private final Ast.Rule rule;
        private final Map<String, VarInfo> vars = new LinkedHashMap<>();
        private final List<String> bindingOrder = new ArrayList<>();
        private final List<POp> ops = new ArrayList<>();
        private final List<PVar> varOccurrences = new ArrayList<>();
        private final List<PLit> lits = new ArrayList<>();
        private int errorCount;
        private int badConditions;
        /** The variables the pattern's text names, whether or not the pattern is well-formed. */
        private java.util.Set<String> patternNames = java.util.Set.of();
        /** How many errors so far are replacement variables the pattern does not bind. */
        private int unboundOnly;

        // union-find over size classes
        private final List<Integer> parent = new ArrayList<>();
        private final List<Integer> fixed = new ArrayList<>();
        private final List<Integer> legal = new ArrayList<>();
        private final List<Integer> patternLegal = new ArrayList<>();
        private final List<Boolean> inPattern = new ArrayList<>();
        /** A class two fixed sizes were merged into (reported once; later merges are silent). */
        private final List<Boolean> conflicted = new ArrayList<>();
        /** What first tied a class to its fixed size (an operand of a sized op, an annotation). */
        private final List<String> fixedWhy = new ArrayList<>();
        /** Ops already reported for their size, and classes reported as having no size at all. */
        private final java.util.Set<POp> sizeReported = new java.util.HashSet<>();
        private final java.util.Set<Integer> reportedEmpty = new java.util.HashSet<>();

        RuleCheck(Checker c, Ast.Rule rule) {
            this.c = c;
            this.rule = rule;
        }

        private void error(Ast.Pos pos, String msg) {
            errorCount++;
            c.error(pos, msg);
        }

        /** The pattern whose number of commutative ops is checked after everything else. */
        private POp limitRoot;

        CheckedRule run() {
            CheckedRule checked = checkRule();
            if (limitRoot == null) return checked;
            int before = errorCount;
            commutativeLimit(limitRoot);
            return errorCount > before ? null : checked;
        }

        private CheckedRule checkRule() {
            // Unknown condition names are errors of their own: reported whatever else is wrong.
            for (Ast.Condition ac : rule.conditions()) {
                if (Predicate.bySpelling(ac.name()) == null) unknownCondition(ac);
            }
            if (rule.conditions().size() > MAX_CONDITIONS) {
                error(rule.conditions().get(MAX_CONDITIONS).pos(), "a rule may have at most " + MAX_CONDITIONS + " conditions");
            }
            if (rule.name().length() > MAX_NAME) {
                error(rule.pos(), "a rule name may have at most " + MAX_NAME + " characters");
            }
            patternNames = namesIn(rule.pattern());
            int before = errorCount;
            P pattern = build(rule.pattern(), true);
            // After a broken pattern, the replacement and conditions are still searched for
            // errors of their own: unknown ops and conditions, and variables the pattern's text
            // does not bind (that needs no working pattern).
            P replacement = build(rule.replacement(), false);
            // A literal or a name too long has said why the text is (one mistake, one error).
            if (rule.text().length() > MAX_RULE_TEXT && !tooLongReported) {
                error(rule.pos(), String.format("a rule may have at most %,d characters (this one has %,d); split it",
                        MAX_RULE_TEXT, rule.text().length()));
            }
            if (pattern == null || replacement == null) {
                unboundConditionVariables();
                // A broken replacement leaves the pattern to check alone (its operators and sizes).
                if (pattern instanceof POp && errorCount == before + unboundOnly) checkPatternAlone(pattern);
                if (pattern instanceof POp root) limitRoot = root;
                return null;
            }
            if (!(pattern instanceof POp root)) {
                error(pattern.pos, "a pattern must be an operation (such as fmul(a, 1.0)), not a variable or a literal");
                return null;
            }
            resolveInfix();
            limitRoot = root; // checked last, whatever else is wrong
            if (replacement instanceof PLit l && l.context == null && root.op != null
                    && root.op.output().typeClass() != TypeClass.ANY) {
                l.context = root.op.output().typeClass(); // isub(a, a) => 1.0 replaces an integer
            }
            if (errorCount > 0) return null;
            assign(pattern, true);
            checkClasses(); // the pattern's own ops, before the replacement ties more to them
            assign(replacement, false);
            if (!sizesMeet(pattern.cls, replacement.cls, replacement.pos)) return null;
            unify(pattern.cls, replacement.cls, replacement.pos, "the replacement must have the bit size of the pattern");
            checkClasses(); // an op at a size it does not have is a mistake of its own
            if (errorCount > 0) return null;
            checkLiterals();
            checkReplacementSizes(replacement);
            List<Condition> conds = new ArrayList<>();
            Map<String, Node.VarNode> firstVar = new HashMap<>();
            if (errorCount > 0) return null;
            Freezer fz = new Freezer();
            Node.OpNode frozenPattern = (Node.OpNode) fz.freeze(pattern, true);
            Node frozenReplacement = fz.freeze(replacement, false);
            for (Map.Entry<String, Node.VarNode> e : fz.firstVars.entrySet()) firstVar.put(e.getKey(), e.getValue());
            for (Ast.Condition ac : rule.conditions()) {
                Condition cond = condition(ac, firstVar);
                if (cond != null) conds.add(cond);
            }
            if (errorCount > 0 || badConditions > 0) {
                // the conditions that are right are still compared: is_zero(b), is_not_zero(b),
                // is_nonzero(a) has two mistakes, not one
                if (conds.size() > 1) conditionsCanHold(conds);
                return null;
            }
            conditionsCanHold(conds);
            if (errorCount > 0) return null;
            warnAboutNoOps(root, replacement);
            Map<String, TypeClass> types = new LinkedHashMap<>();
            for (String v : bindingOrder) {
                TypeClass t = varType(vars.get(v));
                types.put(v, t == null ? TypeClass.ANY : t);
            }
            return new CheckedRule(c.file, rule.name(), rule.pos().line(), rule.pos().column(), rule.text(), rule.comment(), rule.exact(), frozenPattern,
                    frozenReplacement, conds, List.copyOf(bindingOrder), types, fz.classes());
        }

        /**
         * Conditions that can never hold together (is_lt_zero(a), is_ge_zero(a)) or alone
         * (ult_const(a, 0)) make a rule that never fires: an error. A condition written twice is
         * a warning. Whether the conditions on one variable can hold together is decided on
         * representatives of every class they tell apart (signs, zeros, infinities, NaN, whole
         * and fractional values, powers of two) at every size; a variable with a bounded
         * condition is left alone, its bound being any value.
         */
        private void conditionsCanHold(List<Condition> conds) {
            Map<String, List<Condition>> byVar = new LinkedHashMap<>();
            for (int i = 0; i < conds.size(); i++) {
                Condition ci = conds.get(i);
                if (ci.predicate() == Predicate.ULT_CONST && ci.bound() == 0) {
                    error(ci.pos(), "ult_const(" + ci.var().name() + ", 0) never holds: no unsigned value is below 0");
                    return;
                }
                for (int j = 0; j < i; j++) {
                    Condition cj = conds.get(j);
                    if (cj.predicate() == ci.predicate() && cj.var().name().equals(ci.var().name()) && cj.bound() == ci.bound()
                            && cj.type() == ci.type()) {
                        c.warning(ci.pos(), "this condition repeats the one at column " + cj.pos().column());
                        break;
                    }
                }
                byVar.computeIfAbsent(ci.var().name(), k -> new ArrayList<>()).add(ci);
            }
            for (List<Condition> group : byVar.values()) {
                List<Condition> cs = group;
                for (Condition x : cs) {
                    if (x.predicate().kind() == Predicate.Kind.INT_BOUND || satisfiable(List.of(x))) continue;
                    error(x.pos(), x.predicate().spelling() + "(" + x.var().name() + ") never holds: the rule reads "
                            + x.var().name() + " as " + (x.type() == TypeClass.UINT ? "unsigned" : x.type().spelling()));
                    return;
                }
                if (cs.size() < 2) continue;
                // Read as a float and as an integer (is_gt_zero(a@i32), is_finite(a@f32)): the bits
                // would need both readings. Signed and unsigned readings of one integer are
                // compared bit for bit (ult_const(a, 1) and is_not_zero(a)).
                boolean floats = group.get(0).type() == TypeClass.FLOAT;
                if (cs.stream().anyMatch(x -> (x.type() == TypeClass.FLOAT) != floats)) continue;
                if (satisfiable(cs)) continue;
                // Name the clashing pair when there is one, not every condition on the variable.
                List<Condition> clash = cs;
                for (int i = 0; i < cs.size() && clash == cs; i++) {
                    for (int j = i + 1; j < cs.size(); j++) {
                        if (!satisfiable(List.of(cs.get(i), cs.get(j)))) {
                            clash = List.of(cs.get(i), cs.get(j));
                            break;
                        }
                    }
                }
                cs = clash;
                Condition last = cs.get(cs.size() - 1);
                List<String> spelled = new ArrayList<>();
                for (Condition x : cs) {
                    spelled.add(x.predicate().spelling() + "(" + x.var().name()
                            + (x.predicate().kind() == Predicate.Kind.INT_BOUND ? ", " + x.bound() : "") + ")");
                }
                error(last.pos(), "the conditions " + String.join(", ", spelled.subList(0, spelled.size() - 1)) + " and "
                        + spelled.get(spelled.size() - 1) + " cannot " + (cs.size() == 2 ? "both" : "all")
                        + " hold for one value: the rule would never fire");
                return;
            }
        }

        private static boolean satisfiable(List<Condition> cs) {
            boolean asFloat = cs.get(0).type() == TypeClass.FLOAT;
            for (int bits : asFloat ? new int[] {16, 32, 64} : new int[] {1, 8, 16, 32, 64}) {
                List<Long> candidates = new ArrayList<>();
                if (asFloat) {
                    for (double d : new double[] {Double.NEGATIVE_INFINITY, -2.5, -2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0, 2.5,
                            Double.POSITIVE_INFINITY, Double.NaN}) {
                        candidates.add(dev.lathe.ir.op.FloatBits.fromDouble(d, bits));
                    }
                } else {
                    long min = Bits.minSigned(bits);
                    for (long v : new long[] {0, 1, 2, 3, -1, -2, -3, min, min - 1, min + 1}) candidates.add(Bits.trunc(v, bits));
                    // Each condition holds on an interval (two for is_not_zero) or a set that holds
                    // 1, -1 and the extremes (powers of two); where intervals meet, they meet at
                    // one of their ends: 0, -1, 1, the extremes, or a bound and its neighbours.
                    for (Condition x : cs) {
                        if (x.predicate().kind() != Predicate.Kind.INT_BOUND) continue;
                        for (long d = -1; d <= 1; d++) candidates.add(Bits.trunc(x.bound() + d, bits));
                    }
                }
                for (long v : candidates) {
                    boolean all = true;
                    for (Condition x : cs) all &= x.predicate().holds(v, bits, x.type(), x.bound());
                    if (all) return true;
                }
            }
            return false;
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
                c.warning(root.oncePos, "@once on the pattern's root only keeps the rule from firing when the root has"
                        + " several uses; the root is replaced either way (put @once on an inner operation whose"
                        + " instruction the rewrite should free)");
            }
            if (!rule.exact()) {
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
                c.warning(rule.pos(), "rule " + rule.name() + " is marked inexact (~=>) but has no float operation; integer"
                        + " rewrites are exact: write '=>'");
            }
        }

        private void commutativeLimit(POp root) {
            int commutative = 0;
            for (POp p : patternOps(root)) {
                if (p.op != null && p.op.isCommutative()) commutative++;
            }
            if (commutative > MAX_COMMUTATIVE) {
                error(root.pos, "the pattern has " + commutative + " commutative operations, which means 2^" + commutative
                        + " operand orders to try; at most " + MAX_COMMUTATIVE + " are allowed — split the rule");
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

        // ---- building ---------------------------------------------------------------------------

        private P build(Ast.Expr e, boolean pattern) {
            if (e instanceof Ast.Call call) return buildCall(call, pattern);
            if (e instanceof Ast.Binary b) {
                P l = build(b.left(), pattern);
                P r = build(b.right(), pattern);
                if (l == null || r == null) return null;
                POp p = new POp(b.pos(), null, b.op(), new ArrayList<>(List.of(l, r)));
                ops.add(p);
                return p;
            }
            if (e instanceof Ast.Unary u) {
                if (u.op().equals("-") && u.operand() instanceof Ast.Lit lit && lit.kind() != Ast.LitKind.NAN
                        && lit.kind() != Ast.LitKind.TRUE && lit.kind() != Ast.LitKind.FALSE) {
                    if (lit.kind() == Ast.LitKind.HEX) {
                        error(u.pos(), NEGATED_HEX);
                        return null;
                    }
                    PLit p = new PLit(u.pos(), "-" + lit.text(), lit.kind());
                    lits.add(p);
                    return p;
                }
                P x = build(u.operand(), pattern);
                if (x == null) return null;
                POp p = new POp(u.pos(), null, "unary" + u.op(), new ArrayList<>(List.of(x)));
                ops.add(p);
                return p;
            }
            if (e instanceof Ast.Var v) return buildVar(v, pattern);
            if (e instanceof Ast.Lit l) {
                if (l.text().length() > MAX_LITERAL) {
                    tooLongReported = true;
                    error(l.pos(), String.format("a literal may have at most %d characters (this one has %,d)",
                            MAX_LITERAL, l.text().length()));
                    return null;
                }
                PLit p = new PLit(l.pos(), l.text(), l.kind());
                lits.add(p);
                return p;
            }
            Ast.Annotated a = (Ast.Annotated) e;
            P inner = build(a.inner(), pattern);
            if (inner == null) return null;
            annotate(inner, a.annotation(), pattern);
            return inner;
        }

        private P buildCall(Ast.Call call, boolean pattern) {
            Op op = Op.byName(call.name());
            if (op == null) {
                if (Predicate.bySpelling(call.name()) != null) {
                    error(call.pos(), call.name() + " is a condition, not an op: write it after 'if'");
                } else {
                    String near = Suggest.forOp(call.name(), java.util.Arrays.stream(Op.values()).map(Op::opName).toList());
                    error(call.pos(), "unknown op '" + call.name() + "'" + (near == null ? "" : " (did you mean " + near + "?)"));
                }
                buildAll(call.args(), pattern);
                return null;
            }
            if (op.isHorizontal()) {
                error(call.pos(), op.opName() + " is a horizontal op (its operands have fixed component counts): rules "
                        + "work per component and cannot use it");
                buildAll(call.args(), pattern);
                return null;
            }
            if (call.args().size() != op.numInputs()) {
                error(call.pos(), op.opName() + " takes " + op.numInputs() + " operand" + (op.numInputs() == 1 ? "" : "s")
                        + ", got " + call.args().size());
                buildAll(call.args(), pattern);
                return null;
            }
            List<P> srcs = buildAll(call.args(), pattern);
            if (srcs == null) return null;
            POp p = new POp(call.pos(), op, null, srcs);
            for (Ast.Annotation ann : call.annotations()) {
                int n = sizeOf(ann.text());
                if (n == 0) {
                    error(ann.pos(), opTypeAnnotationMessage(op, ann.text()));
                } else if (n < 0) {
                    error(ann.pos(), "invalid bit size @" + ann.text() + " (1, 8, 16, 32 or 64)");
                } else if (!op.hasUnsizedOperands()) {
                    error(ann.pos(), op.opName() + " has no operands of a variable size to set");
                } else if (p.opSize != 0 && p.opSize != n) {
                    error(ann.pos(), "conflicting op sizes @" + p.opSize + " and @" + n);
                } else {
                    p.opSize = n;
                }
            }
            ops.add(p);
            return p;
        }

        /**
         * {@code fmul@f32(…)}: only a size goes there. The type goes after the call, unless it
         * contradicts what the op computes ({@code fadd@i32}), where moving it would be the next
         * error: then the message says the op already decides the type.
         */
        private static String opTypeAnnotationMessage(Op op, String text) {
            dev.lathe.ir.VarType vt = dev.lathe.ir.VarType.parseScalar(text, 1);
            TypeClass out = op.output().typeClass();
            String size = vt == null ? "32" : String.valueOf(vt.bitSize());
            if (vt != null && out != TypeClass.ANY && isFloat(out) != isFloat(TypeClass.of(vt.base()))) {
                return "an op takes only a bit size here, as in " + op.opName() + "@" + size + "(…); " + op.opName()
                        + " computes " + (isFloat(out) ? "a float" : "an integer") + ", so @" + text + " cannot describe it";
            }
            return "an op takes only a bit size here, as in " + op.opName() + "@" + size + "(…); @" + text + " goes after the call";
        }

        /** The names of the variables in an expression's text (a worklist: rules may be deep). */
        private static java.util.Set<String> namesIn(Ast.Expr e) {
            java.util.Set<String> names = new java.util.HashSet<>();
            java.util.ArrayDeque<Ast.Expr> work = new java.util.ArrayDeque<>(List.of(e));
            while (!work.isEmpty()) {
                Ast.Expr x = work.pop();
                if (x instanceof Ast.Var v) {
                    names.add(v.name());
                } else if (x instanceof Ast.Call call) {
                    work.addAll(call.args());
                } else if (x instanceof Ast.Binary bin) {
                    work.push(bin.left());
                    work.push(bin.right());
                } else if (x instanceof Ast.Unary u) {
                    work.push(u.operand());
                } else if (x instanceof Ast.Annotated an) {
                    work.push(an.inner());
                }
            }
            return names;
        }

        private final java.util.Set<String> unboundReported = new java.util.HashSet<>();
        /** A literal or a variable name past its limit was reported. */
        private boolean tooLongReported;

        /** " (did you mean a?)" for a variable the pattern does not bind but nearly does, else "". */
        private String didYouMean(String name) {
            List<String> known = new ArrayList<>(new java.util.TreeSet<>(patternNames));
            // Any one-letter name is one edit from any other: only a change of case is a likely typo.
            String near = name.length() > 1 ? Suggest.closest(name, known)
                    : known.stream().filter(k -> k.equalsIgnoreCase(name)).findFirst().orElse(null);
            return near == null ? "" : " (did you mean " + near + "?)";
        }

        /** With the pattern or replacement broken: conditions on variables the pattern never names. */
        private void unboundConditionVariables() {
            for (Ast.Condition ac : rule.conditions()) {
                if (Predicate.bySpelling(ac.name()) == null || ac.args().isEmpty()) continue;
                Ast.Expr a0 = ac.args().get(0);
                while (a0 instanceof Ast.Annotated an) a0 = an.inner();
                if (a0 instanceof Ast.Var v && !patternNames.contains(v.name())) {
                    error(v.pos(), ac.name() + " asks about " + v.name() + ", which the pattern does not bind" + didYouMean(v.name()));
                }
            }
        }

        /**
         * The checks that need only the pattern, for a rule whose replacement is broken: its
         * infix operators resolved and its sizes unified.
         */
        private void checkPatternAlone(P pattern) {
            int before = errorCount;
            resolveInfix();
            if (errorCount == before) assign(pattern, true);
        }

        /** Builds every operand (so each reports its errors); null when one failed. */
        private List<P> buildAll(List<Ast.Expr> args, boolean pattern) {
            List<P> srcs = new ArrayList<>();
            boolean failed = false;
            for (Ast.Expr a : args) {
                P s = build(a, pattern);
                failed |= s == null;
                srcs.add(s);
            }
            return failed ? null : srcs;
        }

        private P buildVar(Ast.Var v, boolean pattern) {
            VarInfo info = vars.get(v.name());
            if (v.name().length() > MAX_NAME) {
                // A variable names locals of the generated code: once per name, like a missing one.
                tooLongReported = true;
                if (unboundReported.add(v.name())) error(v.pos(), "a variable name may have at most " + MAX_NAME + " characters");
                return null;
            }
            if (info == null) {
                if (!pattern) {
                    // Once per name: the same missing variable twice is one mistake.
                    if (!patternNames.contains(v.name()) && unboundReported.add(v.name())) {
                        error(v.pos(), "the replacement uses " + v.name() + ", which the pattern does not bind" + didYouMean(v.name()));
                        unboundOnly++;
                    }
                    return null;
                }
                info = new VarInfo();
                vars.put(v.name(), info);
                String literal = switch (v.name().toLowerCase(java.util.Locale.ROOT)) {
                    case "inf", "nan", "true", "false" -> v.name().toLowerCase(java.util.Locale.ROOT);
                    default -> null;
                };
                if (literal != null) {
                    // Python's True and NaN, C's INF: here a variable that matches anything.
                    c.warning(v.pos(), v.name() + " is a variable here, which matches any value; the literal is " + literal);
                }
                bindingOrder.add(v.name());
            }
            if (pattern && v.constOnly()) info.constOnly = true;
            if (pattern && info.firstSpelledConst == null) {
                info.firstSpelledConst = v.constOnly();
            } else if (pattern && info.firstSpelledConst != v.constOnly()) {
                c.warning(v.pos(), (v.constOnly() ? "#" : "") + v.name() + " here, " + (v.constOnly() ? "" : "#") + v.name()
                        + " before: one value, so both only match a constant; write #" + v.name() + " each time");
            }
            if (!pattern && v.constOnly() && !info.constOnly) {
                error(v.pos(), "#" + v.name() + " in the replacement, but the pattern binds " + v.name()
                        + " as a plain variable: write " + v.name() + " (or #" + v.name() + " in the pattern to match constants only)");
            }
            PVar occurrence = new PVar(v.pos(), v.name(), v.constOnly());
            varOccurrences.add(occurrence);
            return occurrence;
        }

        /** 0 when not a number; -1 for an invalid size. */
        private static int sizeOf(String t) {
            if (!t.chars().allMatch(Character::isDigit)) return 0;
            int n = t.length() > 3 ? -1 : Integer.parseInt(t);
            return Bits.isValidBitSize(n) ? n : -1;
        }

        private void annotate(P inner, Ast.Annotation ann, boolean pattern) {
            String t = ann.text();
            int n = sizeOf(t);
            if (n > 0) {
                setOutSize(inner, n, ann.pos());
                return;
            }
            if (n < 0) {
                error(ann.pos(), "invalid bit size @" + t + " (1, 8, 16, 32 or 64)");
                return;
            }
            if (t.equals("once")) {
                if (!pattern) {
                    error(ann.pos(), "@once is a condition on what the pattern matches; it means nothing in a replacement");
                } else if (!(inner instanceof POp op)) {
                    error(ann.pos(), "@once applies to an operation (the matched instruction has one use), not to a "
                            + (inner instanceof PVar ? "variable" : "literal"));
                } else if (op.once) {
                    error(ann.pos(), "@once is already on this operation (at column " + op.oncePos.column() + ")");
                } else {
                    op.once = true;
                    op.oncePos = ann.pos();
                }
                return;
            }
            dev.lathe.ir.VarType vt = dev.lathe.ir.VarType.parseScalar(t, 1);
            if (vt == null && t.matches("[fiub][0-9]+")) {
                error(ann.pos(), "invalid type @" + t + " (floats are f16, f32 or f64; integers i/u 8, 16, 32 or 64; "
                        + "booleans b1)");
                return;
            }
            if (vt == null) {
                String near = switch (t.toLowerCase(java.util.Locale.ROOT)) {
                    case "bool", "boolean" -> " (a boolean is @b1)";
                    case "float", "int", "uint" -> " (a type takes its size: @" + t.toLowerCase(java.util.Locale.ROOT).charAt(0) + "32)";
                    default -> t.matches("(1|8|16|32|64)[a-z]+") ? " (write the size alone: @" + t.replaceAll("[a-z]+$", "") + ")"
                            : " (use a bit size such as @32, a type such as @f32 or @u8, or @once)";
                };
                error(ann.pos(), "unknown annotation @" + t + near);
                return;
            }
            TypeClass tc = TypeClass.of(vt.base());
            if (inner.annType != null && inner.annType != tc) {
                error(ann.pos(), "conflicting type annotations: " + inner.annType.spelling() + " and @" + t);
            }
            inner.annType = tc;
            if (inner.annPos == null) inner.annPos = ann.pos();
            setOutSize(inner, vt.bitSize(), ann.pos());
            if (inner instanceof PVar v) {
                VarInfo info = vars.get(v.name);
                if (info.annType != null && info.annType != tc) {
                    error(ann.pos(), v.name + " is annotated as " + info.annType.spelling() + " elsewhere in the rule and as "
                            + tc.spelling() + " here");
                }
                info.annType = tc;
            }
        }

        private void setOutSize(P p, int n, Ast.Pos pos) {
            if (p.outSize != 0 && p.outSize != n) error(pos, "conflicting bit sizes @" + p.outSize + " and @" + n);
            p.outSize = n;
            p.outSizePos = pos;
        }

        // ---- infix resolution -------------------------------------------------------------------

        private void resolveInfix() {
            boolean changed = true;
            while (changed) {
                changed = false;
                collectContexts();
                for (POp p : ops) {
                    if (p.op != null || p.failed) continue;
                    if (annotationsDisagree(p) || floatLiteralAgainstInteger(p)) continue;
                    TypeClass t = evidence(typedOperands(p));
                    if (t == null) t = onlyMeaning(p.infix);
                    if (t == null) t = consumerReading(p);
                    if (t == null) continue;
                    Op op = infixOp(p, t);
                    if (op == null) return; // an error was reported
                    p.op = op;
                    changed = true;
                }
            }
            collectContexts();
            annotationsAgreeWithOps();
            // One operator said per rule: annotating an operand of it settles the others that
            // read the same values (b + a after a + b, or the rest of (a + b) * c - d).
            boolean said = false;
            for (POp p : ops) {
                if (p.op != null || p.failed || said) continue;
                said = true;
                if (p.infix.equals(">>")) {
                    error(p.pos, "cannot tell whether '>>' is a signed (ishr) or an unsigned (ushr) shift: annotate the "
                            + "shifted value, as in a@i32 or a@u32, or write the op");
                } else {
                    String shown = p.infix.startsWith("unary") ? p.infix.substring(5) : p.infix;
                    error(p.pos, "cannot tell whether '" + shown + "' is a float or an integer operation: write the op "
                            + "(" + examples(p.infix) + ") or annotate an operand, as in a@f32 or a@i32");
                }
            }
        }

        /**
         * A float annotation on what only integer ops read, or the reverse ({@code fmax(b@u32,
         * 0.0)}, {@code fadd(a, b)@i32}), is a mistake: the annotation would decide how the
         * conditions read the value, against every op that computes with it. A variable read
         * both ways ({@code iand(a@f32, 0x7fffffff) => fabs(a)}) may be annotated either way.
         * Signedness is not checked: reading an integer's bits the other way is common.
         */
        private void annotationsAgreeWithOps() {
            for (POp p : ops) {
                if (p.op == null) continue;
                TypeClass out = p.op.output().typeClass();
                if (p.annType != null && p.annPos != null && out != TypeClass.ANY && isFloat(out) != isFloat(p.annType)) {
                    error(p.annPos, p.op.opName() + " computes " + (isFloat(out) ? "a float" : "an integer")
                            + ", not " + article(p.annType));
                }
            }
            // (collectContexts recorded how the ops read each variable)
            java.util.Set<String> reported = new java.util.HashSet<>();
            for (PVar v : varOccurrences) {
                VarInfo info = vars.get(v.name);
                if (v.annType == null || v.annPos == null || info.readers.isEmpty()) continue;
                boolean wantsFloat = isFloat(v.annType);
                boolean readAsFloat = info.readAsFloat();
                boolean readOtherwise = info.signBlind || info.contexts.stream().anyMatch(t -> !isFloat(t));
                if ((wantsFloat ? readAsFloat : readOtherwise) || !reported.add(v.name)) continue;
                error(v.annPos, v.name + " is annotated as " + v.annType.spelling() + ", but "
                        + String.join(" and ", info.readers) + " read" + (info.readers.size() == 1 ? "s" : "")
                        + " it as " + (wantsFloat ? "an integer" : "a float"));
            }
            signednessAgreesWithOps(reported);
        }

        /**
         * {@code ushr(a@i32, 31)}: every op whose result depends on how it reads the variable's
         * sign reads it the other way. Ops that compute the same bits either way (iadd, iand …)
         * and ops that read no sign (bit_count) have no say.
         */
        private void signednessAgreesWithOps(java.util.Set<String> reported) {
            Map<String, List<String>> deciders = new LinkedHashMap<>();
            Map<String, Boolean> agrees = new HashMap<>();
            for (POp p : ops) {
                if (p.op == null) continue;
                for (int i = 0; i < p.srcs.size(); i++) {
                    if (!(p.srcs.get(i) instanceof PVar v)) continue;
                    TypeClass reads = signReading(p.op, i);
                    VarInfo info = vars.get(v.name);
                    if (reads == null || info.annType == null || isFloat(info.annType) || info.annType == TypeClass.BOOL) continue;
                    deciders.computeIfAbsent(v.name, k -> new ArrayList<>()).add(p.op.opName());
                    if (reads == info.annType) agrees.put(v.name, true);
                }
            }
            for (PVar v : varOccurrences) {
                if (v.annType == null || v.annPos == null || !deciders.containsKey(v.name) || agrees.containsKey(v.name)) continue;
                if (!reported.add(v.name)) continue;
                List<String> who = deciders.get(v.name);
                error(v.annPos, v.name + " is annotated as " + v.annType.spelling() + ", but " + String.join(" and ", who)
                        + " read" + (who.size() == 1 ? "s" : "") + " it as " + (v.annType == TypeClass.INT ? "unsigned" : "signed")
                        + ": write the " + (v.annType == TypeClass.INT ? "signed" : "unsigned") + " op, or make the annotation agree");
            }
        }

        /**
         * How {@code op} reads operand i's sign when its result depends on it: the op table's
         * class of an operand whose size follows the value (INT or UINT), on an op that is not
         * sign-blind (udiv, ilt, u2u32: yes; iadd, bit_count, a shift's count: no). Else null.
         */
        private static TypeClass signReading(Op op, int i) {
            OperandType in = op.input(i);
            TypeClass t = in.typeClass();
            return !op.isSignBlind() && !in.isSized() && (t == TypeClass.INT || t == TypeClass.UINT) ? t : null;
        }

        private static boolean isFloat(TypeClass t) {
            return t == TypeClass.FLOAT;
        }

        private static String article(TypeClass t) {
            return t == TypeClass.INT ? "an int" : "a " + t.spelling();
        }

        private static String examples(String infix) {
            return switch (infix) {
                case "+" -> "fadd/iadd";
                case "-" -> "fsub/isub";
                case "*" -> "fmul/imul";
                case "/" -> "fdiv/idiv/udiv";
                case "%" -> "frem/irem/umod";
                case "<", ">" -> "flt/ilt/ult";
                case "<=", ">=" -> "fge/ige/uge";
                case "==" -> "feq/ieq";
                case "!=" -> "fneu/ine";
                case "unary-" -> "fneg/ineg";
                default -> "iand, ior, ixor, ishl, ishr, ushr or inot";
            };
        }

        /** Records how each variable and literal is read by the ops it feeds. */
        private void collectContexts() {
            for (POp p : ops) {
                if (p.op == null) continue;
                for (int i = 0; i < p.srcs.size(); i++) {
                    TypeClass t = p.op.input(i).typeClass();
                    P s = p.srcs.get(i);
                    if (t == TypeClass.ANY) t = dataEvidence(p, i);
                    if (t == null || t == TypeClass.ANY) continue;
                    boolean blind = p.op.isSignBlind() && !p.op.input(i).isSized() && (t == TypeClass.INT || t == TypeClass.UINT);
                    if (s instanceof PVar v) {
                        VarInfo info = vars.get(v.name);
                        info.readers.add(p.op.opName());
                        if (blind) info.signBlind = true;
                        else info.contexts.add(t);
                    }
                    if (s instanceof PLit l) l.context = t;
                }
            }
        }

        /** For data-movement ops (mov, bcsel), the type of the data is the result's, if known. */
        private TypeClass dataEvidence(POp p, int i) {
            if (p.op == Op.BCSEL && i == 0) return TypeClass.BOOL;
            // A literal arm of bcsel has the other arm's type: bcsel(c, a@i32, 1.0) would select
            // between an integer and a float's bits.
            if (p.op == Op.BCSEL && p.srcs.get(i) instanceof PLit && !(p.srcs.get(3 - i) instanceof PLit)) {
                TypeClass t = evidence(p.srcs.get(3 - i));
                if (t != null && t != TypeClass.ANY) return t;
            }
            return null;
        }

        /**
         * The operands whose type is the operation's: all of them, except for a shift, whose
         * count is always an unsigned 32-bit value (a@i32 >> b@u32 is an ishr), so only the
         * shifted value says which shift; a bare literal count still counts as integer evidence,
         * as for the other operators (a >> 2 is ishr: integers are signed unless said otherwise).
         */
        private List<P> typedOperands(POp p) {
            if (!p.infix.equals("<<") && !p.infix.equals(">>")) return p.srcs;
            P count = p.srcs.get(1);
            boolean bareLiteral = count instanceof PLit l && l.annType == null && !l.floatSpelling() && !l.bool();
            return bareLiteral ? p.srcs : List.of(p.srcs.get(0));
        }

        /** The type an operand was annotated with (itself, or its variable anywhere in the rule), or null. */
        private TypeClass declared(P p) {
            if (p.annType != null) return p.annType;
            return p instanceof PVar v ? vars.get(v.name).annType : null;
        }

        /**
         * Whether an infix operator's operands are annotated with different types
         * ({@code a@i32 < b@f32}); reported, and the operator is left unresolved.
         */
        private boolean annotationsDisagree(POp p) {
            TypeClass seen = null;
            for (P s : typedOperands(p)) {
                TypeClass t = declared(s);
                if (t == null) continue;
                boolean integers = (seen == TypeClass.INT || seen == TypeClass.UINT) && (t == TypeClass.INT || t == TypeClass.UINT);
                if (seen != null && seen != t && !(integers && !signMatters(p.infix))) {
                    String shown = p.infix.startsWith("unary") ? p.infix.substring(5) : p.infix;
                    error(p.pos, "the operands of '" + shown + "' are annotated as " + seen.spelling() + " and as "
                            + t.spelling() + ": write the op, or make the annotations agree");
                    p.failed = true;
                    return true;
                }
                seen = t;
            }
            return false;
        }

        /**
         * {@code b + 1.0} where the rule computes with {@code b} only as an integer: the literal's
         * spelling would make the operator an fadd of an integer's bits. Reported, and the
         * operator is left unresolved.
         */
        private boolean floatLiteralAgainstInteger(POp p) {
            PLit floatLiteral = null;
            boolean integer = false;
            for (P s : typedOperands(p)) {
                if (s instanceof PLit l) {
                    if (l.floatSpelling() && l.annType == null) floatLiteral = l;
                } else {
                    TypeClass t = evidence(s);
                    integer |= t == TypeClass.INT || t == TypeClass.UINT;
                }
            }
            if (floatLiteral == null || !integer) return false;
            String shown = p.infix.startsWith("unary") ? p.infix.substring(5) : p.infix;
            error(floatLiteral.pos, "float literal " + floatLiteral.text + " where an integer is expected (the other operand of '"
                    + shown + "' is an integer)");
            p.failed = true;
            return true;
        }

        /** Whether an infix operator's integer op depends on reading its operands signed or unsigned. */
        private static boolean signMatters(String infix) {
            return switch (infix) {
                case "/", "%", ">>", "<", "<=", ">", ">=" -> true;
                default -> false;
            };
        }

        private TypeClass evidence(List<P> srcs) {
            // Annotations are the writer's word: they decide over literal spellings and uses
            // (a@i32 + 0.5 is an integer add with a misplaced float literal, not an fadd).
            for (P p : srcs) {
                TypeClass t = declared(p);
                if (t != null) return t;
            }
            boolean f = false, b = false, u = false, s = false, weak = false;
            for (P p : srcs) {
                TypeClass t = evidence(p);
                if (t == null) continue;
                if (p instanceof PLit l && !l.floatSpelling() && !l.bool() && p.annType == null) {
                    weak = true;
                    continue;
                }
                switch (t) {
                    case FLOAT -> f = true;
                    case BOOL -> b = true;
                    case UINT -> u = true;
                    case INT -> s = true;
                    default -> { }
                }
            }
            if (f) return TypeClass.FLOAT;
            if (b) return TypeClass.BOOL;
            if (u && !s) return TypeClass.UINT;
            if (s || u || weak) return TypeClass.INT;
            return null;
        }

        private TypeClass evidence(P p) {
            if (p.annType != null) return p.annType;
            if (p instanceof PLit l) return l.floatSpelling() ? TypeClass.FLOAT : l.bool() ? TypeClass.BOOL : TypeClass.INT;
            if (p instanceof PVar v) return varType(vars.get(v.name));
            POp o = (POp) p;
            if (o.op != null) {
                TypeClass t = o.op.output().typeClass();
                if (o.op.isSignBlind() && !o.op.output().isSized() && (t == TypeClass.INT || t == TypeClass.UINT)) {
                    // iadd and ixor compute the same bits signed or not: their result is read as
                    // their operands of its size are ((a@u32 + b) / 2 is a udiv, (a@i32 ^ b@i32) < 0
                    // an ilt; a shift's count, of a fixed size, says nothing).
                    List<P> sameSize = new ArrayList<>();
                    for (int i = 0; i < o.srcs.size(); i++) {
                        if (!o.op.input(i).isSized()) sameSize.add(o.srcs.get(i));
                    }
                    TypeClass from = evidence(sameSize);
                    if (from == TypeClass.INT || from == TypeClass.UINT) return from;
                }
                if (t != TypeClass.ANY) return t;
                if (o.op == Op.BCSEL) return evidence(List.of(o.srcs.get(1), o.srcs.get(2)));
                return evidence(o.srcs);
            }
            if (isComparison(o.infix)) return TypeClass.BOOL;
            return evidence(o.srcs);
        }

        /**
         * The type the op reading an infix operator's result reads it as, when that decides the
         * operator: {@code flt(b * c, 0.0)} is an fmul, since flt compares floats. An integer
         * reader decides only operators whose op does not depend on signedness ({@code + - *});
         * a comparison's result is a boolean whatever its operands, so it is never decided so.
         */
        private TypeClass consumerReading(POp p) {
            if (isComparison(p.infix) || p.infix.equals("unary!")) return null;
            for (POp q : ops) {
                if (q.op == null) continue;
                for (int i = 0; i < q.srcs.size(); i++) {
                    if (q.srcs.get(i) != p) continue;
                    TypeClass t = q.op.input(i).typeClass();
                    if (t == TypeClass.FLOAT) return t;
                    if ((t == TypeClass.INT || t == TypeClass.UINT) && !signMatters(p.infix)) return TypeClass.INT;
                    return null;
                }
            }
            return null;
        }

        /**
         * The type to read an operator with when nothing says: the bitwise operators and '<<'
         * have no float meaning and mean the same op on integers of either signedness (and on
         * booleans for & | ^), so they need no evidence.
         */
        private static TypeClass onlyMeaning(String infix) {
            return switch (infix) {
                case "&", "|", "^", "<<", "unary~" -> TypeClass.INT;
                case "unary!" -> TypeClass.BOOL;
                default -> null;
            };
        }

        private static boolean isComparison(String infix) {
            return switch (infix) {
                case "<", "<=", ">", ">=", "==", "!=" -> true;
                default -> false;
            };
        }

        private TypeClass varType(VarInfo v) {
            if (v.annType != null) return v.annType;
            if (v.contexts.contains(TypeClass.FLOAT)) return TypeClass.FLOAT;
            if (v.contexts.contains(TypeClass.UINT) && !v.contexts.contains(TypeClass.INT)) return TypeClass.UINT;
            if (v.contexts.contains(TypeClass.INT) || v.contexts.contains(TypeClass.UINT)) return TypeClass.INT;
            if (v.contexts.contains(TypeClass.BOOL)) return TypeClass.BOOL;
            // integers are signed unless something says unsigned
            return v.signBlind ? TypeClass.INT : null;
        }

        /**
         * Whether the rule reads the variable as {@code t} somewhere: an op reading it so, or, for
         * an integer reading, a sign-blind op ({@code iand(a, …)} reads a's bits either way);
         * a variable annotated in the pattern is read only as annotated.
         */
        private static boolean readsAs(VarInfo v, TypeClass t) {
            if (v.annType != null) return v.annType == t; // the pattern's annotation is the writer's word
            if (v.contexts.contains(t)) return true;
            return (t == TypeClass.INT || t == TypeClass.UINT) && v.readAsInteger();
        }

        /** How another condition of the rule reads the variable on its own (is_in_unit_interval: a float), or null. */
        private TypeClass readingFromOtherConditions(String name) {
            for (Ast.Condition other : rule.conditions()) {
                Predicate q = Predicate.bySpelling(other.name());
                if (q == null || other.args().isEmpty()) continue;
                Ast.Expr e = other.args().get(0);
                while (e instanceof Ast.Annotated an) e = an.inner();
                if (e instanceof Ast.Var w && w.name().equals(name) && q.ownReading() != null) return q.ownReading();
            }
            return null;
        }

        /** The op an infix operator means for operands of type {@code t}; reports misuse. */
        private Op infixOp(POp p, TypeClass t) {
            boolean fl = t == TypeClass.FLOAT, bo = t == TypeClass.BOOL, un = t == TypeClass.UINT;
            String what = p.infix.startsWith("unary") ? p.infix.substring(5) : p.infix;
            Op op = switch (p.infix) {
                case "+" -> bo ? null : fl ? Op.FADD : Op.IADD;
                case "-" -> bo ? null : fl ? Op.FSUB : Op.ISUB;
                case "*" -> bo ? null : fl ? Op.FMUL : Op.IMUL;
                case "/" -> bo ? null : fl ? Op.FDIV : un ? Op.UDIV : Op.IDIV;
                case "%" -> bo ? null : fl ? Op.FREM : un ? Op.UMOD : Op.IREM;
                case "&" -> fl ? null : Op.IAND;
                case "|" -> fl ? null : Op.IOR;
                case "^" -> fl ? null : Op.IXOR;
                case "<<" -> fl || bo ? null : Op.ISHL;
                case ">>" -> fl || bo ? null : un ? Op.USHR : Op.ISHR;
                case "<", ">" -> bo ? null : fl ? Op.FLT : un ? Op.ULT : Op.ILT;
                case "<=", ">=" -> bo ? null : fl ? Op.FGE : un ? Op.UGE : Op.IGE;
                case "==" -> fl ? Op.FEQ : Op.IEQ;
                case "!=" -> fl ? Op.FNEU : Op.INE;
                case "unary-" -> bo ? null : fl ? Op.FNEG : Op.INEG;
                case "unary~" -> fl ? null : Op.INOT;
                // On integers too: the operand must then be 1 bit (checked with the sizes).
                case "unary!" -> fl ? null : Op.INOT;
                default -> null;
            };
            if (op == null) {
                String kind = fl ? "float" : bo ? "boolean" : "integer";
                String hint = p.infix.equals("unary!") ? " ('!' is boolean not; use '~' for integers)"
                        : p.infix.equals("unary~") && fl && p.srcs.get(0) instanceof POp
                        ? " (an inexact rule is written with '~=>', as in fadd(a, 0.0) ~=> a)" : "";
                boolean comparedOperand = p.srcs.stream().anyMatch(x -> x instanceof POp o && o.infix != null && isComparison(o.infix));
                if (bo && isComparison(p.infix) && comparedOperand) {
                    hint = ": comparisons do not chain (a < b gives a boolean); combine them with '&', as in (a < b) & (b < c)";
                } else if (bo && !p.infix.equals("unary!")) {
                    hint = ": its operand is a boolean; convert it with b2i32(…) or b2f32(…) to compute with it";
                }
                error(p.pos, "'" + what + "' has no " + kind + " meaning" + hint);
                return null;
            }
            // a > b is b < a, and a <= b is b >= a.
            if (p.infix.equals(">") || p.infix.equals("<=")) {
                P l = p.srcs.get(0);
                p.srcs.set(0, p.srcs.get(1));
                p.srcs.set(1, l);
            }
            return op;
        }

        // ---- sizes ------------------------------------------------------------------------------

        private int newClass(int fixedSize, int legalMask, boolean pattern) {
            return newClass(fixedSize, legalMask, pattern, null);
        }

        /** A class; {@code why} says where a fixed size comes from, for messages. */
        private int newClass(int fixedSize, int legalMask, boolean pattern, String why) {
            int id = parent.size();
            parent.add(id);
            fixed.add(fixedSize);
            legal.add(legalMask);
            patternLegal.add(pattern ? legalMask : 31);
            inPattern.add(pattern);
            conflicted.add(false);
            fixedWhy.add(why);
            return id;
        }

        private int find(int x) {
            while (parent.get(x) != x) {
                parent.set(x, parent.get(parent.get(x)));
                x = parent.get(x);
            }
            return x;
        }

        private void unify(int a, int b, Ast.Pos pos, String why) {
            int ra = find(a), rb = find(b);
            if (ra == rb) return;
            int fa = fixed.get(ra), fb = fixed.get(rb);
            boolean conflict = conflicted.get(ra) || conflicted.get(rb);
            if (fa != 0 && fb != 0 && fa != fb && !conflict) {
                // A side whose size is the requirement itself (operand 2 of ldexp is 32 bits) is not
                // named again: "must be 32 bits, but it is 64 bits (@64 at 4:14)".
                if (sameFact(why, ra)) {
                    error(pos, "bit-size mismatch: " + why + ", but it is " + bits(fb) + because(rb));
                } else if (sameFact(why, rb)) {
                    error(pos, "bit-size mismatch: " + why + ", but it is " + bits(fa) + because(ra));
                } else {
                    error(pos, "bit-size mismatch: " + why + ", but one side is " + bits(fa) + because(ra) + " and the other "
                            + bits(fb) + because(rb));
                }
                conflict = true;
            }
            // Merged even after a mismatch, so that what else ties the two sides (the
            // replacement, another use of the same variables) does not report it again.
            conflicted.set(ra, conflict);
            if (fa == 0 && fb != 0) fixedWhy.set(ra, fixedWhy.get(rb));
            parent.set(rb, ra);
            fixed.set(ra, fa != 0 ? fa : fb);
            legal.set(ra, legal.get(ra) & legal.get(rb));
            patternLegal.set(ra, patternLegal.get(ra) & patternLegal.get(rb));
            inPattern.set(ra, inPattern.get(ra) || inPattern.get(rb));
        }

        private void assign(P p, boolean pattern) {
            if (p instanceof POp o) {
                for (P s : o.srcs) assign(s, pattern);
                Op op = o.op;
                if (op.hasUnsizedOperands()) {
                    o.opCls = newClass(o.opSize, op.legalBitSizes(), pattern,
                            o.opSize == 0 ? null : op.opName() + "@" + o.opSize + " at " + at(o.pos));
                    if (o.opSize != 0 && !op.isLegalBitSize(o.opSize) && sizeReported.add(o)) {
                        error(o.pos, op.opName() + " does not work on " + o.opSize + "-bit values (legal: "
                                + op.legalBitSizeList() + ")");
                    }
                }
                OperandType out = op.output();
                o.cls = out.isSized() ? newClass(out.bitSize(), Bits.sizeFlag(out.bitSize()), pattern,
                        op.opName() + " gives " + bits(out.bitSize())) : o.opCls;
                for (int i = 0; i < o.srcs.size(); i++) {
                    OperandType in = op.input(i);
                    int want = in.isSized() ? newClass(in.bitSize(), Bits.sizeFlag(in.bitSize()), pattern,
                            "operand " + (i + 1) + " of " + op.opName() + " is " + bits(in.bitSize())) : o.opCls;
                    P s = o.srcs.get(i);
                    if (s instanceof PLit lit) {
                        lit.consumer = op;
                        lit.operand = i;
                    }
                    // fadd(a, flt(b, c)): said at the comparison, with the conversion that was meant
                    if (s instanceof POp so && so.op != null && so.op.output().isSized() && so.op.output().bitSize() == 1
                            && so.op.output().typeClass() == TypeClass.BOOL && !in.isSized()
                            && (in.typeClass() == TypeClass.FLOAT || in.typeClass() == TypeClass.INT || in.typeClass() == TypeClass.UINT)
                            && (op.legalBitSizes() & Bits.sizeFlag(1)) == 0 && sizeReported.add(o)) {
                        boolean fl = in.typeClass() == TypeClass.FLOAT;
                        boolean toBool = op.output().isSized() && op.output().bitSize() == 1;
                        error(so.pos, so.op.opName() + " gives a 1-bit boolean, but " + op.opName() + " reads " + (fl ? "a float" : "an integer")
                                + " of " + sizesText(op.legalBitSizes()) + (toBool ? ": the boolean needs no " + op.opName()
                                : ": convert it with " + (fl ? "b2f32" : "b2i32") + "(…)"));
                        continue;
                    }
                    unify(want, s.cls, s.pos, "operand " + (i + 1) + " of " + op.opName() + " must be "
                            + (in.isSized() ? bits(in.bitSize()) : "the size of its other operands"));
                }
                // After the operand: '!' on a 32-bit value is reported at the '!', as a misused '!'.
                if ("unary!".equals(o.infix)) {
                    unify(newClass(1, Bits.sizeFlag(1), pattern, "'!' is boolean not"), o.opCls, o.pos,
                            "'!' must be on a 1-bit value (use '~' for the bits of an integer)");
                }
            } else if (p instanceof PVar v) {
                VarInfo info = vars.get(v.name);
                if (info.cls < 0) info.cls = newClass(0, 31, pattern);
                p.cls = info.cls;
            } else {
                p.cls = newClass(0, 31, pattern);
            }
            if (p.outSize != 0) {
                int f = newClass(p.outSize, Bits.sizeFlag(p.outSize), pattern, "@" + p.outSize + " at "
                        + at(p instanceof POp && p.outSizePos != null ? p.outSizePos : p.pos)); // an op's start may be far from its @
                unify(f, p.cls, p.pos, "the annotation asks for " + p.outSize + " bits");
            }
        }

        /** Whether class {@code root} is fixed by the very requirement {@code why} states. */
        private boolean sameFact(String why, int root) {
            String w = fixedWhy.get(root);
            if (w != null && w.startsWith("@") && why.startsWith("the annotation asks for")) return true; // a@32 itself
            return w != null && w.contains(" is ") && why.startsWith(w.replaceFirst(" is .*", " must be"));
        }

        private String because(int root) {
            String why = fixedWhy.get(root);
            return why == null ? "" : " (" + why + ")";
        }

        private static String at(Ast.Pos pos) {
            return pos.line() + ":" + pos.column();
        }

        /**
         * Whether the pattern's and the replacement's results can have a size in common. When
         * both are fixed, unify reports the mismatch; when a side is a set of sizes (fadd: 16 to
         * 64 bits) that the other misses (flt gives 1 bit), it is said here once, as a mismatch of
         * the two results, rather than as every op of the merged class having no size left.
         */
        private boolean sizesMeet(int patternCls, int replacementCls, Ast.Pos pos) {
            int rp = find(patternCls), rr = find(replacementCls);
            int fp = fixed.get(rp), fr = fixed.get(rr);
            if (fp != 0 && fr != 0) return true;
            int sp = fp != 0 ? Bits.sizeFlag(fp) : legal.get(rp), sr = fr != 0 ? Bits.sizeFlag(fr) : legal.get(rr);
            if ((sp & sr) != 0) return true;
            error(pos, "bit-size mismatch: the replacement must have the bit size of the pattern, but the pattern's result is "
                    + sizeSet(rp) + " and the replacement's " + sizeSet(rr));
            return false;
        }

        private String sizeSet(int root) {
            if (fixed.get(root) != 0) return bits(fixed.get(root)) + because(root);
            return sizesText(legal.get(root));
        }

        /** "16, 32 or 64 bits". */
        private static String sizesText(int mask) {
            List<Integer> sizes = Bits.sizesIn(mask);
            if (sizes.size() == 1) return bits(sizes.get(0));
            return sizes.subList(0, sizes.size() - 1).stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
                    + " or " + sizes.get(sizes.size() - 1) + " bits";
        }

        private static String bits(int n) {
            return n == 1 ? "1 bit" : n + " bits";
        }

        private void checkClasses() {
            for (POp o : ops) {
                if (o.opCls < 0 || sizeReported.contains(o)) continue;
                int r = find(o.opCls);
                int f = fixed.get(r);
                if (conflicted.get(r)) continue;
                if (f != 0 && !o.op.isLegalBitSize(f)) {
                    String why = fixedWhy.get(r);
                    error(o.pos, o.op.opName() + " does not work on " + f + "-bit values (legal: " + o.op.legalBitSizeList() + ")"
                            + (why == null ? "" : ": " + why));
                    sizeReported.add(o);
                } else if (f == 0 && legal.get(r) == 0 && reportedEmpty.add(r)) {
                    sizeReported.add(o);
                    error(o.pos, "no bit size works for every op on this value (" + o.op.opName() + " needs "
                            + o.op.legalBitSizeList() + ")");
                }
            }
        }

        private void checkLiterals() {
            for (PLit l : lits) {
                if (l.cls < 0) continue;
                // 1@f32 where iadd reads an integer: the annotation says one thing, the op another
                if (l.annType != null && l.context != null && l.context != TypeClass.ANY && l.annType != TypeClass.ANY
                        && l.annType != TypeClass.BOOL && l.context != TypeClass.BOOL && isFloat(l.annType) != isFloat(l.context)) {
                    error(l.annPos != null ? l.annPos : l.pos, l.text + " is annotated as " + article(l.annType) + ", but "
                            + (l.consumer != null ? l.consumer.opName() : "the op reading it") + " reads it as "
                            + (isFloat(l.context) ? "a float" : "an integer"));
                    continue;
                }
                TypeClass ctx = l.annType != null ? l.annType : l.context;
                // true/false are 1-bit values: fine wherever the operand can be 1 bit (the integer
                // ops that double as boolean ops), wrong where it cannot (floats, 8-bit and wider).
                if (l.bool() && ctx != null && ctx != TypeClass.BOOL && ctx != TypeClass.ANY
                        && (legal.get(find(l.cls)) & Bits.sizeFlag(1)) == 0) {
                    int size = fixed.get(find(l.cls));
                    error(l.pos, l.text + " is a 1-bit boolean, but this operand is " + ctx.spelling()
                            + (ctx == TypeClass.FLOAT ? "" : size != 0 ? " of " + size + " bits" : " of 8 bits or more"));
                    continue;
                }
                if (l.floatSpelling() && ctx == TypeClass.BOOL) {
                    error(l.pos, "float literal " + l.text + " where a 1-bit boolean is expected: write true or false");
                    continue;
                }
                if (l.floatSpelling() && (ctx == TypeClass.INT || ctx == TypeClass.UINT)) {
                    error(l.pos, "float literal " + l.text + " where an integer is expected");
                    continue;
                }
                boolean asFloat = ctx == TypeClass.FLOAT || (ctx != TypeClass.INT && ctx != TypeClass.UINT && l.floatSpelling());
                String digits = l.text.startsWith("-") ? l.text.substring(1) : l.text;
                if (l.kind == Ast.LitKind.INT && digits.matches("0[0-9]+")) {
                    c.warning(l.pos, l.text + " is read as decimal " + (l.text.startsWith("-") ? "-" : "")
                            + digits.replaceFirst("^0+(?=.)", "") + " (there is no octal); drop the leading zero");
                }
                if (asFloat && l.kind == Ast.LitKind.INT && digits.matches("0+") && l.text.startsWith("-")) {
                    c.warning(l.pos, l.text + " is the integer 0, which is +0.0 as a float: write -0.0 for negative zero");
                }
                RuleLiteral lit = RuleLiteral.of(l.text);
                int r = find(l.cls);
                int f = fixed.get(r);
                if (!asFloat && readsSigned(l) && aboveSignedRange(l, lit, r)) continue;
                if (f != 0) {
                    if (!lit.fits(f, asFloat)) {
                        String why = asFloat ? lit.floatProblem(f) : null;
                        if (f == 1 && !asFloat) {
                            error(l.pos, l.text + " is not a 1-bit value: write true or false");
                        } else {
                            error(l.pos, l.text + " does not fit in " + f + " bits" + (asFloat ? " as a float" : "")
                                    + (why == null ? "" : " (it " + why + ")"));
                        }
                    }
                } else {
                    if (Bits.sizesIn(legal.get(r)).stream().noneMatch(size -> lit.fits(size, asFloat))) {
                        String why = asFloat ? lit.floatProblem(64) : null;
                        error(l.pos, l.text + " does not fit any bit size this operand may have"
                                + (why == null ? "" : " (at 64 bits it " + why + ")"));
                    }
                }
            }
        }

        /**
         * Whether the literal is a decimal integer that an op reads as signed where the sign
         * matters (a comparison, min/max, division, a right shift's value …). There, 128 at 8
         * bits is -128: a literal above the signed range would silently mean a negative number.
         * ({@link Op#isSignBlind} ops such as iadd and ieq see the same bits either way; hex is
         * raw bits.)
         */
        private static boolean readsSigned(PLit l) {
            return l.consumer != null && l.kind == Ast.LitKind.INT && !l.consumer.isSignBlind()
                    && l.consumer.input(l.operand).typeClass() == TypeClass.INT;
        }

        /** Reports (and returns true) when a signed-read literal is above the signed range at a size it may have. */
        private boolean aboveSignedRange(PLit l, RuleLiteral lit, int cls) {
            BigInteger value = new BigInteger(l.text);
            int f = fixed.get(cls);
            for (int size : new int[] {8, 16, 32, 64}) {
                boolean possible = f != 0 ? f == size : (legal.get(cls) & Bits.sizeFlag(size)) != 0;
                if (!possible || !lit.fits(size, false)) continue;
                if (value.compareTo(BigInteger.ONE.shiftLeft(size - 1)) >= 0) {
                    long wrapped = Bits.sext(value.longValue(), size);
                    error(l.pos, l.text + " is above the signed " + size + "-bit range: " + l.consumer.opName() + " would read it as "
                            + wrapped + (f != 0 ? "" : "; fix the size, as in @32, or write the value " + l.consumer.opName()
                            + " should see"));
                    return true;
                }
            }
            return false;
        }

        /** Every class used by the replacement must be fixed or have a member in the pattern. */
        private void checkReplacementSizes(P replacement) {
            java.util.ArrayDeque<P> work = new java.util.ArrayDeque<>(List.of(replacement));
            while (!work.isEmpty()) {
                P p = work.removeFirst();
                if (p instanceof POp o) {
                    work.addAll(o.srcs);
                    if (o.opCls >= 0) requireDecidable(o.opCls, o.pos, o.op.opName());
                } else if (p instanceof PLit l) {
                    requireDecidable(l.cls, l.pos, "literal " + l.text);
                }
            }
        }

        private final java.util.Set<Integer> undecidableReported = new java.util.HashSet<>();

        private void requireDecidable(int cls, Ast.Pos pos, String what) {
            int r = find(cls);
            if (fixed.get(r) == 0 && !inPattern.get(r) && undecidableReported.add(r)) {
                error(pos, "cannot tell the bit size of " + what + " in the replacement: nothing in the pattern has it; "
                        + "tie it to a pattern value or write a size, as in " + what.replace("literal ", "") + "@32");
            }
        }

        // ---- conditions -------------------------------------------------------------------------

        private Condition condition(Ast.Condition ac, Map<String, Node.VarNode> firstVar) {
            Predicate p = Predicate.bySpelling(ac.name());
            if (p == null) return null; // reported before anything else
            if (ac.args().size() != p.arity()) {
                error(ac.pos(), p.spelling() + " takes " + p.arity() + " argument" + (p.arity() == 1 ? "" : "s") + ", got "
                        + ac.args().size());
                return null;
            }
            Ast.Expr a0 = ac.args().get(0);
            List<Ast.Annotation> argAnnotations = new ArrayList<>();
            while (a0 instanceof Ast.Annotated an) {
                argAnnotations.add(an.annotation());
                a0 = an.inner();
            }
            if (!(a0 instanceof Ast.Var v)) {
                error(a0.start(), "the first argument of " + p.spelling() + " must be a pattern variable");
                return null;
            }
            Node.VarNode node = firstVar.get(v.name());
            if (node == null) {
                error(v.pos(), p.spelling() + " asks about " + v.name() + ", which the pattern does not bind" + didYouMean(v.name()));
                return null;
            }
            VarInfo info = vars.get(v.name());
            int size = fixed.get(find(info.cls));
            // How the condition reads the value: as the rule computes with it; else as the
            // condition itself reads (ult_const: unsigned), or another condition on the same
            // variable (is_in_unit_interval(b): a float); a type annotation in the condition may
            // choose among the readings the rule has, or give the only one.
            TypeClass t = varType(info);
            boolean computed = t != null;
            if (t == null) t = p.ownReading(); // bcsel(c, a, b) => a if ult_const(b, 4)
            if (t == null) t = readingFromOtherConditions(v.name());
            boolean typeAnnotated = false;
            for (Ast.Annotation an : argAnnotations) {
                typeAnnotated |= sizeOf(an.text()) == 0 && dev.lathe.ir.VarType.parseScalar(an.text(), 1) != null;
            }
            if (info.readAsFloat() && info.readAsInteger() && info.annType == null && !typeAnnotated) {
                String how = size != 0 ? "annotate it here, as in " + p.spelling() + "(" + v.name() + "@f" + size + ") or "
                        + p.spelling() + "(" + v.name() + "@i" + size + ")"
                        : "annotate it in the pattern, as in " + v.name() + "@f32 or " + v.name() + "@i32 (which also sets its size)";
                error(v.pos(), "cannot tell how " + p.spelling() + " should read " + v.name() + ": the rule reads it both as a float"
                        + " and as an integer (" + String.join(", ", info.readers) + "); " + how);
                return null;
            }
            if (t == null && !typeAnnotated) {
                error(v.pos(), "cannot tell how " + p.spelling() + " should read " + v.name() + ": the rule only moves it, "
                        + "never computes with it; annotate it in the pattern, as in " + v.name() + "@f32 or " + v.name() + "@i32");
                return null;
            }
            for (Ast.Annotation an : argAnnotations) {
                int n = sizeOf(an.text());
                dev.lathe.ir.VarType vt = n == 0 ? dev.lathe.ir.VarType.parseScalar(an.text(), 1) : null;
                if (vt != null) n = vt.bitSize();
                TypeClass at = vt == null ? null : TypeClass.of(vt.base());
                if (n < 0) {
                    error(an.pos(), "invalid bit size @" + an.text() + " (1, 8, 16, 32 or 64)");
                    return null;
                }
                if (n == 0 && vt == null) {
                    error(an.pos(), an.text().matches("[fiub][0-9]+") ? "invalid type @" + an.text()
                            : "@" + an.text() + " means nothing in a condition (annotate the variable in the pattern)");
                    return null;
                }
                // A type the rule's ops contradict is the mistake to name first: moving the
                // annotation into the pattern, as the size message would advise, cannot help.
                if (at != null && at != t && t != null && computed
                        && (!readsAs(info, at) || size == 0 && !info.contexts.isEmpty() && !info.contexts.contains(at))) {
                    error(an.pos(), "@" + an.text() + " disagrees with the rule, which reads " + v.name() + " as " + t.spelling());
                    return null;
                }
                if (size == 0) {
                    error(an.pos(), vt == null ? "a size in a condition does not restrict the rule: annotate " + v.name()
                            + " in the pattern, as in " + v.name() + "@" + n
                            : "@" + an.text() + " also sets the size of " + v.name() + " (" + n + " bits), which a condition cannot"
                            + " restrict: annotate " + v.name() + " in the pattern instead, as in " + v.name() + "@" + an.text());
                    return null;
                }
                if (at != null && at != t) {
                    if (t != null && computed && !readsAs(info, at)) {
                        error(an.pos(), "@" + an.text() + " disagrees with the rule, which reads " + v.name() + " as " + t.spelling());
                        return null;
                    }
                    t = at; // iand(a, …) reads a's bits: the condition says how to read them
                }
                if (n != size) {
                    error(an.pos(), "@" + an.text() + " disagrees with the rule, where " + v.name() + " is " + size + " bits");
                    return null;
                }
            }
            if (!p.appliesTo(t)) {
                error(ac.pos(), t == TypeClass.BOOL && p.kind() != Predicate.Kind.FLOAT
                        ? p.spelling() + " does not apply to " + v.name() + ", a boolean: ask is_zero(" + v.name() + ") or is_not_zero("
                                + v.name() + "), or use " + v.name() + " itself"
                        : p.spelling() + " does not apply to " + v.name() + ", which the rule reads as " + t.spelling()
                                + " (it applies to " + (p.kind() == Predicate.Kind.FLOAT ? "floats" : "integers") + ")");
                return null;
            }
            long bound = 0;
            if (p.takesLiteral()) {
                Ast.Expr a1 = ac.args().get(1);
                String txt = a1 instanceof Ast.Lit l ? l.text()
                        : a1 instanceof Ast.Unary u && u.op().equals("-") && u.operand() instanceof Ast.Lit l2 ? "-" + l2.text() : null;
                if (a1 instanceof Ast.Annotated an && an.inner() instanceof Ast.Lit) {
                    error(a1.start(), "the second argument of " + p.spelling() + " takes no annotation: it is read as "
                            + v.name() + " is; write the literal alone");
                    return null;
                }
                if (txt == null || RuleLiteral.isFloatSpelling(txt) || txt.equals("true") || txt.equals("false")) {
                    error(a1.start(), "the second argument of " + p.spelling() + " must be an integer literal");
                    return null;
                }
                boolean hex = txt.startsWith("0x") || txt.startsWith("0X");
                if (txt.startsWith("-0x") || txt.startsWith("-0X")) {
                    error(a1.pos(), NEGATED_HEX);
                    return null;
                }
                BigInteger value = new BigInteger(hex ? txt.substring(2) : txt, hex ? 16 : 10);
                boolean unsigned = p == Predicate.ULT_CONST;
                // The bound compares with the value read at its size: it must be a value of that
                // reading, or the condition would be always (or never) true.
                int bits = size == 0 ? 64 : size;
                BigInteger lo = unsigned || hex ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
                BigInteger hi = (unsigned || hex ? BigInteger.ONE.shiftLeft(bits) : BigInteger.ONE.shiftLeft(bits - 1))
                        .subtract(BigInteger.ONE);
                if (value.compareTo(lo) < 0 || value.compareTo(hi) > 0) {
                    error(a1.pos(), txt + " is not " + (unsigned ? "an unsigned" : "a signed") + " " + bits + "-bit value"
                            + (size == 0 ? "" : " (" + v.name() + " is " + size + " bits)"));
                    return null;
                }
                bound = hex && !unsigned ? dev.lathe.ir.op.Bits.sext(value.longValue(), bits) : value.longValue();
                if (!unsigned && bound == Bits.minSigned(bits)) {
                    error(ac.pos(), p.spelling() + "(" + v.name() + ", " + txt + ") never holds: no " + bits + "-bit value is below "
                            + bound);
                    return null;
                }
            }
            return new Condition(p, node, t, bound, ac.pos());
        }

        private void unknownCondition(Ast.Condition ac) {
            // Not in errorCount: the rest of the rule is still checked, but the rule is not kept.
            badConditions++;
            c.error(ac.pos(), "unknown condition '" + ac.name() + "'" + Suggest.forCondition(ac.name(), Predicate.spellings()));
        }

        // ---- freezing into the checked model ------------------------------------------------------

        private final class Freezer {
            private int nextId;
            private final Map<Integer, Integer> classIds = new LinkedHashMap<>();
            final Map<String, Node.VarNode> firstVars = new LinkedHashMap<>();

            int cls(int c) {
                return classIds.computeIfAbsent(find(c), k -> classIds.size());
            }

            List<SizeClass> classes() {
                List<SizeClass> out = new ArrayList<>();
                for (Map.Entry<Integer, Integer> e : classIds.entrySet()) {
                    int r = e.getKey();
                    out.add(new SizeClass(e.getValue(), fixed.get(r), legal.get(r), patternLegal.get(r)));
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
                        constant &= n instanceof Node.ConstNode || n instanceof Node.VarNode v && vars.get(v.name()).constOnly
                                || n instanceof Node.OpNode on && on.constant();
                    }
                    return new Node.OpNode(id, o.op, List.copyOf(srcs), o.opCls < 0 ? -1 : cls(o.opCls), cls(o.cls), o.once,
                            !pattern && constant, o.pos);
                }
                if (p instanceof PVar v) {
                    Node.VarNode n = new Node.VarNode(id, v.name, v.constOnly || vars.get(v.name).constOnly, cls(v.cls), v.pos);
                    if (pattern) firstVars.putIfAbsent(v.name, n);
                    return n;
                }
                PLit l = (PLit) p;
                TypeClass ctx = l.annType != null ? l.annType : l.context != null ? l.context : TypeClass.ANY;
                boolean asFloat = ctx == TypeClass.FLOAT || (ctx == TypeClass.ANY && l.floatSpelling());
                return new Node.ConstNode(id, l.text, asFloat, ctx, cls(l.cls), l.pos);
            }
        }
    }
}
