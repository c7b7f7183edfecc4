package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;

/**
 * Every message of the rule syntax, in one catalog: what the lexical checks
 * ({@link RuleSyntax}), the parser's error strategy ({@link SyntaxErrorStrategy}), the shape
 * hints ({@link SyntaxHints}) and the tree builder ({@link AstBuilder}) say. Each message names
 * the mistake and, where one is likely, what was meant; none names a grammar token. The files of
 * {@code rule-compiler/src/test/resources/diagnostics} pin the wording down.
 */
final class SyntaxMessages {
    private SyntaxMessages() {}

    // ---- characters and words the lexer cannot read ---------------------------------------------

    static String digitStartsRuleName(String word) {
        return "a rule name cannot start with a digit: '" + word + "'";
    }

    static String digitStartsPassName(String word) {
        return "a pass name cannot start with a digit: '" + word + "'";
    }

    /** {@code @32bit}. */
    static String sizeGluedToWord(String word) {
        return "'@" + word + "' is not an annotation: write the size alone, as in @"
                + word.replaceAll("[a-zA-Z_]+$", "");
    }

    /** {@code 1.0f}. */
    static String typeSuffix(String word) {
        return "'" + word
                + "' has a type suffix, which literals do not take: write 1.0 for a float, 1 for an integer, and annotate"
                + " a size as in 1@32";
    }

    static String digitStartsVariable(String word) {
        return "'" + word + "' is not a number, and a variable name cannot start with a digit";
    }

    static String malformedNumber(String word) {
        return "malformed number '" + word + "'";
    }

    static final String UNTERMINATED_COMMENT = "unterminated comment: '/*' without a closing '*/'";

    /** {@code =＞}: '=' and a lookalike of '>'. */
    static String arrowOfLookalike(String lookalike) {
        return "unexpected characters '=" + lookalike + "': " + shown(lookalike)
                + " only looks like '>'; the arrow is '=>' in ASCII";
    }

    static String equalsAfterRuleName(String name) {
        return "unexpected character '=': a rule's name is followed by ':', as in " + name + ": …";
    }

    static final String LONE_EQUALS = "unexpected character '=' (the arrow is '=>', or '~=>' for an inexact rule)";

    static String bracket(String bracket) {
        return "unexpected character '" + bracket + "': an op's operands go in parentheses, as in fmul(a, 1.0)";
    }

    static final String BRACKET_NOT_FLAGS =
            "'[' after an op's name lists the flags its instruction must carry, as in fadd[nsz](a, 0.0); an op's"
                    + " operands go in parentheses, as in fmul(a, 1.0)";

    static String pointWithoutDigit(String digits) {
        return "unexpected character '.': a float needs a digit before its point, as in 0." + digits;
    }

    static String unexpectedCharacter(String c) {
        return "unexpected character " + shown(c);
    }

    static String lookalikeArrow(String c) {
        return unexpectedCharacter(c) + ": the arrow is '=>' in ASCII";
    }

    static String invisibleCharacter(String c) {
        return unexpectedCharacter(c) + ", an invisible one: delete it";
    }

    static String nonAsciiSpace(String c) {
        return unexpectedCharacter(c) + ", a non-ASCII space: use a plain space";
    }

    static String lookalike(String c, String ascii) {
        return unexpectedCharacter(c) + ", which looks like '" + ascii + "': write '" + ascii + "'";
    }

    /** A character as a message shows it: control characters and non-ASCII ones by code point too. */
    private static String shown(String c) {
        return Diagnostic.describeChar(c.codePointAt(0));
    }

    static String tooDeep(int levels) {
        return "the expression is nested more than " + levels + " levels deep; rules that deep are not supported";
    }

    // ---- where rules and conditions end ------------------------------------------------------

    /** How every missing-';' message starts (the parser's listener tells them by it). */
    static final String MISSING_SEMICOLON = "missing ';'";

    static String missingSemicolonAfter(String token) {
        return MISSING_SEMICOLON + " after '" + token + "'";
    }

    static final String MISSING_COMMA = "missing ',' between conditions";

    /** {@code pass my-pass;}. */
    static String hyphenatedPassName(String meant) {
        return "a pass name is letters, digits and '_', as in " + meant;
    }

    /** {@code if c1(a) and c2(b)}. */
    static String conditionsJoinedByWord(String word) {
        return "unexpected '" + word + "': conditions are separated by ',' and must all hold"
                + (word.equals("or") ? " (for either of two, write two rules)" : "");
    }

    // ---- what the parser expected ------------------------------------------------------------

    static String unexpected(String token, boolean endOfFile) {
        return endOfFile ? "unexpected end of file" : "unexpected '" + token + "'";
    }

    static String expected(String found, String expected) {
        return found + "; expected " + expected;
    }

    static String reservedWord(String word) {
        return " ('" + word + "' is a reserved word)";
    }

    /** {@code imul(a, # c)}: the '#' and a space started a comment. */
    static String midRuleComment(int line, int column) {
        return " (the '#' at " + line + ":" + column
                + " starts a comment to the end of its line; a constant-only variable is written"
                + " without a space, as in #c)";
    }

    static String constantVariableStartsRule(String word) {
        return " ('" + word + "' reads as a constant variable; a comment starts with '# ' or '//')";
    }

    static final String PASS_IN_LOWER_CASE = " (the header is written 'pass NAME;', in lower case)";

    static String ruleNameNeedsColon(String name) {
        return " (a rule's name is followed by ':', as in " + name + ": …)";
    }

    /** How the expected tokens are named: families once, tokens by what they are. */
    static final String AN_EXPRESSION = "an expression";

    static final String AN_OPERATOR = "an operator";
    static final String SOMETHING_ELSE = "something else";

