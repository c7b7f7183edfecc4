package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluInstr;
import dev.lathe.ir.Block;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Value;
import dev.lathe.ir.analysis.range.RangeFacts;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.pass.Pass;
import dev.lathe.ir.pass.PassException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a {@link RuleSet} to a fixpoint.
 *
 * <p>Every ALU instruction is offered to the rule set once in program order, then every
 * instruction on the worklist, until it is empty. When a rule fires, the root (now unused) is
 * removed and what may match now goes on the worklist: the new instructions; the instructions that used the
 * root (they now read the result); for a source of the root left with a single use, its user
 * (an {@code @once} may hold now); and the users of those, as far up as a pattern that sees the
 * change can be rooted. That bound comes from the rule set: a user is followed further only if
 * its op appears inside some pattern deep enough ({@link RuleSet#nodeHeight}), so a rewrite
 * revisits a few instructions, not every user of a widely shared value (an input, a constant),
 * and rules with deep patterns on ops the program has no chains of cost nothing.
 * Instructions left unused are dce's job. Conditions that need the range analysis compute
 * only what they ask about; roots whose refusals a later rewrite may have overturned get
 * another round (see {@link #run}). A fuel limit — four rewrites per instruction, plus a
 * thousand — ends a rule cycle (two rules rewriting into each other) with an error naming the
 * rules that kept firing.
 */
public final class RewritePass implements Pass {
    private static final int RECENT = 64;

    private final RuleSet rules;
    private final RuleStats stats;
    private final int[] heights = new int[Op.values().length];
    private final java.util.function.Function<Function, RangeFacts> factSource;
    private final java.util.BitSet disabled = new java.util.BitSet();
    /** Rules whose gates ask about the shader: decided per shader ({@link #disabledFor}). */
    private final java.util.BitSet shaderGated = new java.util.BitSet();

    private final Set<String> options;
    /** {@link #disabledFor}'s answers, by the shader facts asked about. */
    private final Map<Set<String>, java.util.BitSet> disabledByFacts = new java.util.concurrent.ConcurrentHashMap<>();

    /** Applies {@code rules}, counting firings in {@code stats}, with the function's cached range facts ({@link #CACHED}). */
    public RewritePass(RuleSet rules, RuleStats stats) {
        this(rules, stats, CACHED);
    }

    /**
     * The function's cached range facts ({@link dev.lathe.ir.analysis.Analyses#ranges}): the
     * pass takes them at the start when they are current, reports every rewrite to them and
     * hands them back at the end, so the passes after reuse them.
     */
    public static final java.util.function.Function<Function, RangeFacts> CACHED =
            f -> f.analyses().ranges();

    /**
     * With the range facts of a function taken from {@code facts} when a condition first asks
     * (the other constructors use {@link #CACHED}): a caller that keeps an analysis of the
     * function up to date hands it in here, and the pass keeps it up to date through its rewrites.
     */
    public RewritePass(RuleSet rules, RuleStats stats, java.util.function.Function<Function, RangeFacts> facts) {
        this(rules, stats, facts, Set.of());
    }

    /**
     * With the rules named in {@code disabled} never applied (an experiment: {@code --disable-rules});
     * names of other rule sets are ignored, so one set of names serves every rule pass.
     */
    public RewritePass(
            RuleSet rules,
            RuleStats stats,
            java.util.function.Function<Function, RangeFacts> facts,
            Set<String> disabled) {
        this(rules, stats, facts, disabled, Set.of());
    }

    /**
     * With {@code options} the options the target sets: a rule gated on an option
     * ({@code if option(lower_fsat)}, {@code !option(…)}) that they do not satisfy is never
     * applied. The other constructors set none.
     */
    public RewritePass(
            RuleSet rules,
            RuleStats stats,
            java.util.function.Function<Function, RangeFacts> facts,
            Set<String> disabled,
            Set<String> options) {
        if (stats.ruleSet() != rules) throw new IllegalArgumentException("stats of another rule set");
        this.rules = rules;
        this.stats = stats;
        this.factSource = facts;
        this.options = Set.copyOf(options);
        for (int i = 0; i < rules.rules().size(); i++) {
            RuleInfo r = rules.rules().get(i);
            if (disabled.contains(r.name()) || r.gatedOff(options) != null) this.disabled.set(i);
            else if (r.gatedOnShader()) shaderGated.set(i);
        }
        for (Op op : Op.values()) heights[op.ordinal()] = rules.nodeHeight(op);
    }

    /** Applies {@code rules}, counting firings in stats of its own ({@link #stats}). */
    public RewritePass(RuleSet rules) {
        this(rules, new RuleStats(rules));
    }

    /** The counts this pass adds its firings to; other instances of the pass may share them (the driver's passes do). */
    public RuleStats stats() {
        return stats;
    }

    @Override
    public boolean run(Function fn) {
        long fuel = 4L * fn.valueCount() + 1000;
        long fired = 0;
        // Rules that ask the range analysis can be enabled by a rewrite far above them (a value
        // folded to a constant gives everything computed from it a tighter range), which no
        // bounded re-queueing sees. So a root whose condition was refused by facts that a later
        // rewrite made loose (they were computed from a value rewritten since) is offered again
        // in another round, with fresh facts, until a round has nothing of the kind: one call
        // still ends at a fixpoint. Only those roots: every other instruction was offered after
        // the last change a pattern could see, and failed without asking or with an answer
        // fresh facts would repeat. Facts are computed only for the values conditions ask about.
        // The fuel is shared by the rounds, so a cycle through the analysis ends too.
        List<AluInstr> offer = null;
        // cached facts still current are kept current through the rewrites (and refreshed now: others' edits made parts
        // loose)
        RangeFacts facts = factSource == CACHED && fn.analyses().current() != null
                ? fn.analyses().ranges()
                : null;
        boolean inherited = facts != null;
        while (true) {
            Run run = new Run(fn, fuel - fired, facts, inherited);
            run.walk(fn, offer);
            fired += run.fires;
            if (run.facts.facts != null && factSource == CACHED) fn.analyses().keep(run.facts.facts);
            if (run.fires == 0) return fired > 0;
            offer = run.facts.worthAnotherLook();
            if (offer.isEmpty()) return true;
            facts = run.facts.facts;
            inherited = run.facts.inherited;
            if (facts != null) facts.refresh();
        }
    }

    /** The rules off for {@code fn}'s shader: those off for the target, and those whose shader gates it fails. */
    private java.util.BitSet disabledFor(Function fn) {
        if (shaderGated.isEmpty()) return disabled;
        Set<String> facts = RuleInfo.shaderFacts(fn.shader());
        return disabledByFacts.computeIfAbsent(facts, f -> {
            java.util.BitSet off = (java.util.BitSet) disabled.clone();
            for (int i = shaderGated.nextSetBit(0); i >= 0; i = shaderGated.nextSetBit(i + 1))
                if (rules.rules().get(i).gatedOff(options, f) != null) off.set(i);
            return off;
        });
    }

    /** The state of one run over one function. */
    private final class Run {
        final Queue work;
        final Rewriter rw;
        final LazyFacts facts;
        final long fuel;
        final int[] recent = new int[RECENT];
        long fires;

        Run(Function fn, long fuel, RangeFacts earlier, boolean inherited) {
            work = new Queue(fn.valueCount());
            facts = new LazyFacts(fn, rules.usesFacts(), earlier, inherited, factSource);
            rw = new Rewriter(fn, facts, disabledFor(fn));
            this.fuel = fuel;
        }

        /**
         * Offers {@code roots}, or when null every instruction in one walk in program order
         * (the IR is read once, in memory order), then whatever the rewrites re-queued.
         */
        void walk(Function fn, List<AluInstr> roots) {
            if (roots == null) {
                for (Block b : fn.blocks()) {
                    Instr next;
                    for (Instr i = b.firstInstr(); i != null; i = next) {
                        next = i.next(); // a rewrite inserts before i and may remove i, never anything after
                        if (i instanceof AluInstr a) {
                            work.take(a);
                            visit(a);
                        }
                    }
                }
            } else {
                for (AluInstr a : roots) {
                    work.take(a);
                    visit(a);
                }
            }
            while (!work.isEmpty()) visit(work.poll());
        }

        void visit(AluInstr root) {
            if (!root.isInserted()) return;
            rw.begin(root);
            facts.offering(root);
            int r = rules.rewrite(root, rw);
            if (r < 0) return;
            stats.count(r);
            recent[(int) (fires++ % RECENT)] = r;
            if (fires > fuel) throw cycle(fires, recent);
            Value[] operands = new Value[root.srcs().size()];
            for (int k = 0; k < operands.length; k++) operands[k] = root.src(k).value();
            if (!root.def().hasUses()) root.remove();
            facts.rewritten(root, rw.result(), rules.rules().get(r).exact(), rw.moved());
            for (Instr i : rw.created()) enqueue(i, work);
            for (Instr i : rw.moved()) enqueueWithUsers(i, work);
            for (Value v : operands) {
                if (v.useCount() == 1 && v.firstUse().instr() != null)
                    enqueueWithUsers(v.firstUse().instr(), work);
            }
        }
    }

    /**
     * Queues {@code start} and the users above it that a pattern seeing {@code start} could be
     * rooted at: from an instruction with budget b (how many more levels a root can be above),
     * each user is queued, and followed with budget min(b - 1, its op's node height). Budgets
     * per instruction keep diamonds from being walked twice.
     */
    private void enqueueWithUsers(Instr start, Queue work) {
        enqueue(start, work);
        int budget = heightOf(start);
        if (budget == 0) return;
        // The queue's scratch: this runs after every rewrite.
        Map<Instr, Integer> best = work.usersBest;
        ArrayDeque<Instr> walk = work.usersWalk;
        best.clear();
        best.put(start, budget);
        walk.add(start);
        while (!walk.isEmpty()) {
            Instr i = walk.poll();
            int b = best.get(i);
            for (Src u = i.def().firstUse(); u != null; u = u.nextUse()) {
                Instr user = u.instr();
                if (user == null) continue;
                enqueue(user, work);
                int nb = Math.min(b - 1, heightOf(user));
                if (nb > 0 && best.getOrDefault(user, 0) < nb) {
                    best.put(user, nb);
                    walk.add(user);
                }
            }
        }
        // clear() costs the table's capacity: do not keep a table one large walk grew.
        if (best.size() > 256) work.usersBest = new HashMap<>();
    }

    private int heightOf(Instr i) {
        return i instanceof AluInstr a ? heights[a.op().ordinal()] : 0;
    }

    private static void enqueue(Instr i, Queue work) {
        if (i instanceof AluInstr a && i.isInserted()) work.add(a);
    }

    /**
     * A FIFO of ALU instructions in which each is at most once, with the membership flags in an
     * array by value index (values created while rewriting grow it). {@link #take} removes an
     * instruction that the program-order walk reached first; its stale entry is skipped later.
     */
    private static final class Queue {
        private final ArrayDeque<AluInstr> items = new ArrayDeque<>();
        /** Scratch of {@link #enqueueWithUsers}, reused by every rewrite of the run. */
        Map<Instr, Integer> usersBest = new HashMap<>();

        final ArrayDeque<Instr> usersWalk = new ArrayDeque<>();
        private boolean[] queued;

        Queue(int values) {
            queued = new boolean[values + 64];
        }

        void add(AluInstr a) {
            int k = a.def().index();
            if (k >= queued.length) queued = Arrays.copyOf(queued, Math.max(k + 1, queued.length * 2));
            if (queued[k]) return;
            queued[k] = true;
            items.addLast(a);
        }

        void take(AluInstr a) {
            int k = a.def().index();
            if (k < queued.length) queued[k] = false;
        }

        /** Drops stale entries; then whether anything is left. */
        boolean isEmpty() {
            while (!items.isEmpty() && !queued[items.peekFirst().def().index()]) items.pollFirst();
            return items.isEmpty();
        }

        /** The next queued instruction; call after {@link #isEmpty} said false. */
        AluInstr poll() {
            AluInstr a = items.pollFirst();
            queued[a.def().index()] = false;
            return a;
        }
    }

    /**
     * The range facts of one round, computed value by value as conditions ask, and the
     * conditions they refused: a refusal is worth another look (in the next round, with fresh
     * facts) only if what it was computed from was rewritten later ({@link RangeFacts#mayBeLoose}).
     */
    private static final class LazyFacts implements ValueFacts {
        private record Refusal(AluInstr root, Value value, Instr at) {}

        private final Function fn;
        private final boolean enabled;
        private final java.util.function.Function<Function, RangeFacts> source;
        private final List<Refusal> refusals = new ArrayList<>();
        private RangeFacts facts;
        /** Whether {@link #facts} were kept from the passes before (not made by this one). */
        private boolean inherited;
        /** Roots refused by inherited facts that were let go since: they get another look. */
        private final List<AluInstr> refusedByDropped = new ArrayList<>();

        private AluInstr root;

        /** {@code earlier}: the facts of the round before, refreshed (null: made when first asked). */
        LazyFacts(
                Function fn,
                boolean enabled,
                RangeFacts earlier,
                boolean inherited,
                java.util.function.Function<Function, RangeFacts> source) {
            this.fn = fn;
            this.enabled = enabled;
            this.facts = earlier;
            this.inherited = inherited && earlier != null;
            this.source = source;
        }

        /** The driver offers {@code root} to the rules now. */
        void offering(AluInstr root) {
            this.root = root;
        }

        private RangeFacts facts() {
            if (facts == null) facts = source.apply(fn);
            return facts;
        }

        @Override
        public boolean holds(Predicate p, Value v, int component, TypeClass type, long bound) {
            return enabled && record(facts().holds(p, v, component, type, bound), v, null);
        }

        @Override
        public boolean holds(Predicate p, Value v, int component, TypeClass type, long bound, Instr at) {
            return enabled && record(facts().holds(p, v, component, type, bound, at), v, at);
        }

        private boolean record(boolean answer, Value v, Instr at) {
            if (!answer) refusals.add(new Refusal(root, v, at));
            return answer;
        }

        @Override
        public void rewritten(AluInstr root, Value result, boolean exact, List<Instr> movedUsers) {
            // Facts handed in by the caller were made before this pass: fetched only when a
            // condition first asks, they would miss the rewrites before that (a value folded to a
            // constant, its users' ranges left as they were). The cache's facts know every edit.
            if (facts == null && enabled && source != CACHED) facts();
            if (facts == null) return;
            if (!exact && inherited) {
                // Facts kept from earlier passes cover far more than this pass asks about, and an
                // inexact rewrite drops everything computed from the old value: on a large
                // function that is a walk over most of it for every such rewrite. Let them go;
                // what conditions ask from now on is computed afresh, on demand.
                facts = null;
                inherited = false;
                for (Refusal r : refusals) refusedByDropped.add(r.root());
                refusals.clear();
                return;
            }
            facts.rewritten(root, result, exact, movedUsers);
        }

        /** The roots (still in the function, each once, in the order offered) whose refusals fresh facts might overturn. */
        List<AluInstr> worthAnotherLook() {
            List<AluInstr> out = new ArrayList<>();
            Set<AluInstr> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (AluInstr root : refusedByDropped) {
                if (root.isInserted() && seen.add(root)) out.add(root);
            }
            for (Refusal r : refusals) {
                if (r.root().isInserted() && facts.mayBeLoose(r.value(), r.at()) && seen.add(r.root()))
                    out.add(r.root());
            }
            return out;
        }
    }

    private PassException cycle(long fires, int[] recent) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        int n = (int) Math.min(RECENT, fires);
        for (int k = 0; k < n; k++) counts.merge(rules.rules().get(recent[k]).name(), 1, Integer::sum);
        StringBuilder sb = new StringBuilder("pass " + rules.passName() + " did not settle after " + fires
                + " rewrites; the rules still firing (last " + n + " rewrites):");
        counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).forEach(e -> {
            RuleInfo info = rules.rules().stream()
                    .filter(x -> x.name().equals(e.getKey()))
                    .findFirst()
                    .orElseThrow();
            sb.append("\n  ")
                    .append(info.location())
                    .append(": ")
                    .append(e.getKey())
                    .append(" (")
                    .append(e.getValue())
                    .append("×): ")
                    .append(info.text());
        });
        sb.append("\nthese rules rewrite into each other; change one of them so they agree on a direction");
        return new PassException(sb.toString());
    }
}
