package dev.lathe.cli;

import dev.lathe.ir.op.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lathe ops}: the op table, one op a line. */
@Command(
        name = "ops",
        mixinStandardHelpOptions = true,
        description = {
            "List every ALU op of the op table, one a line: name, signature (result(sources); unsized "
                    + "types share the instruction's bit size), legal bit sizes, properties, and meaning."
        })
final class OpsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        for (Op op : Op.values()) {
            List<String> props = new ArrayList<>();
            if (op.isCommutative()) props.add("commutative");
            if (op.isAssociative()) props.add("associative");
            if (op.isHorizontal()) props.add("horizontal");
            String sizes = op.hasUnsizedOperands() ? "bits " + join(op.legalBitSizeList()) : "fixed";
            out.printf(
                    "%-26s %-40s %-15s %-37s %s%n",
                    op.opName(),
                    op.signature(),
                    sizes,
                    props.isEmpty() ? "-" : String.join(",", props),
                    op.description());
        }
        out.flush();
        return 0;
    }

    private static String join(List<Integer> xs) {
        StringBuilder sb = new StringBuilder();
        for (int x : xs) {
            if (sb.length() > 0) sb.append(',');
            sb.append(x);
        }
        return sb.toString();
    }
}
