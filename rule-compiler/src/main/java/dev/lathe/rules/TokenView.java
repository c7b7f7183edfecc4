package dev.lathe.rules;

import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.rules.grammar.RulesLexer;
import java.util.List;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;

/**
 * A rule file's tokens as the syntax messages look at them: the visible ones (the default
 * channel; comments and rules hidden for their depth are not), their neighbours, and where rules
 * and their conditions begin. ANTLR's error strategy knows only "expected this token"; the
 * messages that say what the writer meant are read off these neighbourhoods.
 */
final class TokenView {
    private final CommonTokenStream stream;

    TokenView(CommonTokenStream stream) {
        this.stream = stream;
    }

    Token get(int i) {
        return stream.get(i);
    }

    int size() {
        return stream.size();
    }

    /** The index of the first visible token after index {@code i}, or -1. */
    int nextVisible(int i) {
        for (int k = i + 1; k < stream.size(); k++) {
            if (stream.get(k).getChannel() == Token.DEFAULT_CHANNEL) return k;
        }
        return -1;
    }

    /** The last visible token before index {@code index}, or null. */
    Token previousVisible(int index) {
        for (int i = index - 1; i >= 0; i--) {
            Token t = stream.get(i);
            if (t.getChannel() == Token.DEFAULT_CHANNEL) return t;
        }
        return null;
    }

    /** The visible token after {@code t}, or null. */
    Token after(Token t) {
        int n = nextVisible(t.getTokenIndex());
        return n < 0 ? null : stream.get(n);
    }

    /** The previous visible token, or null at the start (and for the first token). */
    Token before(Token t) {
        return t.getTokenIndex() > 0 ? previousVisible(t.getTokenIndex()) : null;
    }

    Token first() {
        int n = nextVisible(-1);
        return n < 0 ? null : stream.get(n);
    }

    boolean previousIs(Token t, String text) {
        Token p = previousVisible(t.getTokenIndex());
        return p != null && p.getText().equals(text);
    }

    boolean nextIs(Token t, String text) {
        int n = nextVisible(t.getTokenIndex());
        return n >= 0 && stream.get(n).getText().equals(text);
    }

    boolean semicolonBetween(Token a, Token b) {
        for (int i = a.getTokenIndex() + 1; i < b.getTokenIndex(); i++) {
            Token t = stream.get(i);
            if (t.getChannel() == Token.DEFAULT_CHANNEL && t.getText().equals(";")) return true;
        }
        return false;
    }

    /** Whether {@code t} is the first token of a rule: nothing, or a ';', before it. */
    boolean startsRule(Token t) {
        Token before = previousVisible(t.getTokenIndex());
        return before == null || before.getText().equals(";");
    }

    /** The first visible token of the rule holding {@code t}: after the ';' before it. */
    Token ruleStart(Token t) {
        Token first = null;
        for (int i = t.getTokenIndex(); i >= 0; i--) {
            Token k = stream.get(i);
            if (k.getChannel() != Token.DEFAULT_CHANNEL) continue;
            if (k.getText().equals(";") && i < t.getTokenIndex()) break;
            first = k;
        }
        return first;
    }

    /** Whether a named rule starts at token {@code i}: a name followed by ':'. */
    boolean startsNamedRule(int i) {
        return startsNamedRule(stream.getTokens(), i);
    }

    static boolean startsNamedRule(List<Token> all, int i) {
        Token t = all.get(i);
        if (t.getChannel() != Token.DEFAULT_CHANNEL || t.getType() != RulesLexer.IDENT) return false;
        for (int k = i + 1; k < all.size(); k++) {
            Token n = all.get(k);
            if (n.getChannel() == Token.DEFAULT_CHANNEL) return n.getText().equals(":");
        }
        return false;
    }

    /** Whether token {@code t} comes after an 'if' of the rule that holds it (a ';' ends the search). */
    boolean inConditions(Token t) {
        for (Token k = t; k != null && !k.getText().equals(";"); k = previousVisible(k.getTokenIndex())) {
            if (k.getText().equals("if")) return true;
        }
        return false;
    }

    /** Whether {@code t} starts a call of a known condition: {@code is_zero(}. */
    boolean startsConditionCall(Token t) {
        return t != null
                && t.getType() == RulesLexer.IDENT
                && Predicate.bySpelling(t.getText()) != null
                && nextIs(t, "(");
    }

    /** A known condition's call at {@code t}, in a rule that already has 'if': a condition list going on. */
    boolean conditionContinues(Token t) {
        return startsConditionCall(t) && inConditions(t);
    }

    /** Whether {@code b} follows {@code a} with no space between. */
    static boolean adjacent(Token a, Token b) {
        return b != null && b.getType() != Token.EOF && b.getStartIndex() == a.getStopIndex() + 1;
    }

    /** A character or a malformed number the lexer could not read (reported when the tokens are read). */
    static boolean isBadToken(int type) {
        return type == RulesLexer.BAD_CHAR || type == RulesLexer.BAD_NUMBER;
    }

    /** A reserved word where the grammar uses it as one (not as a name). */
    static boolean isKeyword(Token t) {
        return switch (t.getText()) {
            case "pass", "if", "inf", "nan", "true", "false" -> t.getType() != RulesLexer.IDENT;
            default -> false;
        };
    }

    /** A token an operand ends with: a name, a number, a literal word or ')'. */
    static boolean endsOperand(Token t) {
        if (t == null) return false;
        return switch (t.getType()) {
            case RulesLexer.IDENT, RulesLexer.INT, RulesLexer.HEX, RulesLexer.FLOAT, RulesLexer.CONSTVAR -> true;
            default ->
                switch (t.getText()) {
                    case ")", "inf", "nan", "true", "false" -> true;
                    default -> false;
                };
        };
    }
}
