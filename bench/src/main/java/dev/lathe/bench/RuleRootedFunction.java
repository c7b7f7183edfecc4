package dev.lathe.bench;

import dev.lathe.ir.Shader;
import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.op.Op;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * The function the rule benchmarks rewrite: generated (seed 42, {@code Options.large(size)})
 * with random arithmetic only of the ops some rule of {@code rules/algebraic.rules} is rooted
 * at, so that every instruction is offered to real rules; and the checked rules themselves
 * (for the interpreter). Read from the repository root, or {@code -Dlathe.root}.
 */
record RuleRootedFunction(CheckedFile rules, Shader shader) {
    static RuleRootedFunction generate(int size) throws IOException {
        Path file = Path.of(System.getProperty("lathe.root", ".")).resolve("rules/algebraic.rules");
        RuleCompiler.Result r = RuleCompiler.compile("rules/algebraic.rules", Files.readString(file));
        if (!r.ok()) throw new IllegalStateException(r.render());
        Set<Op> roots = EnumSet.noneOf(Op.class);
        for (CheckedRule rule : r.file().rules()) roots.add(rule.pattern().op());
        Shader s = RandomProgramGenerator.generate(
                42, RandomProgramGenerator.Options.large(size).withRandomOps(roots));
        return new RuleRootedFunction(r.file(), s);
    }
}
