package dev.lathe.rules.soundness;

import dev.lathe.rules.model.CheckedRule;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Checking or proving rules on several cores, as the build and {@code lathe rules check/prove}
 * do: rules are independent, and the results are reported in the rules' order, so the output
 * is the same whatever the number of jobs. The threads are daemons: the build runs this inside
 * Maven's JVM, which must not wait on them.
 */
public final class RuleJobs {
    private RuleJobs() {}

    /**
     * Runs {@code work} on every rule, {@code jobs} at once, and hands the results to
     * {@code report} in the rules' order.
     *
     * @throws ExecutionException when {@code work} threw (its exception is the cause)
     */
    public static <T> void forEach(int jobs, List<CheckedRule> rules, Function<CheckedRule, T> work, Consumer<T> report)
            throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(jobs, rules.size())), r -> {
            Thread t = new Thread(r, "lathe-rules");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> results = new ArrayList<>();
            for (CheckedRule r : rules) results.add(pool.submit(() -> work.apply(r)));
            for (Future<T> f : results) report.accept(f.get());
        } finally {
            pool.shutdownNow();
        }
    }
}
