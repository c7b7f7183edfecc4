package dev.lathe.rules;

import dev.lathe.ir.rewrite.Predicate;

import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.grammar.RulesLexer;
import dev.lathe.rules.grammar.RulesParser;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.InputMismatchException;
import org.antlr.v4.runtime.NoViableAltException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.WritableToken;
import org.antlr.v4.runtime.misc.IntervalSet;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/**
 * Reads rule text into the syntax tree with the ANTLR grammar, collecting every syntax error
 * (ANTLR recovers and goes on, so one run reports them all) as located diagnostics.
 *
 * <p>Three things are added to what ANTLR does by itself. Messages are written for people
 * ({@code unexpected 'x'; expected ')' or ','}, never token names such as {@code IDENT}), and an
 * error at the end of the file is placed right after the last token rather than on a blank line.
 * A rule with any syntax error is left out of the tree: ANTLR's recovery patches a broken rule
 * (inserting a ')' here, dropping a token there), and checking the patched rule would report
 * errors the user never wrote. And nesting is bounded ({@link #MAX_DEPTH}): ANTLR, the tree
 * builder and the later passes recurse over expressions, and a pathological file (thousands of
 * nested calls) must get an error, not a stack overflow.
 */
public final class RuleSyntax {
    private RuleSyntax() {}

    /** The deepest nesting of operations and parentheses a rule may have (real rules use under 10). */
    public static final int MAX_DEPTH = 64;

    /** The tree (the rules without syntax errors) and the syntax errors found. */
    public record Result(Ast.RuleFile file, List<Diagnostic> errors) {}

    /**
     * The text as the lexer reads it: without a leading byte-order mark, and with a lone carriage
     * return (old Mac line ends) made a newline, so that line numbers count every line end. The
     * length changes only by the mark, so columns stay those of the file.
     */
    public static String normalize(String text) {
        String t = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (t.indexOf('\r') < 0) return t;
        StringBuilder sb = new StringBuilder(t);
        for (int i = 0; i < sb.length(); i++) {
            if (sb.charAt(i) == '\r' && (i + 1 == sb.length() || sb.charAt(i + 1) != '\n')) sb.setCharAt(i, '\n');
        }
        return sb.toString();
    }

    public static Result parse(String file, String rawText) {
        String text = normalize(rawText);
        List<Diagnostic> errors = new ArrayList<>();
        // Token indexes of the syntax errors, to leave the rules holding them out of the tree.
        java.util.TreeSet<Integer> parserErrors = new java.util.TreeSet<>();
        java.util.TreeSet<Integer> lexicalErrors = new java.util.TreeSet<>();
        // Tokens before which a ';' was missing: the start of the next rule, not a fragment.
        java.util.Set<Integer> missingSemicolon = new java.util.HashSet<>();
        // Rules pasted from Mesa get one error each, saying how Lathe writes them, and are
        // blanked out (same length and lines) so that the lexer and parser see nothing of them.
        MesaTuples.Found mesa = MesaTuples.blank(file, text);
        errors.addAll(mesa.errors());
        RulesLexer lexer = new RulesLexer(CharStreams.fromString(mesa.text(), file));
        lexer.removeErrorListeners();
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        Token lastBadChar = null;
        for (Token t : tokens.getTokens()) {
            String problem = switch (t.getType()) {
                case RulesLexer.BAD_CHAR -> badCharMessage(tokens, t);
                case RulesLexer.BAD_NUMBER -> nextVisibleIs(tokens, t, ":")
                        ? "a rule name cannot start with a digit: '" + t.getText() + "'"
                        : previousIs(tokens, t, "pass")
                        ? "a pass name cannot start with a digit: '" + t.getText() + "'"
                        : previousIs(tokens, t, "@") && t.getText().matches("(1|8|16|32|64)[a-zA-Z_]+")
                        ? "'@" + t.getText() + "' is not an annotation: write the size alone, as in @" + t.getText().replaceAll("[a-zA-Z_]+$", "")
                        : t.getText().matches("[0-9]+(\\.[0-9]*)?[fFuUlLdD]+")
                        ? "'" + t.getText() + "' has a type suffix, which literals do not take: write 1.0 for a float, 1 for"
                        + " an integer, and annotate a size as in 1@32"
                        : t.getText().matches("[0-9]+[a-zA-Z_][a-zA-Z0-9_]*") && !t.getText().matches("0[xX].*|[0-9]+[eE].*")
                        ? "'" + t.getText() + "' is not a number, and a variable name cannot start with a digit"
                        : "malformed number '" + t.getText() + "'";
                case RulesLexer.UNTERMINATED_COMMENT -> "unterminated comment: '/*' without a closing '*/'";
                default -> null;
            };
            if (t.getType() == RulesLexer.BAD_CHAR || t.getType() == RulesLexer.BAD_NUMBER) {
                // The same stray character (or malformed word) again in the same rule (`a` quoted in backticks) is
                // the same mistake.
                boolean again = lastBadChar != null && (lastBadChar.getText().equals(t.getText())
                        || closes(lastBadChar.getText(), t.getText()))
                        && lastBadChar.getLine() == t.getLine() && !semicolonBetween(tokens, lastBadChar, t)
                        || lastBadChar != null && arrowWithLookalike(lastBadChar, t);
                lastBadChar = t;
                if (again) {
                    lexicalErrors.add(t.getTokenIndex());
                    continue;
                }
            }
            if (problem != null) {
                errors.add(Diagnostic.error(file, t.getLine(), t.getCharPositionInLine() + 1, problem,
                        Diagnostic.lineOf(text, t.getLine())));
                lexicalErrors.add(t.getTokenIndex());
            }
        }
        for (Token tooDeep : hideTooDeep(tokens.getTokens())) {
            // ANTLR itself recurses once per level: the rule is hidden from the parser.
            errors.add(Diagnostic.error(file, tooDeep.getLine(), tooDeep.getCharPositionInLine() + 1, tooDeepMessage(),
                    Diagnostic.lineOf(text, tooDeep.getLine())));
        }
        RulesParser parser = new RulesParser(tokens);
        parser.removeErrorListeners();
        Messages messages = new Messages();
        parser.setErrorHandler(messages);
        parser.addErrorListener(new BaseErrorListener() {
            @Override
            public void syntaxError(Recognizer<?, ?> recognizer, Object offending, int line, int col, String msg,
                                    RecognitionException e) {
                Token t = offending instanceof Token tok ? tok : null;
                if (t == null) {
                    errors.add(Diagnostic.error(file, line, col + 1, msg, Diagnostic.lineOf(text, line)));
                    return;
                }
                int at = t.getTokenIndex();
                boolean endsRule = msg.startsWith(MISSING_SEMICOLON);
                // `if is_ge_zero(a) is_ge_zero(b)`: the rule goes on, a ',' is missing; what follows
                // is part of this rule, so the error after it is not reported again.
                boolean missingComma = endsRule && conditionContinues(tokens, t);
                if (missingComma) msg = "missing ',' between conditions";
                String hyphenatedPass = endsRule ? hyphenatedPassName(tokens, t) : null;
                if (hyphenatedPass != null) {
                    msg = "a pass name is letters, digits and '_', as in " + hyphenatedPass;
                    missingComma = true; // the rest of the line belongs to the pass line: nothing more to say
                }
                // One error per rule: what ANTLR reports after recovering inside a rule is almost
                // always a consequence of the first error (a token it dropped or made up).
                // The parser's errors up to this token, and the lexer's (all in already) before it:
                // a lexer error at this very token is the bad token, not a reason to stay silent.
                Integer parsed = parserErrors.floor(at);
                Integer lexed = lexicalErrors.floor(at - 1);
                boolean cascade = parsed != null && sameRule(tokens, parsed, at, missingSemicolon)
                        || lexed != null && sameRule(tokens, lexed, at, missingSemicolon);
                if (endsRule && !missingComma) {
                    // The rule is whole once ANTLR puts in the ';' (it is still checked), and the
                    // token is where the next rule starts.
                    missingSemicolon.add(at);
                } else {
                    parserErrors.add(at);
                }
                // A bad token was reported when the tokens were read.
                // (A missing ';' is said even before a bad token: the rule before it is whole.)
                if (isBadToken(t.getType()) && !endsRule || cascade) return;
                Messages.Hint hint = messages.hints.get(t);
                if (hint != null && msg.startsWith(hint.message())) {
                    // The mistake is earlier than where the parser noticed it.
                    Token a = hint.at();
                    line = a.getLine();
                    col = a.getCharPositionInLine() + (hint.after() ? a.getText().length() : 0);
                } else if (t.getType() == Token.EOF || endsRule) {
                    // Point just after the last token: where the missing text belongs.
                    Token last = previousVisible(tokens, at);
                    if (last != null) {
                        line = last.getLine();
                        col = last.getCharPositionInLine() + last.getText().length();
                    }
                }
                errors.add(Diagnostic.error(file, line, col + 1, msg, Diagnostic.lineOf(text, line)));
            }
        });
        RulesParser.RuleFileContext tree = parser.ruleFile();
        AstBuilder builder = new AstBuilder(file, text, tokens, errors);
        java.util.TreeSet<Integer> errorTokens = new java.util.TreeSet<>(parserErrors);
        errorTokens.addAll(lexicalErrors);
        Ast.RuleFile ast = builder.file(tree, errorTokens, missingSemicolon);
        sort(errors);
        return new Result(ast, errors);
    }

