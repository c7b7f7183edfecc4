package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.pass.Pass;
import dev.lathe.ir.pass.PassException;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Applies a {@link RuleSet} to a fixpoint.
 *
 * <p>A worklist starts with every ALU instruction in program order. Each one taken off the
 * list is offered to the rule set; when a rule fires, the root (now unused) is removed, and the
 * new instructions, the users of the result and the users of the root's sources (a use went
 * away, so an {@code @once} may hold now) go back on the list. Instructions left unused are
 * dce's job. A fuel limit — four rewrites per instruction, plus a thousand — ends a rule cycle
 * (two rules rewriting into each other) with an error naming the rules that kept firing.
 */
public final class RewritePass implements Pass {
    private static final int RECENT = 64;

    private final RuleSet rules;
    private final RuleStats stats;

    public RewritePass(RuleSet rules, RuleStats stats) {
        if (stats.ruleSet() != rules) throw new IllegalArgumentException("stats of another rule set");
        this.rules = rules;
        this.stats = stats;
    }

    public RewritePass(RuleSet rules) {
        this(rules, new RuleStats(rules));
    }

    public RuleStats stats() {
        return stats;
    }

    @Override
    public String name() {
        return rules.passName();
    }

    @Override
    public boolean run(Function fn) {
        ArrayDeque<AluInstr> work = new ArrayDeque<>();
        BitSet queued = new BitSet();
        int count = 0;
        for (Block b : fn.blocks()) {
            for (Instr i : b.instrs()) {
                if (i instanceof AluInstr a) {
                    work.addLast(a);
                    queued.set(a.def().index());
                    count++;
                }
            }
        }
        long fuel = 4L * count + 1000;
        int[] recent = new int[RECENT];
        long fires = 0;
        Rewriter rw = new Rewriter(fn);
        boolean progress = false;
        while (!work.isEmpty()) {
            AluInstr root = work.pollFirst();
            queued.clear(root.def().index());
            if (!root.isInserted()) continue;
            rw.begin(root);
            int r = rules.rewrite(root, rw);
            if (r < 0) continue;
            progress = true;
            stats.count(r);
            recent[(int) (fires++ % RECENT)] = r;
            if (fires > fuel) throw cycle(fires, recent);
            Value result = rw.result();
            Value[] operands = new Value[root.srcs().size()];
            for (int k = 0; k < operands.length; k++) operands[k] = root.src(k).value();
            if (!root.def().hasUses()) root.remove();
            for (Instr i : rw.created()) enqueue(i, work, queued);
            if (result != null) enqueueUsers(result, work, queued);
            for (Value v : operands) enqueueUsers(v, work, queued);
        }
        return progress;
    }

    private static void enqueueUsers(Value v, ArrayDeque<AluInstr> work, BitSet queued) {
        for (Src u = v.firstUse(); u != null; u = u.nextUse()) {
            Instr i = u.instr();
            if (i != null) enqueue(i, work, queued);
        }
    }

    private static void enqueue(Instr i, ArrayDeque<AluInstr> work, BitSet queued) {
        if (i instanceof AluInstr a && i.isInserted() && !queued.get(a.def().index())) {
            queued.set(a.def().index());
            work.addLast(a);
        }
    }

    private PassException cycle(long fires, int[] recent) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        int n = (int) Math.min(RECENT, fires);
        for (int k = 0; k < n; k++) counts.merge(rules.rules().get(recent[k]).name(), 1, Integer::sum);
        StringBuilder sb = new StringBuilder("pass " + rules.passName() + " did not settle after " + fires
                + " rewrites; the rules still firing (last " + n + " rewrites):");
        counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).forEach(e -> {
            RuleInfo info = rules.rules().stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElseThrow();
            sb.append("\n  ").append(info.location()).append(": ").append(e.getKey()).append(" (").append(e.getValue())
                    .append("×): ").append(info.text());
        });
        sb.append("\nthese rules rewrite into each other; change one of them so they agree on a direction");
        return new PassException(sb.toString());
    }
}
