package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.model.CheckedFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Rule text to checked rules: syntax, semantic analysis of each rule, then the checks between
 * rules (duplicates, shadowing, rewrite loops); all diagnostics of the file.
 */
public final class RuleCompiler {
    private RuleCompiler() {}

    /** The checked file (rules without errors), every error and every warning, in file order. */
    public record Result(CheckedFile file, List<Diagnostic> errors, List<Diagnostic> warnings) {
        public boolean ok() {
            return errors.isEmpty();
        }

        /** Every error rendered with its source line and caret, separated by newlines. */
        public String render() {
            return render(errors);
        }

        /** Errors and warnings together, in line order: how a reader goes through the file. */
        public String renderAll() {
            List<Diagnostic> all = new ArrayList<>(errors);
            all.addAll(warnings);
            all.sort(Comparator.comparingInt(Diagnostic::line).thenComparingInt(Diagnostic::column));
            return render(all);
        }

        private static String render(List<Diagnostic> ds) {
            StringBuilder sb = new StringBuilder();
            for (Diagnostic d : ds) {
                if (sb.length() > 0) sb.append('\n');
                sb.append(d.render());
            }
            return sb.toString();
        }
    }

    public static Result compile(String file, String rawText) {
        String text = RuleSyntax.normalize(rawText);
        RuleSyntax.Result syntax = RuleSyntax.parse(file, text);
        Checker.Result checked = Checker.check(syntax.file(), text);
        List<Diagnostic> all = new ArrayList<>(syntax.errors());
        all.addAll(checked.errors());
        StaticChecks.Result between = StaticChecks.check(checked.checkedAlone(), text);
        all.addAll(between.errors());
        sort(all);
        List<Diagnostic> warnings = new ArrayList<>(checked.warnings());
        warnings.addAll(between.warnings());
        sort(warnings);
        return new Result(checked.file(), all, warnings);
    }

    private static void sort(List<Diagnostic> ds) {
        ds.sort((a, b) ->
                a.line() != b.line() ? Integer.compare(a.line(), b.line()) : Integer.compare(a.column(), b.column()));
    }
}
