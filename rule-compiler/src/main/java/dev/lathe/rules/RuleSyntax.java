package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.grammar.RulesLexer;
import dev.lathe.rules.grammar.RulesParser;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.WritableToken;

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
 *
 * <p>This class reads the tokens (the lexical errors, the depth) and keeps one error per rule;
 * {@link SyntaxErrorStrategy} words ANTLR's errors, {@link SyntaxHints} recognizes mistakes by
 * their shape, {@link TokenView} is how they look at the tokens, {@link AstBuilder} makes the
 * tree, and every message they say is in {@link SyntaxMessages}.
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
        TreeSet<Integer> parserErrors = new TreeSet<>();
        TreeSet<Integer> lexicalErrors = new TreeSet<>();
        // Tokens before which a ';' was missing: the start of the next rule, not a fragment.
        Set<Integer> missingSemicolon = new HashSet<>();
        // Rules pasted from Mesa get one error each, saying how Lathe writes them, and are
        // blanked out (same length and lines) so that the lexer and parser see nothing of them.
        MesaTuples.Found mesa = MesaTuples.blank(file, text);
        errors.addAll(mesa.errors());
        RulesLexer lexer = new RulesLexer(CharStreams.fromString(mesa.text(), file));
        lexer.removeErrorListeners();
        CommonTokenStream stream = new CommonTokenStream(lexer);
        stream.fill();
        TokenView tokens = new TokenView(stream);
        Token lastBadChar = null;
        for (Token t : stream.getTokens()) {
            String problem = switch (t.getType()) {
                case RulesLexer.BAD_CHAR -> badCharMessage(tokens, t);
                case RulesLexer.BAD_NUMBER -> badNumberMessage(tokens, t);
                case RulesLexer.UNTERMINATED_COMMENT -> SyntaxMessages.UNTERMINATED_COMMENT;
                default -> null;
            };
            if (t.getType() == RulesLexer.BAD_CHAR || t.getType() == RulesLexer.BAD_NUMBER) {
                // The same stray character (or malformed word) again in the same rule (`a` quoted in backticks) is
                // the same mistake.
                boolean again = lastBadChar != null
                                && (lastBadChar.getText().equals(t.getText())
                                        || closes(lastBadChar.getText(), t.getText()))
                                && lastBadChar.getLine() == t.getLine()
                                && !tokens.semicolonBetween(lastBadChar, t)
                        || lastBadChar != null && arrowWithLookalike(lastBadChar, t);
                lastBadChar = t;
                if (again) {
                    lexicalErrors.add(t.getTokenIndex());
                    continue;
                }
            }
            if (problem != null) {
                errors.add(Diagnostic.error(
                        file,
                        t.getLine(),
                        t.getCharPositionInLine() + 1,
                        problem,
                        Diagnostic.lineOf(text, t.getLine())));
                lexicalErrors.add(t.getTokenIndex());
            }
        }
        for (Token tooDeep : hideTooDeep(stream.getTokens())) {
            // ANTLR itself recurses once per level: the rule is hidden from the parser.
            errors.add(Diagnostic.error(
                    file,
                    tooDeep.getLine(),
                    tooDeep.getCharPositionInLine() + 1,
                    SyntaxMessages.tooDeep(MAX_DEPTH),
                    Diagnostic.lineOf(text, tooDeep.getLine())));
        }
        RulesParser parser = new RulesParser(stream);
        parser.removeErrorListeners();
        SyntaxErrorStrategy messages = new SyntaxErrorStrategy(tokens);
        parser.setErrorHandler(messages);
        parser.addErrorListener(new BaseErrorListener() {
            @Override
            public void syntaxError(
                    Recognizer<?, ?> recognizer,
                    Object offending,
                    int line,
                    int col,
                    String msg,
                    RecognitionException e) {
                Token t = offending instanceof Token tok ? tok : null;
                if (t == null) {
                    errors.add(Diagnostic.error(file, line, col + 1, msg, Diagnostic.lineOf(text, line)));
                    return;
                }
                int at = t.getTokenIndex();
                boolean endsRule = msg.startsWith(SyntaxMessages.MISSING_SEMICOLON);
                // `if is_ge_zero(a) is_ge_zero(b)`: the rule goes on, a ',' is missing; what follows
                // is part of this rule, so the error after it is not reported again.
                boolean missingComma = endsRule && tokens.conditionContinues(t);
                if (missingComma) msg = SyntaxMessages.MISSING_COMMA;
                // (after `pass my`, ';' or 'if' may come: the message is then not "missing ';'")
                String hyphenatedPass = endsRule || t.getText().equals("-") ? hyphenatedPassName(tokens, t) : null;
                if (hyphenatedPass != null) {
                    msg = SyntaxMessages.hyphenatedPassName(hyphenatedPass);
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
                if (TokenView.isBadToken(t.getType()) && !endsRule || cascade) return;
                SyntaxHints.Hint hint = messages.hints.get(t);
                if (hint != null && msg.startsWith(hint.message())) {
                    // The mistake is earlier than where the parser noticed it.
                    Token a = hint.at();
                    line = a.getLine();
                    col = a.getCharPositionInLine()
                            + (hint.after() ? a.getText().length() : 0);
                } else if (t.getType() == Token.EOF || endsRule) {
                    // Point just after the last token: where the missing text belongs.
                    Token last = tokens.previousVisible(at);
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
        TreeSet<Integer> errorTokens = new TreeSet<>(parserErrors);
        errorTokens.addAll(lexicalErrors);
        Ast.RuleFile ast = builder.file(tree, errorTokens, missingSemicolon);
        sort(errors);
        return new Result(ast, errors);
    }

    private static void sort(List<Diagnostic> errors) {
        errors.sort((a, b) ->
                a.line() != b.line() ? Integer.compare(a.line(), b.line()) : Integer.compare(a.column(), b.column()));
    }

    /** A stray closing bracket after its stray opening one: {@code fmul[a, 1.0]} is one mistake. */
    private static boolean closes(String open, String close) {
        return open.equals("[") && close.equals("]") || open.equals("{") && close.equals("}");
    }

    /** What a malformed number is, and what was likely meant (by where it stands and what it looks like). */
    private static String badNumberMessage(TokenView tokens, Token t) {
        String w = t.getText();
        if (tokens.nextIs(t, ":")) return SyntaxMessages.digitStartsRuleName(w);
        if (tokens.previousIs(t, "pass")) return SyntaxMessages.digitStartsPassName(w);
        if (tokens.previousIs(t, "@") && w.matches("(1|8|16|32|64)[a-zA-Z_]+"))
            return SyntaxMessages.sizeGluedToWord(w);
        if (w.matches("[0-9]+(\\.[0-9]*)?[fFuUlLdD]+")) return SyntaxMessages.typeSuffix(w);
        if (w.matches("[0-9]+[a-zA-Z_][a-zA-Z0-9_]*") && !w.matches("0[xX].*|[0-9]+[eE].*"))
            return SyntaxMessages.digitStartsVariable(w);
        return SyntaxMessages.malformedNumber(w);
    }

    /**
     * What a stray character is, and what was likely meant: '=' alone is half an arrow; a
     * character that looks like ASCII punctuation (pasted from a document or typed with a
     * non-English input method) names the ASCII one. '=' directly followed by a lookalike of '>'
     * is one mistake, reported at the '=' (the lookalike's own token is then skipped as a repeat).
     */
    private static String badCharMessage(TokenView tokens, Token t) {
        String s = t.getText();
        Token next = t.getTokenIndex() + 1 < tokens.size() ? tokens.get(t.getTokenIndex() + 1) : null;
        if (s.equals("=")) {
            if (next != null && arrowWithLookalike(t, next)) {
                return SyntaxMessages.arrowOfLookalike(next.getText());
            }
            Token before = tokens.previousVisible(t.getTokenIndex());
            if (before != null && before.getType() == RulesLexer.IDENT && tokens.startsRule(before)) {
                return SyntaxMessages.equalsAfterRuleName(before.getText());
            }
            return SyntaxMessages.LONE_EQUALS;
        }
        if (s.equals("[") || s.equals("{")) {
            return SyntaxMessages.bracket(s);
        }
        if (s.equals(".")) {
            if (next != null && next.getType() == RulesLexer.INT && next.getStartIndex() == t.getStopIndex() + 1) {
                return SyntaxMessages.pointWithoutDigit(next.getText());
            }
        }
        String ascii = asciiLookalike(s.codePointAt(0));
        if (ascii == null) return SyntaxMessages.unexpectedCharacter(s);
        if (ascii.equals("=>")) return SyntaxMessages.lookalikeArrow(s);
        if (ascii.isEmpty()) return SyntaxMessages.invisibleCharacter(s);
        if (ascii.isBlank()) return SyntaxMessages.nonAsciiSpace(s);
        return SyntaxMessages.lookalike(s, ascii);
    }

    /** A stray '=' glued to a stray lookalike of '>' ({@code =＞}): one mistake, the arrow. */
    private static boolean arrowWithLookalike(Token eq, Token next) {
        return eq.getText().equals("=")
                && next.getType() == RulesLexer.BAD_CHAR
                && next.getStartIndex() == eq.getStopIndex() + 1
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
            boolean nextRule = parens == 0 && TokenView.startsNamedRule(all, i);
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
                    if (!TokenView.endsOperand(prev)) prefix++;
                }
                default -> {
                    if (TokenView.endsOperand(t)) prefix = 0;
                }
            }
            if (tooDeep == null && parens + prefix > MAX_DEPTH) tooDeep = t;
            prev = t;
        }
        return found;
    }

    /**
     * Whether token {@code b} is in the same rule as the earlier token {@code a}: no rule
     * boundary lies between them — a ';' (from {@code a} on) not followed by leftovers on its
     * line, a reported missing ';', or a rule's name and ':' with {@code b} past the ':'.
     */
    private static boolean sameRule(TokenView tokens, int a, int b, Set<Integer> missingSemicolon) {
        if (b <= a) return true;
        for (int i = a; i < b; i++) {
            Token t = tokens.get(i);
            // A ';' ends a rule (even one hidden for its depth) unless what follows on its line is
            // leftovers (`=> ;b`); a name and ':' start a rule, when the error is past the ':'.
            if (t.getText().equals(";") && !leftoversFollow(tokens, i)) return false;
            if (i > a && missingSemicolon.contains(i)) return false;
            // ... unless it is on the line of the first error, in the middle of it (`x ? a : b`):
            // rules start on lines of their own.
            if (tokens.startsNamedRule(i)
                    && tokens.nextVisible(i) < b
                    && (t.getLine() != tokens.get(a).getLine() || i == a)) {
                return false;
            }
        }
        return !missingSemicolon.contains(b) || b == a;
    }

    /** Whether the ';' at {@code i} is followed on its own line by something other than a named rule. */
    private static boolean leftoversFollow(TokenView tokens, int i) {
        if (tokens.get(i).getChannel() != Token.DEFAULT_CHANNEL) return false;
        int n = tokens.nextVisible(i);
        if (n < 0) return false;
        Token next = tokens.get(n);
        return next.getType() != Token.EOF && next.getLine() == tokens.get(i).getLine() && !tokens.startsNamedRule(n);
    }

    /** {@code pass my-pass;}: the name as it could be written (my_pass), when {@code t} is its first '-'. */
    private static String hyphenatedPassName(TokenView tokens, Token t) {
        Token name = tokens.previousVisible(t.getTokenIndex());
        Token pass = name == null ? null : tokens.previousVisible(name.getTokenIndex());
        if (!t.getText().equals("-")
                || pass == null
                || !pass.getText().equals("pass")
                || name.getType() != RulesLexer.IDENT) {
            return null;
        }
        StringBuilder sb = new StringBuilder(name.getText());
        for (Token k = t;
                k != null && !k.getText().equals(";") && k.getType() != Token.EOF && k.getLine() == t.getLine();
                k = tokens.after(k)) {
            sb.append(k.getText().equals("-") ? "_" : k.getText());
        }
        return sb.toString();
    }
}
