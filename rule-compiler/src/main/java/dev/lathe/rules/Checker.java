package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.ast.Ast;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.SizeClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Semantic analysis of a rule file: the limits of a file, rule names used once, and each rule
 * checked by {@link RuleCheck} (its phases: building, infix typing, sizes, literals, conditions,
 * freezing). Every problem is reported with its position; checking goes on, so one run reports
 * all the errors of a file.
 */
public final class Checker {

    /**
     * The checked rules (only those without errors), every diagnostic, and every rule that passed
     * its own checks, including those whose name was taken: those are not kept, but the checks
     * between rules still look at them, so that a copied rule reports its duplicate pattern too.
     */
    public record Result(
            CheckedFile file, List<Diagnostic> errors, List<Diagnostic> warnings, List<CheckedRule> checkedAlone) {}

    /** The most commutative ops a pattern may have: each doubles the operand orders tried. */
    public static final int MAX_COMMUTATIVE = 6;

    /** Limits far above any real rule, so that generated methods stay within what javac takes. */
    static final int MAX_CONDITIONS = 64;

    static final int MAX_NAME = 200;
    /** Rules a file: its generated class stays within the constant pool (5,500 measured to compile). */
    static final int MAX_RULES = 5_000;
    /** A literal's text is a field name and a string constant of the generated class. */
    static final int MAX_LITERAL = 200;
    /** A rule's text is a string constant (javac takes at most 65,535 UTF-8 bytes). */
    static final int MAX_RULE_TEXT = 10_000;

    private final String file;
    private final String text;
    private final List<Diagnostic> errors = new ArrayList<>();
    private final List<Diagnostic> warnings = new ArrayList<>();

    private Checker(String file, String text) {
        this.file = file;
        this.text = text;
    }

    public static Result check(Ast.RuleFile ast, String text) {
        Checker c = new Checker(ast.file(), text);
        if (ast.rules().size() > MAX_RULES) {
            // One class a file: javac refuses a class of more constants than about 9,000 rules make.
            c.error(
                    ast.rules().get(MAX_RULES).pos(),
                    String.format(
                            "a file may have at most %,d rules (this one has %,d):"
                                    + " split it into several files, each its own pass",
                            MAX_RULES, ast.rules().size()));
            return new Result(new CheckedFile(ast.file(), ast.passName(), List.of()), c.errors, c.warnings, List.of());
        }
        List<CheckedRule> rules = new ArrayList<>();
        List<CheckedRule> alone = new ArrayList<>();
        Map<String, Ast.Pos> names = new HashMap<>();
        for (Ast.Rule written : ast.rules()) {
            List<SizeFamilies.Use> uses = SizeFamilies.uses(written);
            List<Variant> variants =
                    uses.isEmpty() ? List.of(new Variant(written, null)) : c.sizedVariants(written, uses);
            for (Variant v : variants) {
                Ast.Rule r = v.rule();
                Ast.Pos prev = names.putIfAbsent(r.name(), r.pos());
                if (prev != null) c.error(r.pos(), "rule name " + r.name() + " is already used at line " + prev.line());
                // A rule with a taken name is still checked, for its own errors, but not kept.
                CheckedRule checked = v.checked() != null ? v.checked() : new RuleCheck(c, r).run();
                if (checked != null && prev == null) rules.add(checked);
                if (checked != null) alone.add(checked);
            }
        }
        return new Result(new CheckedFile(ast.file(), ast.passName(), rules), c.errors, c.warnings, alone);
    }

    /**
     * The variants of a rule with unsized conversions ({@link SizeFamilies}) that type-check,
     * each to be checked as a rule of its own; none (after reporting why) when no choice of
     * sizes fits, when there are too many choices, or when the pattern's choice does not decide
     * the replacement's.
     */
    /** A rule to keep, with its check when it has been checked already (a sized variant), else null. */
    private record Variant(Ast.Rule rule, CheckedRule checked) {}