    private static void sort(List<Diagnostic> errors) {
        errors.sort((a, b) -> a.line() != b.line() ? Integer.compare(a.line(), b.line()) : Integer.compare(a.column(), b.column()));
    }

    /** A stray closing bracket after its stray opening one: {@code fmul[a, 1.0]} is one mistake. */
    private static boolean closes(String open, String close) {
        return open.equals("[") && close.equals("]") || open.equals("{") && close.equals("}");
    }

    private static boolean isBadToken(int type) {
        return type == RulesLexer.BAD_CHAR || type == RulesLexer.BAD_NUMBER;
    }

    /**
     * What a stray character is, and what was likely meant: '=' alone is half an arrow; a
     * character that looks like ASCII punctuation (pasted from a document or typed with a
     * non-English input method) names the ASCII one. '=' directly followed by a lookalike of '>'
     * is one mistake, reported at the '=' (the lookalike's own token is then skipped as a repeat).
     */
    private static String badCharMessage(CommonTokenStream tokens, Token t) {
        String s = t.getText();
        Token next = t.getTokenIndex() + 1 < tokens.size() ? tokens.get(t.getTokenIndex() + 1) : null;
        if (s.equals("=")) {
            if (next != null && arrowWithLookalike(t, next)) {
                return "unexpected characters '=" + next.getText() + "': " + shownChar(next.getText())
                        + " only looks like '>'; the arrow is '=>' in ASCII";
            }
            Token before = previousVisible(tokens, t.getTokenIndex());
            if (before != null && before.getType() == RulesLexer.IDENT && Messages.startsRule(tokens, before)) {
                return "unexpected character '=': a rule's name is followed by ':', as in " + before.getText() + ": …";
            }
            return "unexpected character '=' (the arrow is '=>', or '~=>' for an inexact rule)";
        }
        if (s.equals("[") || s.equals("{")) {
            return "unexpected character '" + s + "': an op's operands go in parentheses, as in fmul(a, 1.0)";
        }
        if (s.equals(".")) {
            if (next != null && next.getType() == RulesLexer.INT && next.getStartIndex() == t.getStopIndex() + 1) {
                return "unexpected character '.': a float needs a digit before its point, as in 0." + next.getText();
            }
        }
        String ascii = asciiLookalike(s.codePointAt(0));
        if (ascii == null) return "unexpected character " + shownChar(s);
        if (ascii.equals("=>")) return "unexpected character " + shownChar(s) + ": the arrow is '=>' in ASCII";
        if (ascii.isEmpty()) return "unexpected character " + shownChar(s) + ", an invisible one: delete it";
        if (ascii.isBlank()) return "unexpected character " + shownChar(s) + ", a non-ASCII space: use a plain space";
        return "unexpected character " + shownChar(s) + ", which looks like '" + ascii + "': write '" + ascii + "'";
    }

    /** A stray '=' glued to a stray lookalike of '>' ({@code =＞}): one mistake, the arrow. */
    private static boolean arrowWithLookalike(Token eq, Token next) {
        return eq.getText().equals("=") && next.getType() == RulesLexer.BAD_CHAR && next.getStartIndex() == eq.getStopIndex() + 1
                && ">".equals(asciiLookalike(next.getText().codePointAt(0)));
    }

