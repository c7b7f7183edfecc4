package dev.lathe.rules;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Cycles of three or more rules in the "rewrites into" graph (an edge from rule i to rule j when
 * i's replacement is matched by j's pattern); cycles of one and two rules have their own,
 * shorter warnings.
 *
 * <p>The graph is split into strongly connected components (Tarjan's algorithm, with an explicit
 * stack so that a file of thousands of rules cannot overflow the Java stack). A component of
 * three or more rules holds some cycle; for each such component one cycle of length three or
 * more is searched from its first rule in file order, with a bounded depth-first walk, and
 * reported. A component whose only cycles are pairs (a -> b -> a, b -> c -> b) gives nothing
 * here: the pair warnings already name every loop in it.
 */
final class RewriteCycles {
    /** Steps of the cycle search per component: enough for any real rule file, bounded for any. */
    private static final int SEARCH_STEPS = 100_000;

    private RewriteCycles() {}

    /** One cycle (rule indices, in rewrite order, starting at its first rule in file order) per component. */
    static List<List<Integer>> longerThanTwo(List<List<Integer>> into) {
        List<List<Integer>> cycles = new ArrayList<>();
        for (int[] component : components(into)) {
            if (component.length < 3) continue;
            List<Integer> cycle = cycleThrough(component, into);
            if (cycle != null) cycles.add(cycle);
        }
        cycles.sort((a, b) -> Integer.compare(a.get(0), b.get(0)));
        return cycles;
    }

    /** Tarjan's strongly connected components, iteratively; each component's indices sorted. */
    private static List<int[]> components(List<List<Integer>> into) {
        int n = into.size();
        int[] index = new int[n];
        int[] low = new int[n];
        boolean[] onStack = new boolean[n];
        Arrays.fill(index, -1);
        Deque<Integer> stack = new ArrayDeque<>();
        List<int[]> result = new ArrayList<>();
        int counter = 0;
        int[] edgeAt = new int[n];
        Deque<Integer> call = new ArrayDeque<>();
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) continue;
            call.push(root);
            index[root] = low[root] = counter++;
            stack.push(root);
            onStack[root] = true;
            while (!call.isEmpty()) {
                int v = call.peek();
                List<Integer> out = into.get(v);
                if (edgeAt[v] < out.size()) {
                    int w = out.get(edgeAt[v]++);
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack.push(w);
                        onStack[w] = true;
                        call.push(w);
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                    continue;
                }
                call.pop();
                if (!call.isEmpty()) low[call.peek()] = Math.min(low[call.peek()], low[v]);
                if (low[v] == index[v]) {
                    List<Integer> members = new ArrayList<>();
                    int w;
                    do {
                        w = stack.pop();
                        onStack[w] = false;
                        members.add(w);
                    } while (w != v);
                    result.add(members.stream()
                            .mapToInt(Integer::intValue)
                            .sorted()
                            .toArray());
                }
            }
        }
        return result;
    }

    /**
     * A simple cycle of at least three rules inside the component, from its first rule, or null
     * if the search finds none within its budget (a component made of pairs has none).
     */
    private static List<Integer> cycleThrough(int[] component, List<List<Integer>> into) {
        boolean[] member = new boolean[into.size()];
        for (int v : component) member[v] = true;
        int[] budget = {SEARCH_STEPS};
        for (int start : component) {
            List<Integer> cycle = search(start, member, into, budget);
            if (cycle != null) return cycle;
        }
        return null;
    }

    private static List<Integer> search(int start, boolean[] member, List<List<Integer>> into, int[] budget) {
        List<Integer> path = new ArrayList<>(List.of(start));
        List<Integer> nextEdge = new ArrayList<>(List.of(0));
        boolean[] onPath = new boolean[into.size()];
        onPath[start] = true;
        while (!path.isEmpty() && budget[0]-- > 0) {
            int top = path.size() - 1;
            int v = path.get(top);
            List<Integer> out = into.get(v);
            int e = nextEdge.get(top);
            if (e == out.size()) {
                onPath[v] = false;
                path.remove(top);
                nextEdge.remove(top);
                continue;
            }
            nextEdge.set(top, e + 1);
            int w = out.get(e);
            if (w == start && path.size() >= 3) return path;
            // Rules before the start were searched from themselves already.
            if (!member[w] || onPath[w] || w < start) continue;
            path.add(w);
            nextEdge.add(0);
            onPath[w] = true;
        }
        return null;
    }
}
