package dev.lathe.rules;

import static dev.lathe.rules.CheckText.NEGATED_HEX;
import static dev.lathe.rules.CheckText.isFloat;
import static dev.lathe.rules.CheckText.sizeOf;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.VarType;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.UseCondition;
import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ProtoTree.PVar;
import dev.lathe.rules.ProtoTree.VarInfo;
import dev.lathe.rules.ast.Ast;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The first phase of a rule's check: the syntax tree becomes {@link ProtoTree} values. Ops are
 * looked up in the op table and their arity checked, annotations read (sizes, types, @once),
 * variables bound by the pattern and looked up by the replacement. Every operand is built even
 * when one fails, so that one run reports every mistake of this kind.
 */
final class TreeBuilder {
    private final RuleContext ctx;
    private final Map<String, VarInfo> vars;
    private final List<POp> ops;
    private final List<PVar> varOccurrences;
    private final List<PLit> lits;
    private final List<String> bindingOrder;

    TreeBuilder(RuleContext ctx) {
        this.ctx = ctx;
        this.vars = ctx.vars;
        this.ops = ctx.ops;
        this.varOccurrences = ctx.varOccurrences;
        this.lits = ctx.lits;
        this.bindingOrder = ctx.bindingOrder;
    }

    private void error(Ast.Pos pos, String message) {
        ctx.error(pos, message);
    }

