package dev.lathe.rules.ast;

import java.util.List;

/**
 * The syntax tree of a rule file, as written (infix operators not yet resolved to ops). Every
 * node keeps the position it was written at, for diagnostics.
 */
public final class Ast {
    private Ast() {}

    /** A 1-based line and column. */
    public record Pos(int line, int column) {}

    /** An expression of a pattern, a replacement or a condition argument. */
    public sealed interface Expr permits Call, Binary, Unary, Var, Lit, Annotated, Swizzled {
        /** Where the expression's own token is: an infix operator, an annotation's '@'. */
        Pos pos();

        /** Where the expression's text starts: for a message about the whole expression. */
        default Pos start() {
            Expr e = this;
            while (true) {
                if (e instanceof Binary b) e = b.left();
                else if (e instanceof Annotated a) e = a.inner();
                else if (e instanceof Swizzled s) e = s.inner();
                else return e.pos();
            }
        }
    }

    /**
     * {@code name[flags]@16(args…)}: an op (or, in a condition, a predicate) applied to operands;
     * {@code flags} are the {@code [nsz, nnan]} written after the name, each with its position.
     */
    public record Call(String name, List<Annotation> annotations, List<Expr> args, Pos pos, List<Annotation> flags)
            implements Expr {
        public Call(String name, List<Annotation> annotations, List<Expr> args, Pos pos) {
            this(name, annotations, args, pos, List.of());
        }
    }

    /** {@code left op right} with op one of {@code + - * / % & | ^ << >> < <= > >= == !=}. */
    public record Binary(String op, Expr left, Expr right, Pos pos) implements Expr {}

    /** {@code -x}, {@code ~x} or {@code !x}. */
    public record Unary(String op, Expr operand, Pos pos) implements Expr {}

    /** A variable; {@code constOnly} for {@code #c}, which matches constants only. */
    public record Var(String name, boolean constOnly, Pos pos) implements Expr {}

    /** A literal, with the text it was written as. */
    public record Lit(LitKind kind, String text, Pos pos) implements Expr {}

    public enum LitKind {
        INT,
        HEX,
        FLOAT,
        INF,
        NAN,
        TRUE,
        FALSE
    }

    /**
     * {@code a.xy}, {@code unpack_64_2x32(a).y}: a variable or a horizontal op's result read at
     * the components the letters name ({@code xyzw}, or {@code a} to {@code p} for 0 to 15).
     */
    public record Swizzled(Expr inner, String swizzle, Pos pos) implements Expr {}

    /** {@code expr@32}, {@code expr@f32}, {@code expr@once}. */
    public record Annotated(Expr inner, Annotation annotation, Pos pos) implements Expr {}

    public record Annotation(String text, Pos pos) {}

    /** {@code name(args…)} after {@code if}. */
    public record Condition(String name, List<Expr> args, Pos pos) {}

    /**
     * One clause of the gates after {@code if} ({@code option(NAME)}, {@code !stage(vertex)},
     * {@code option(a) || option(b)}): the rule applies only where one of its literals holds.
     */
    public record Gate(List<dev.lathe.rules.model.GateLiteral> any, Pos pos) {}

    /**
     * One rule: {@code name: pattern => replacement if conditions;}.
     *
     * @param text the rule exactly as written (for generated-code comments and reports)
     * @param comment the comment after the rule on its last line ({@code # why}), or ""
     */
    public record Rule(
            String name,
            Pos pos,
            Expr pattern,
            boolean exact,
            Expr replacement,
            List<Condition> conditions,
            String text,
            String comment,
            List<Gate> gates,
            boolean reassociating,
            double ulpBound) {}

    /** A whole file: its pass name (the file name without .rules when there is no header) and its rules. */
    public record RuleFile(String file, String passName, List<Rule> rules) {}
}