    /** The ASCII text a non-ASCII character is easily mistaken for, or null. */
    static String asciiLookalike(int cp) {
        if (cp >= 0xFF01 && cp <= 0xFF5E) return String.valueOf((char) (cp - 0xFEE0)); // fullwidth forms
        return switch (cp) {
            case 0x00A0, 0x2000, 0x2001, 0x2002, 0x2003, 0x2007, 0x2009, 0x200A, 0x202F, 0x3000 -> " ";
            case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF -> "";
            case 0x2212, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014 -> "-";
            case 0x2018, 0x2019 -> "'";
            case 0x00D7, 0x2217, 0x22C5 -> "*";
            case 0x00F7, 0x2215 -> "/";
            case 0x2264 -> "<=";
            case 0x2265 -> ">=";
            case 0x2260 -> "!=";
            case 0x21D2, 0x27F9 -> "=>";
            case 0x2192 -> "=>";
            case 0x2227 -> "&";
            case 0x2228 -> "|";
            case 0x00AC -> "!";
            case 0x037E -> ";";
            case 0x223C, 0x02DC, 0x2053 -> "~";
            // Cyrillic and Greek letters drawn like Latin ones (a keyboard layout left switched)
            case 0x0430 -> "a";
            case 0x0435 -> "e";
            case 0x043E, 0x03BF -> "o";
            case 0x0440 -> "p";
            case 0x0441 -> "c";
            case 0x0443 -> "y";
            case 0x0445 -> "x";
            case 0x0456 -> "i";
            case 0x0458 -> "j";
            case 0x0455 -> "s";
            case 0x0410, 0x0391 -> "A";
            case 0x0412, 0x0392 -> "B";
            case 0x0415, 0x0395 -> "E";
            case 0x041A, 0x039A -> "K";
            case 0x041C, 0x039C -> "M";
            case 0x041D, 0x0397 -> "H";
            case 0x041E, 0x039F -> "O";
            case 0x0420, 0x03A1 -> "P";
            case 0x0421 -> "C";
            case 0x0422, 0x03A4 -> "T";
            case 0x0425, 0x03A7 -> "X";
            default -> null;
        };
    }

    /** A character as a message shows it: control characters and non-ASCII ones by code point too. */
    private static String shownChar(String s) {
        return Diagnostic.describeChar(s.codePointAt(0));
    }

    private static String tooDeepMessage() {
        return "the expression is nested more than " + MAX_DEPTH + " levels deep; rules that deep are not supported";
    }

    /**
     * The tokens at which the nesting of parentheses and prefix operators passes
     * {@link #MAX_DEPTH} (what ANTLR's recursion would follow; chains of infix operators are
     * parsed by a loop and measured on the tree afterwards). Each rule holding one is moved to
     * the hidden channel, from the token after the previous ';' through its own ';', so the
     * parser goes on with the next rule.
     */
    private static List<Token> hideTooDeep(List<Token> all) {
        List<Token> found = new ArrayList<>();
        int parens = 0, prefix = 0, ruleStart = 0, named = -1;
        Token prev = null, tooDeep = null;
        for (int i = 0; i < all.size(); i++) {
            Token t = all.get(i);
            if (t.getChannel() != Token.DEFAULT_CHANNEL) continue;
            boolean end = t.getType() == Token.EOF || t.getText().equals(";");
            // A deep rule without its ';' ends where the next named rule starts.
            boolean nextRule = parens == 0 && startsNamedRule(all, i);
            if (tooDeep != null && (end || nextRule)) {
                found.add(tooDeep);
                // From the deep rule's name when it has one: a rule before it that lacks its ';'
                // stays visible, to get its own errors.
                int first = named >= 0 ? named : ruleStart;
                int last = t.getType() == Token.EOF || nextRule ? i - 1 : i;
                for (int k = first; k <= last; k++) ((WritableToken) all.get(k)).setChannel(Token.HIDDEN_CHANNEL);
                tooDeep = null;
            }
            if (end || nextRule) {
                parens = 0;
                prefix = 0;
                named = nextRule ? i : -1;
                ruleStart = nextRule ? i : i + 1;
            }
            if (end) {
                prev = t;
                continue;
            }
            switch (t.getText()) {
                case "(" -> parens++;
                case ")" -> parens = Math.max(0, parens - 1);
                case "-", "~", "!" -> {
                    if (!endsOperand(prev)) prefix++;
                }
                default -> {
                    if (endsOperand(t)) prefix = 0;
                }
            }
            if (tooDeep == null && parens + prefix > MAX_DEPTH) tooDeep = t;
            prev = t;
        }
        return found;
    }

    /** Whether a named rule starts at token {@code i}: a name followed by ':'. */
    private static boolean startsNamedRule(List<Token> all, int i) {
        Token t = all.get(i);
        if (t.getChannel() != Token.DEFAULT_CHANNEL || t.getType() != RulesLexer.IDENT) return false;
        for (int k = i + 1; k < all.size(); k++) {
            Token n = all.get(k);
            if (n.getChannel() == Token.DEFAULT_CHANNEL) return n.getText().equals(":");
        }
        return false;
    }

    private static boolean endsOperand(Token t) {
        if (t == null) return false;
        return switch (t.getType()) {
            case RulesLexer.IDENT, RulesLexer.INT, RulesLexer.HEX, RulesLexer.FLOAT, RulesLexer.CONSTVAR -> true;
            default -> switch (t.getText()) {
                case ")", "inf", "nan", "true", "false" -> true;
                default -> false;
            };
        };
    }

    /**
     * Whether token {@code b} is in the same rule as the earlier token {@code a}: no rule
     * boundary lies between them — a ';' (from {@code a} on) not followed by leftovers on its
     * line, a reported missing ';', or a rule's name and ':' with {@code b} past the ':'.
     */
    private static boolean sameRule(CommonTokenStream tokens, int a, int b, java.util.Set<Integer> missingSemicolon) {
        if (b <= a) return true;
        for (int i = a; i < b; i++) {
            Token t = tokens.get(i);
            // A ';' ends a rule (even one hidden for its depth) unless what follows on its line is
            // leftovers (`=> ;b`); a name and ':' start a rule, when the error is past the ':'.
            if (t.getText().equals(";") && !leftoversFollow(tokens, i)) return false;
            if (i > a && missingSemicolon.contains(i)) return false;
            // ... unless it is on the line of the first error, in the middle of it (`x ? a : b`):
            // rules start on lines of their own.
            if (startsNamedRule(tokens.getTokens(), i) && nextVisible(tokens, i) < b
                    && (t.getLine() != tokens.get(a).getLine() || i == a)) {
                return false;
            }
        }
        return !missingSemicolon.contains(b) || b == a;
    }

    /** Whether the ';' at {@code i} is followed on its own line by something other than a named rule. */
    private static boolean leftoversFollow(CommonTokenStream tokens, int i) {
        if (tokens.get(i).getChannel() != Token.DEFAULT_CHANNEL) return false;
        int n = nextVisible(tokens, i);
        if (n < 0) return false;
        Token next = tokens.get(n);
        return next.getType() != Token.EOF && next.getLine() == tokens.get(i).getLine()
                && !startsNamedRule(tokens.getTokens(), n);
    }

    private static boolean previousIs(CommonTokenStream tokens, Token t, String text) {
        Token p = previousVisible(tokens, t.getTokenIndex());
        return p != null && p.getText().equals(text);
    }

    private static boolean nextVisibleIs(CommonTokenStream tokens, Token t, String text) {
        int n = nextVisible(tokens, t.getTokenIndex());
        return n >= 0 && tokens.get(n).getText().equals(text);
    }

    private static boolean semicolonBetween(CommonTokenStream tokens, Token a, Token b) {
        for (int i = a.getTokenIndex() + 1; i < b.getTokenIndex(); i++) {
            Token t = tokens.get(i);
            if (t.getChannel() == Token.DEFAULT_CHANNEL && t.getText().equals(";")) return true;
        }
        return false;
    }