    /** The value {@code e} means, in the pattern or the replacement; null (reported) when it cannot be built. */
    P build(Ast.Expr e, boolean pattern) {
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
            if (u.op().equals("-")
                    && u.operand() instanceof Ast.Lit lit
                    && lit.kind() != Ast.LitKind.NAN
                    && lit.kind() != Ast.LitKind.TRUE
                    && lit.kind() != Ast.LitKind.FALSE) {
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
            if (l.text().length() > Checker.MAX_LITERAL) {
                ctx.tooLongReported = true;
                error(
                        l.pos(),
                        String.format(
                                "a literal may have at most %d characters (this one has %,d)",
                                Checker.MAX_LITERAL, l.text().length()));
                return null;
            }
            PLit p = new PLit(l.pos(), l.text(), l.kind());
            lits.add(p);
            return p;
        }
        if (e instanceof Ast.Swizzled sw) return buildSwizzled(sw, pattern);
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
                String near = Suggest.forOp(
                        call.name(), Arrays.stream(Op.values()).map(Op::opName).toList());
                error(
                        call.pos(),
                        "unknown op '" + call.name() + "'" + (near == null ? "" : " (did you mean " + near + "?)"));
            }
            buildAll(call.args(), pattern);
            return null;
        }
        if (call.args().size() != op.numInputs()) {
            error(
                    call.pos(),
                    op.opName() + " takes " + op.numInputs() + " operand" + (op.numInputs() == 1 ? "" : "s") + ", got "
                            + call.args().size());
            buildAll(call.args(), pattern);
            return null;
        }
        List<P> srcs = buildAll(call.args(), pattern);
        if (srcs == null) return null;
        POp p = new POp(call.pos(), op, null, srcs);
        flags(p, call, pattern);
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
     * NIR's swizzle letters: {@code xyzw} for components 0 to 3, {@code a} to {@code p} for 0 to
     * 15 (its 8- and 16-component vectors).
     */
    static int swizzleComponent(char ch) {
        return switch (ch) {
            case 'x' -> 0;
            case 'y' -> 1;
            case 'z' -> 2;
            case 'w' -> 3;
            default -> ch >= 'a' && ch <= 'p' ? ch - 'a' : -1;
        };
    }

    /** {@code a.yx}: a variable, or a horizontal op's result, read at the named components. */
    private P buildSwizzled(Ast.Swizzled sw, boolean pattern) {
        P inner = build(sw.inner(), pattern);
        if (inner == null) return null;
        String letters = sw.swizzle();
        if (letters.length() > 16) {
            error(sw.pos(), "a swizzle names at most 16 components, not " + letters.length());
            return null;
        }
        byte[] comps = new byte[letters.length()];
        for (int i = 0; i < comps.length; i++) {
            int c = swizzleComponent(letters.charAt(i));
            if (c < 0) {
                error(
                        sw.pos(),
                        "'" + letters.charAt(i) + "' in ." + letters + " names no component (x, y, z, w, or a to p"
                                + " for 0 to 15)");
                return null;
            }
            comps[i] = (byte) c;
        }
        if (inner.swizzle != null) {
            error(sw.pos(), "a swizzle of a swizzle: write the components once");
            return null;
        }
        if (inner instanceof PLit) {
            error(sw.pos(), "a literal has the same value in every component: it takes no swizzle");
            return null;
        }
        if (inner instanceof POp op && op.op != null && !op.op.isHorizontal()) {
            error(
                    sw.pos(),
                    op.op.opName() + " works per component: swizzle its operands instead (a swizzle goes on a"
                            + " variable or on a horizontal op's result, as in unpack_64_2x32(a).y)");
            return null;
        }
        if (inner instanceof POp op && op.op == null) {
            error(sw.pos(), "an operator works per component: swizzle its operands instead");
            return null;
        }
        inner.swizzle = comps;
        inner.swizzlePos = sw.pos();
        return inner;
    }

    /** {@code fadd[nsz](…)}: the flags the matched instruction must carry. */
    private void flags(POp p, Ast.Call call, boolean pattern) {
        for (Ast.Annotation f : call.flags()) {
            AluFlag flag = AluFlag.byName(f.text());
            if (f.text().equals("exact")) {
                if (pattern) {
                    error(
                            f.pos(),
                            "[exact] goes on replacement ops (the instruction is built exact); a pattern matches"
                                    + " exact instructions whenever its rule is => ");
                } else if (p.builtExact) {
                    error(f.pos(), "flag exact is written twice");
                } else {
                    p.builtExact = true;
                }
                continue;
            }
            if (flag == null) {
                error(
                        f.pos(),
                        "unknown flag '" + f.text() + "' (flags: nsz, nnan, ninf, reassoc, nsw, nuw)"
                                + mesaFlagHint(f.text()));
            } else if (!pattern) {
                error(
                        f.pos(),
                        "flags go on pattern ops, which must carry them; the replacement's instructions take "
                                + "the matched root's float controls (a replacement op may be built [exact])");
            } else if (!flag.appliesTo(p.op)) {
                error(f.pos(), flag.spelling() + " applies to " + flag.whereItApplies() + ", not to " + p.op.opName());
            } else if (p.flags.has(flag)) {
                error(f.pos(), "flag " + flag.spelling() + " is written twice");
            } else {
                p.flags = p.flags.with(flag);
            }
        }
    }

    /** NIR's spellings of the wrap flags. */
    private static String mesaFlagHint(String text) {
        return switch (text) {
            case "no_signed_wrap" -> "; NIR's no_signed_wrap is nsw";
            case "no_unsigned_wrap" -> "; NIR's no_unsigned_wrap is nuw";
            default -> "";
        };
    }

    /**
     * {@code fmul@f32(…)}: only a size goes there. The type goes after the call, unless it
     * contradicts what the op computes ({@code fadd@i32}), where moving it would be the next
     * error: then the message says the op already decides the type.
     */
    private static String opTypeAnnotationMessage(Op op, String text) {
        VarType vt = VarType.parseScalar(text, 1);
        TypeClass out = op.output().typeClass();
        String size = vt == null ? "32" : String.valueOf(vt.bitSize());
        if (vt != null && out != TypeClass.ANY && isFloat(out) != isFloat(TypeClass.of(vt.base()))) {
            return "an op takes only a bit size here, as in " + op.opName() + "@" + size + "(…); " + op.opName()
                    + " computes " + (isFloat(out) ? "a float" : "an integer") + ", so @" + text
                    + " cannot describe it";
        }
        return "an op takes only a bit size here, as in " + op.opName() + "@" + size + "(…); @" + text
                + " goes after the call";
    }

    /** The names of the variables in an expression's text (a worklist: rules may be deep). */
    static Set<String> namesIn(Ast.Expr e) {
        Set<String> names = new HashSet<>();
        ArrayDeque<Ast.Expr> work = new ArrayDeque<>(List.of(e));
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
            } else if (x instanceof Ast.Swizzled sw) {
                work.push(sw.inner());
            }
        }
        return names;
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
        if (v.name().length() > Checker.MAX_NAME) {
            // A variable names locals of the generated code: once per name, like a missing one.
            ctx.tooLongReported = true;
            if (ctx.unboundReported.add(v.name()))
                error(v.pos(), "a variable name may have at most " + Checker.MAX_NAME + " characters");
            return null;
        }
        if (info == null) {
            if (!pattern) {
                // Once per name: the same missing variable twice is one mistake.
                if (!ctx.patternNames.contains(v.name()) && ctx.unboundReported.add(v.name())) {
                    error(
                            v.pos(),
                            "the replacement uses " + v.name() + ", which the pattern does not bind"
                                    + ctx.didYouMean(v.name()));
                    ctx.unboundOnly++;
                }
                return null;
            }
            info = new VarInfo();
            vars.put(v.name(), info);
            String literal = switch (v.name().toLowerCase(Locale.ROOT)) {
                case "inf", "nan", "true", "false" -> v.name().toLowerCase(Locale.ROOT);
                default -> null;
            };
            if (literal != null) {
                // Python's True and NaN, C's INF: here a variable that matches anything.
                ctx.warning(
                        v.pos(), v.name() + " is a variable here, which matches any value; the literal is " + literal);
            }
            bindingOrder.add(v.name());
        }
        if (pattern && v.constOnly()) info.constOnly = true;
        if (pattern && info.firstSpelledConst == null) {
            info.firstSpelledConst = v.constOnly();
        } else if (pattern && info.firstSpelledConst != v.constOnly()) {
            ctx.warning(
                    v.pos(),
                    (v.constOnly() ? "#" : "") + v.name() + " here, " + (v.constOnly() ? "" : "#") + v.name()
                            + " before: one value, so both only match a constant; write #" + v.name() + " each time");
        }
        if (!pattern && v.constOnly() && !info.constOnly) {
            error(
                    v.pos(),
                    "#" + v.name() + " in the replacement, but the pattern binds " + v.name()
                            + " as a plain variable: write " + v.name() + " (or #" + v.name()
                            + " in the pattern to match constants only)");
        }
        PVar occurrence = new PVar(v.pos(), v.name(), v.constOnly());
        varOccurrences.add(occurrence);
        return occurrence;
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
        UseCondition use = UseCondition.bySpelling(t);
        if (use != null) {
            if (!pattern) {
                error(
                        ann.pos(),
                        "@" + t + " is a condition on what the pattern matches; it means nothing in a replacement");
            } else if (!(inner instanceof POp op)) {
                error(ann.pos(), "@" + t + " applies to an operation (a condition on how its value is used)");
            } else if (!op.uses.add(use)) {
                error(ann.pos(), "@" + t + " is already on this operation");
            }
            return;
        }
        if (t.equals("low8") || t.equals("low16")) {
            if (!pattern) {
                error(
                        ann.pos(),
                        "@" + t + " is a condition on what the pattern matches; it means nothing in a replacement");
            } else if (!(inner instanceof POp op)) {
                error(ann.pos(), "@" + t + " applies to an operation (only the low bits of its result are used)");
            } else if (op.lowBits != 0) {
                error(ann.pos(), "@low" + op.lowBits + " is already on this operation");
            } else {
                op.lowBits = t.equals("low8") ? 8 : 16;
                op.lowBitsPos = ann.pos();
            }
            return;
        }
        if (t.equals("once")) {
            if (!pattern) {
                error(ann.pos(), "@once is a condition on what the pattern matches; it means nothing in a replacement");
            } else if (!(inner instanceof POp op)) {
                error(
                        ann.pos(),
                        "@once applies to an operation (the matched instruction has one use), not to a "
                                + (inner instanceof PVar ? "variable" : "literal"));
            } else if (op.once) {
                error(ann.pos(), "@once is already on this operation (at column " + op.oncePos.column() + ")");
            } else {
                op.once = true;
                op.oncePos = ann.pos();
            }
            return;
        }
        VarType vt = VarType.parseScalar(t, 1);
        if (vt == null && t.matches("[fiub][0-9]+")) {
            error(
                    ann.pos(),
                    "invalid type @" + t + " (floats are f16, f32 or f64; integers i/u 8, 16, 32 or 64; "
                            + "booleans b1)");
            return;
        }
        if (vt == null) {
            String near = switch (t.toLowerCase(Locale.ROOT)) {
                case "bool", "boolean" -> " (a boolean is @b1)";
                case "float", "int", "uint" ->
                    " (a type takes its size: @" + t.toLowerCase(Locale.ROOT).charAt(0) + "32)";
                default ->
                    t.matches("(1|8|16|32|64)[a-z]+")
                            ? " (write the size alone: @" + t.replaceAll("[a-z]+$", "") + ")"
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
                error(
                        ann.pos(),
                        v.name + " is annotated as " + info.annType.spelling() + " elsewhere in the rule and as "
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
}
