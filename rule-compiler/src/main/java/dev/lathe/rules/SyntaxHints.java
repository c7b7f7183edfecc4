package dev.lathe.rules;

import static dev.lathe.rules.TokenView.adjacent;
import static dev.lathe.rules.TokenView.isKeyword;

import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.rules.grammar.RulesLexer;
import org.antlr.v4.runtime.Token;

/**
 * Syntax mistakes recognized by their shape, for the messages of {@link SyntaxErrorStrategy}:
 * where ANTLR notices only that a token was unexpected, these say what the writer meant, and
 * where the mistake is (often some tokens before the parser noticed).
 */
final class SyntaxHints {
    private SyntaxHints() {}

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
    static Hint hint(TokenView tokens, Token t) {
        Token first = tokens.ruleStart(t);
        Token second = first == null ? null : tokens.after(first);
        if (first != null
                && first.getText().equals("-")
                && adjacent(first, second)
                && second.getText().equals("-")
                && t.getLine() == first.getLine()) {
            return new Hint(first, false, SyntaxMessages.DASHES_NOT_A_COMMENT);
        }
        Token prev = t.getTokenIndex() > 0 ? tokens.previousVisible(t.getTokenIndex()) : null;
        // '.' is a swizzle's (a.x); glued to digits where an expression starts, it is a float's point
        Token afterDot = t.getText().equals(".") ? tokens.after(t) : null;
        if (afterDot != null && afterDot.getType() == RulesLexer.INT && adjacent(t, afterDot)) {
            return new Hint(t, false, SyntaxMessages.pointWithoutDigit(afterDot.getText()));
        }
        Token lineStart = t;
        for (Token k = prev;
                k != null && k.getLine() == t.getLine() && !k.getText().equals(";");
                k = tokens.previousVisible(k.getTokenIndex())) {
            lineStart = k;
        }
        if (t.getText().equals(":") && lineStart.getType() == RulesLexer.IDENT && prev != lineStart) {
            StringBuilder name = new StringBuilder(lineStart.getText());
            Token dash = null;
            boolean hyphenated = true;
            for (Token k = tokens.after(lineStart), before = lineStart;
                    k != null && k != t;
                    before = k, k = tokens.after(k)) {
                boolean wantDash = name.length() > 0 && before.getType() == RulesLexer.IDENT;
                if (!adjacent(before, k) || (wantDash ? !k.getText().equals("-") : k.getType() != RulesLexer.IDENT)) {
                    hyphenated = false;
                    break;
                }
                if (wantDash && dash == null) dash = k;
                name.append(wantDash ? "_" : k.getText());
            }
            if (hyphenated && dash != null) {
                return new Hint(dash, false, SyntaxMessages.hyphenatedRuleName(name.toString()));
            }
        }
        if (t.getText().equals(":") && prev != null && prev == first && isReservedLiteral(prev)) {
            return new Hint(prev, false, SyntaxMessages.literalAsRuleName(prev.getText()));
        }
        if (t.getText().equals("pass") && tokens.nextIs(t, ":")) {
            return new Hint(t, false, SyntaxMessages.PASS_AS_RULE_NAME);
        }
        if (t.getText().equals("pass")
                && t.getType() != RulesLexer.IDENT
                && prev != null
                && (prev.getText().equals("(") || prev.getText().equals(","))) {
            return new Hint(t, false, SyntaxMessages.PASS_AS_VARIABLE);
        }
        if (t.getText().equals("pass")
                && t.getType() != RulesLexer.IDENT
                && (prev != null && !prev.getText().equals(";") || t != tokens.first())) {
            return new Hint(t, false, SyntaxMessages.SECOND_PASS_LINE);
        }
        if ((t.getText().equals("&") || t.getText().equals("|"))
                && prev != null
                && prev.getText().equals(t.getText())
                && adjacent(prev, t)) {
            String op = t.getText();
            return new Hint(prev, false, SyntaxMessages.doubledOperator(op));
        }
        if ((t.getText().equals("&&") || t.getText().equals("||")) && !tokens.inConditions(t)) {
            return new Hint(t, false, SyntaxMessages.doubledOperator(t.getText().substring(1)));
        }
        if (t.getText().equals("*") && prev != null && prev.getText().equals("*") && adjacent(prev, t)) {
            return new Hint(prev, false, SyntaxMessages.POWER_OPERATOR);
        }
        if (prev != null
                && prev.getType() == RulesLexer.CONSTVAR
                && tokens.startsRule(prev)
                && t.getLine() > prev.getLine()) {
            // `r: … => a; #fixme` then a rule on the next line: the word is where the mistake is
            return new Hint(prev, false, SyntaxMessages.constantVariableStartsRuleLine(prev.getText()));
        }
        if (t.getType() == RulesLexer.IDENT
                && prev != null
                && prev.getText().equals("not")
                && tokens.startsConditionCall(t)
                && tokens.inConditions(prev)) {
            return new Hint(prev, false, SyntaxMessages.CONDITION_NEGATED_WITH_NOT);
        }
        if (prev != null
                && prev.getType() == RulesLexer.IDENT
                && Predicate.bySpelling(prev.getText()) != null
                && !t.getText().equals("(")
                && t.getLine() == prev.getLine()
                && tokens.inConditions(prev)
                && (t.getType() == RulesLexer.IDENT || t.getType() == RulesLexer.CONSTVAR)) {
            return new Hint(
                    prev,
                    false,
                    SyntaxMessages.conditionWithoutCall(
                            prev.getText(), t.getText().replace("#", "")));
        }
        if (t.getText().equals("(") && prev != null && prev.getText().equals(")")) {
            // Mesa's 'fmul(is_used_once)' written as Lathe: fmul(is_used_once)(a, b)
            Token cond = tokens.previousVisible(prev.getTokenIndex());
            Token open = cond == null ? null : tokens.previousVisible(cond.getTokenIndex());
            Token op = open == null ? null : tokens.previousVisible(open.getTokenIndex());
            if (op != null
                    && open.getText().equals("(")
                    && op.getType() == RulesLexer.IDENT
                    && (cond.getText().equals("is_used_once") || Predicate.bySpelling(cond.getText()) != null)) {
                return new Hint(cond, false, SyntaxMessages.mesaOpCondition(op.getText(), cond.getText()));
            }
        }
        if (t.getText().equals("(")
                && prev != null
                && (prev.getType() == RulesLexer.CONSTVAR
                        || prev.getType() == RulesLexer.IDENT
                                && Op.byName(prev.getText()) == null
                                && Predicate.bySpelling(prev.getText()) == null)
                && adjacent(prev, t)
                && tokens.after(t) != null
                && Predicate.bySpelling(tokens.after(t).getText()) != null) {
            // Mesa's '#b(is_not_zero)': a condition glued to its variable
            String name = prev.getText().replace("#", "");
            return new Hint(
                    t,
                    false,
                    SyntaxMessages.mesaVariableCondition(
                            prev.getText(), name, tokens.after(t).getText()));
        }
        if (t.getText().equals("!")
                && prev != null
                && (prev.getText().equals("if") || prev.getText().equals(","))) {
            return new Hint(t, false, SyntaxMessages.CONDITION_NEGATED_WITH_BANG);
        }
        if (prev != null && prev.getText().equals("if") && t.getType() != RulesLexer.IDENT) {
            return new Hint(prev, true, SyntaxMessages.IF_WITHOUT_CONDITION);
        }
        if (prev != null
                && prev.getText().equals(",")
                && t.getType() != RulesLexer.IDENT
                && tokens.inConditions(prev)) {
            return new Hint(prev, true, SyntaxMessages.COMMA_WITHOUT_CONDITION);
        }
        if (prev != null
                && prev.getType() == RulesLexer.IDENT
                && !t.getText().equals("(")
                && !t.getText().equals(":")
                && t.getLine() == prev.getLine()
                && tokens.inConditions(prev)
                && (tokens.previousVisible(prev.getTokenIndex()).getText().equals("if")
                        || tokens.previousVisible(prev.getTokenIndex())
                                .getText()
                                .equals(","))) {
            return new Hint(prev, false, SyntaxMessages.COMPARISON_AS_CONDITION);
        }
        if (t.getText().equals(">") && prev != null && prev.getText().equals("==") && adjacent(prev, t)) {
            return new Hint(prev, false, SyntaxMessages.LONG_ARROW);
        }
        Token separator = conditionAfterSemicolon(tokens, first, t);
        if (separator != null) {
            return new Hint(separator, false, SyntaxMessages.CONDITIONS_SPLIT_BY_SEMICOLON);
        }
        if (t.getText().equals("if")
                && prev != null
                && prev.getText().equals(";")
                && prev.getLine() == t.getLine()
                && !tokens.nextIs(t, ":")) {
            return new Hint(prev, false, SyntaxMessages.SEMICOLON_BEFORE_IF);
        }
        if (t.getText().equals(">") && prev != null && prev.getText().equals("-") && adjacent(prev, t)) {
            return new Hint(prev, false, SyntaxMessages.THIN_ARROW);
        }
        // A stray '*/': whatever came between the two '*/'s parsed as rules, so look back
        // past them for the comment that a nested '/*' seemed to keep open.
        boolean strayClose = t.getText().equals("*")
                && tokens.after(t) != null
                && tokens.after(t).getText().equals("/")
                && adjacent(t, tokens.after(t));
        for (int i = t.getTokenIndex() - 1; i >= 0; i--) {
            Token c = tokens.get(i);
            if (c.getChannel() == Token.DEFAULT_CHANNEL && c.getText().equals(";") && !strayClose) break;
            if (c.getType() == RulesLexer.BLOCK_COMMENT && c.getText().indexOf("/*", 2) >= 0) {
                Token after = tokens.after(c);
                if (after == null || after.getTokenIndex() > t.getTokenIndex()) break;
                int endLine = c.getLine()
                        + (int) c.getText().chars().filter(ch -> ch == '\n').count();
                return new Hint(
                        after,
                        false,
                        SyntaxMessages.nestedBlockComment(c.getLine(), c.getCharPositionInLine() + 1, endLine));
            }
        }
        Token last = unfinishedAt(tokens, t);
        if (last != null) {
            return new Hint(last, true, SyntaxMessages.unfinishedRule(last.getText(), prev.getText(), prev.getLine()));
        }
        return null;
    }

