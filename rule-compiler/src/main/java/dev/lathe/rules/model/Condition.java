package dev.lathe.rules.model;

import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.rules.ast.Ast;

/**
 * A checked condition: a known predicate applied to a variable, read as {@code type}, with the
 * literal {@code bound} for the bounded predicates.
 */
public record Condition(Predicate predicate, Node.VarNode var, TypeClass type, long bound, Ast.Pos pos) {
    /** As a rule writes it: {@code is_power_of_two(c)}, {@code ult_const(a, 32)}. */
    public String text() {
        return predicate.spelling() + "(" + var.name() + (predicate.takesLiteral() ? ", " + bound : "") + ")";
    }
}
