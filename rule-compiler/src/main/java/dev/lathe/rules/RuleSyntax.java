package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.grammar.RulesLexer;
import dev.lathe.rules.grammar.RulesParser;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;

/**
 * Reads rule text into the syntax tree with the ANTLR grammar, collecting every syntax error
 * (ANTLR recovers and goes on, so one run reports them all) as located diagnostics.
 */
public final class RuleSyntax {
    private RuleSyntax() {}

    /** The tree (possibly partial) and the syntax errors found. */
    public record Result(Ast.RuleFile file, List<Diagnostic> errors) {}

    public static Result parse(String file, String text) {
        List<Diagnostic> errors = new ArrayList<>();
        BaseErrorListener listener = new BaseErrorListener() {
            @Override
            public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col, String msg,
                                    RecognitionException e) {
                // A bad character was reported when the tokens were read; the parser's complaint
                // about the same token would say it twice.
                if (offending instanceof Token t && t.getType() == RulesLexer.BAD_CHAR) return;
                errors.add(Diagnostic.error(file, line, col + 1, friendly(msg, offending), Diagnostic.lineOf(text, line)));
            }
        };
        RulesLexer lexer = new RulesLexer(CharStreams.fromString(text, file));
        lexer.removeErrorListeners();
        lexer.addErrorListener(listener);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        for (Token t : tokens.getTokens()) {
            if (t.getType() == RulesLexer.BAD_CHAR) {
                errors.add(Diagnostic.error(file, t.getLine(), t.getCharPositionInLine() + 1,
                        "unexpected character '" + t.getText() + "'", Diagnostic.lineOf(text, t.getLine())));
            }
        }
        RulesParser parser = new RulesParser(tokens);
        parser.removeErrorListeners();
        parser.addErrorListener(listener);
        RulesParser.RuleFileContext tree = parser.ruleFile();
        Ast.RuleFile ast = new AstBuilder(file, text, tokens).file(tree);
        errors.sort((a, b) -> a.line() != b.line() ? Integer.compare(a.line(), b.line()) : Integer.compare(a.column(), b.column()));
        return new Result(ast, errors);
    }

    private static String friendly(String msg, Object offending) {
        String m = msg.replace("<EOF>", "end of file");
        if (offending instanceof Token t && t.getType() == RulesLexer.BAD_CHAR) return "unexpected character '" + t.getText() + "'";
        return m;
    }

    /** Converts ANTLR's parse tree into {@link Ast} records. */
    private static final class AstBuilder {
        private final String file;
        private final String text;
        private final CommonTokenStream tokens;

        AstBuilder(String file, String text, CommonTokenStream tokens) {
            this.file = file;
            this.text = text;
            this.tokens = tokens;
        }

        static Ast.Pos pos(Token t) {
            return new Ast.Pos(t.getLine(), t.getCharPositionInLine() + 1);
        }

        static Ast.Pos pos(ParserRuleContext c) {
            return pos(c.getStart());
        }

        Ast.RuleFile file(RulesParser.RuleFileContext c) {
            String passName = null;
            if (c.passDecl() != null && c.passDecl().name != null) passName = c.passDecl().name.getText();
            if (passName == null) {
                String base = file.replace('\\', '/');
                base = base.substring(base.lastIndexOf('/') + 1);
                passName = base.endsWith(".rules") ? base.substring(0, base.length() - 6) : base;
            }
            List<Ast.Rule> rules = new ArrayList<>();
            for (RulesParser.RuleDeclContext r : c.ruleDecl()) {
                Ast.Rule rule = rule(r);
                if (rule != null) rules.add(rule);
            }
            return new Ast.RuleFile(file, passName, rules);
        }

        Ast.Rule rule(RulesParser.RuleDeclContext c) {
            if (c.pattern == null || c.replacement == null || c.arrow == null) return null;
            List<Ast.Condition> conds = new ArrayList<>();
            if (c.conditions() != null) {
                for (RulesParser.ConditionContext cc : c.conditions().condition()) {
                    if (cc.name == null) continue;
                    List<Ast.Expr> args = new ArrayList<>();
                    for (RulesParser.ExprContext e : cc.expr()) {
                        Ast.Expr x = expr(e);
                        if (x != null) args.add(x);
                    }
                    conds.add(new Ast.Condition(cc.name.getText(), args, pos(cc.name)));
                }
            }
            Ast.Expr pattern = expr(c.pattern);
            Ast.Expr replacement = expr(c.replacement);
            if (pattern == null || replacement == null) return null;
            int stop = c.getStop() == null ? c.getStart().getStopIndex() : c.getStop().getStopIndex();
            String ruleText = text.substring(c.getStart().getStartIndex(), Math.max(stop + 1, c.getStart().getStartIndex()));
            ruleText = ruleText.replaceAll("\\s+", " ").trim();
            // Mesa's rules have no names and the mission writes `a * 1.0 => a` bare, so a name is
            // optional; the line number keeps the generated method and test names unique and
            // findable.
            Token nameToken = c.name != null ? c.name : c.getStart();
            String name = c.name != null ? c.name.getText() : "line_" + nameToken.getLine();
            return new Ast.Rule(name, pos(nameToken), pattern, c.arrow.getType() == RulesLexer.ARROW, replacement,
                    conds, ruleText);
        }

        Ast.Expr expr(RulesParser.ExprContext c) {
            if (c == null || c.exception != null && c.getChildCount() == 0) return null;
            if (c instanceof RulesParser.AnnotatedContext a) {
                Ast.Expr inner = expr(a.expr());
                Ast.Annotation ann = annotation(a.annotation());
                return inner == null || ann == null ? inner : new Ast.Annotated(inner, ann, ann.pos());
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
                return new Ast.Call(k.name.getText(), anns, args, pos(k.name));
            }
            if (c instanceof RulesParser.UnaryContext u) {
                Ast.Expr x = expr(u.expr());
                return x == null ? null : new Ast.Unary(u.op.getText(), x, pos(u.op));
            }
            if (c instanceof RulesParser.BinaryContext b) {
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
                    default -> switch (t.getText()) {
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

        Ast.Annotation annotation(RulesParser.AnnotationContext c) {
            if (c == null || c.getChildCount() < 2) return null;
            return new Ast.Annotation(c.getChild(1).getText(), pos(c.getStart()));
        }

        @SuppressWarnings("unused")
        String source(Interval iv) {
            return tokens.getText(iv);
        }
    }
}
