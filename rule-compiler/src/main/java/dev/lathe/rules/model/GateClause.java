package dev.lathe.rules.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One clause of a rule's gate: the rule applies only where at least one of its literals holds.
 * A rule's gates are a conjunction of clauses, so any boolean expression over options, stages
 * and float controls has this form ({@code if option(a) || !option(b), stage(vertex)}); NIR's
 * {@code '!options->lower_ftrunc || options->lower_ffloor'} is one clause of two literals. A
 * gate says nothing about values: the checker and the prover judge the rule as if it always
 * applied.
 */
public record GateClause(List<GateLiteral> any) {
    public GateClause {
        any = List.copyOf(any);
        if (any.isEmpty()) throw new IllegalArgumentException("an empty clause never holds");
    }

    /** A clause of one literal. */
    public static GateClause of(GateLiteral l) {
        return new GateClause(List.of(l));
    }

    /** As a rule writes it: {@code option(a) || !option(b)}. */
    public String text() {
        return any.stream().map(GateLiteral::text).collect(Collectors.joining(" || "));
    }

    /** As {@link dev.lathe.ir.rewrite.RuleInfo#gates()} keeps it: the literals' keys joined by {@code |}. */
    public String key() {
        return any.stream().map(GateLiteral::key).collect(Collectors.joining("|"));
    }

    /** True when some literal and its negation are both here: the clause always holds. */
    public boolean alwaysHolds() {
        for (GateLiteral l : any) if (any.contains(l.negate())) return true;
        return false;
    }
}
