package dev.lathe.bench;

import dev.lathe.driver.Passes;
import dev.lathe.driver.Pipelines;
import dev.lathe.ir.Shader;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.text.IrParser;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.interp.RuleInterpreter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * How many instructions the range analysis removes: each IR file given on the command line goes
 * through the default pipeline three ways — without the range-backed rules (the section
 * "Decided by the range analysis" cut from {@code rules/algebraic.rules}) and without
 * {@code opt_minmax}; with the rules; with both — and a Markdown table shows the instruction
 * counts. Run from the repository root:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.lathe.bench.RangeSavings examples/ir/*.ir
 * </pre>
 */
public final class RangeSavings {
    private static final String SECTION = "# ---- Decided by the range analysis";

    private RangeSavings() {}

    public static void main(String[] args) throws Exception {
        String rules = Files.readString(Path.of("rules/algebraic.rules"));
        int cut = rules.indexOf(SECTION);
        if (cut < 0) throw new IllegalStateException("rules/algebraic.rules has no section '" + SECTION + "'");
        RuleCompiler.Result plain = RuleCompiler.compile("rules/algebraic.rules", rules.substring(0, cut));
        if (!plain.ok()) throw new IllegalStateException(plain.render());
        RuleSet withoutRange = new RuleInterpreter(plain.file());
        Pipeline noMinMax = Pipelines.OPTIMIZE.without(Set.of("opt_minmax"));

        System.out.println(
                "| program | before | default without range rules and opt_minmax | + range rules | + opt_minmax | removed |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        int[] totals = new int[4];
        for (String a : args) {
            Path f = Path.of(a);
            String text = Files.readString(f);
            int before = IrParser.parse(a, text).entryPoint().instructionCount();
            int base = count(a, text, new Passes().replacing(withoutRange).registry(), noMinMax);
            int ruled = count(a, text, new Passes().registry(), noMinMax);
            int both = count(a, text, new Passes().registry(), Pipelines.OPTIMIZE);
            int[] row = {before, base, ruled, both};
            for (int k = 0; k < 4; k++) totals[k] += row[k];
            System.out.printf(
                    "| %s | %d | %d | %d | %d | %d |%n", f.getFileName(), before, base, ruled, both, base - both);
        }
        System.out.printf(
                "| **total** | %d | %d | %d | %d | %d |%n",
                totals[0], totals[1], totals[2], totals[3], totals[1] - totals[3]);
    }

    private static int count(String name, String text, PassRegistry registry, Pipeline pipeline) {
        Shader s = IrParser.parse(name, text);
        new PassManager(registry, PassInstrumentation.Settings.verifying()).run(s, pipeline);
        return s.entryPoint().instructionCount();
    }
}