    private static int nextVisible(CommonTokenStream tokens, int i) {
        for (int k = i + 1; k < tokens.size(); k++) {
            if (tokens.get(k).getChannel() == Token.DEFAULT_CHANNEL) return k;
        }
        return -1;
    }

    private static Token previousVisible(CommonTokenStream tokens, int index) {
        for (int i = index - 1; i >= 0; i--) {
            Token t = tokens.get(i);
            if (t.getChannel() == Token.DEFAULT_CHANNEL) return t;
        }
        return null;
    }

    private static final String MISSING_SEMICOLON = "missing ';'";

    /** {@code pass my-pass;}: the name as it could be written (my_pass), when {@code t} is its first '-'. */
    private static String hyphenatedPassName(CommonTokenStream tokens, Token t) {
        Token name = previousVisible(tokens, t.getTokenIndex());
        Token pass = name == null ? null : previousVisible(tokens, name.getTokenIndex());
        if (!t.getText().equals("-") || pass == null || !pass.getText().equals("pass") || name.getType() != RulesLexer.IDENT) {
            return null;
        }
        StringBuilder sb = new StringBuilder(name.getText());
        for (Token k = t; k != null && !k.getText().equals(";") && k.getType() != Token.EOF && k.getLine() == t.getLine();
             k = tokenAfter(tokens, k)) {
            sb.append(k.getText().equals("-") ? "_" : k.getText());
        }
        return sb.toString();
    }

    private static Token tokenAfter(CommonTokenStream tokens, Token t) {
        int n = nextVisible(tokens, t.getTokenIndex());
        return n < 0 ? null : tokens.get(n);
    }

    /** A known condition's call at {@code t}, in a rule that already has 'if': a condition list going on. */
    private static boolean conditionContinues(CommonTokenStream tokens, Token t) {
        return startsConditionCall(tokens, t) && inConditions(tokens, t);
    }

    /** Whether {@code t} starts a call of a known condition: {@code is_zero(}. */
    private static boolean startsConditionCall(CommonTokenStream tokens, Token t) {
        return t != null && t.getType() == RulesLexer.IDENT && dev.lathe.ir.rewrite.Predicate.bySpelling(t.getText()) != null
                && nextVisibleIs(tokens, t, "(");
    }

    /** Whether token {@code t} comes after an 'if' of the rule that holds it (a ';' ends the search). */
    private static boolean inConditions(CommonTokenStream tokens, Token t) {
        for (Token k = t; k != null && !k.getText().equals(";"); k = previousVisible(tokens, k.getTokenIndex())) {
            if (k.getText().equals("if")) return true;
        }
        return false;
    }

    /**
     * ANTLR's error strategy with messages for people: tokens by what they are ("a name", "an
     * expression"), keywords marked reserved, and a missing ';' at the end of a line said as such.
     */
    private static final class Messages extends DefaultErrorStrategy {
        /** The hint each message was made from, by the token the parser reported it at. */
        final java.util.Map<Token, Hint> hints = new java.util.HashMap<>();

        @Override
        protected void reportNoViableAlternative(Parser p, NoViableAltException e) {
            // The tokens expected at the start of the decision, not where it failed: leave them out.
            report(p, e.getOffendingToken(), e, null);
        }

        @Override
        protected void reportInputMismatch(Parser p, InputMismatchException e) {
            report(p, e.getOffendingToken(), e, e.getExpectedTokens());
        }

        @Override
        protected void reportUnwantedToken(Parser p) {
            if (inErrorRecoveryMode(p)) return;
            beginErrorCondition(p);
            report(p, p.getCurrentToken(), null, getExpectedTokens(p));
        }

        @Override
        protected void reportMissingToken(Parser p) {
            if (inErrorRecoveryMode(p)) return;
            beginErrorCondition(p);
            Token t = p.getCurrentToken();
            IntervalSet expected = getExpectedTokens(p);
            Token prev = previousVisible((CommonTokenStream) p.getInputStream(), t.getTokenIndex());
            if (prev != null && prev.getText().equals(")") && t.getLine() == prev.getLine()
                    && (t.getText().equals("and") || t.getText().equals("or"))
                    && p.getContext() instanceof RulesParser.RuleDeclContext rule && rule.conditions() != null) {
                // `if c1(a) and c2(b)`: the word reads as the name of a next rule.
                p.notifyErrorListeners(t, "unexpected '" + t.getText() + "': conditions are separated by ',' and must "
                        + "all hold" + (t.getText().equals("or") ? " (for either of two, write two rules)" : ""), null);
                return;
            }
            if (expected.contains(tokenType(p, "';'")) && prev != null) {
                // ANTLR goes on as if the ';' were there: the next rule starts at t.
                p.notifyErrorListeners(t, MISSING_SEMICOLON + " after '" + prev.getText() + "'", null);
                return;
            }
            report(p, t, null, expected);
        }

        /**
         * Never drops a ';' as an extraneous token: it ends a rule, and dropping it would read
         * the next rule as the rest of the broken one (and report its first token as an error).
         */
        @Override
        protected Token singleTokenDeletion(Parser p) {
            if (p.getCurrentToken().getText().equals(";")) return null;
            return super.singleTokenDeletion(p);
        }

        /** Recovery inside a rule stops at its ';' too, for the same reason. */
        @Override
        protected IntervalSet getErrorRecoverySet(Parser p) {
            IntervalSet set = new IntervalSet(super.getErrorRecoverySet(p));
            set.add(tokenType(p, "';'"));
            return set;
        }

        /**
         * Between rules, tokens that cannot start one (a reserved word as a rule name, a stray
         * ')') are reported once and skipped up to a token that can, and reading goes on from
         * there. ANTLR's own recovery there gives up on the rest of the file.
         */
        @Override
        public void sync(Parser p) throws RecognitionException {
            if (!(p.getContext() instanceof RulesParser.RuleFileContext)) {
                super.sync(p);
                return;
            }
            TokenStream in = p.getInputStream();
            IntervalSet expected = p.getExpectedTokens();
            if (in.LA(1) == Token.EOF || expected.contains(in.LA(1))) return;
            Token t = p.getCurrentToken();
            // Right after an error in the rule before (its recovery stopped here), these tokens
            // are that error's leftovers.
            if (!inErrorRecoveryMode(p)) p.notifyErrorListeners(t, message(p, t, expected), null);
            while (in.LA(1) != Token.EOF && !expected.contains(in.LA(1))) p.consume();
            // (No endErrorCondition here: it would also clear ANTLR's guard against recovering
            // at the same token forever.)
        }

        private void report(Parser p, Token t, RecognitionException e, IntervalSet expected) {
            p.notifyErrorListeners(t, message(p, t, expected), e);
        }

