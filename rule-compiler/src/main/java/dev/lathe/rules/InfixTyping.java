package dev.lathe.rules;

import static dev.lathe.rules.CheckText.article;
import static dev.lathe.rules.CheckText.isFloat;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.OperandType;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ProtoTree.PVar;
import dev.lathe.rules.ProtoTree.VarInfo;
import dev.lathe.rules.ast.Ast;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The phase that types infix operators: {@code a * 1.0} is {@code fmul} because of the literal's
 * spelling, {@code a@u32 >> 2} is {@code ushr} because of the annotation, {@code flt(b * c, 0.0)}
 * multiplies floats because flt reads its operand as a float; {@code a * b} alone is an error.
 * It also records how every variable and literal is read ({@link VarInfo#contexts}), which the
 * later phases and the conditions use, and checks that the annotations agree with the ops.
 */
final class InfixTyping {
    private final RuleContext ctx;
    private final Map<String, VarInfo> vars;
    private final List<POp> ops;
    private final List<PVar> varOccurrences;

    InfixTyping(RuleContext ctx) {
        this.ctx = ctx;
        this.vars = ctx.vars;
        this.ops = ctx.ops;
        this.varOccurrences = ctx.varOccurrences;
    }

    private void error(Ast.Pos pos, String message) {
        ctx.error(pos, message);
    }

    /**
     * Gives every infix operator its op, by the evidence of its operands, repeated until
     * nothing changes; then checks the annotations against the ops. An operator nothing decides
     * is reported (once a rule).
     */
    void resolve() {
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
                error(
                        p.pos,
                        "cannot tell whether '>>' is a signed (ishr) or an unsigned (ushr) shift: annotate the "
                                + "shifted value, as in a@i32 or a@u32, or write the op");
            } else {
                String shown = p.shownInfix();
                error(
                        p.pos,
                        "cannot tell whether '" + shown + "' is a float or an integer operation: write the op " + "("
                                + examples(p.infix) + ") or annotate an operand, as in a@f32 or a@i32");
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
                error(
                        p.annPos,
                        p.op.opName() + " computes " + (isFloat(out) ? "a float" : "an integer") + ", not "
                                + article(p.annType));
            }
        }
        // (collectContexts recorded how the ops read each variable)
        Set<String> reported = new HashSet<>();
        for (PVar v : varOccurrences) {
            VarInfo info = vars.get(v.name);
            if (v.annType == null || v.annPos == null || info.readers.isEmpty()) continue;
            boolean wantsFloat = isFloat(v.annType);
            boolean readAsFloat = info.readAsFloat();
            boolean readOtherwise = info.signBlind || info.contexts.stream().anyMatch(t -> !isFloat(t));
            if ((wantsFloat ? readAsFloat : readOtherwise) || !reported.add(v.name)) continue;
            error(
                    v.annPos,
                    v.name + " is annotated as " + v.annType.spelling() + ", but "
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
    private void signednessAgreesWithOps(Set<String> reported) {
        Map<String, List<String>> deciders = new LinkedHashMap<>();
        Map<String, Boolean> agrees = new HashMap<>();
        for (POp p : ops) {
            if (p.op == null) continue;
            for (int i = 0; i < p.srcs.size(); i++) {
                if (!(p.srcs.get(i) instanceof PVar v)) continue;
                TypeClass reads = signReading(p.op, i);
                VarInfo info = vars.get(v.name);
                if (reads == null || info.annType == null || isFloat(info.annType) || info.annType == TypeClass.BOOL)
                    continue;
                deciders.computeIfAbsent(v.name, k -> new ArrayList<>()).add(p.op.opName());
                if (reads == info.annType) agrees.put(v.name, true);
            }
        }
        for (PVar v : varOccurrences) {
            if (v.annType == null || v.annPos == null || !deciders.containsKey(v.name) || agrees.containsKey(v.name))
                continue;
            if (!reported.add(v.name)) continue;
            List<String> who = deciders.get(v.name);
            error(
                    v.annPos,
                    v.name + " is annotated as " + v.annType.spelling() + ", but " + String.join(" and ", who)
                            + " read" + (who.size() == 1 ? "s" : "") + " it as "
                            + (v.annType == TypeClass.INT ? "unsigned" : "signed")
                            + ": write the " + (v.annType == TypeClass.INT ? "signed" : "unsigned")
                            + " op, or make the annotation agree");
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
                boolean blind =
                        p.op.isSignBlind() && !p.op.input(i).isSized() && (t == TypeClass.INT || t == TypeClass.UINT);
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
            boolean integers =
                    (seen == TypeClass.INT || seen == TypeClass.UINT) && (t == TypeClass.INT || t == TypeClass.UINT);
            if (seen != null && seen != t && !(integers && !signMatters(p.infix))) {
                String shown = p.shownInfix();
                error(
                        p.pos,
                        "the operands of '" + shown + "' are annotated as " + seen.spelling() + " and as "
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
        String shown = p.shownInfix();
        error(
                floatLiteral.pos,
                "float literal " + floatLiteral.text + " where an integer is expected (the other operand of '" + shown
                        + "' is an integer)");
        p.failed = true;
        return true;
    }

    /** Whether an infix operator's integer op depends on reading its operands signed or unsigned. */
    static boolean signMatters(String infix) {
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
                default -> {}
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
        if (p instanceof PVar v) return vars.get(v.name).type();
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

    static boolean isComparison(String infix) {
        return switch (infix) {
            case "<", "<=", ">", ">=", "==", "!=" -> true;
            default -> false;
        };
    }

    /** The op an infix operator means for operands of type {@code t}; reports misuse. */
    private Op infixOp(POp p, TypeClass t) {
        boolean fl = t == TypeClass.FLOAT, bo = t == TypeClass.BOOL, un = t == TypeClass.UINT;
        String what = p.shownInfix();
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
            String hint = p.infix.equals("unary!")
                    ? " ('!' is boolean not; use '~' for integers)"
                    : p.infix.equals("unary~") && fl && p.srcs.get(0) instanceof POp
                            ? " (an inexact rule is written with '~=>', as in fadd(a, 0.0) ~=> a)"
                            : "";
            boolean comparedOperand =
                    p.srcs.stream().anyMatch(x -> x instanceof POp o && o.infix != null && isComparison(o.infix));
            if (bo && isComparison(p.infix) && comparedOperand) {
                hint =
                        ": comparisons do not chain (a < b gives a boolean); combine them with '&', as in (a < b) & (b < c)";
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
}
