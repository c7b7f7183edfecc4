package dev.lathe.ir.pass;

import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline written as text: pass names separated by commas, and {@code loop(…)} groups that
 * repeat until none of their passes makes progress (NIR's optimization loop):
 *
 * <pre>vars_to_ssa, loop(constant_fold, copy_prop, dce), sink_constants</pre>
 */
public final class Pipeline {
    /** One step: a pass, or a loop of steps. */
    public sealed interface Step permits PassStep, LoopStep {}

    /** A step running one pass once. */
    public record PassStep(Pass pass) implements Step {}

    /** A {@code loop(…)} group: its steps, run again and again until none makes progress. */
    public record LoopStep(List<Step> steps) implements Step {}

    private final List<Step> steps;
    private final String text;

    private Pipeline(List<Step> steps, String text) {
        this.steps = List.copyOf(steps);
        this.text = text;
    }

    /** The top-level steps, in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The names of every pass the pipeline runs, loops included. */
    public java.util.Set<String> passNames() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        java.util.ArrayDeque<Step> work = new java.util.ArrayDeque<>(steps);
        while (!work.isEmpty()) {
            Step step = work.pop();
            if (step instanceof PassStep ps) names.add(ps.pass().name());
            if (step instanceof LoopStep ls) work.addAll(ls.steps());
        }
        return names;
    }

    /** The passes in the order they run, a loop's body once (what an order of passes is checked on). */
    public List<String> order() {
        List<String> out = new ArrayList<>();
        // a stack of step lists and positions: pipelines nest loops, and a worklist keeps the order plain
        java.util.ArrayDeque<java.util.Iterator<Step>> work = new java.util.ArrayDeque<>();
        work.push(steps.iterator());
        while (!work.isEmpty()) {
            java.util.Iterator<Step> it = work.peek();
            if (!it.hasNext()) {
                work.pop();
                continue;
            }
            Step step = it.next();
            if (step instanceof PassStep ps) out.add(ps.pass().name());
            if (step instanceof LoopStep ls) work.push(ls.steps().iterator());
        }
        return out;
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * Parses pipeline text against a registry.
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
                stack.get(stack.size() - 1).add(new LoopStep(body));
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
                Pass p = registry.create(name);
                if (p == null) {
                    throw error(
                            text,
                            start,
                            "unknown pass '" + name + "' (known: " + String.join(", ", registry.names()) + ")");
                }
                stack.get(stack.size() - 1).add(new PassStep(p));
                expectStep = false;
            } else {
                throw error(text, i, "unexpected '" + c + "'");
            }
        }
        if (stack.size() > 1) throw error(text, n, "'loop(' is not closed");
        if (expectStep)
            throw error(
                    text, n, stack.get(0).isEmpty() ? "the pipeline is empty" : "a pass name is missing at the end");
        return new Pipeline(stack.get(0), text.strip());
    }

    private static IllegalArgumentException error(String text, int at, String msg) {
        if (text.isBlank()) return new IllegalArgumentException("the pipeline is empty");
        return new IllegalArgumentException(
                "pipeline at character " + (at + 1) + ": " + msg + " in \"" + text.strip() + "\"");
    }
}
