package dev.lathe.cli;

import dev.lathe.driver.Passes;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeAnalysis;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.pass.PassException;
import dev.lathe.ir.pass.PassInstrumentation;
import dev.lathe.ir.pass.PassManager;
import dev.lathe.ir.pass.PassRegistry;
import dev.lathe.ir.pass.Pipeline;
import dev.lathe.ir.text.IrPrinter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lathe analyze FILE.ir}: the IR with each value's range. */
@Command(
        name = "analyze",
        mixinStandardHelpOptions = true,
        description = {
            "Print a shader with the range analysis's result after each value, as a comment:",
            "float classes  f{-inf <-1 -1 (-1,0) -0 +0 (0,1) 1 >1 +inf nan}, 'whole' when every finite value is a whole number;",
            "integer intervals  s[lo, hi] (signed)  u[lo, hi] (unsigned); 'any' when nothing is known.",
            "Components that differ are listed one by one. The output is valid IR."
        })
final class AnalyzeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.ir", description = "the shader to analyze")
    Path file;

    @Mixin
    SourceOptions source = new SourceOptions();

    @Option(
            names = "--passes",
            paramLabel = "LIST",
            description = "passes to run first, e.g. 'vars_to_ssa, loop(constant_fold, copy_prop, dce)'")
    String passes;

    @Override
    public Integer call() {
        Shader s = ShaderFiles.load(file, source);
        if (passes != null) {
            PassRegistry registry = new Passes().registry();
            Pipeline pipeline = PassesOption.parse("lathe analyze", passes, registry);
            try {
                new PassManager(registry, PassInstrumentation.Settings.verifying()).run(s, pipeline);
            } catch (PassException e) {
                throw new CliException(file + ": " + e.getMessage());
            }
        }
        Map<Function, RangeAnalysis> results = new HashMap<>();
        for (Function f : s.functions()) results.put(f, RangeAnalysis.run(f));
        PrintWriter out = spec.commandLine().getOut();
        out.print(IrPrinter.print(s, i -> note(i, results)));
        out.flush();
        return 0;
    }

    private static String note(Instr i, Map<Function, RangeAnalysis> results) {
        Value d = i.def();
        if (d == null) return null;
        RangeAnalysis a = results.get(i.block().function());
        // Show the reading the value is made for: floats for float ops, intervals for integer
        // ops, both for data movement; a constant as it is printed.
        boolean asFloat = true, asInteger = true;
        if (i instanceof AluInstr alu) {
            TypeClass t = alu.op().output().typeClass();
            asFloat = t == TypeClass.FLOAT || t == TypeClass.ANY;
            asInteger = t != TypeClass.FLOAT;
        } else if (i instanceof LoadConstInstr k) {
            asFloat = IrPrinter.looksLikeFloat(k.value(0), d.bitSize());
            asInteger = !asFloat;
        }
        String first = a.range(d, 0).describe(asFloat, asInteger);
        boolean same = true;
        for (int c = 1; c < d.numComponents(); c++)
            same &= a.range(d, c).describe(asFloat, asInteger).equals(first);
        if (same) return first;
        StringBuilder sb = new StringBuilder();
        String names = d.numComponents() <= 4 ? "xyzw" : "abcdefghijklmnop";
        for (int c = 0; c < d.numComponents(); c++) {
            if (c > 0) sb.append("; ");
            sb.append(names.charAt(c)).append(": ").append(a.range(d, c).describe(asFloat, asInteger));
        }
        return sb.toString();
    }
}
