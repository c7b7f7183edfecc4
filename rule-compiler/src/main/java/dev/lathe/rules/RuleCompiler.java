package dev.lathe.rules;

import dev.lathe.ir.text.Diagnostic;
import dev.lathe.rules.model.CheckedFile;
import java.util.ArrayList;
import java.util.List;

/** Rule text to checked rules: syntax, then semantic analysis; all diagnostics of the file. */
public final class RuleCompiler {
    private RuleCompiler() {}

    /** The checked file (rules without errors) and every diagnostic, in file order. */
    public record Result(CheckedFile file, List<Diagnostic> errors) {
        public boolean ok() {
            return errors.isEmpty();
        }

        /** Every diagnostic rendered with its source line and caret, separated by newlines. */
        public String render() {
            StringBuilder sb = new StringBuilder();
            for (Diagnostic d : errors) {
                if (sb.length() > 0) sb.append('\n');
                sb.append(d.render());
            }
            return sb.toString();
        }
    }

    public static Result compile(String file, String text) {
        RuleSyntax.Result syntax = RuleSyntax.parse(file, text);
        Checker.Result checked = Checker.check(syntax.file(), text);
        List<Diagnostic> all = new ArrayList<>(syntax.errors());
        all.addAll(checked.errors());
        all.sort((a, b) -> a.line() != b.line() ? Integer.compare(a.line(), b.line()) : Integer.compare(a.column(), b.column()));
        return new Result(checked.file(), all);
    }
}
