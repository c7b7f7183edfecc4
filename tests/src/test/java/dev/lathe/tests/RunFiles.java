package dev.lathe.tests;

import static org.junit.jupiter.api.Assertions.fail;

import dev.lathe.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code // test run [interpreter] [PATH]} files: the program (the file's own IR, or the shader at
 * {@code PATH}, relative to the project's root: IR or SPIR-V) runs once per {@code // run: ARGS}
 * line, with {@code ARGS} spelled as for {@code lathe run}, in the interpreter ({@code lathe run})
 * and, unless the header says {@code interpreter}, compiled and in the simulator
 * ({@code lathe sim}). The {@code // expect: LINE} lines after a run line must be printed, in
 * that order (other lines may come between), and the simulator must print exactly what the
 * interpreter printed. {@code // expect-error: TEXT} lines instead: the run must fail, saying each
 * TEXT.
 */
final class RunFiles {
    private RunFiles() {}

    /** One {@code // run:} line and what it must give. */
    record Case(int line, List<String> args, List<String> expected, List<String> errors) {}

    static void check(Path f, String text, String headerArgs) throws Exception {
        boolean simulate = true;
        Path program = f;
        for (String w : headerArgs.isBlank() ? new String[0] : headerArgs.trim().split("\\s+")) {
            if (w.equals("interpreter")) simulate = false;
            else program = ExamplesTest.root().resolve(w);
        }
        if (!Files.isRegularFile(program)) fail(f + ":1: no program at " + program);
        List<Case> cases = cases(f, text);
        if (cases.isEmpty()) fail(f + ": a run test needs '// run: ARGS' lines");
        for (Case c : cases) {
            String where = f + ":" + c.line();
            String[] interpreted = execute("run", program, c.args());
            check(where + " (interpreter)", c, interpreted);
            if (!simulate || !c.errors().isEmpty()) continue;
            String[] simulated = execute("sim", program, c.args());
            check(where + " (simulator)", c, simulated);
            if (!simulated[1].equals(interpreted[1]))
                fail(where + ": the simulator printed\n" + simulated[1] + "\nthe interpreter\n" + interpreted[1]);
        }
    }

    static List<Case> cases(Path f, String text) {
        List<String> lines = text.lines().toList();
        List<Case> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).trim();
            if (!l.startsWith("// run:")) continue;
            String rest = l.substring("// run:".length()).trim();
            List<String> args = rest.isEmpty() ? List.of() : List.of(rest.split("\\s+"));
            List<String> expected = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            int j = i + 1;
            for (; j < lines.size(); j++) {
                String e = lines.get(j).trim();
                if (e.startsWith("// expect:"))
                    expected.add(e.substring("// expect:".length()).trim());
                else if (e.startsWith("// expect-error:"))
                    errors.add(e.substring("// expect-error:".length()).trim());
                else break;
            }
            if (expected.isEmpty() == errors.isEmpty())
                fail(f + ":" + (i + 1)
                        + ": a run line is followed by '// expect:' lines or by '// expect-error:' lines");
            out.add(new Case(i + 1, args, expected, errors));
        }
        return out;
    }

    /** {@code lathe COMMAND PROGRAM ARGS}: its exit code, standard output and standard error. */
    private static String[] execute(String command, Path program, List<String> args) {
        List<String> argv = new ArrayList<>(List.of(command, program.toString()));
        argv.addAll(args);
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), argv.toArray(new String[0]));
        return new String[] {Integer.toString(code), out.toString().stripTrailing(), err.toString()};
    }

    private static void check(String where, Case c, String[] result) {
        if (!c.errors().isEmpty()) {
            for (String e : c.errors()) {
                if (result[0].equals("0") || !result[2].contains(e))
                    fail(where + ": expected a failure saying '" + e + "'; exit " + result[0] + ", stderr:\n"
                            + result[2] + "\nstdout:\n" + result[1]);
            }
            return;
        }
        if (!result[0].equals("0")) fail(where + ": exit " + result[0] + ": " + result[2]);
        List<String> printed = result[1].lines().toList();
        int at = 0;
        for (String e : c.expected()) {
            while (at < printed.size() && !printed.get(at).equals(e)) at++;
            if (at == printed.size()) fail(where + ": expected the line\n  " + e + "\nin order, in\n" + result[1]);
            at++;
        }
    }
}
