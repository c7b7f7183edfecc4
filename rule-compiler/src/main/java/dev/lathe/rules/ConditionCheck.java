package dev.lathe.rules;

import static dev.lathe.rules.CheckText.NEGATED_HEX;
import static dev.lathe.rules.CheckText.sizeOf;

import dev.lathe.ir.VarType;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.rules.ProtoTree.VarInfo;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The phase that checks a rule's conditions: each a known predicate with its arity, on a
 * variable the pattern binds, read as the rule reads it (or as an annotation in the condition
 * chooses among the readings the rule has), with a bound that is a value of that reading; then
 * the conditions together, which must be able to hold for one value.
 */
final class ConditionCheck {
    private final RuleContext ctx;
    private final Map<String, VarInfo> vars;
    private final SizeClasses sizes;

    ConditionCheck(RuleContext ctx) {
        this.ctx = ctx;
        this.vars = ctx.vars;
        this.sizes = ctx.sizes;
    }

    private void error(Ast.Pos pos, String message) {
        ctx.error(pos, message);
    }

    /** The condition {@code ac} states about a variable of the frozen pattern; null (reported) when it cannot. */
    Condition condition(Ast.Condition ac, Map<String, Node.VarNode> firstVar) {
        Predicate p = Predicate.bySpelling(ac.name());
        if (p == null) return null; // reported before anything else
        if (ac.args().size() != p.arity()) {
            error(
                    ac.pos(),
                    p.spelling() + " takes " + p.arity() + " argument" + (p.arity() == 1 ? "" : "s") + ", got "
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
            error(
                    v.pos(),
                    p.spelling() + " asks about " + v.name() + ", which the pattern does not bind"
                            + ctx.didYouMean(v.name()));
            return null;
        }
        VarInfo info = vars.get(v.name());
        int size = sizes.fixed(info.cls);
        // How the condition reads the value: as the rule computes with it; else as the
        // condition itself reads (ult_const: unsigned), or another condition on the same
        // variable (is_in_unit_interval(b): a float); a type annotation in the condition may
        // choose among the readings the rule has, or give the only one.
        TypeClass t = info.type();
        boolean computed = t != null;
        if (t == null) t = p.ownReading(); // bcsel(c, a, b) => a if ult_const(b, 4)
        if (t == null) t = readingFromOtherConditions(v.name());
        boolean typeAnnotated = false;
        for (Ast.Annotation an : argAnnotations) {
            typeAnnotated |= sizeOf(an.text()) == 0 && VarType.parseScalar(an.text(), 1) != null;
        }
        if (info.readAsFloat() && info.readAsInteger() && info.annType == null && !typeAnnotated) {
            String how = size != 0
                    ? "annotate it here, as in " + p.spelling() + "(" + v.name() + "@f" + size + ") or " + p.spelling()
                            + "(" + v.name() + "@i" + size + ")"
                    : "annotate it in the pattern, as in " + v.name() + "@f32 or " + v.name()
                            + "@i32 (which also sets its size)";
            error(
                    v.pos(),
                    "cannot tell how " + p.spelling() + " should read " + v.name()
                            + ": the rule reads it both as a float" + " and as an integer ("
                            + String.join(", ", info.readers) + "); " + how);
            return null;
        }
        if (t == null && !typeAnnotated) {
            error(
                    v.pos(),
                    "cannot tell how " + p.spelling() + " should read " + v.name() + ": the rule only moves it, "
                            + "never computes with it; annotate it in the pattern, as in " + v.name() + "@f32 or "
                            + v.name() + "@i32");
            return null;
        }
        for (Ast.Annotation an : argAnnotations) {
            int n = sizeOf(an.text());
            VarType vt = n == 0 ? VarType.parseScalar(an.text(), 1) : null;
            if (vt != null) n = vt.bitSize();
            TypeClass at = vt == null ? null : TypeClass.of(vt.base());
            if (n < 0) {
                error(an.pos(), "invalid bit size @" + an.text() + " (1, 8, 16, 32 or 64)");
                return null;
            }
            if (n == 0 && vt == null) {
                error(
                        an.pos(),
                        an.text().matches("[fiub][0-9]+")
                                ? "invalid type @" + an.text()
                                : "@" + an.text()
                                        + " means nothing in a condition (annotate the variable in the pattern)");
                return null;
            }
            // A type the rule's ops contradict is the mistake to name first: moving the
            // annotation into the pattern, as the size message would advise, cannot help.
            if (at != null
                    && at != t
                    && t != null
                    && computed
                    && (!info.readsAs(at) || size == 0 && !info.contexts.isEmpty() && !info.contexts.contains(at))) {
                error(
                        an.pos(),
                        "@" + an.text() + " disagrees with the rule, which reads " + v.name() + " as " + t.spelling());
                return null;
            }
            if (size == 0) {
                error(
                        an.pos(),
                        vt == null
                                ? "a size in a condition does not restrict the rule: annotate " + v.name()
                                        + " in the pattern, as in " + v.name() + "@" + n
                                : "@" + an.text() + " also sets the size of " + v.name() + " (" + n
                                        + " bits), which a condition cannot" + " restrict: annotate " + v.name()
                                        + " in the pattern instead, as in " + v.name() + "@" + an.text());
                return null;
            }
            if (at != null && at != t) {
                if (t != null && computed && !info.readsAs(at)) {
                    error(
                            an.pos(),
                            "@" + an.text() + " disagrees with the rule, which reads " + v.name() + " as "
                                    + t.spelling());
                    return null;
                }
                t = at; // iand(a, …) reads a's bits: the condition says how to read them
            }
            if (n != size) {
                error(
                        an.pos(),
                        "@" + an.text() + " disagrees with the rule, where " + v.name() + " is " + size + " bits");
                return null;
            }
        }
        if (!p.appliesTo(t)) {
            error(
                    ac.pos(),
                    t == TypeClass.BOOL && p.kind() != Predicate.Kind.FLOAT
                            ? p.spelling() + " does not apply to " + v.name() + ", a boolean: ask is_zero(" + v.name()
                                    + ") or is_not_zero(" + v.name() + "), or use " + v.name() + " itself"
                            : p.spelling() + " does not apply to " + v.name() + ", which the rule reads as "
                                    + t.spelling() + " (it applies to "
                                    + (p.kind() == Predicate.Kind.FLOAT ? "floats" : "integers") + ")");
            return null;
        }
        long bound = 0;
        if (p.takesLiteral()) {
            Ast.Expr a1 = ac.args().get(1);
            String txt = a1 instanceof Ast.Lit l
                    ? l.text()
                    : a1 instanceof Ast.Unary u && u.op().equals("-") && u.operand() instanceof Ast.Lit l2
                            ? "-" + l2.text()
                            : null;
            if (a1 instanceof Ast.Annotated an && an.inner() instanceof Ast.Lit) {
                error(
                        a1.start(),
                        "the second argument of " + p.spelling() + " takes no annotation: it is read as " + v.name()
                                + " is; write the literal alone");
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
            boolean unsigned = p == Predicate.ULT_CONST || p == Predicate.IS_UNSIGNED_MULTIPLE_OF;
            // The bound compares with the value read at its size: it must be a value of that
            // reading, or the condition would be always (or never) true.
            int bits = size == 0 ? 64 : size;
            BigInteger lo = unsigned || hex
                    ? BigInteger.ZERO
                    : BigInteger.ONE.shiftLeft(bits - 1).negate();
            BigInteger hi = (unsigned || hex ? BigInteger.ONE.shiftLeft(bits) : BigInteger.ONE.shiftLeft(bits - 1))
                    .subtract(BigInteger.ONE);
            if (value.compareTo(lo) < 0 || value.compareTo(hi) > 0) {
                error(
                        a1.pos(),
                        txt + " is not " + (unsigned ? "an unsigned" : "a signed") + " " + bits + "-bit value"
                                + (size == 0 ? "" : " (" + v.name() + " is " + size + " bits)"));
                return null;
            }
            bound = hex && !unsigned ? Bits.sext(value.longValue(), bits) : value.longValue();
            if (!unsigned && bound == Bits.minSigned(bits)) {
                error(
                        ac.pos(),
                        p.spelling() + "(" + v.name() + ", " + txt + ") never holds: no " + bits
                                + "-bit value is below " + bound);
                return null;
            }
        }
        return new Condition(p, node, t, bound, ac.pos());
    }

    /** An unknown condition name: refused, and said whatever else is wrong with the rule. */
    void unknownCondition(Ast.Condition ac) {
        // A refusal: the rest of the rule is still checked, but the rule is not kept.
        ctx.refuse(
                ac.pos(),
                "unknown condition '" + ac.name() + "'" + Suggest.forCondition(ac.name(), Predicate.spellings()));
    }

    /**
     * Conditions that can never hold together (is_lt_zero(a), is_ge_zero(a)) or alone
     * (ult_const(a, 0)) make a rule that never fires: an error. A condition written twice is
     * a warning. Whether the conditions on one variable can hold together is decided on
     * representatives of every class they tell apart (signs, zeros, infinities, NaN, whole
     * and fractional values, powers of two) at every size; a variable with a bounded
     * condition is left alone, its bound being any value.
     */
    void conditionsCanHold(List<Condition> conds) {
        Map<String, List<Condition>> byVar = new LinkedHashMap<>();
        for (int i = 0; i < conds.size(); i++) {
            Condition ci = conds.get(i);
            if (ci.predicate() == Predicate.IS_UNSIGNED_MULTIPLE_OF && ci.bound() == 0) {
                error(
                        ci.pos(),
                        "is_unsigned_multiple_of(" + ci.var().name()
                                + ", 0) means nothing: the multiple must be at least 1");
                return;
            }
            if (ci.predicate() == Predicate.ULT_CONST && ci.bound() == 0) {
                error(ci.pos(), "ult_const(" + ci.var().name() + ", 0) never holds: no unsigned value is below 0");
                return;
            }
            for (int j = 0; j < i; j++) {
                Condition cj = conds.get(j);
                if (cj.predicate() == ci.predicate()
                        && cj.var().name().equals(ci.var().name())
                        && cj.bound() == ci.bound()
                        && cj.type() == ci.type()) {
                    ctx.warning(
                            ci.pos(),
                            "this condition repeats the one at column "
                                    + cj.pos().column());
                    break;
                }
            }
            byVar.computeIfAbsent(ci.var().name(), k -> new ArrayList<>()).add(ci);
        }
        for (List<Condition> group : byVar.values()) {
            List<Condition> cs = group;
            for (Condition x : cs) {
                if (x.predicate().kind() == Predicate.Kind.INT_BOUND || satisfiable(List.of(x))) continue;
                error(
                        x.pos(),
                        x.predicate().spelling() + "(" + x.var().name() + ") never holds: the rule reads "
                                + x.var().name() + " as "
                                + (x.type() == TypeClass.UINT
                                        ? "unsigned"
                                        : x.type().spelling()));
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
            error(
                    last.pos(),
                    "the conditions " + String.join(", ", spelled.subList(0, spelled.size() - 1)) + " and "
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
                for (double d : new double[] {
                    Double.NEGATIVE_INFINITY,
                    -2.5,
                    -2.0,
                    -1.0,
                    -0.5,
                    -0.0,
                    0.0,
                    0.5,
                    1.0,
                    2.0,
                    2.5,
                    Double.POSITIVE_INFINITY,
                    Double.NaN
                }) {
                    candidates.add(FloatBits.fromDouble(d, bits));
                }
            } else {
                long min = Bits.minSigned(bits);
                for (long v : new long[] {0, 1, 2, 3, -1, -2, -3, min, min - 1, min + 1})
                    candidates.add(Bits.trunc(v, bits));
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

    /** How another condition of the rule reads the variable on its own (is_in_unit_interval: a float), or null. */
    private TypeClass readingFromOtherConditions(String name) {
        for (Ast.Condition other : ctx.rule.conditions()) {
            Predicate q = Predicate.bySpelling(other.name());
            if (q == null || other.args().isEmpty()) continue;
            Ast.Expr e = other.args().get(0);
            while (e instanceof Ast.Annotated an) e = an.inner();
            if (e instanceof Ast.Var w && w.name().equals(name) && q.ownReading() != null) return q.ownReading();
        }
        return null;
    }

    /** With the pattern or replacement broken: conditions on variables the pattern never names. */
    void unboundConditionVariables() {
        for (Ast.Condition ac : ctx.rule.conditions()) {
            if (Predicate.bySpelling(ac.name()) == null || ac.args().isEmpty()) continue;
            Ast.Expr a0 = ac.args().get(0);
            while (a0 instanceof Ast.Annotated an) a0 = an.inner();
            if (a0 instanceof Ast.Var v && !ctx.patternNames.contains(v.name())) {
                error(
                        v.pos(),
                        ac.name() + " asks about " + v.name() + ", which the pattern does not bind"
                                + ctx.didYouMean(v.name()));
            }
        }
    }
}
