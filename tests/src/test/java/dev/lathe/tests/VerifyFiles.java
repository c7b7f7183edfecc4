package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.ir.SourceLoc;
import dev.lathe.ir.text.Diagnostic;
import dev.lathe.ir.text.IrParser;
import dev.lathe.ir.text.IrSyntaxException;
import dev.lathe.ir.validate.ValidationError;
import dev.lathe.ir.validate.Validator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code // test verify} files: the program is parsed and validated, and its errors must be
 * exactly the file's {@code // ERROR: CHECK LINE:COL: FRAGMENT} lines (the check's name, where
 * the error points, a piece of its message), in any order; what the parser refuses is one error
 * of the check {@code syntax}. A file without {@code ERROR} lines must be valid. A mismatch prints the lines the file would need, ready to paste.
 */
final class VerifyFiles {
    private static final Pattern ERROR = Pattern.compile("// ERROR: (\\S+) (\\d+):(\\d+): (.+)");

    private VerifyFiles() {}

    /** An expected error. */
    record Expected(String check, int line, int column, String fragment) {
        boolean matches(ValidationError e) {
            return e.check().equals(check)
                    && e.loc() != null
                    && e.loc().line() == line
                    && e.loc().column() == column
                    && e.message().contains(fragment);
        }
    }

    static void check(Path f, String text) {
        List<Expected> expected = new ArrayList<>();
        int n = 0;
        for (String l : text.split("\n", -1)) {
            n++;
            if (!l.startsWith("// ERROR:")) continue;
            Matcher m = ERROR.matcher(l.strip());
            if (!m.matches()) fail(f + ":" + n + ": an error line is '// ERROR: CHECK LINE:COL: FRAGMENT'");
            expected.add(
                    new Expected(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), m.group(4)));
        }
        List<ValidationError> errors;
        try {
            errors = Validator.validate(IrParser.parse(f.toString(), text));
        } catch (IrSyntaxException e) {
            // what the parser refuses is an error of the check "syntax", at the parser's location
            Diagnostic d = e.diagnostic();
            errors = List.of(
                    new ValidationError("syntax", d.message(), "", new SourceLoc(d.file(), d.line(), d.column())));
        }
        List<String> problems = new ArrayList<>();
        for (Expected x : expected) {
            if (errors.stream().noneMatch(x::matches)) problems.add("expected, not found: " + x);
        }
        for (ValidationError e : errors) {
            if (expected.stream().noneMatch(x -> x.matches(e))) problems.add("found, not expected: " + e.format());
        }
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder(f + ": the validator's errors differ from the file's:");
            for (String p : problems) sb.append("\n  ").append(p);
            sb.append("\nthe errors, as the file would spell them:");
            for (ValidationError e : errors) {
                sb.append("\n// ERROR: ").append(e.check()).append(' ');
                sb.append(
                        e.loc() == null ? "0:0" : e.loc().line() + ":" + e.loc().column());
                sb.append(": ").append(e.message());
            }
            fail(sb.toString());
        }
    }
}