    /** A token of the grammar by what it is ({@code IDENT}: "a name"); a literal token as itself. */
    static String tokenInWords(String displayName) {
        return switch (displayName) {
            case "IDENT" -> "a name";
            case "INT" -> "an integer";
            case "HEX" -> "a hex number";
            case "FLOAT" -> "a float";
            case "CONSTVAR" -> "a #constant";
            case "ARROW" -> "'=>'";
            case "INEXACT_ARROW" -> "'~=>'";
            case "REASSOC_ARROW" -> "'~~>'";
            case "EOF" -> "the end of the file";
            default -> displayName;
        };
    }

    // ---- mistakes recognized by their shape ----------------------------------------------------

    static final String DASHES_NOT_A_COMMENT = "'--' does not start a comment: comments start with '#' or '//'";

    static String hyphenatedRuleName(String meant) {
        return "a rule name is letters, digits and '_', as in " + meant + ":";
    }

    static String literalAsRuleName(String literal) {
        return "'" + literal + "' is a literal and cannot name a rule";
    }

    static final String PASS_AS_RULE_NAME = "'pass' is a keyword and cannot name a rule; choose another name";
    static final String PASS_AS_VARIABLE = "'pass' is a keyword and cannot name a variable; choose another name";
    static final String SECOND_PASS_LINE = "a file has one 'pass' line, and it comes first";

    /** {@code &&}, {@code ||} between values (between gates they are what they are in C). */
    static String doubledOperator(String op) {
        return "'" + op + op + "' is not an operator: write '" + op + "' (" + (op.equals("&") ? "iand" : "ior")
                + ", which is '" + (op.equals("&") ? "and" : "or") + "' on booleans)";
    }

    static final String POWER_OPERATOR = "'**' is not an operator: write fpow(a, b), or a product";

    static String constantVariableStartsRuleLine(String word) {
        return "'" + word + "' reads as a constant variable that starts a rule; a comment starts with '# ' or '//'";
    }

    static final String CONDITION_NEGATED_WITH_NOT =
            "a condition cannot be negated with 'not': write the opposite condition"
                    + " (is_not_zero for is_zero, is_lt_zero for is_ge_zero …)";
    static final String CONDITION_NEGATED_WITH_BANG =
            "a condition cannot be negated with '!': write the opposite condition"
                    + " (is_not_zero for is_zero, is_lt_zero for is_ge_zero …)";

    static String conditionWithoutCall(String condition, String variable) {
        return "a condition is a call: write " + condition + "(" + variable + ")";
    }

    /** Mesa's {@code fmul(is_used_once)}. */
    static String mesaOpCondition(String op, String condition) {
        return "this is Mesa's form of a condition on an op: write the operands in the op's parentheses"
                + (condition.equals("is_used_once")
                        ? " and @once after them, as in " + op + "(a, b)@once"
                        : " and the condition after 'if'");
    }

    /** Mesa's {@code #b(is_not_zero)}. */
    static String mesaVariableCondition(String variable, String name, String condition) {
        return "this is Mesa's form of a condition on a variable: write " + variable + " here and 'if " + condition
                + "(" + name + ")' after the replacement";
    }

    static final String IF_WITHOUT_CONDITION = "'if' needs at least one condition after it, as in if is_gt_zero(a)";
    static final String COMMA_WITHOUT_CONDITION = "a condition must follow ',', as in is_gt_zero(a)";
    static final String COMPARISON_AS_CONDITION =
            "a condition is a call such as is_zero(a); a comparison belongs in the pattern";
    static final String LONG_ARROW = "'==>' is not an arrow: write '=>' (or '~=>' for an inexact rule)";
    static final String CONDITIONS_SPLIT_BY_SEMICOLON =
            "conditions are separated by ',', not ';': the ';' ends the rule";
    static final String SEMICOLON_BEFORE_IF = "a ';' before 'if': the conditions belong to the rule, before its ';'";
    static final String THIN_ARROW = "'->' is not an arrow: write '=>' (or '~=>' for an inexact rule)";

    static String nestedBlockComment(int line, int column, int endLine) {
        return "the comment that starts at " + line + ":" + column + " ends at its first '*/' (line " + endLine
                + "): block comments" + " do not nest";
    }

    static String unfinishedRule(String last, String nextName, int nextLine) {
        return "unfinished rule after '" + last + "': '" + nextName + ":' on line " + nextLine
                + " starts the next rule";
    }

    // ---- names and operators the tree builder checks ---------------------------------------------

    static String passNameFromFileIsNoName(String pass) {
        return "the pass name '" + pass
                + "' (from the file name) is not a name (letters, digits and _, not starting with a digit);"
                + " add a line 'pass NAME;'";
    }

    static String passNameTooLong(int max, boolean fromFileName) {
        return "a pass name may have at most " + max + " characters"
                + (fromFileName ? " (this one comes from the file name); add a line 'pass NAME;'" : "");
    }

    static String reservedPassName(String pass) {
        return "the pass name '" + pass + "' is reserved (the generated index class is GeneratedRules); choose another";
    }

    static String builtInPassName(String pass, boolean fromFileName) {
        return "the pass name '" + pass + "'" + (fromFileName ? " (from the file name)" : "")
                + " is a built-in pass of lathe opt; "
                + (fromFileName ? "add a line 'pass NAME;' with another name" : "choose another");
    }

    static String unnamedRuleName(String name) {
        return "names like " + name + " are given to unnamed rules; choose another name";
    }

    /** {@code a == 0 & b == 0}, read as in C. */
    static String comparisonsJoinedAsInC(String op, String first, String second, String meant) {
        return "'" + op + "' binds tighter than '" + first + (first.equals(second) ? "'" : "' and '" + second + "'")
                + " (as in Go, not as in C), so these two comparisons do not join here; write " + meant;
    }
}