    private List<Variant> sizedVariants(Ast.Rule r, List<SizeFamilies.Use> uses) {
        List<SizeFamilies.Variant> all = SizeFamilies.variants(r, uses);
        if (all == null) {
            error(
                    uses.get(0).call().pos(),
                    "the unsized conversions of this rule stand for more than " + SizeFamilies.MAX_VARIANTS
                            + " rules: give some a size, as in u2f32");
            return List.of();
        }
        List<SizeFamilies.Variant> fit = new ArrayList<>();
        List<CheckedRule> fitChecked = new ArrayList<>();
        List<Diagnostic> fitWarnings = new ArrayList<>();
        List<List<Integer>> sizes = new ArrayList<>();
        Checker firstMisfit = null;
        for (SizeFamilies.Variant v : all) {
            Checker scratch = new Checker(file, text);
            CheckedRule checked = new RuleCheck(scratch, v.rule()).run();
            if (checked != null && scratch.errors.isEmpty()) {
                fit.add(v);
                fitChecked.add(checked);
                fitWarnings.addAll(scratch.warnings);
                sizes.add(patternSizes(checked));
            } else if (firstMisfit == null) {
                firstMisfit = scratch;
            }
        }
        if (fit.isEmpty()) {
            // every choice fails: the first one's errors say why (usually the same for all)
            errors.addAll(firstMisfit.errors);
            return List.of();
        }
        // Two variants the same instructions could match (the same pattern ops, sizes that
        // overlap at every node) must build the same replacement: else the size is a guess.
        for (int x = 0; x < fit.size(); x++) {
            SizeFamilies.Variant v = fit.get(x);
            SizeFamilies.Variant other = null;
            for (int y = 0; y < x && other == null; y++)
                if (fit.get(y).patternChoice().equals(v.patternChoice()) && overlap(sizes.get(x), sizes.get(y)))
                    other = fit.get(y);
            if (other == null) continue;
            for (int i = 0, q = 0; i < uses.size(); i++) {
                if (uses.get(i).inPattern()) continue;
                String a = other.replacementChoice().get(q),
                        b = v.replacementChoice().get(q);
                q++;
                if (a.equals(b)) continue;
                error(
                        uses.get(i).call().pos(),
                        "the pattern does not decide which size "
                                + uses.get(i).call().name() + " converts to here: it fits as " + a + " and as " + b
                                + "; write the size");
                return List.of();
            }
        }
        warnings.addAll(fitWarnings);
        List<Variant> out = new ArrayList<>();
        for (int k = 0; k < fit.size(); k++) out.add(new Variant(fit.get(k).rule(), fitChecked.get(k)));
        return out;
    }

    /** The sizes each node of the pattern may have, as masks, in a walk of the pattern. */
    private static List<Integer> patternSizes(CheckedRule r) {
        List<Integer> out = new ArrayList<>();
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>();
        work.push(r.pattern());
        while (!work.isEmpty()) {
            Node n = work.pop();
            SizeClass c = r.sizeClass(n.sizeClass());
            out.add(c.isFixed() ? dev.lathe.ir.op.Bits.sizeFlag(c.fixed()) : c.legal());
            if (n instanceof Node.OpNode op) for (Node s : op.srcs()) work.push(s);
        }
        return out;
    }

    private static boolean overlap(List<Integer> a, List<Integer> b) {
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if ((a.get(i) & b.get(i)) == 0) return false;
        return true;
    }

    void error(Ast.Pos pos, String message) {
        errors.add(Diagnostic.error(file, pos.line(), pos.column(), message, Diagnostic.lineOf(text, pos.line())));
    }

    String file() {
        return file;
    }

    void warning(Ast.Pos pos, String message) {
        warnings.add(new Diagnostic(
                file, pos.line(), pos.column(), "warning", message, Diagnostic.lineOf(text, pos.line())));
    }
}
