package dev.lathe.rules.soundness;

import com.microsoft.z3.BitVecExpr;
import com.microsoft.z3.BitVecNum;
import com.microsoft.z3.BoolExpr;
import com.microsoft.z3.Context;
import com.microsoft.z3.Model;
import com.microsoft.z3.Params;
import com.microsoft.z3.Solver;
import com.microsoft.z3.Status;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Proves exact rules ({@code =>}) with Z3: for every size assignment the rule can match, the
 * formula "the conditions hold, the pattern's value is decided, and the replacement disagrees"
 * is handed to the solver; unsatisfiable means no input anywhere in the 2^n-sized spaces makes
 * the rule wrong. A satisfying model is turned into inputs and re-run through the sampling
 * checker's comparison with the op table ({@link SoundnessChecker#refute}), which shrinks it and
 * prints it as the checker would; if the op table finds no fault on the model, the encoding is
 * wrong ({@link Proof.Kind#ENCODING_MISMATCH}).
 *
 * <p>Agreement is the checker's, under the NaN contract ({@code ir/README.md}, "NaN"): each value
 * carries its provenance as two booleans, <em>open</em> (a NaN a float operation made, whose bits
 * may be any NaN's) and <em>undecided</em> (computed from an open NaN's bits), by the same rules
 * as {@link RuleEvaluator}. Where the pattern's value is open, the replacement must be a NaN;
 * elsewhere the same bits, and not open. {@code #c} variables range over every value (the matcher
 * only asks that they be constants), a repeated variable is one SMT variable, and {@code @once}
 * changes nothing about meaning. Conditions become assumptions, with {@code Predicate.holds}'s
 * meaning spelt out on bit-vectors.
 *
 * <p>Not thread-safe: one prover (one Z3 context) per thread.
 */
public final class RuleProver implements AutoCloseable {
    /**
     * @param timeoutMs the solver's budget for each size assignment of a rule
     * @param sizes     the sizes of the matched value to prove ({@code Bits.sizeFlag} set)
     */
    public record Settings(int timeoutMs, int sizes) {
        public static Settings defaults() {
            return new Settings(10_000, 31);
        }
    }

    /** Changes whenever the encoding changes, so that cached proofs made with another one are not trusted. */
    public static final int ENCODING_VERSION = SmtOps.VERSION;

    private final Settings settings;
    private final Context ctx;
    private final SmtOps ops;

    public RuleProver(Settings settings) {
        this.settings = settings;
        this.ctx = new Context();
        this.ops = new SmtOps(ctx);
    }

    @Override
    public void close() {
        ctx.close();
    }

    /** The first op of the rule without an SMT encoding, or null when every op has one. */
    public static Op unencodedOp(CheckedRule rule) {
        Op p = unencoded(rule.pattern());
        return p != null ? p : unencoded(rule.replacement());
    }

    private static Op unencoded(Node n) {
        if (n instanceof Node.OpNode op) {
            if (!SmtOps.ENCODED.contains(op.op())) return op.op();
            for (Node s : op.srcs()) {
                Op u = unencoded(s);
                if (u != null) return u;
            }
        }
        return null;
    }

    public Proof prove(CheckedRule rule) {
        String where = rule.file() + ":" + rule.line() + ":" + rule.column() + ": rule " + rule.name();
        if (!rule.exact()) {
            return new Proof(Proof.Kind.TESTED, rule.name(), where + " is tested, not proved: an inexact rule (~=>) is checked by sampling",
                    List.of(), List.of(), null);
        }
        Op missing = unencodedOp(rule);
        if (missing != null) {
            return new Proof(Proof.Kind.TESTED, rule.name(), where + " is tested, not proved: " + missing.opName()
                    + " has no SMT encoding", List.of(), List.of(), null);
        }
        RuleEvaluator ev = new RuleEvaluator(rule);
        int rootClass = RuleEvaluator.rootClass(rule);
        TreeSet<Integer> proved = new TreeSet<>(), unknown = new TreeSet<>();
        List<String> reasons = new ArrayList<>();
        for (RuleEvaluator.Sizes sizes : ev.applicable(settings.sizes())) {
            int rootBits = sizes.of(rootClass);
            Outcome o = proveAt(rule, ev, sizes);
            switch (o.status) {
                case UNSATISFIABLE -> proved.add(rootBits);
                case UNKNOWN -> {
                    unknown.add(rootBits);
                    reasons.add(rootBits + " bits: " + o.reason);
                }
                case SATISFIABLE -> {
                    Verdict v = new SoundnessChecker(SoundnessChecker.Settings.defaults()).refute(rule, sizes, o.inputs);
                    if (v == null) {
                        return new Proof(Proof.Kind.ENCODING_MISMATCH, rule.name(), where + ": the solver's model " + o.inputs
                                + " at sizes " + java.util.Arrays.toString(sizes.bySizeClass())
                                + " shows a difference the op table does not: an SMT encoding disagrees with the op table",
                                List.copyOf(proved), List.copyOf(unknown), null);
                    }
                    return new Proof(Proof.Kind.REFUTED, rule.name(), v.message() + " (refuted by the SMT solver)",
                            List.copyOf(proved), List.copyOf(unknown), v);
                }
            }
        }
        proved.removeAll(unknown);
        if (!unknown.isEmpty()) {
            return new Proof(Proof.Kind.UNKNOWN, rule.name(), where + " is not decided at " + bitsText(unknown)
                    + (proved.isEmpty() ? "" : " (proved at " + bitsText(proved) + ")") + ": " + String.join("; ", reasons),
                    List.copyOf(proved), List.copyOf(unknown), null);
        }
        if (proved.isEmpty()) {
            return new Proof(Proof.Kind.TESTED, rule.name(), where + " is tested, not proved: it applies at no bit size that was asked for",
                    List.of(), List.of(), null);
        }
        return new Proof(Proof.Kind.PROVED, rule.name(), where + " is proved at " + bitsText(proved), List.copyOf(proved),
                List.of(), null);
    }

    private static String bitsText(java.util.Collection<Integer> sizes) {
        List<String> s = new ArrayList<>();
        for (int b : sizes) s.add(Integer.toString(b));
        return String.join(", ", s) + (sizes.size() == 1 && sizes.contains(1) ? " bit" : " bits");
    }

    /** The solver's answer for one size assignment, with the model's inputs when it found one. */
    private record Outcome(Status status, String reason, Map<String, Long> inputs) {}

    /** A value and its provenance under the NaN contract. */
    private record Term(BitVecExpr bits, BoolExpr open, BoolExpr undecided) {}

    private Outcome proveAt(CheckedRule rule, RuleEvaluator ev, RuleEvaluator.Sizes sizes) {
        Map<String, BitVecExpr> vars = new LinkedHashMap<>();
        Map<String, Integer> varBits = new HashMap<>();
        for (String v : rule.variables()) {
            int b = sizes.of(ev.varClass(v));
            varBits.put(v, b);
            vars.put(v, ctx.mkBVConst(v, b));
        }
        Term p = term(rule.pattern(), vars, sizes, ev);
        Term r = term(rule.replacement(), vars, sizes, ev);
        int n = sizes.of(rule.pattern().sizeClass());
        BoolExpr differ = ctx.mkOr(ctx.mkNot(ctx.mkEq(p.bits(), r.bits())), r.open());
        BoolExpr bad;
        if (n >= 16) {
            BoolExpr rNaN = ctx.mkFPIsNaN(ops.fp(r.bits(), n));
            bad = ctx.mkOr(r.undecided(), (BoolExpr) ctx.mkITE(p.open(), ctx.mkNot(rNaN), differ));
        } else {
            bad = ctx.mkOr(r.undecided(), differ);
        }
        List<BoolExpr> facts = new ArrayList<>();
        for (Condition c : rule.conditions()) facts.add(ops.holds(c.predicate(), c.type(), c.bound(), vars.get(c.var().name()), varBits.get(c.var().name())));
        facts.add(ctx.mkNot(p.undecided()));
        facts.add(bad);
        // A variable that must be a power of two (or the negation of one) has n values: one
        // easy question per value (the division or multiplication by it becomes a shift) beats
        // one hard question about all of them, as the 64-bit divisions show.
        List<BoolExpr> cases = new ArrayList<>();
        cases.add(ctx.mkTrue());
        for (Condition c : rule.conditions()) {
            if (c.predicate() != Predicate.IS_POWER_OF_TWO && c.predicate() != Predicate.IS_NEG_POWER_OF_TWO) continue;
            BitVecExpr v = vars.get(c.var().name());
            int b = varBits.get(c.var().name());
            List<BoolExpr> next = new ArrayList<>();
            for (BoolExpr sofar : cases) {
                for (int k = 0; k < b; k++) {
                    long value = c.predicate() == Predicate.IS_POWER_OF_TWO ? 1L << k : -(1L << k);
                    next.add(ctx.mkAnd(sofar, ctx.mkEq(v, ops.bv(value, b))));
                }
            }
            if (next.size() > MAX_CASES) break;
            cases = next;
        }
        long deadline = System.nanoTime() + settings.timeoutMs() * 1_000_000L;
        for (BoolExpr assumption : cases) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
            // A fresh solver per case, the case asserted: its preprocessing then propagates the
            // constant (checking under an assumption leaves the general problem to the core).
            Solver solver = ctx.mkSolver();
            Params params = ctx.mkParams();
            params.add("timeout", (int) Math.min(Integer.MAX_VALUE, left));
            solver.setParameters(params);
            for (BoolExpr f : facts) solver.add(f);
            solver.add(assumption);
            Status st = solver.check();
            if (st == Status.UNKNOWN) return new Outcome(st, solver.getReasonUnknown(), null);
            if (st == Status.UNSATISFIABLE) continue;
            Model m = solver.getModel();
            Map<String, Long> in = new LinkedHashMap<>();
            for (Map.Entry<String, BitVecExpr> e : vars.entrySet()) {
                BitVecNum v = (BitVecNum) m.eval(e.getValue(), true);
                in.put(e.getKey(), v.getBigInteger().longValue());
            }
            return new Outcome(st, null, in);
        }
        return new Outcome(Status.UNSATISFIABLE, null, null);
    }

    /** The most cases a rule's power-of-two variables are split into (two 64-bit ones: 4,096). */
    private static final int MAX_CASES = 4096;

    private Term term(Node node, Map<String, BitVecExpr> vars, RuleEvaluator.Sizes sizes, RuleEvaluator ev) {
        BoolExpr no = ctx.mkFalse();
        if (node instanceof Node.VarNode v) return new Term(vars.get(v.name()), no, no);
        if (node instanceof Node.ConstNode c) {
            int b = sizes.of(c.sizeClass());
            return new Term(ops.bv(ev.literal(c.text()).bits(b, c.asFloat()), b), no, no);
        }
        Node.OpNode op = (Node.OpNode) node;
        int k = op.srcs().size();
        Term[] srcs = new Term[k];
        BitVecExpr[] bits = new BitVecExpr[k];
        for (int i = 0; i < k; i++) {
            srcs[i] = term(op.srcs().get(i), vars, sizes, ev);
            bits[i] = srcs[i].bits();
        }
        int unsized = op.opClass() < 0 ? 0 : sizes.of(op.opClass());
        BitVecExpr result = ops.apply(op.op(), unsized, bits);
        int outBits = op.op().outputBits(unsized);
        BoolExpr undecided = provenanceUndecided(op.op(), srcs);
        return new Term(result, provenanceOpen(op.op(), srcs, undecided, result, outBits), undecided);
    }

    /** {@link RuleEvaluator}'s provenance rules: whether the result is undecided. */
    private BoolExpr provenanceUndecided(Op op, Term[] s) {
        if (op == Op.BCSEL) {
            BoolExpr cond = ctx.mkEq(s[0].bits(), ops.bv(1, 1));
            return ctx.mkOr(s[0].undecided(), (BoolExpr) ctx.mkITE(cond, s[1].undecided(), s[2].undecided()));
        }
        List<BoolExpr> any = new ArrayList<>();
        for (Term t : s) any.add(t.undecided());
        if (!op.movesData()) {
            for (int i = 0; i < s.length; i++) {
                if (op.readsBits(i)) any.add(s[i].open());
            }
        }
        return any.isEmpty() ? ctx.mkFalse() : ctx.mkOr(any.toArray(new BoolExpr[0]));
    }

    /** Whether the result is an open NaN. */
    private BoolExpr provenanceOpen(Op op, Term[] s, BoolExpr undecided, BitVecExpr result, int outBits) {
        if (op == Op.BCSEL) {
            BoolExpr cond = ctx.mkEq(s[0].bits(), ops.bv(1, 1));
            return ctx.mkAnd(ctx.mkNot(s[0].undecided()), (BoolExpr) ctx.mkITE(cond, s[1].open(), s[2].open()));
        }
        if (op.movesData()) return ctx.mkAnd(ctx.mkNot(undecided), s[0].open());
        if (op.computesFloat() && outBits >= 16) {
            return ctx.mkAnd(ctx.mkNot(undecided), ctx.mkFPIsNaN(ops.fp(result, outBits)));
        }
        return ctx.mkFalse();
    }

}