        private String message(Parser p, Token t, IntervalSet expected) {
            TokenStream in = p.getInputStream();
            Token prev = t.getTokenIndex() > 0 ? previousVisible((CommonTokenStream) in, t.getTokenIndex()) : null;
            boolean wantsSemicolon = expected != null && expected.contains(tokenType(p, "';'"));
            if (wantsSemicolon && prev != null && (t.getType() == Token.EOF || t.getLine() > prev.getLine())
                    && !prev.getText().equals(";")) {
                return MISSING_SEMICOLON + " after '" + prev.getText() + "'";
            }
            Token comment = midRuleHash((CommonTokenStream) in, t.getTokenIndex());
            String commentHint = comment == null ? "" : " (the '#' at " + comment.getLine() + ":"
                    + (comment.getCharPositionInLine() + 1) + " starts a comment to the end of its line; "
                    + "a constant-only variable is written without a space, as in #c)";
            Hint hint = hint((CommonTokenStream) in, t);
            if (hint != null) {
                hints.put(t, hint);
                return hint.message() + commentHint;
            }
            String found = t.getType() == Token.EOF ? "unexpected end of file" : "unexpected '" + t.getText() + "'";
            String msg = expected == null ? found : found + "; expected " + describe(p, expected);
            if (isKeyword(t) && (expected == null || expected.contains(RulesLexer.IDENT))) msg += " ('" + t.getText() + "' is a reserved word)";
            msg += commentHint;
            if (prev != null && prev.getType() == RulesLexer.CONSTVAR && startsRule((CommonTokenStream) in, prev)) {
                msg += " ('" + prev.getText() + "' reads as a constant variable; a comment starts with '# ' or '//')";
            }
            if (prev != null && prev.getType() == RulesLexer.IDENT && prev.getText().equalsIgnoreCase("pass")
                    && startsRule((CommonTokenStream) in, prev)) {
                msg += " (the header is written 'pass NAME;', in lower case)";
            } else if (prev != null && prev.getType() == RulesLexer.IDENT && startsRule((CommonTokenStream) in, prev)
                    && t.getType() != Token.EOF && !t.getText().equals(":")) {
                msg += " (a rule's name is followed by ':', as in " + prev.getText() + ": …)";
            }
            return msg;
        }

        /**
         * A '#' comment that ends a line in the middle of the rule before {@code at} (searched
         * back to the previous ';'): '#' and a space start a comment, so {@code imul(a, # c)}
         * loses the rest of its line, and the error shows up later.
         */
        private static Token midRuleHash(CommonTokenStream in, int at) {
            for (int i = Math.min(at, in.size()) - 1; i >= 0; i--) {
                Token c = in.get(i);
                if (c.getChannel() == Token.DEFAULT_CHANNEL && c.getText().equals(";")) return null;
                if (c.getType() == RulesLexer.HASH_COMMENT && c.getText().matches("#[^)(,;]*[)(,;].*|.*=>.*")) {
                    Token before = previousVisible(in, i);
                    if (before != null && before.getLine() == c.getLine() && !before.getText().equals(";")) return c;
                }
            }
            return null;
        }

        /**
         * A mistake recognized by its shape, placed where it is rather than where parsing
         * failed: at token {@code at}, or just after it when {@code after}.
         */
        record Hint(Token at, boolean after, String message) {}