    /**
     * {@code … if is_ge_zero(a); is_ge_zero(b);}: the error is in a "rule" that is one known
     * condition call, right after a rule with conditions; the ';' that ended that rule (the
     * real mistake), or null.
     */
    private static Token conditionAfterSemicolon(TokenView tokens, Token first, Token t) {
        if (!tokens.startsConditionCall(first)
                || first.getTokenIndex() == 0
                || t.getTokenIndex() < first.getTokenIndex()) {
            return null;
        }
        Token semicolon = tokens.previousVisible(first.getTokenIndex());
        if (semicolon == null || !semicolon.getText().equals(";")) return null;
        return tokens.inConditions(tokens.previousVisible(semicolon.getTokenIndex())) ? semicolon : null;
    }

    private static boolean isReservedLiteral(Token t) {
        return isKeyword(t) && !t.getText().equals("pass") && !t.getText().equals("if");
    }

    /**
     * The last token of a rule that a named rule on a later line broke into ({@code if}
     * followed by {@code r2: …}): the parser took the next rule's name as part of this one
     * and fails at its ':'. Null when {@code t} is not such a ':'.
     */
    private static Token unfinishedAt(TokenView tokens, Token t) {
        if (!t.getText().equals(":") || t.getTokenIndex() < 2) return null;
        Token name = tokens.previousVisible(t.getTokenIndex());
        if (name == null || name.getType() != RulesLexer.IDENT) return null;
        Token last = tokens.previousVisible(name.getTokenIndex());
        if (last == null || last.getLine() >= name.getLine() || last.getText().equals(";")) return null;
        return last;
    }

    /**
     * A '#' comment that ends a line in the middle of the rule before {@code at} (searched
     * back to the previous ';'): '#' and a space start a comment, so {@code imul(a, # c)}
     * loses the rest of its line, and the error shows up later.
     */
    static Token midRuleHash(TokenView tokens, int at) {
        for (int i = Math.min(at, tokens.size()) - 1; i >= 0; i--) {
            Token c = tokens.get(i);
            if (c.getChannel() == Token.DEFAULT_CHANNEL && c.getText().equals(";")) return null;
            if (c.getType() == RulesLexer.HASH_COMMENT && c.getText().matches("#[^)(,;]*[)(,;].*|.*=>.*")) {
                Token before = tokens.previousVisible(i);
                if (before != null
                        && before.getLine() == c.getLine()
                        && !before.getText().equals(";")) return c;
            }
        }
        return null;
    }
}
