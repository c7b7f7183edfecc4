package dev.lathe.rules;

import static dev.lathe.rules.TokenView.isKeyword;

import dev.lathe.rules.grammar.RulesLexer;
import dev.lathe.rules.grammar.RulesParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.InputMismatchException;
import org.antlr.v4.runtime.NoViableAltException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * ANTLR's error strategy with messages for people: tokens by what they are ("a name", "an
 * expression"), keywords marked reserved, and a missing ';' at the end of a line said as such.
 */
final class SyntaxErrorStrategy extends DefaultErrorStrategy {
    private final TokenView tokens;
    /** The hint each message was made from, by the token the parser reported it at. */
    final Map<Token, SyntaxHints.Hint> hints = new HashMap<>();

    SyntaxErrorStrategy(TokenView tokens) {
        this.tokens = tokens;
    }

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
        Token prev = tokens.previousVisible(t.getTokenIndex());
        if (prev != null
                && prev.getText().equals(")")
                && t.getLine() == prev.getLine()
                && (t.getText().equals("and") || t.getText().equals("or"))
                && p.getContext() instanceof RulesParser.RuleDeclContext rule
                && rule.conditions() != null) {
            // `if c1(a) and c2(b)`: the word reads as the name of a next rule.
            p.notifyErrorListeners(t, SyntaxMessages.conditionsJoinedByWord(t.getText()), null);
            return;
        }
        if (expected.contains(SEMICOLON) && prev != null) {
            // ANTLR goes on as if the ';' were there: the next rule starts at t.
            p.notifyErrorListeners(t, SyntaxMessages.missingSemicolonAfter(prev.getText()), null);
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
        set.add(SEMICOLON);
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
        if (p.getContext() instanceof RulesParser.FlagsContext flags) {
            // fmul[a, 1.0]: brackets meant as parentheses; said once, at the '['
            p.notifyErrorListeners(flags.getStart(), SyntaxMessages.BRACKET_NOT_FLAGS, e);
            return;
        }
        p.notifyErrorListeners(t, message(p, t, expected), e);
    }

    private String message(Parser p, Token t, IntervalSet expected) {
        TokenStream in = p.getInputStream();
        Token prev = t.getTokenIndex() > 0 ? tokens.previousVisible(t.getTokenIndex()) : null;
        boolean wantsSemicolon = expected != null && expected.contains(SEMICOLON);
        if (wantsSemicolon
                && prev != null
                && (t.getType() == Token.EOF || t.getLine() > prev.getLine())
                && !prev.getText().equals(";")) {
            return SyntaxMessages.missingSemicolonAfter(prev.getText());
        }
        Token comment = SyntaxHints.midRuleHash(tokens, t.getTokenIndex());
        String commentHint = comment == null
                ? ""
                : SyntaxMessages.midRuleComment(comment.getLine(), comment.getCharPositionInLine() + 1);
        SyntaxHints.Hint hint = SyntaxHints.hint(tokens, t);
        if (hint != null) {
            hints.put(t, hint);
            return hint.message() + commentHint;
        }
        String found = SyntaxMessages.unexpected(t.getText(), t.getType() == Token.EOF);
        String msg = expected == null ? found : SyntaxMessages.expected(found, describe(p, expected));
        if (isKeyword(t) && (expected == null || expected.contains(RulesLexer.IDENT)))
            msg += SyntaxMessages.reservedWord(t.getText());
        msg += commentHint;
        if (prev != null && prev.getType() == RulesLexer.CONSTVAR && tokens.startsRule(prev)) {
            msg += SyntaxMessages.constantVariableStartsRule(prev.getText());
        }
        if (prev != null
                && prev.getType() == RulesLexer.IDENT
                && prev.getText().equalsIgnoreCase("pass")
                && tokens.startsRule(prev)) {
            msg += SyntaxMessages.PASS_IN_LOWER_CASE;
        } else if (prev != null
                && prev.getType() == RulesLexer.IDENT
                && tokens.startsRule(prev)
                && t.getType() != Token.EOF
                && !t.getText().equals(":")) {
            msg += SyntaxMessages.ruleNameNeedsColon(prev.getText());
        }
        return msg;
    }

    /** The token type of ';' (the grammar writes it as a literal, so it has no constant of its own). */
    private static final int SEMICOLON = semicolonType();

    private static int semicolonType() {
        Vocabulary v = RulesParser.VOCABULARY;
        for (int i = 0; i <= v.getMaxTokenType(); i++) {
            if ("';'".equals(v.getLiteralName(i))) return i;
        }
        throw new IllegalStateException("the rule grammar has no ';'");
    }

    private static final String[] EXPRESSION_STARTS = {
        "IDENT", "INT", "HEX", "FLOAT", "CONSTVAR", "'inf'", "'nan'", "'true'", "'false'", "'('", "'-'", "'~'", "'!'"
    };
    private static final String[] OPERATORS = {
        "'*'", "'/'", "'%'", "'+'", "'-'", "'<<'", "'>>'", "'&'", "'^'", "'|'", "'<'", "'<='", "'>'", "'>='", "'=='",
        "'!='"
    };

    /** The expected tokens in words, with whole families named once. */
    private static String describe(Parser p, IntervalSet expected) {
        Vocabulary v = p.getVocabulary();
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (int type : expected.toList()) names.add(type == Token.EOF ? "EOF" : v.getDisplayName(type));
        List<String> out = new ArrayList<>();
        if (names.containsAll(List.of(EXPRESSION_STARTS))) {
            names.removeAll(List.of(EXPRESSION_STARTS));
            out.add(SyntaxMessages.AN_EXPRESSION);
        }
        if (names.containsAll(List.of(OPERATORS))) {
            names.removeAll(List.of(OPERATORS));
            out.add(SyntaxMessages.AN_OPERATOR);
        }
        for (String n : names) {
            out.add(SyntaxMessages.tokenInWords(n));
        }
        if (out.isEmpty()) return SyntaxMessages.SOMETHING_ELSE;
        if (out.size() == 1) return out.get(0);
        return String.join(", ", out.subList(0, out.size() - 1)) + " or " + out.get(out.size() - 1);
    }
}