        /**
         * Mistakes that the parser notices only some tokens later: {@code --} taken for a
         * comment, a hyphen in a rule's name, a literal as a rule's name, a second pass line, a
         * ';' before 'if', {@code ->} for {@code =>}, a block comment closed early by a nested
         * one, and a rule left unfinished at the end of its line. Null when the error at
         * {@code t} is none of them.
         */
        static Hint hint(CommonTokenStream in, Token t) {
            Token first = ruleStart(in, t);
            Token second = first == null ? null : tokenAfter(in, first);
            if (first != null && first.getText().equals("-") && adjacent(first, second) && second.getText().equals("-")
                    && t.getLine() == first.getLine()) {
                return new Hint(first, false, "'--' does not start a comment: comments start with '#' or '//'");
            }
            Token prev = t.getTokenIndex() > 0 ? previousVisible(in, t.getTokenIndex()) : null;
            Token lineStart = t;
            for (Token k = prev; k != null && k.getLine() == t.getLine() && !k.getText().equals(";"); k = previousVisible(in, k.getTokenIndex())) {
                lineStart = k;
            }
            if (t.getText().equals(":") && lineStart.getType() == RulesLexer.IDENT && prev != lineStart) {
                StringBuilder name = new StringBuilder(lineStart.getText());
                Token dash = null;
                boolean hyphenated = true;
                for (Token k = tokenAfter(in, lineStart), before = lineStart; k != null && k != t; before = k, k = tokenAfter(in, k)) {
                    boolean wantDash = name.length() > 0 && before.getType() == RulesLexer.IDENT;
                    if (!adjacent(before, k) || (wantDash ? !k.getText().equals("-") : k.getType() != RulesLexer.IDENT)) {
                        hyphenated = false;
                        break;
                    }
                    if (wantDash && dash == null) dash = k;
                    name.append(wantDash ? "_" : k.getText());
                }
                if (hyphenated && dash != null) {
                    return new Hint(dash, false, "a rule name is letters, digits and '_', as in " + name + ":");
                }
            }
            if (t.getText().equals(":") && prev != null && prev == first && isReservedLiteral(prev)) {
                return new Hint(prev, false, "'" + prev.getText() + "' is a literal and cannot name a rule");
            }
            if (t.getText().equals("pass") && nextVisibleIs(in, t, ":")) {
                return new Hint(t, false, "'pass' is a keyword and cannot name a rule; choose another name");
            }
            if (t.getText().equals("pass") && t.getType() != RulesLexer.IDENT && prev != null
                    && (prev.getText().equals("(") || prev.getText().equals(","))) {
                return new Hint(t, false, "'pass' is a keyword and cannot name a variable; choose another name");
            }
            if (t.getText().equals("pass") && t.getType() != RulesLexer.IDENT && (prev != null && !prev.getText().equals(";")
                    || t != firstVisible(in))) {
                return new Hint(t, false, "a file has one 'pass' line, and it comes first");
            }
            if ((t.getText().equals("&") || t.getText().equals("|")) && prev != null && prev.getText().equals(t.getText())
                    && adjacent(prev, t)) {
                String op = t.getText();
                return new Hint(prev, false, "'" + op + op + "' is not an operator: write '" + op + "' (" + (op.equals("&") ? "iand" : "ior")
                        + ", which is '" + (op.equals("&") ? "and" : "or") + "' on booleans)");
            }
            if (t.getText().equals("*") && prev != null && prev.getText().equals("*") && adjacent(prev, t)) {
                return new Hint(prev, false, "'**' is not an operator: write fpow(a, b), or a product");
            }
            if (prev != null && prev.getType() == RulesLexer.CONSTVAR && startsRule(in, prev) && t.getLine() > prev.getLine()) {
                // `r: … => a; #fixme` then a rule on the next line: the word is where the mistake is
                return new Hint(prev, false, "'" + prev.getText() + "' reads as a constant variable that starts a rule;"
                        + " a comment starts with '# ' or '//'");
            }
            if (t.getText().equals("(") && prev != null && (prev.getText().equals("if") || prev.getText().equals(","))
                    && inConditions(in, prev) && startsConditionCall(in, tokenAfter(in, t))) {
                return new Hint(t, false, "a condition is written without parentheses around it, as in if is_gt_zero(a)");
            }
            if (t.getType() == RulesLexer.IDENT && prev != null && prev.getText().equals("not")
                    && startsConditionCall(in, t) && inConditions(in, prev)) {
                return new Hint(prev, false, "a condition cannot be negated with 'not': write the opposite condition"
                        + " (is_not_zero for is_zero, is_lt_zero for is_ge_zero …)");
            }
            if (prev != null && prev.getType() == RulesLexer.IDENT && Predicate.bySpelling(prev.getText()) != null
                    && !t.getText().equals("(") && t.getLine() == prev.getLine() && inConditions(in, prev)
                    && (t.getType() == RulesLexer.IDENT || t.getType() == RulesLexer.CONSTVAR)) {
                return new Hint(prev, false, "a condition is a call: write " + prev.getText() + "(" + t.getText().replace("#", "") + ")");
            }
            if (t.getText().equals("(") && prev != null && prev.getText().equals(")")) {
                // Mesa's 'fmul(is_used_once)' written as Lathe: fmul(is_used_once)(a, b)
                Token cond = previousVisible(in, prev.getTokenIndex());
                Token open = cond == null ? null : previousVisible(in, cond.getTokenIndex());
                Token op = open == null ? null : previousVisible(in, open.getTokenIndex());
                if (op != null && open.getText().equals("(") && op.getType() == RulesLexer.IDENT
                        && (cond.getText().equals("is_used_once") || Predicate.bySpelling(cond.getText()) != null)) {
                    return new Hint(cond, false, "this is Mesa's form of a condition on an op: write the operands in the op's"
                            + " parentheses" + (cond.getText().equals("is_used_once") ? " and @once after them, as in "
                            + op.getText() + "(a, b)@once" : " and the condition after 'if'"));
                }
            }
            if (t.getText().equals("(") && prev != null && (prev.getType() == RulesLexer.CONSTVAR
                    || prev.getType() == RulesLexer.IDENT && dev.lathe.ir.op.Op.byName(prev.getText()) == null
                    && Predicate.bySpelling(prev.getText()) == null)
                    && adjacent(prev, t) && tokenAfter(in, t) != null && Predicate.bySpelling(tokenAfter(in, t).getText()) != null) {
                // Mesa's '#b(is_not_zero)': a condition glued to its variable
                String name = prev.getText().replace("#", "");
                return new Hint(t, false, "this is Mesa's form of a condition on a variable: write " + prev.getText()
                        + " here and 'if " + tokenAfter(in, t).getText() + "(" + name + ")' after the replacement");
            }
            if (t.getText().equals("!") && prev != null && (prev.getText().equals("if") || prev.getText().equals(","))) {
                return new Hint(t, false, "a condition cannot be negated with '!': write the opposite condition"
                        + " (is_not_zero for is_zero, is_lt_zero for is_ge_zero …)");
            }
            if (prev != null && prev.getText().equals("if") && t.getType() != RulesLexer.IDENT) {
                return new Hint(prev, true, "'if' needs at least one condition after it, as in if is_gt_zero(a)");
            }
            if (prev != null && prev.getText().equals(",") && t.getType() != RulesLexer.IDENT && inConditions(in, prev)) {
                return new Hint(prev, true, "a condition must follow ',', as in is_gt_zero(a)");
            }
            if (prev != null && prev.getType() == RulesLexer.IDENT && !t.getText().equals("(") && !t.getText().equals(":")
                    && t.getLine() == prev.getLine() && inConditions(in, prev)
                    && (previousVisible(in, prev.getTokenIndex()).getText().equals("if")
                        || previousVisible(in, prev.getTokenIndex()).getText().equals(","))) {
                return new Hint(prev, false, "a condition is a call such as is_zero(a); a comparison belongs in the pattern");
            }
            if (t.getText().equals(">") && prev != null && prev.getText().equals("==") && adjacent(prev, t)) {
                return new Hint(prev, false, "'==>' is not an arrow: write '=>' (or '~=>' for an inexact rule)");
            }
            Token separator = conditionAfterSemicolon(in, first, t);
            if (separator != null) {
                return new Hint(separator, false, "conditions are separated by ',', not ';': the ';' ends the rule");
            }
            if (t.getText().equals("if") && prev != null && prev.getText().equals(";") && prev.getLine() == t.getLine()
                    && !nextVisibleIs(in, t, ":")) {
                return new Hint(prev, false, "a ';' before 'if': the conditions belong to the rule, before its ';'");
            }
            if (t.getText().equals(">") && prev != null && prev.getText().equals("-") && adjacent(prev, t)) {
                return new Hint(prev, false, "'->' is not an arrow: write '=>' (or '~=>' for an inexact rule)");
            }
            // A stray '*/': whatever came between the two '*/'s parsed as rules, so look back
            // past them for the comment that a nested '/*' seemed to keep open.
            boolean strayClose = t.getText().equals("*") && tokenAfter(in, t) != null && tokenAfter(in, t).getText().equals("/")
                    && adjacent(t, tokenAfter(in, t));
            for (int i = t.getTokenIndex() - 1; i >= 0; i--) {
                Token c = in.get(i);
                if (c.getChannel() == Token.DEFAULT_CHANNEL && c.getText().equals(";") && !strayClose) break;
                if (c.getType() == RulesLexer.BLOCK_COMMENT && c.getText().indexOf("/*", 2) >= 0) {
                    Token after = tokenAfter(in, c);
                    if (after == null || after.getTokenIndex() > t.getTokenIndex()) break;
                    int endLine = c.getLine() + (int) c.getText().chars().filter(ch -> ch == '\n').count();
                    return new Hint(after, false, "the comment that starts at " + c.getLine() + ":" + (c.getCharPositionInLine() + 1)
                            + " ends at its first '*/' (line " + endLine + "): block comments do not nest");
                }
            }
            Token last = unfinishedAt(in, t);
            if (last != null) {
                return new Hint(last, true, "unfinished rule after '" + last.getText() + "': '" + prev.getText() + ":' on line "
                        + prev.getLine() + " starts the next rule");
            }
            return null;
        }

