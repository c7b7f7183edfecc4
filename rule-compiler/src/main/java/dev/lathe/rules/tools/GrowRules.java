package dev.lathe.rules.tools;

import dev.lathe.ir.gen.RandomProgramGenerator;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.RuleCompiler;
import dev.lathe.rules.model.CheckedRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * For the matching benchmark: a rule file grown {@code factor} times by rules on other opcodes.
 *
 * <pre>GrowRules --from rules/algebraic.rules --factor 10 --out DIR/grown.rules</pre>
 *
 * The result holds every original rule plus filler rules rooted at ops that neither the
 * original rules nor the random program generator's scaffolding use. Each filler is sound and
 * distinct — {@code OP(mov(…mov(a)…), b…) => OP(a, b…)} with a different depth of movs,
 * deepest first so that none shadows another — so the file passes every check, and a
 * benchmark whose program only uses the original rules' ops measures what the extra rules cost
 * an instruction they are not rooted at.
 */
public final class GrowRules {
    private GrowRules() {}

    public static void main(String[] args) throws IOException {
        Path from = null, out = null;
        int factor = 10;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--from" -> from = Path.of(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                case "--factor" -> factor = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (from == null || out == null)
            throw new IllegalArgumentException("usage: GrowRules --from FILE --factor N --out FILE");
        String text = Files.readString(from);
        RuleCompiler.Result r = RuleCompiler.compile(from.toString(), text);
        if (!r.ok()) throw new IllegalStateException(r.render());
        Set<Op> used = EnumSet.noneOf(Op.class);
        for (CheckedRule rule : r.file().rules()) used.add(rule.pattern().op());
        used.addAll(RandomProgramGenerator.STRUCTURAL_OPS);
        List<Op> roots = new ArrayList<>();
        for (Op op : Op.values()) {
            if (used.contains(op) || op.isHorizontal() || op.numInputs() == 0) continue;
            TypeClass t0 = op.input(0).typeClass();
            if (t0 == TypeClass.BOOL) continue;
            roots.add(op);
        }
        int extra = (factor - 1) * r.file().rules().size();
        int perOp = (extra + roots.size() - 1) / roots.size();
        StringBuilder sb = new StringBuilder("pass grown;\n# ")
                .append(r.file().rules().size())
                .append(" rules of ")
                .append(from.getFileName())
                .append(" and ")
                .append(extra)
                .append(" on other opcodes\n");
        for (String line : text.split("\n")) {
            if (!line.trim().startsWith("pass ")) sb.append(line).append('\n');
        }
        int written = 0;
        for (Op op : roots) {
            for (int depth = perOp; depth >= 1 && written < extra; depth--) {
                String arg0 = "a";
                for (int k = 0; k < depth; k++) arg0 = "mov(" + arg0 + ")";
                List<String> rest = new ArrayList<>();
                for (int j = 1; j < op.numInputs(); j++) rest.add("b" + j);
                String operands = String.join(", ", concat(arg0, rest));
                String plain = String.join(", ", concat("a", rest));
                sb.append("g")
                        .append(written)
                        .append(": ")
                        .append(op.opName())
                        .append('(')
                        .append(operands)
                        .append(") => ")
                        .append(op.opName())
                        .append('(')
                        .append(plain)
                        .append(");\n");
                written++;
            }
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, sb.toString());
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> out = new ArrayList<>();
        out.add(first);
        out.addAll(rest);
        return out;
    }
}
