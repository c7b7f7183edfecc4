package dev.lathe.rules;

import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ProtoTree.PVar;
import dev.lathe.rules.ProtoTree.VarInfo;
import dev.lathe.rules.ast.Ast;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the phases of one rule's check share ({@link RuleCheck}): the rule, its values as they
 * are worked out ({@link ProtoTree}), its variables, its size classes, and the errors so far. A
 * phase reads what the phases before it found and adds its own findings; whether the next phase
 * runs is decided in one place, {@link RuleCheck}.
 */
final class RuleContext {
    private final Checker checker;
    final Ast.Rule rule;

    /** The variables, in the order the pattern binds them. */
    final Map<String, VarInfo> vars = new LinkedHashMap<>();

    final List<String> bindingOrder = new ArrayList<>();
    /** Every operation, variable occurrence and literal of the pattern and the replacement. */
    final List<POp> ops = new ArrayList<>();

    final List<PVar> varOccurrences = new ArrayList<>();
    final List<PLit> lits = new ArrayList<>();
    final SizeClasses sizes = new SizeClasses();

    /** The built pattern and replacement (null until built, or when they could not be). */
    P pattern;

    P replacement;
    /** The pattern whose number of commutative ops is checked after everything else. */
    POp limitRoot;
    /** The root's component count when a horizontal op fixes it, else 0 ({@link ComponentCheck}). */
    int rootComps;
    /** The most components a matched root may have (0: any), when a horizontal op bounds it. */
    int maxWidth;

    /** The variables the pattern's text names, whether or not the pattern is well-formed. */
    Set<String> patternNames = Set.of();
    /** Replacement variables the pattern does not bind, reported once each; how many errors those are. */
    final Set<String> unboundReported = new HashSet<>();

    int unboundOnly;
    /** A literal or a variable name past its limit was reported (the rule text's length is then not). */
    boolean tooLongReported;

    private int errors;
    private int refusals;

    RuleContext(Checker checker, Ast.Rule rule) {
        this.checker = checker;
        this.rule = rule;
    }

    String file() {
        return checker.file();
    }

    /** An error: the rule is not kept, and the phases that need a rule without errors do not run. */
    void error(Ast.Pos pos, String message) {
        errors++;
        checker.error(pos, message);
    }

    /**
     * An error that leaves the rest of the rule worth checking (an unknown condition name): the
     * rule is not kept, but the phases go on.
     */
    void refuse(Ast.Pos pos, String message) {
        refusals++;
        checker.error(pos, message);
    }

    void warning(Ast.Pos pos, String message) {
        checker.warning(pos, message);
    }

    /** The errors so far, refusals not counted. */
    int errors() {
        return errors;
    }

    /** Whether anything so far keeps the rule from being kept. */
    boolean rejected() {
        return errors > 0 || refusals > 0;
    }

    /** " (did you mean a?)" for a variable the pattern does not bind but nearly does, else "". */
    String didYouMean(String name) {
        List<String> known = new ArrayList<>(new TreeSet<>(patternNames));
        // Any one-letter name is one edit from any other: only a change of case is a likely typo.
        String near = name.length() > 1
                ? Suggest.closest(name, known)
                : known.stream()
                        .filter(k -> k.equalsIgnoreCase(name))
                        .findFirst()
                        .orElse(null);
        return near == null ? "" : " (did you mean " + near + "?)";
    }
}