        /**
         * {@code … if is_ge_zero(a); is_ge_zero(b);}: the error is in a "rule" that is one known
         * condition call, right after a rule with conditions; the ';' that ended that rule (the
         * real mistake), or null.
         */
        private static Token conditionAfterSemicolon(CommonTokenStream in, Token first, Token t) {
            if (!startsConditionCall(in, first) || first.getTokenIndex() == 0 || t.getTokenIndex() < first.getTokenIndex()) {
                return null;
            }
            Token semicolon = previousVisible(in, first.getTokenIndex());
            if (semicolon == null || !semicolon.getText().equals(";")) return null;
            return inConditions(in, previousVisible(in, semicolon.getTokenIndex())) ? semicolon : null;
        }

        private static boolean isReservedLiteral(Token t) {
            return isKeyword(t) && !t.getText().equals("pass") && !t.getText().equals("if");
        }

        private static Token firstVisible(CommonTokenStream in) {
            int n = nextVisible(in, -1);
            return n < 0 ? null : in.get(n);
        }

        /** The first visible token of the rule holding {@code t}: after the ';' before it. */
        private static Token ruleStart(CommonTokenStream in, Token t) {
            Token first = null;
            for (int i = t.getTokenIndex(); i >= 0; i--) {
                Token k = in.get(i);
                if (k.getChannel() != Token.DEFAULT_CHANNEL) continue;
                if (k.getText().equals(";") && i < t.getTokenIndex()) break;
                first = k;
            }
            return first;
        }

        /** Whether {@code b} follows {@code a} with no space between. */
        private static boolean adjacent(Token a, Token b) {
            return b != null && b.getType() != Token.EOF && b.getStartIndex() == a.getStopIndex() + 1;
        }

        /**
         * The last token of a rule that a named rule on a later line broke into ({@code if}
         * followed by {@code r2: …}): the parser took the next rule's name as part of this one
         * and fails at its ':'. Null when {@code t} is not such a ':'.
         */
        private static Token unfinishedAt(CommonTokenStream in, Token t) {
            if (!t.getText().equals(":") || t.getTokenIndex() < 2) return null;
            Token name = previousVisible(in, t.getTokenIndex());
            if (name == null || name.getType() != RulesLexer.IDENT) return null;
            Token last = previousVisible(in, name.getTokenIndex());
            if (last == null || last.getLine() >= name.getLine() || last.getText().equals(";")) return null;
            return last;
        }

        private static boolean startsRule(CommonTokenStream in, Token t) {
            Token before = previousVisible(in, t.getTokenIndex());
            return before == null || before.getText().equals(";");
        }

        private static boolean isKeyword(Token t) {
            return switch (t.getText()) {
                case "pass", "if", "inf", "nan", "true", "false" -> t.getType() != RulesLexer.IDENT;
                default -> false;
            };
        }

        private static int tokenType(Parser p, String literal) {
            Vocabulary v = p.getVocabulary();
            for (int i = 0; i <= v.getMaxTokenType(); i++) {
                if (literal.equals(v.getLiteralName(i))) return i;
            }
            return -2;
        }

        private static final String[] EXPRESSION_STARTS = {"IDENT", "INT", "HEX", "FLOAT", "CONSTVAR", "'inf'", "'nan'",
            "'true'", "'false'", "'('", "'-'", "'~'", "'!'"};
        private static final String[] OPERATORS = {"'*'", "'/'", "'%'", "'+'", "'-'", "'<<'", "'>>'", "'&'", "'^'",
            "'|'", "'<'", "'<='", "'>'", "'>='", "'=='", "'!='"};

        /** The expected tokens in words, with whole families named once. */
        private static String describe(Parser p, IntervalSet expected) {
            Vocabulary v = p.getVocabulary();
            java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
            for (int type : expected.toList()) names.add(type == Token.EOF ? "EOF" : v.getDisplayName(type));
            List<String> out = new ArrayList<>();
            if (names.containsAll(List.of(EXPRESSION_STARTS))) {
                names.removeAll(List.of(EXPRESSION_STARTS));
                out.add("an expression");
            }
            if (names.containsAll(List.of(OPERATORS))) {
                names.removeAll(List.of(OPERATORS));
                out.add("an operator");
            }
            for (String n : names) {
                out.add(switch (n) {
                    case "IDENT" -> "a name";
                    case "INT" -> "an integer";
                    case "HEX" -> "a hex number";
                    case "FLOAT" -> "a float";
                    case "CONSTVAR" -> "a #constant";
                    case "ARROW" -> "'=>'";
                    case "INEXACT_ARROW" -> "'~=>'";
                    case "EOF" -> "the end of the file";
                    default -> n;
                });
            }
            if (out.isEmpty()) return "something else";
            if (out.size() == 1) return out.get(0);
            return String.join(", ", out.subList(0, out.size() - 1)) + " or " + out.get(out.size() - 1);
        }
    }

    /**
     * The passes of the pipeline (rule sets register beside them under their pass name); the
     * two rule files shipped in rules/ are the rule passes, not built-ins.
     */
    private static final java.util.Set<String> BUILT_IN_PASSES =
            java.util.Set.copyOf(dev.lathe.ir.pass.PassRegistry.standard().names());

