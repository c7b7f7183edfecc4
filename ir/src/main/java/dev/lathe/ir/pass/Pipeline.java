package dev.lathe.ir.pass;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An IR pipeline, the one model of it: pass names in order, and {@code loop(…)} groups that
 * repeat until none of their passes makes progress (NIR's optimization loop). The driver's
 * pipelines are written with {@link #run} and {@link #loop}; {@code --passes} text is parsed into
 * the same thing once ({@link #parse}); a {@link PassManager} runs it over a {@link PassRegistry},
 * which makes the passes. As text:
 *
 * <pre>vars_to_ssa, loop(constant_fold, copy_prop, dce), sink_constants</pre>
 */
public final class Pipeline {
    /** One step: a pass, or a loop of steps. */
    public sealed interface Step permits Run, Loop {}

    /** A step running the pass named {@code pass} once. */
    public record Run(String pass) implements Step {}

    /** A {@code loop(…)} group: {@code body} runs again and again until none of its steps makes progress. */
    public record Loop(List<Step> body) implements Step {
        /** Copies {@code body}, so a loop never changes once made. */
        public Loop {
            body = List.copyOf(body);
        }
    }

    private final List<Step> steps;

    private Pipeline(List<Step> steps) {
        this.steps = List.copyOf(steps);
    }

    /** The pipeline of {@code steps}, in order. */
    public static Pipeline of(Step... steps) {
        return new Pipeline(List.of(steps));
    }

    /** The pipeline of {@code steps}, in order. */
    public static Pipeline of(List<Step> steps) {
        return new Pipeline(steps);
    }

    /** A step running {@code pass} once. */
    public static Step run(String pass) {
        return new Run(pass);
    }

    /** A loop of {@code passes}, each run once per round. */
    public static Step loop(String... passes) {
        List<Step> body = new ArrayList<>();
        for (String p : passes) body.add(new Run(p));
        return new Loop(body);
    }

    /** The top-level steps, in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The names of every pass the pipeline runs, loops included. */
    public Set<String> passNames() {
        return new TreeSet<>(order());
    }

    /** The passes in the order they run, a loop's body once (what an order of passes is checked on). */
    public List<String> order() {
        List<String> out = new ArrayList<>();
        // a stack of step lists and positions: pipelines nest loops, and a worklist keeps the order plain
        ArrayDeque<Iterator<Step>> work = new ArrayDeque<>();
        work.push(steps.iterator());
        while (!work.isEmpty()) {
            Iterator<Step> it = work.peek();
            if (!it.hasNext()) {
                work.pop();
                continue;
            }
            Step step = it.next();
            if (step instanceof Run r) out.add(r.pass());
            if (step instanceof Loop l) work.push(l.body().iterator());
        }
        return out;
    }

    /** This pipeline without the given passes (an empty loop left in place runs nothing). */
    public Pipeline without(Set<String> passes) {
        return new Pipeline(without(steps, passes));
    }

    private static List<Step> without(List<Step> steps, Set<String> passes) {
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Run r && !passes.contains(r.pass())) out.add(s);
            if (s instanceof Loop l) out.add(new Loop(without(l.body(), passes)));
        }
        return out;
    }

    /** What is wrong with the first pass this pipeline runs that {@code registry} has no IR pass for; null when none is. */
    public String unknownPass(PassRegistry registry) {
        for (String p : order()) {
            String problem = passProblem(p, registry);
            if (problem != null) return problem;
        }
        return null;
    }

    private static String passProblem(String name, PassRegistry registry) {
        PassRegistry.Entry e = registry.entry(name);
        if (e == null) return "unknown pass '" + name + "' (known: " + String.join(", ", registry.irNames()) + ")";
        if (!e.isIrPass())
            return "'" + name + "' is a machine pass (it takes " + e.takes().label() + " code and gives "
                    + e.gives().label() + " code); an IR pipeline runs IR passes only";
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Pipeline p && p.steps.equals(steps);
    }

    @Override
    public int hashCode() {
        return steps.hashCode();
    }

    /** The pipeline as text, as {@link #parse} reads it: {@code a, loop(b, c), d}. */
    @Override
    public String toString() {
        return text(steps);
    }

    private static String text(List<Step> steps) {
        List<String> parts = new ArrayList<>();
        for (Step s : steps) parts.add(s instanceof Run r ? r.pass() : "loop(" + text(((Loop) s).body()) + ")");
        return String.join(", ", parts);
    }

    /**
     * Parses pipeline text; the pass names are checked when it runs, or against a registry by
     * {@link #unknownPass} ({@link #parse(String, PassRegistry)} checks each where it is written).
     *
     * @throws IllegalArgumentException naming the position and the problem
     */
    public static Pipeline parse(String text) {
        return parse(text, null);
    }

    /**
     * Parses pipeline text, each pass name checked against {@code registry}'s IR passes (none when null).
     *
     * @throws IllegalArgumentException naming the position and the problem (an unknown pass
     *     lists the known ones)
     */
    public static Pipeline parse(String text, PassRegistry registry) {
        List<List<Step>> stack = new ArrayList<>();
        stack.add(new ArrayList<>());
        int i = 0;
        int n = text.length();
        boolean expectStep = true;
        while (true) {
            while (i < n && Character.isWhitespace(text.charAt(i))) i++;
            if (i >= n) break;
            char c = text.charAt(i);
            if (c == ',') {
                if (expectStep) throw error(text, i, "a pass name is missing before ','");
                expectStep = true;
                i++;
            } else if (c == ')') {
                if (stack.size() == 1) throw error(text, i, "')' without 'loop('");
                if (expectStep) throw error(text, i, "a pass name is missing before ')'");
                List<Step> body = stack.remove(stack.size() - 1);
                stack.get(stack.size() - 1).add(new Loop(body));
                expectStep = false;
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                if (!expectStep) throw error(text, i, "',' is missing before this pass");
                int start = i;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) i++;
                String name = text.substring(start, i);
                int j = i;
                while (j < n && Character.isWhitespace(text.charAt(j))) j++;
                if (name.equals("loop") && j < n && text.charAt(j) == '(') {
                    stack.add(new ArrayList<>());
                    i = j + 1;
                    expectStep = true;
                    continue;
                }
                String problem = registry == null ? null : passProblem(name, registry);
                if (problem != null) throw error(text, start, problem);
                stack.get(stack.size() - 1).add(new Run(name));
                expectStep = false;
            } else {
                throw error(text, i, "unexpected '" + c + "'");
            }
        }
        if (stack.size() > 1) throw error(text, n, "'loop(' is not closed");
        if (expectStep)
            throw error(
                    text, n, stack.get(0).isEmpty() ? "the pipeline is empty" : "a pass name is missing at the end");
        return new Pipeline(stack.get(0));
    }

    private static IllegalArgumentException error(String text, int at, String msg) {
        if (text.isBlank()) return new IllegalArgumentException("the pipeline is empty");
        return new IllegalArgumentException(
                "pipeline at character " + (at + 1) + ": " + msg + " in \"" + text.strip() + "\"");
    }
}
