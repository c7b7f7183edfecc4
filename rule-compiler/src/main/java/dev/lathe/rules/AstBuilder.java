package dev.lathe.rules;

import dev.lathe.ir.FloatControls;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.grammar.RulesLexer;
import dev.lathe.rules.grammar.RulesParser;
import dev.lathe.rules.model.GateClause;
import dev.lathe.rules.model.GateLiteral;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.NavigableSet;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;

/** Converts ANTLR's parse tree into {@link Ast} records. */
final class AstBuilder {
    /**
     * The passes of the pipeline (rule sets register beside them under their pass name); the
     * two rule files shipped in rules/ are the rule passes, not built-ins.
     */
    private static final Set<String> BUILT_IN_PASSES =
            Set.copyOf(PassRegistry.standard().names());

    private final String file;
    private final String text;
    private final TokenView tokens;
    private final List<Diagnostic> errors;

    AstBuilder(String file, String text, TokenView tokens, List<Diagnostic> errors) {
        this.file = file;
        this.text = text;
        this.tokens = tokens;
        this.errors = errors;
    }

    /** The pass a file declares, else its file name without {@code .rules}. */
    static String passName(String file, String declared) {
        if (declared != null) return declared;
        String base = file.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1);
        return base.endsWith(".rules") ? base.substring(0, base.length() - 6) : base;
    }

    static Ast.Pos pos(Token t) {
        return new Ast.Pos(t.getLine(), t.getCharPositionInLine() + 1);
    }

    static Ast.Pos pos(ParserRuleContext c) {
        return pos(c.getStart());
    }

    Ast.RuleFile file(RulesParser.RuleFileContext c, NavigableSet<Integer> errorTokens, Set<Integer> missingSemicolon) {
        String declared = c.passDecl() != null && c.passDecl().name != null
                ? c.passDecl().name.getText()
                : null;
        passGates = new ArrayList<>();
        approximation(c.passDecl() == null ? null : c.passDecl().approximation());
        if (c.passDecl() != null && c.passDecl().conditions() != null) {
            List<Ast.Condition> others = new ArrayList<>();
            conditions(c.passDecl().conditions(), passGates, others);
            for (Ast.Condition o : others) {
                errors.add(Diagnostic.error(
                        file,
                        o.pos().line(),
                        o.pos().column(),
                        "a pass line takes only option gates (option(NAME), !option(NAME)); " + o.name()
                                + " goes after a rule's 'if'",
                        Diagnostic.lineOf(text, o.pos().line())));
            }
        }
        List<Ast.Rule> rules = new ArrayList<>();
        RulesParser.RuleDeclContext previous = null;
        Set<Integer> unnamed = new HashSet<>();
        for (RulesParser.RuleDeclContext r : c.ruleDecl()) {
            boolean broken = hasError(r, previous, errorTokens) || isFragment(r, missingSemicolon);
            previous = r;
            if (broken || tooDeep(r)) continue;
            Ast.Rule rule = rule(r, unnamed);
            if (rule != null) rules.add(rule);
        }
        String pass = passName(file, declared);
        Token at = declared != null ? c.passDecl().name : null;
        int line = at == null ? 1 : at.getLine(), col = at == null ? 1 : at.getCharPositionInLine() + 1;
        if (declared == null && c.passDecl() != null) {
            // A pass line with an error (reported): the file name is not what the writer meant.
        } else if (!pass.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            errors.add(Diagnostic.error(
                    file, line, col, SyntaxMessages.passNameFromFileIsNoName(pass), Diagnostic.lineOf(text, line)));
        } else if (pass.length() > Checker.MAX_NAME) {
            // It names a generated class, and so a file: file systems take 255 bytes.
            errors.add(Diagnostic.error(
                    file,
                    line,
                    col,
                    SyntaxMessages.passNameTooLong(Checker.MAX_NAME, declared == null),
                    Diagnostic.lineOf(text, line)));
        } else if (pass.toLowerCase(Locale.ROOT).replace("_", "").equals("generated")) {
            errors.add(Diagnostic.error(
                    file, line, col, SyntaxMessages.reservedPassName(pass), Diagnostic.lineOf(text, line)));
        } else if (BUILT_IN_PASSES.contains(pass)) {
            errors.add(Diagnostic.error(
                    file,
                    line,
                    col,
                    SyntaxMessages.builtInPassName(pass, declared == null),
                    Diagnostic.lineOf(text, line)));
        }
        return new Ast.RuleFile(file, pass, rules);
    }

    /**
     * Whether a syntax error lies in the rule's tokens. An error at its first token belongs to
     * the rule before when that one has no ';' (ANTLR notices a missing ';' only at the next
     * token).
     */
    private boolean hasError(
            RulesParser.RuleDeclContext r, RulesParser.RuleDeclContext previous, NavigableSet<Integer> errorTokens) {
        if (r.getStart() == null) return true;
        int from = r.getStart().getTokenIndex();
        int to = r.getStop() == null ? from : Math.max(from, r.getStop().getTokenIndex());
        boolean previousOpen = previous != null
                && (previous.getStop() == null || !previous.getStop().getText().equals(";"));
        if (r.getStop() == null || !r.getStop().getText().equals(";")) {
            // The error that ended this rule is reported at the token after it.
            Integer next = errorTokens.ceiling(to + 1);
            // Not a bad character starting the next line: the lexer's error is its own.
            if (next != null
                    && TokenView.isBadToken(tokens.get(next).getType())
                    && tokens.get(next).getLine() > tokens.get(to).getLine()) {
                next = null;
            }
            if (next != null && tokens.nextVisible(to) == next) return true;
        }
        for (Integer e = errorTokens.ceiling(previousOpen ? from + 1 : from);
                e != null && e <= to;
                e = errorTokens.higher(e)) {
            if (!startsLaterLine(e, from)) return true;
        }
        return false;
    }

    /**
     * Whether token {@code e} is a bad token that begins a line after the one the rule starts
     * on: the stray start of what comes next, which ANTLR's recovery swallowed into the rule.
     */
    private boolean startsLaterLine(int e, int from) {
        Token t = tokens.get(e);
        if (!TokenView.isBadToken(t.getType())) return false;
        Token before = tokens.previousVisible(e);
        return before != null
                && before.getLine() < t.getLine()
                && t.getLine() > tokens.get(from).getLine();
    }

    /**
     * Whether the rule is what ANTLR's recovery made of the rest of a broken one: it does not
     * follow a ';' (or the start of the file), and no missing ';' was reported before it.
     */
    private boolean isFragment(RulesParser.RuleDeclContext r, Set<Integer> missingSemicolon) {
        if (r.getStart() == null) return true;
        int from = r.getStart().getTokenIndex();
        Token before = tokens.previousVisible(from);
        if (before == null || before.getText().equals(";") || missingSemicolon.contains(from)) return false;
        // A named rule, or one that starts its line, is what the writer began, not leftovers.
        return r.name == null && before.getLine() == r.getStart().getLine();
    }

    /**
     * Whether some expression of the rule nests deeper than {@link RuleSyntax#MAX_DEPTH} (reported):
     * measured without recursion, before the tree builder recurses over it.
     */
    private boolean tooDeep(ParserRuleContext rule) {
        ArrayDeque<ParseTree> work = new ArrayDeque<>();
        ArrayDeque<Integer> depths = new ArrayDeque<>();
        work.push(rule);
        depths.push(0);
        while (!work.isEmpty()) {
            ParseTree t = work.pop();
            int d = depths.pop();
            // Levels are operations, parentheses and unary operators; a variable, a literal or
            // an annotation adds none.
            if (t instanceof RulesParser.CallContext
                    || t instanceof RulesParser.UnaryContext
                    || t instanceof RulesParser.BinaryContext
                    || t instanceof RulesParser.ParenContext) {
                RulesParser.ExprContext e = (RulesParser.ExprContext) t;
                d++;
                if (d > RuleSyntax.MAX_DEPTH) {
                    Token at = e.getStart();
                    errors.add(Diagnostic.error(
                            file,
                            at.getLine(),
                            at.getCharPositionInLine() + 1,
                            SyntaxMessages.tooDeep(RuleSyntax.MAX_DEPTH),
                            Diagnostic.lineOf(text, at.getLine())));
                    return true;
                }
            }
            for (int i = t.getChildCount() - 1; i >= 0; i--) {
                work.push(t.getChild(i));
                depths.push(d);
            }
        }
        return false;
    }

    Ast.Rule rule(RulesParser.RuleDeclContext c, Set<Integer> unnamedLines) {
        if (c.pattern == null || c.replacement == null || c.arrow == null) return null;
        List<Ast.Condition> conds = new ArrayList<>();
        List<Ast.Gate> gates = new ArrayList<>(passGates);
        if (c.conditions() != null) conditions(c.conditions(), gates, conds);
        Ast.Expr pattern = expr(c.pattern);
        Ast.Expr replacement = expr(c.replacement);
        if (pattern == null || replacement == null) return null;
        int stop = charIndex(
                c.getStop() == null ? c.getStart().getStopIndex() : c.getStop().getStopIndex());
        int begin = charIndex(c.getStart().getStartIndex());
        String ruleText = oneLine(text.substring(begin, Math.max(stop + 1, begin)));
        // The comment that ends the rule's line says why the rule holds: the generated code keeps it.
        int eol = text.indexOf('\n', stop + 1);
        String rest = oneLine(text.substring(Math.min(stop + 1, text.length()), eol < 0 ? text.length() : eol));
        String comment = rest.startsWith("#")
                ? rest.substring(1).trim()
                : rest.startsWith("//") ? rest.substring(2).trim() : "";
        // Mesa's rules have no names and the mission writes `a * 1.0 => a` bare, so a name is
        // optional; the line number keeps the generated method and test names unique and
        // findable.
        Token nameToken = c.name != null ? c.name : c.getStart();
        String name;
        if (c.name != null) {
            name = c.name.getText();
            if (name.matches("line_[0-9]+(_[0-9]+)?")) {
                errors.add(Diagnostic.error(
                        file,
                        nameToken.getLine(),
                        nameToken.getCharPositionInLine() + 1,
                        SyntaxMessages.unnamedRuleName(name),
                        Diagnostic.lineOf(text, nameToken.getLine())));
                return null;
            }
        } else {
            // A second unnamed rule on one line also gets its column.
            int line = nameToken.getLine();
            name = unnamedLines.add(line)
                    ? "line_" + line
                    : "line_" + line + "_" + (nameToken.getCharPositionInLine() + 1);
        }
        return new Ast.Rule(
                name,
                pos(nameToken),
                pattern,
                c.arrow.getType() == RulesLexer.ARROW,
                replacement,
                conds,
                ruleText,
                comment,
                List.copyOf(gates),
                c.arrow.getType() == RulesLexer.REASSOC_ARROW,
                passUlps);
    }

    /** The pass line's {@code approximate(N ulp)}: every rule of the file is within N ulps (0: none). */
    private double passUlps;

    /** Reads {@code approximate(2 ulp)}; reports what is wrong with it. */
    private void approximation(RulesParser.ApproximationContext a) {
        passUlps = 0;
        if (a == null || a.attr == null || a.bound == null || a.unit == null) return;
        Token at = a.attr;
        String problem = null;
        double n = 0;
        if (!a.attr.getText().equals("approximate")) {
            problem = "unknown pass attribute '" + a.attr.getText() + "' (a pass line takes approximate(N ulp))";
        } else if (!a.unit.getText().equals("ulp") && !a.unit.getText().equals("ulps")) {
            at = a.unit;
            problem = "approximate(…) takes a bound in ulp, as in approximate(2 ulp), not " + a.unit.getText();
        } else {
            n = Double.parseDouble(a.bound.getText());
            if (!(n > 0) || n > 1e6) {
                at = a.bound;
                problem = "approximate(…) takes a bound above 0 and at most 1e6 ulp, not " + a.bound.getText();
            }
        }
        if (problem != null) {
            errors.add(Diagnostic.error(
                    file,
                    at.getLine(),
                    at.getCharPositionInLine() + 1,
                    problem,
                    Diagnostic.lineOf(text, at.getLine())));
            return;
        }
        passUlps = n;
    }

    /** The pass line's gates, which every rule of the file gets. */
    private List<Ast.Gate> passGates = List.of();

    /**
     * Splits an {@code if} list into gates and conditions on values. A comma and a top-level
     * {@code &&} are both "and"; a gate expression ({@code option(a) || !stage(vertex)}) becomes
     * clauses (a conjunction of disjunctions, which any such expression has); a condition on
     * values must stand alone (it cannot be negated or joined with {@code ||}).
     */
    private void conditions(RulesParser.ConditionsContext cs, List<Ast.Gate> gates, List<Ast.Condition> conds) {
        for (RulesParser.ConditionContext cc : cs.condition()) condition(cc, gates, conds);
    }

    private void condition(RulesParser.ConditionContext cc, List<Ast.Gate> gates, List<Ast.Condition> conds) {
        if (cc instanceof RulesParser.AndConditionContext a) {
            for (RulesParser.ConditionContext c : a.condition()) condition(c, gates, conds);
            return;
        }
        if (cc instanceof RulesParser.ParenConditionContext p && p.condition() != null) {
            condition(p.condition(), gates, conds);
            return;
        }
        if (cc instanceof RulesParser.AtomConditionContext at) {
            if (at.name == null) return;
            if (GateLiteral.Kind.bySpelling(at.name.getText()) == null) {
                List<Ast.Expr> args = new ArrayList<>();
                for (RulesParser.ExprContext e : at.expr()) {
                    Ast.Expr x = expr(e);
                    if (x != null) args.add(x);
                }
                conds.add(new Ast.Condition(at.name.getText(), args, pos(at.name)));
                return;
            }
        }
        List<List<GateLiteral>> cnf = gateClauses(cc, false);
        if (cnf == null) return;
        Ast.Pos at = pos(cc.getStart());
        for (List<GateLiteral> clause : cnf) gates.add(new Ast.Gate(clause, at));
    }

    /** The most clauses one gate expression may expand into (distributing {@code ||} over {@code &&} multiplies them). */
    private static final int MAX_GATE_CLAUSES = 64;

    /**
     * The clauses of a gate expression, negated when {@code negated}; null after reporting an
     * error (a condition on values inside it, a malformed atom, too many clauses). Clauses that
     * always hold ({@code option(a) || !option(a)}) are left out.
     */
    private List<List<GateLiteral>> gateClauses(RulesParser.ConditionContext cc, boolean negated) {
        if (cc instanceof RulesParser.NotConditionContext n) {
            if (n.condition() instanceof RulesParser.AtomConditionContext a
                    && a.name != null
                    && GateLiteral.Kind.bySpelling(a.name.getText()) == null) {
                // `!is_zero(a)`: the mistake is the '!'
                Ast.Pos where = pos(n.neg);
                errors.add(Diagnostic.error(
                        file,
                        where.line(),
                        where.column(),
                        SyntaxMessages.CONDITION_NEGATED_WITH_BANG
                                + "; only a gate takes it, as in !option(lower_fsat)",
                        Diagnostic.lineOf(text, where.line())));
                return null;
            }
            return n.condition() == null ? null : gateClauses(n.condition(), !negated);
        }
        if (cc instanceof RulesParser.ParenConditionContext p) {
            return p.condition() == null ? null : gateClauses(p.condition(), negated);
        }
        boolean and = cc instanceof RulesParser.AndConditionContext;
        if (and || cc instanceof RulesParser.OrConditionContext) {
            List<RulesParser.ConditionContext> parts = and
                    ? ((RulesParser.AndConditionContext) cc).condition()
                    : ((RulesParser.OrConditionContext) cc).condition();
            if (parts.size() != 2) return null;
            List<List<GateLiteral>> x = gateClauses(parts.get(0), negated);
            List<List<GateLiteral>> y = gateClauses(parts.get(1), negated);
            if (x == null || y == null) return null;
            // De Morgan: a negated && is an ||
            if (and != negated) {
                List<List<GateLiteral>> out = new ArrayList<>(x);
                for (List<GateLiteral> c : y) if (!out.contains(c)) out.add(c);
                return out;
            }
            List<List<GateLiteral>> out = new ArrayList<>();
            for (List<GateLiteral> cx : x) {
                for (List<GateLiteral> cy : y) {
                    List<GateLiteral> c = new ArrayList<>(cx);
                    for (GateLiteral l : cy) if (!c.contains(l)) c.add(l);
                    if (new GateClause(c).alwaysHolds() || out.contains(c)) continue;
                    out.add(c);
                }
            }
            if (out.size() > MAX_GATE_CLAUSES) {
                Ast.Pos at = pos(cc.getStart());
                errors.add(Diagnostic.error(
                        file,
                        at.line(),
                        at.column(),
                        "this gate expands into more than " + MAX_GATE_CLAUSES + " clauses (an || of &&s"
                                + " distributes): split the rule",
                        Diagnostic.lineOf(text, at.line())));
                return null;
            }
            return out;
        }
        // anything else is what the parser's error recovery left: its error is reported already
        if (!(cc instanceof RulesParser.AtomConditionContext at) || at.name == null) return null;
        Ast.Pos where = pos(at.name);
        GateLiteral.Kind kind = GateLiteral.Kind.bySpelling(at.name.getText());
        if (kind == null) {
            errors.add(Diagnostic.error(
                    file,
                    where.line(),
                    where.column(),
                    negated
                            ? SyntaxMessages.CONDITION_NEGATED_WITH_BANG
                                    + "; only a gate takes it, as in !option(lower_fsat)"
                            : "a condition on values (" + at.name.getText() + ") cannot be joined with ||"
                                    + " or negated: only gates can (option, stage, float_controls);"
                                    + " write one rule per case",
                    Diagnostic.lineOf(text, where.line())));
            return null;
        }
        String name =
                at.expr().size() == 1 && expr(at.expr(0)) instanceof Ast.Var v && !v.constOnly() ? v.name() : null;
        String problem = name == null
                ? "a gate names one thing: " + kind.spelling() + "(" + example(kind) + ")"
                : kind == GateLiteral.Kind.STAGE && !GateLiteral.STAGES.contains(name)
                        ? "unknown stage '" + name + "' (expected " + String.join(", ", GateLiteral.STAGES) + ")"
                        : kind == GateLiteral.Kind.FLOAT_CONTROLS && !FloatControls.isKnown(name)
                                ? "unknown float control '" + name + "' (expected a SPIR-V float-control"
                                        + " execution mode and width: denorm_preserve32, denorm_flush_to_zero16,"
                                        + " signed_zero_inf_nan_preserve64, rounding_mode_rte16,"
                                        + " rounding_mode_rtz32 …)"
                                : null;
        if (problem != null) {
            errors.add(Diagnostic.error(
                    file, where.line(), where.column(), problem, Diagnostic.lineOf(text, where.line())));
            return null;
        }
        List<List<GateLiteral>> out = new ArrayList<>();
        out.add(List.of(new GateLiteral(kind, name, negated)));
        return out;
    }

    private static String example(GateLiteral.Kind kind) {
        return switch (kind) {
            case OPTION -> "lower_fsat";
            case STAGE -> "vertex";
            case FLOAT_CONTROLS -> "denorm_preserve32";
        };
    }

    Ast.Expr expr(RulesParser.ExprContext c) {
        if (c == null || c.exception != null && c.getChildCount() == 0) return null;
        if (c instanceof RulesParser.AnnotatedContext a) {
            Ast.Expr inner = expr(a.expr());
            Ast.Annotation ann = annotation(a.annotation());
            return inner == null || ann == null ? inner : new Ast.Annotated(inner, ann, ann.pos());
        }
        if (c instanceof RulesParser.SwizzledContext sw) {
            Ast.Expr inner = expr(sw.expr());
            return inner == null || sw.swz == null ? inner : new Ast.Swizzled(inner, sw.swz.getText(), pos(sw.swz));
        }
        if (c instanceof RulesParser.CallContext k) {
            List<Ast.Annotation> anns = new ArrayList<>();
            for (RulesParser.AnnotationContext ac : k.annotation()) {
                Ast.Annotation ann = annotation(ac);
                if (ann != null) anns.add(ann);
            }
            List<Ast.Expr> args = new ArrayList<>();
            for (RulesParser.ExprContext e : k.expr()) {
                Ast.Expr x = expr(e);
                if (x == null) return null;
                args.add(x);
            }
            List<Ast.Annotation> flags = new ArrayList<>();
            if (k.flags() != null) {
                for (org.antlr.v4.runtime.tree.TerminalNode f : k.flags().IDENT())
                    flags.add(new Ast.Annotation(f.getText(), pos(f.getSymbol())));
            }
            return new Ast.Call(k.name.getText(), anns, args, pos(k.name), flags);
        }
        if (c instanceof RulesParser.UnaryContext u) {
            Ast.Expr x = expr(u.expr());
            return x == null ? null : new Ast.Unary(u.op.getText(), x, pos(u.op));
        }
        if (c instanceof RulesParser.BinaryContext b) {
            if (comparisonsJoinedAsInC(b)) return null;
            Ast.Expr l = expr(b.expr(0));
            Ast.Expr r = expr(b.expr(1));
            return l == null || r == null ? null : new Ast.Binary(b.op.getText(), l, r, pos(b.op));
        }
        if (c instanceof RulesParser.ConstVarContext cv) {
            return new Ast.Var(cv.CONSTVAR().getText().substring(1), true, pos(cv.getStart()));
        }
        if (c instanceof RulesParser.VarContext v) {
            return new Ast.Var(v.IDENT().getText(), false, pos(v.getStart()));
        }
        if (c instanceof RulesParser.LitContext l) {
            Token t = l.literal().getStart();
            Ast.LitKind kind = switch (t.getType()) {
                case RulesLexer.INT -> Ast.LitKind.INT;
                case RulesLexer.HEX -> Ast.LitKind.HEX;
                case RulesLexer.FLOAT -> Ast.LitKind.FLOAT;
                default ->
                    switch (t.getText()) {
                        case "inf" -> Ast.LitKind.INF;
                        case "nan" -> Ast.LitKind.NAN;
                        case "true" -> Ast.LitKind.TRUE;
                        default -> Ast.LitKind.FALSE;
                    };
            };
            return new Ast.Lit(kind, t.getText(), pos(t));
        }
        if (c instanceof RulesParser.ParenContext p) return expr(p.expr());
        return null;
    }

    private static boolean isComparison(RulesParser.ExprContext e) {
        return e instanceof RulesParser.BinaryContext b && b.op.getText().matches("[<>]=?|==|!=");
    }

    private static boolean isBitwise(RulesParser.ExprContext e) {
        return e instanceof RulesParser.BinaryContext b && b.op.getText().matches("[&|^]");
    }

    /**
     * Two comparisons joined by {@code &}, {@code |} or {@code ^} without parentheses, as C
     * reads them: {@code a == 0 & b == 0}. Here, as in Go, '&' binds tighter, so that is
     * {@code (a == (0 & b)) == 0}, which compiles and means something else; an error that
     * writes out what was meant. Both shapes: the first comparison inside the second
     * ({@code a == 0 & b == 0}), or the second inside the first ({@code a == 0 | b < 0}).
     */
    private boolean comparisonsJoinedAsInC(RulesParser.BinaryContext outer) {
        if (!isComparison(outer)) return false;
        RulesParser.ExprContext x, y, z, w;
        String first, second;
        RulesParser.BinaryContext join;
        if (isComparison(outer.expr(0)) && isBitwise(((RulesParser.BinaryContext) outer.expr(0)).expr(1))) {
            RulesParser.BinaryContext inner = (RulesParser.BinaryContext) outer.expr(0);
            join = (RulesParser.BinaryContext) inner.expr(1);
            x = inner.expr(0);
            first = inner.op.getText();
            second = outer.op.getText();
            w = outer.expr(1);
        } else if (isComparison(outer.expr(1)) && isBitwise(((RulesParser.BinaryContext) outer.expr(1)).expr(0))) {
            RulesParser.BinaryContext inner = (RulesParser.BinaryContext) outer.expr(1);
            join = (RulesParser.BinaryContext) inner.expr(0);
            x = outer.expr(0);
            first = outer.op.getText();
            second = inner.op.getText();
            w = inner.expr(1);
        } else {
            return false;
        }
        y = join.expr(0);
        z = join.expr(1);
        String op = join.op.getText();
        String meant = "(" + source(x) + " " + first + " " + source(y) + ") " + op + " (" + source(z) + " " + second
                + " " + source(w) + ")";
        errors.add(Diagnostic.error(
                file,
                join.op.getLine(),
                join.op.getCharPositionInLine() + 1,
                SyntaxMessages.comparisonsJoinedAsInC(op, first, second, meant),
                Diagnostic.lineOf(text, join.op.getLine())));
        return true;
    }

    /** The text of an expression as written (white space between tokens made one space). */
    private String source(RulesParser.ExprContext e) {
        return oneLine(text.substring(
                charIndex(e.getStart().getStartIndex()), charIndex(e.getStop().getStopIndex()) + 1));
    }

    /**
     * The index in {@code text} of the character ANTLR numbers {@code codePoint}: its
     * indexes count code points, Java's strings UTF-16 units, which differ after an emoji.
     */
    private int charIndex(int codePoint) {
        if (codePointStarts == null) {
            codePointStarts = new int[text.codePointCount(0, text.length()) + 1];
            for (int i = 0, k = 0; k < codePointStarts.length; k++) {
                codePointStarts[k] = i;
                if (i < text.length()) i += Character.charCount(text.codePointAt(i));
            }
        }
        return codePointStarts[Math.max(0, Math.min(codePoint, codePointStarts.length - 1))];
    }

    private int[] codePointStarts;

    /**
     * Text on one line with single spaces: every kind of line break and white space, the
     * Unicode line and paragraph separators too (JavaPoet would end a string literal there).
     */
    static String oneLine(String s) {
        return s.replaceAll("[\\s\\u0085\\u2028\\u2029]+", " ").trim();
    }

    Ast.Annotation annotation(RulesParser.AnnotationContext c) {
        if (c == null || c.getChildCount() < 2) return null;
        return new Ast.Annotation(c.getChild(1).getText(), pos(c.getStart()));
    }
}