    /** The pass a file declares, else its file name without {@code .rules}. */
    static String passName(String file, String declared) {
        if (declared != null) return declared;
        String base = file.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1);
        return base.endsWith(".rules") ? base.substring(0, base.length() - 6) : base;
    }

    /** Converts ANTLR's parse tree into {@link Ast} records. */
    private static final class AstBuilder {
        private final String file;
        private final String text;
        private final CommonTokenStream tokens;
        private final List<Diagnostic> errors;

        AstBuilder(String file, String text, CommonTokenStream tokens, List<Diagnostic> errors) {
            this.file = file;
            this.text = text;
            this.tokens = tokens;
            this.errors = errors;
        }

        static Ast.Pos pos(Token t) {
            return new Ast.Pos(t.getLine(), t.getCharPositionInLine() + 1);
        }

        static Ast.Pos pos(ParserRuleContext c) {
            return pos(c.getStart());
        }

        Ast.RuleFile file(RulesParser.RuleFileContext c, java.util.NavigableSet<Integer> errorTokens,
                          java.util.Set<Integer> missingSemicolon) {
            String declared = c.passDecl() != null && c.passDecl().name != null ? c.passDecl().name.getText() : null;
            List<Ast.Rule> rules = new ArrayList<>();
            RulesParser.RuleDeclContext previous = null;
            java.util.Set<Integer> unnamed = new java.util.HashSet<>();
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
                errors.add(Diagnostic.error(file, line, col, "the pass name '" + pass + "' (from the file name) is not a name "
                        + "(letters, digits and _, not starting with a digit); add a line 'pass NAME;'", Diagnostic.lineOf(text, line)));
            } else if (pass.length() > Checker.MAX_NAME) {
                // It names a generated class, and so a file: file systems take 255 bytes.
                errors.add(Diagnostic.error(file, line, col, "a pass name may have at most " + Checker.MAX_NAME
                        + " characters" + (declared == null ? " (this one comes from the file name); add a line 'pass NAME;'" : ""),
                        Diagnostic.lineOf(text, line)));
            } else if (pass.toLowerCase(java.util.Locale.ROOT).replace("_", "").equals("generated")) {
                errors.add(Diagnostic.error(file, line, col, "the pass name '" + pass + "' is reserved (the generated index "
                        + "class is GeneratedRules); choose another", Diagnostic.lineOf(text, line)));
            } else if (BUILT_IN_PASSES.contains(pass)) {
                errors.add(Diagnostic.error(file, line, col, "the pass name '" + pass + "'" + (declared == null ? " (from the file name)" : "")
                        + " is a built-in pass of lathe opt; " + (declared == null ? "add a line 'pass NAME;' with another name" : "choose another"),
                        Diagnostic.lineOf(text, line)));
            }
            return new Ast.RuleFile(file, pass, rules);
        }

        /**
         * Whether a syntax error lies in the rule's tokens. An error at its first token belongs to
         * the rule before when that one has no ';' (ANTLR notices a missing ';' only at the next
         * token).
         */
        private boolean hasError(RulesParser.RuleDeclContext r, RulesParser.RuleDeclContext previous,
                                 java.util.NavigableSet<Integer> errorTokens) {
            if (r.getStart() == null) return true;
            int from = r.getStart().getTokenIndex();
            int to = r.getStop() == null ? from : Math.max(from, r.getStop().getTokenIndex());
            boolean previousOpen = previous != null && (previous.getStop() == null || !previous.getStop().getText().equals(";"));
            if (r.getStop() == null || !r.getStop().getText().equals(";")) {
                // The error that ended this rule is reported at the token after it.
                Integer next = errorTokens.ceiling(to + 1);
                // Not a bad character starting the next line: the lexer's error is its own.
                if (next != null && isBadToken(tokens.get(next).getType())
                        && tokens.get(next).getLine() > tokens.get(to).getLine()) {
                    next = null;
                }
                if (next != null && nextVisible(tokens, to) == next) return true;
            }
            for (Integer e = errorTokens.ceiling(previousOpen ? from + 1 : from); e != null && e <= to;
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
            if (!isBadToken(t.getType())) return false;
            Token before = previousVisible(tokens, e);
            return before != null && before.getLine() < t.getLine() && t.getLine() > tokens.get(from).getLine();
        }

        /**
         * Whether the rule is what ANTLR's recovery made of the rest of a broken one: it does not
         * follow a ';' (or the start of the file), and no missing ';' was reported before it.
         */
        private boolean isFragment(RulesParser.RuleDeclContext r, java.util.Set<Integer> missingSemicolon) {
            if (r.getStart() == null) return true;
            int from = r.getStart().getTokenIndex();
            Token before = previousVisible(tokens, from);
            if (before == null || before.getText().equals(";") || missingSemicolon.contains(from)) return false;
            // A named rule, or one that starts its line, is what the writer began, not leftovers.
            return r.name == null && before.getLine() == r.getStart().getLine();
        }


        /**
         * Whether some expression of the rule nests deeper than {@link #MAX_DEPTH} (reported):
         * measured without recursion, before the tree builder recurses over it.
         */
        private boolean tooDeep(ParserRuleContext rule) {
            java.util.ArrayDeque<ParseTree> work = new java.util.ArrayDeque<>();
            java.util.ArrayDeque<Integer> depths = new java.util.ArrayDeque<>();
            work.push(rule);
            depths.push(0);
            while (!work.isEmpty()) {
                ParseTree t = work.pop();
                int d = depths.pop();
                // Levels are operations, parentheses and unary operators; a variable, a literal or
                // an annotation adds none.
                if (t instanceof RulesParser.CallContext || t instanceof RulesParser.UnaryContext
                        || t instanceof RulesParser.BinaryContext || t instanceof RulesParser.ParenContext) {
                    RulesParser.ExprContext e = (RulesParser.ExprContext) t;
                    d++;
                    if (d > MAX_DEPTH) {
                        Token at = e.getStart();
                        errors.add(Diagnostic.error(file, at.getLine(), at.getCharPositionInLine() + 1, tooDeepMessage(),
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

        Ast.Rule rule(RulesParser.RuleDeclContext c, java.util.Set<Integer> unnamedLines) {
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
            int stop = charIndex(c.getStop() == null ? c.getStart().getStopIndex() : c.getStop().getStopIndex());
            int begin = charIndex(c.getStart().getStartIndex());
            String ruleText = oneLine(text.substring(begin, Math.max(stop + 1, begin)));
            // The comment that ends the rule's line says why the rule holds: the generated code keeps it.
            int eol = text.indexOf('\n', stop + 1);
            String rest = oneLine(text.substring(Math.min(stop + 1, text.length()), eol < 0 ? text.length() : eol));
            String comment = rest.startsWith("#") ? rest.substring(1).trim() : rest.startsWith("//") ? rest.substring(2).trim() : "";
            // Mesa's rules have no names and the mission writes `a * 1.0 => a` bare, so a name is
            // optional; the line number keeps the generated method and test names unique and
            // findable.
            Token nameToken = c.name != null ? c.name : c.getStart();
            String name;
            if (c.name != null) {
                name = c.name.getText();
                if (name.matches("line_[0-9]+(_[0-9]+)?")) {
                    errors.add(Diagnostic.error(file, nameToken.getLine(), nameToken.getCharPositionInLine() + 1,
                            "names like " + name + " are given to unnamed rules; choose another name",
                            Diagnostic.lineOf(text, nameToken.getLine())));
                    return null;
                }
            } else {
                // A second unnamed rule on one line also gets its column.
                int line = nameToken.getLine();
                name = unnamedLines.add(line) ? "line_" + line : "line_" + line + "_" + (nameToken.getCharPositionInLine() + 1);
            }
            return new Ast.Rule(name, pos(nameToken), pattern, c.arrow.getType() == RulesLexer.ARROW, replacement,
                    conds, ruleText, comment);
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
            String meant = "(" + source(x) + " " + first + " " + source(y) + ") " + op + " (" + source(z) + " " + second + " "
                    + source(w) + ")";
            errors.add(Diagnostic.error(file, join.op.getLine(), join.op.getCharPositionInLine() + 1,
                    "'" + op + "' binds tighter than '" + first + (first.equals(second) ? "'" : "' and '" + second + "'")
                            + " (as in Go, not as in C), so these two "
                            + "comparisons do not join here; write " + meant, Diagnostic.lineOf(text, join.op.getLine())));
            return true;
        }

        /** The text of an expression as written (white space between tokens made one space). */
        private String source(RulesParser.ExprContext e) {
            return oneLine(text.substring(charIndex(e.getStart().getStartIndex()), charIndex(e.getStop().getStopIndex()) + 1));
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
}
