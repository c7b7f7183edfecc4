package dev.lathe.rules.soundness;

import com.microsoft.z3.BitVecExpr;
import com.microsoft.z3.BitVecNum;
import com.microsoft.z3.BoolExpr;
import com.microsoft.z3.Context;
import com.microsoft.z3.Model;
import com.microsoft.z3.Params;
import com.microsoft.z3.Solver;
import com.microsoft.z3.Status;
import com.microsoft.z3.Tactic;
import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluFlags;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
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
 * <p>Each rule gets a Z3 context of its own: a context slows down as it accumulates terms and
 * solvers (the power-of-two rules, 0.2 s each in a fresh context, time out after a few hundred
 * rules in a shared one). A prover holds only its settings, so threads may share one.
 */
public final class RuleProver {
    /**
     * @param timeoutMs the solver's budget for each size assignment of a rule
     * @param sizes     the sizes of the matched value to prove ({@code Bits.sizeFlag} set)
     */
    public record Settings(int timeoutMs, int sizes) {
        public static Settings defaults() {
            return new Settings(10_000, Bits.ALL_SIZES);
        }
    }

    /**
     * Part of every cached proof's key, with {@link SmtOps#VERSION}: bump it on any change to how
     * this class states the question (the NaN provenance terms, the sign-bit spelling, the case
     * splits) or searches for the answer (restarts, strategies), so that no proof cached by an
     * older prover stands.
     */
    static final int SEARCH_VERSION = 2;

    private final Settings settings;

    public RuleProver(Settings settings) {
        this.settings = settings;
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

    /** How a report line about the rule begins: {@code rules/a.rules:12:1: rule mul_one}. */
    static String where(CheckedRule rule) {
        return rule.file() + ":" + rule.line() + ":" + rule.column() + ": rule " + rule.name();
    }

    public Proof prove(CheckedRule rule) {
        String where = where(rule);
        if (rule.approximate()) {
            return new Proof(
                    Proof.Kind.TESTED,
                    rule.name(),
                    where + " is tested, not proved: its pass is approximate (within "
                            + SoundnessChecker.shownUlps(rule.ulpBound()) + "), which sampling checks",
                    List.of(),
                    List.of(),
                    null);
        }
        if (rule.usesVectors()) {
            return new Proof(
                    Proof.Kind.TESTED,
                    rule.name(),
                    where + " is tested, not proved: vectors (horizontal ops, swizzles) have no SMT encoding yet",
                    List.of(),
                    List.of(),
                    null);
        }
        if (rule.reassociating()) {
            try (Context c = context()) {
                return proveOverTheReals(rule, where, c);
            }
        }
        if (!rule.exact()) {
            return new Proof(
                    Proof.Kind.TESTED,
                    rule.name(),
                    where + " is tested, not proved: an inexact rule (~=>) is checked by sampling",
                    List.of(),
                    List.of(),
                    null);
        }
        Op missing = unencodedOp(rule);
        if (missing != null) {
            return new Proof(
                    Proof.Kind.TESTED,
                    rule.name(),
                    where + " is tested, not proved: " + missing.opName() + " has no SMT encoding",
                    List.of(),
                    List.of(),
                    null);
        }
        try (Context c = context()) {
            return new Session(c).proveExact(rule, where);
        }
    }

    /**
     * A reassociation rule ({@code ~~>}) over the reals ({@link RealProver}), size by size: proved
     * where the solver finds no reals that tell the sides apart; refuted only when its model,
     * rounded to the variables' sizes, also fails the sampling checker's real evaluation.
     */
    private Proof proveOverTheReals(CheckedRule rule, String where, Context c) {
        RuleEvaluator ev = new RuleEvaluator(rule);
        int rootClass = RuleEvaluator.rootClass(rule);
        TreeSet<Integer> proved = new TreeSet<>(), unknown = new TreeSet<>();
        List<String> reasons = new ArrayList<>();
        RealProver real = new RealProver(c);
        for (RuleEvaluator.Sizes sizes : ev.applicable(settings.sizes())) {
            int rootBits = sizes.of(rootClass);
            RealProver.Answer a;
            try {
                a = real.prove(rule, sizes, settings.timeoutMs());
            } catch (RealProver.NotEncoded e) {
                return new Proof(
                        Proof.Kind.TESTED,
                        rule.name(),
                        where + " is tested, not proved: a reassociation rule (~~>) is proved over the real numbers,"
                                + " where " + e.getMessage() + " has no encoding",
                        List.of(),
                        List.of(),
                        null);
            }
            switch (a.status()) {
                case UNSATISFIABLE -> proved.add(rootBits);
                case UNKNOWN -> {
                    unknown.add(rootBits);
                    reasons.add(rootBits + " bits: " + a.detail());
                }
                case SATISFIABLE -> {
                    Map<String, Long> in = new LinkedHashMap<>();
                    for (Map.Entry<String, Double> e : a.model().entrySet())
                        in.put(e.getKey(), FloatBits.fromDouble(e.getValue(), sizes.of(ev.varClass(e.getKey()))));
                    Verdict v = new SoundnessChecker(SoundnessChecker.Settings.defaults()).refute(rule, sizes, in);
                    if (v == null) {
                        unknown.add(rootBits);
                        reasons.add(rootBits + " bits: the solver's reals (" + a.detail()
                                + ") tell the sides apart, but not once rounded to floats");
                    } else {
                        return new Proof(
                                Proof.Kind.REFUTED,
                                rule.name(),
                                v.message() + " (refuted over the reals by the SMT solver)",
                                List.copyOf(proved),
                                List.copyOf(unknown),
                                v);
                    }
                }
            }
        }
        return conclusion(rule, where, " over the real numbers", proved, unknown, reasons);
    }

    /** Every size asked about answered and none refuted: proved, unknown (naming why), or tested when none applied. */
    private static Proof conclusion(
            CheckedRule rule,
            String where,
            String how,
            TreeSet<Integer> proved,
            TreeSet<Integer> unknown,
            List<String> reasons) {
        proved.removeAll(unknown);
        if (!unknown.isEmpty()) {
            return new Proof(
                    Proof.Kind.UNKNOWN,
                    rule.name(),
                    where + " is not decided" + how + " at " + bitsText(unknown)
                            + (proved.isEmpty() ? "" : " (proved at " + bitsText(proved) + ")") + ": "
                            + String.join("; ", reasons),
                    List.copyOf(proved),
                    List.copyOf(unknown),
                    null);
        }
        if (proved.isEmpty()) {
            return new Proof(
                    Proof.Kind.TESTED,
                    rule.name(),
                    where + " is tested, not proved: it applies at no bit size that was asked for",
                    List.of(),
                    List.of(),
                    null);
        }
        return new Proof(
                Proof.Kind.PROVED,
                rule.name(),
                where + " is proved" + how + " at " + bitsText(proved),
                List.copyOf(proved),
                List.of(),
                null);
    }

    /**
     * A Z3 context. Z3's native library comes with z3-turnkey; the command-line jar keeps only
     * Linux x86-64's and aarch64's (the others made it 74 MB), so elsewhere proving says so.
     */
    private static Context context() {
        try {
            return new Context();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError e) {
            throw new IllegalStateException(
                    "Z3's native library could not be loaded on " + System.getProperty("os.name") + " "
                            + System.getProperty("os.arch") + " (" + e.getMessage()
                            + "); the lathe jar carries it for Linux x86-64 and aarch64 "
                            + "only: elsewhere, build Lathe with Maven (mvn -B install), whose z3-turnkey has every platform's, or use --no-prove");
        }
    }

    private static String bitsText(java.util.Collection<Integer> sizes) {
        List<String> s = new ArrayList<>();
        for (int b : sizes) s.add(Integer.toString(b));
        return String.join(", ", s) + (sizes.size() == 1 && sizes.contains(1) ? " bit" : " bits");
    }

    /** The solver's answer for one size assignment, with the model's inputs when it found one. */
    private record Outcome(Status status, String reason, Map<String, Long> inputs) {}

    /**
     * A value and its provenance under the NaN contract, and whether a flag of the pattern made it
     * poison ({@link FlagSemantics}).
     */
    private record Term(BitVecExpr bits, BoolExpr open, BoolExpr undecided, BoolExpr poison) {}

    /**
     * The most ways a pattern's nsz flags let it be evaluated (each zero float operand and result
     * of an nsz op either sign) that one question enumerates: the solver is asked for inputs where
     * the replacement differs from every one of them, which needs them all written out.
     */
    private static final int MAX_CHOICES = 64;

    /**
     * The first attempt's budget; each next attempt gets twice the last, until the deadline. A
     * bit-blasting solver's time on one question is heavy-tailed (the same 16-bit fmul identity
     * takes 12 ms or over 10 s depending on the seed and the tactic), so short attempts with
     * fresh seeds, rotating through {@link #STRATEGIES}, decide more rules within a budget than
     * one long attempt: measured on the shipped rules, 5 unknowns instead of 8 at 10 s.
     */
    private static final int FIRST_ATTEMPT_MS = 200;

    /** Z3's default solver, its floating-point tactic, and plain bit-blasting after fpa2bv. */
    private static final List<String> STRATEGIES =
            List.of("default", "qffpbv", "simplify,fpa2bv,simplify,solve-eqs,bit-blast,sat");

    /**
     * The variables used directly as the count of a shift or rotation, each with the number of
     * low bits that count (log2 of the largest size it shifts).
     */
    private static void shiftCounts(Node node, RuleEvaluator.Sizes sizes, Map<String, Integer> out) {
        if (!(node instanceof Node.OpNode op)) return;
        switch (op.op()) {
            case ISHL, ISHR, USHR, UROL, UROR -> {
                int n = sizes.of(op.opClass());
                if (op.srcs().get(1) instanceof Node.VarNode v && n > 1) {
                    out.merge(v.name(), Integer.numberOfTrailingZeros(n), Math::max);
                }
            }
            default -> {}
        }
        for (Node s : op.srcs()) shiftCounts(s, sizes, out);
    }

    /** How many bits {@link Session#term}'s choice uses on the pattern: see {@link #MAX_CHOICES}. */
    private static int choiceBits(Node node, RuleEvaluator.Sizes sizes) {
        if (!(node instanceof Node.OpNode op)) return 0;
        int n = 0;
        for (Node s : op.srcs()) n += choiceBits(s, sizes);
        n += widenBits(op);
        if (!op.flags().has(AluFlag.NSZ)) return n;
        int unsized = op.opClass() < 0 ? 0 : sizes.of(op.opClass());
        for (int i = 0; i < op.srcs().size(); i++)
            if (FlagSemantics.floatOperand(op.op(), i, op.op().inputBits(i, unsized))) n++;
        if (FlagSemantics.floatResult(op.op(), op.op().outputBits(unsized))) n++;
        return n;
    }

    /** The choice bit of a conversion of a mediump result ({@link RuleEvaluator#widens}), after its nsz bits. */
    private static int widenBits(Node.OpNode op) {
        return RuleEvaluator.widens(op) ? 1 : 0;
    }

    /** The most cases a rule's power-of-two variables and shift counts are split into (two 64-bit ones: 4,096). */
    private static final int MAX_CASES = 4096;

    /** One rule's proof: its own Z3 context, closed when the rule is done. */
    private final class Session {
        private final Context ctx;
        private final SmtOps ops;

        Session(Context ctx) {
            this.ctx = ctx;
            this.ops = new SmtOps(ctx);
        }

        private Proof proveExact(CheckedRule rule, String where) {
            RuleEvaluator ev = new RuleEvaluator(rule);
            int rootClass = RuleEvaluator.rootClass(rule);
            TreeSet<Integer> proved = new TreeSet<>(), unknown = new TreeSet<>();
            List<String> reasons = new ArrayList<>();
            // Smallest sizes first; once the solver gives up at one size it is not asked about a larger
            // one, which is never easier (the fused multiply-adds would spend three budgets, not one).
            List<RuleEvaluator.Sizes> assignments = new ArrayList<>(ev.applicable(settings.sizes()));
            assignments.sort(java.util.Comparator.comparingInt(a -> a.of(rootClass)));
            for (RuleEvaluator.Sizes sizes : assignments) {
                int rootBits = sizes.of(rootClass);
                if (!unknown.isEmpty() && rootBits > unknown.first()) {
                    if (unknown.add(rootBits))
                        reasons.add(rootBits + " bits: not tried after " + unknown.first() + " bits");
                    continue;
                }
                Outcome o = proveAt(rule, ev, sizes);
                switch (o.status) {
                    case UNSATISFIABLE -> proved.add(rootBits);
                    case UNKNOWN -> {
                        unknown.add(rootBits);
                        reasons.add(rootBits + " bits: " + o.reason);
                    }
                    case SATISFIABLE -> {
                        Verdict v = new SoundnessChecker(SoundnessChecker.Settings.defaults())
                                .refute(rule, sizes, o.inputs);
                        if (v == null) {
                            return new Proof(
                                    Proof.Kind.ENCODING_MISMATCH,
                                    rule.name(),
                                    where + ": the solver's model " + o.inputs
                                            + " at sizes " + java.util.Arrays.toString(sizes.bySizeClass())
                                            + " shows a difference the op table does not: an SMT encoding disagrees with the op table",
                                    List.copyOf(proved),
                                    List.copyOf(unknown),
                                    null);
                        }
                        return new Proof(
                                Proof.Kind.REFUTED,
                                rule.name(),
                                v.message() + " (refuted by the SMT solver)",
                                List.copyOf(proved),
                                List.copyOf(unknown),
                                v);
                    }
                }
            }
            return conclusion(rule, where, "", proved, unknown, reasons);
        }

        private Outcome proveAt(CheckedRule rule, RuleEvaluator ev, RuleEvaluator.Sizes sizes) {
            Map<String, BitVecExpr> vars = new LinkedHashMap<>();
            Map<String, Integer> varBits = new HashMap<>();
            for (String v : rule.variables()) {
                int b = sizes.of(ev.varClass(v));
                varBits.put(v, b);
                vars.put(v, ctx.mkBVConst(v, b));
            }
            // A signed integer known not to be negative is spelt with a zero sign bit, not constrained
            // to have one: the rewriter then folds the sign tests inside signed division and modulo,
            // and idiv(a, b) = udiv(a, b) for such operands is decided at once at 64 bits (it timed
            // out as an assumption). The condition stays asserted; it is now trivially true.
            for (Condition c : rule.conditions()) {
                String v = c.var().name();
                int b = varBits.get(v);
                if ((c.predicate() == Predicate.IS_NOT_NEGATIVE || c.predicate() == Predicate.IS_GE_ZERO)
                        && c.type() != TypeClass.FLOAT
                        && c.type() != TypeClass.UINT
                        && b > 1
                        && !vars.get(v).isConcat()) {
                    vars.put(v, ctx.mkConcat(ops.bv(0, 1), ctx.mkBVConst(v, b - 1)));
                }
            }
            Term r = term(rule.replacement(), vars, sizes, ev, 0, new int[1]);
            int n = sizes.of(rule.pattern().sizeClass());
            // With nsz flags the pattern has several values: the rule is refuted by inputs where the
            // replacement gives none of them (each choice poison-free and decided).
            int choiceBits = choiceBits(rule.pattern(), sizes);
            if (choiceBits > Integer.numberOfTrailingZeros(MAX_CHOICES))
                return new Outcome(
                        Status.UNKNOWN,
                        "its nsz flags give the pattern 2^" + choiceBits + " ways to be evaluated, more than "
                                + MAX_CHOICES + " are not enumerated",
                        null);
            List<BoolExpr> everyChoice = new ArrayList<>();
            for (long choice = 0; choice < 1L << choiceBits; choice++) {
                Term p = term(rule.pattern(), vars, sizes, ev, choice, new int[1]);
                BoolExpr differ =
                        ctx.mkOr(ctx.mkNot(ctx.mkEq(low(p.bits(), rule, n), low(r.bits(), rule, n))), r.open());
                BoolExpr bad;
                if (n >= 16) {
                    BoolExpr rNaN = ctx.mkFPIsNaN(ops.fp(r.bits(), n));
                    bad = ctx.mkOr(r.undecided(), (BoolExpr) ctx.mkITE(p.open(), ctx.mkNot(rNaN), differ));
                } else {
                    bad = ctx.mkOr(r.undecided(), differ);
                }
                if (rule.replacement() instanceof Node.OpNode rr
                        && dev.lathe.ir.op.MediumPrecision.wide(rr.op()) != null)
                    bad = ctx.mkOr(bad, wideDiffers(rule, rr, vars, sizes, ev, choice));
                everyChoice.add(ctx.mkAnd(ctx.mkNot(p.undecided()), ctx.mkNot(p.poison()), bad));
            }
            List<BoolExpr> facts = new ArrayList<>();
            for (Condition c : rule.conditions())
                facts.add(ops.holds(
                        c.predicate(),
                        c.type(),
                        c.bound(),
                        vars.get(c.var().name()),
                        varBits.get(c.var().name())));
            facts.add(ctx.mkAnd(everyChoice.toArray(new BoolExpr[0])));
            // A variable that must be a power of two (or the negation of one) has n values: one
            // easy question per value (the division or multiplication by it becomes a shift) beats
            // one hard question about all of them, as the 64-bit divisions show.
            List<BoolExpr> cases = new ArrayList<>();
            cases.add(ctx.mkTrue());
            for (Condition c : rule.conditions()) {
                if (c.predicate() != Predicate.IS_POWER_OF_TWO
                        && c.predicate() != Predicate.IS_NEG_POWER_OF_TWO
                        && c.predicate() != Predicate.IS_NEG_POWER_OF_TWO_NOT_MIN) continue;
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
            // A variable shift or rotation count matters only modulo the size: one question per count
            // turns each barrel shifter into wiring (64-bit rotations of rotations need it: 4,096
            // trivial questions take 8 s, the one general question more than a minute).
            Map<String, Integer> counts = new LinkedHashMap<>();
            shiftCounts(rule.pattern(), sizes, counts);
            shiftCounts(rule.replacement(), sizes, counts);
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                int k = e.getValue();
                BitVecExpr v = vars.get(e.getKey());
                // A count already bounded below the size (ult_const(c, 32) on a 64-bit shift) has
                // fewer values than low bits, each of them a whole constant.
                long values = 1L << k;
                boolean whole = false;
                for (Condition c : rule.conditions()) {
                    if (c.predicate() == Predicate.ULT_CONST
                            && c.var().name().equals(e.getKey())
                            && Long.compareUnsigned(c.bound(), values) <= 0) {
                        values = c.bound();
                        whole = true;
                    }
                }
                if (values == 0 || cases.size() * values > MAX_CASES) continue;
                int b = varBits.get(e.getKey());
                BitVecExpr low = whole ? v : ctx.mkExtract(k - 1, 0, v);
                List<BoolExpr> next = new ArrayList<>();
                for (BoolExpr sofar : cases) {
                    for (int i = 0; i < values; i++)
                        next.add(ctx.mkAnd(sofar, ctx.mkEq(low, whole ? ops.bv(i, b) : ctx.mkBV(i, k))));
                }
                cases = next;
            }
            long deadline = System.nanoTime() + settings.timeoutMs() * 1_000_000L;
            for (BoolExpr assumption : cases) {
                Solver solver = null;
                Status st = Status.UNKNOWN;
                for (int attempt = 0; st == Status.UNKNOWN; attempt++) {
                    long left = (deadline - System.nanoTime()) / 1_000_000L;
                    if (left <= 0 && attempt > 0) return new Outcome(st, solver.getReasonUnknown(), null);
                    long slice = Math.max(1, Math.min(left, (long) FIRST_ATTEMPT_MS << Math.min(attempt, 20)));
                    // A fresh solver per case, the case asserted: its preprocessing then propagates the
                    // constant (checking under an assumption leaves the general problem to the core).
                    solver = solver(attempt);
                    Params params = ctx.mkParams();
                    params.add("timeout", (int) Math.min(Integer.MAX_VALUE, slice));
                    params.add("random_seed", attempt);
                    solver.setParameters(params);
                    for (BoolExpr f : facts) solver.add(f);
                    solver.add(assumption);
                    st = solver.check();
                }
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

        private Solver solver(int attempt) {
            String[] tactics = STRATEGIES.get(attempt % STRATEGIES.size()).split(",");
            if (tactics[0].equals("default")) return ctx.mkSolver();
            Tactic t = ctx.mkTactic(tactics[0]);
            for (int i = 1; i < tactics.length; i++) t = ctx.andThen(t, ctx.mkTactic(tactics[i]));
            return ctx.mkSolver(t);
        }

        /**
         * A node's value. {@code choice} says, one bit each in evaluation order, which zero float
         * operands and results of the pattern's nsz ops change sign ({@code cursor[0]} counts the
         * bits used); {@link #choiceBits} counts them the same way.
         */
        private Term term(
                Node node,
                Map<String, BitVecExpr> vars,
                RuleEvaluator.Sizes sizes,
                RuleEvaluator ev,
                long choice,
                int[] cursor) {
            BoolExpr no = ctx.mkFalse();
            if (node instanceof Node.VarNode v) return new Term(vars.get(v.name()), no, no, no);
            if (node instanceof Node.ConstNode c) {
                int b = sizes.of(c.sizeClass());
                return new Term(ops.bv(ev.literal(c.text()).bits(b, c.asFloat()), b), no, no, no);
            }
            Node.OpNode op = (Node.OpNode) node;
            int k = op.srcs().size();
            Term[] srcs = new Term[k];
            BitVecExpr[] bits = new BitVecExpr[k];
            for (int i = 0; i < k; i++) {
                srcs[i] = term(op.srcs().get(i), vars, sizes, ev, choice, cursor);
                bits[i] = srcs[i].bits();
            }
            int unsized = op.opClass() < 0 ? 0 : sizes.of(op.opClass());
            int outBits = op.op().outputBits(unsized);
            boolean nsz = op.flags().has(AluFlag.NSZ);
            for (int i = 0; nsz && i < k; i++) {
                int b = op.op().inputBits(i, unsized);
                if (FlagSemantics.floatOperand(op.op(), i, b) && (choice >> cursor[0]++ & 1) != 0)
                    bits[i] = otherZero(bits[i], b);
            }
            BitVecExpr result = ops.apply(op.op(), unsized, bits);
            if (nsz && FlagSemantics.floatResult(op.op(), outBits) && (choice >> cursor[0]++ & 1) != 0)
                result = otherZero(result, outBits);
            if (widenBits(op) != 0 && (choice >> cursor[0]++ & 1) != 0) {
                // mediump: the conversion reads the mp op's source converted at 32 bits
                Node.OpNode mp = (Node.OpNode) op.srcs().get(0);
                if (choiceBits(mp.srcs().get(0), sizes) != 0)
                    throw new IllegalArgumentException(
                            "a mediump conversion of a value with flags has no SMT encoding");
                Term x = term(mp.srcs().get(0), vars, sizes, ev, 0, new int[1]);
                BitVecExpr w =
                        ops.apply(dev.lathe.ir.op.MediumPrecision.wide(mp.op()), 32, new BitVecExpr[] {x.bits()});
                result = ops.apply(op.op(), 32, new BitVecExpr[] {w});
            }
            BoolExpr undecided = provenanceUndecided(op.op(), srcs);
            return new Term(
                    result,
                    provenanceOpen(op.op(), srcs, undecided, result, outBits),
                    undecided,
                    poison(op, srcs, bits, result, unsized));
        }

        /**
         * Both roots are mediump conversions: whether the values a conversion reading them may
         * take at 32 bits differ ({@link RuleEvaluator}'s compareWide). The root's source takes
         * the choice bits first, as in {@link #term}.
         */
        private BoolExpr wideDiffers(
                CheckedRule rule,
                Node.OpNode rr,
                Map<String, BitVecExpr> vars,
                RuleEvaluator.Sizes sizes,
                RuleEvaluator ev,
                long choice) {
            Node.OpNode pr = rule.pattern();
            Op wp = dev.lathe.ir.op.MediumPrecision.wide(pr.op()), wr = dev.lathe.ir.op.MediumPrecision.wide(rr.op());
            BitVecExpr p = ops.apply(wp, 32, new BitVecExpr[] {
                term(pr.srcs().get(0), vars, sizes, ev, choice, new int[1]).bits()
            });
            BitVecExpr r = ops.apply(wr, 32, new BitVecExpr[] {
                term(rr.srcs().get(0), vars, sizes, ev, 0, new int[1]).bits()
            });
            BoolExpr differ = ctx.mkNot(ctx.mkEq(p, r));
            if (wp.output().typeClass() != TypeClass.FLOAT) return differ;
            return ctx.mkAnd(differ, ctx.mkNot(ctx.mkAnd(ctx.mkFPIsNaN(ops.fp(p, 32)), ctx.mkFPIsNaN(ops.fp(r, 32)))));
        }

        /** The bits the rule compares: all, or the low ones of {@code @low8}/{@code @low16}. */
        private BitVecExpr low(BitVecExpr x, CheckedRule rule, int n) {
            return rule.usedBits() == 0 || rule.usedBits() >= n ? x : ctx.mkExtract(rule.usedBits() - 1, 0, x);
        }

        /** The value with the other zero's sign where it is a zero, else the value. */
        private BitVecExpr otherZero(BitVecExpr x, int bits) {
            BitVecExpr flipped = ctx.mkBVXOR(x, ops.bv(FloatBits.signBit(bits), bits));
            return (BitVecExpr) ctx.mkITE(ctx.mkFPIsZero(ops.fp(x, bits)), flipped, x);
        }

        /** Whether the op's value is poison: an operand's (bcsel: the taken arm's), or its flags'. */
        private BoolExpr poison(Node.OpNode op, Term[] s, BitVecExpr[] bits, BitVecExpr result, int unsized) {
            List<BoolExpr> any = new ArrayList<>();
            if (op.op() == Op.BCSEL) {
                BoolExpr cond = ctx.mkEq(s[0].bits(), ops.bv(1, 1));
                any.add(s[0].poison());
                any.add((BoolExpr) ctx.mkITE(cond, s[1].poison(), s[2].poison()));
            } else {
                for (Term t : s) any.add(t.poison());
            }
            AluFlags f = op.flags();
            if (f.has(AluFlag.NNAN) || f.has(AluFlag.NINF)) {
                for (int i = 0; i < bits.length; i++) {
                    int b = op.op().inputBits(i, unsized);
                    if (FlagSemantics.floatOperand(op.op(), i, b)) any.add(special(bits[i], b, f));
                }
                int out = op.op().outputBits(unsized);
                if (FlagSemantics.floatResult(op.op(), out)) any.add(special(result, out, f));
            }
            if (f.has(AluFlag.NSW)) any.add(wraps(op.op(), bits[0], bits[1], unsized, true));
            if (f.has(AluFlag.NUW)) any.add(wraps(op.op(), bits[0], bits[1], unsized, false));
            return any.isEmpty() ? ctx.mkFalse() : ctx.mkOr(any.toArray(new BoolExpr[0]));
        }

        private BoolExpr special(BitVecExpr x, int bits, AluFlags f) {
            List<BoolExpr> any = new ArrayList<>();
            if (f.has(AluFlag.NNAN)) any.add(ctx.mkFPIsNaN(ops.fp(x, bits)));
            if (f.has(AluFlag.NINF)) any.add(ctx.mkFPIsInfinite(ops.fp(x, bits)));
            return ctx.mkOr(any.toArray(new BoolExpr[0]));
        }

        /** Whether iadd, isub, imul or ishl of {@code a, b} at {@code n} bits wraps, signed or not. */
        private BoolExpr wraps(Op op, BitVecExpr a, BitVecExpr b, int n, boolean signed) {
            return switch (op) {
                case IADD ->
                    signed
                            ? ctx.mkNot(ctx.mkAnd(ctx.mkBVAddNoOverflow(a, b, true), ctx.mkBVAddNoUnderflow(a, b)))
                            : ctx.mkNot(ctx.mkBVAddNoOverflow(a, b, false));
                case ISUB ->
                    signed
                            ? ctx.mkNot(ctx.mkAnd(ctx.mkBVSubNoOverflow(a, b), ctx.mkBVSubNoUnderflow(a, b, true)))
                            : ctx.mkNot(ctx.mkBVSubNoUnderflow(a, b, false));
                case IMUL ->
                    signed
                            ? ctx.mkNot(ctx.mkAnd(ctx.mkBVMulNoOverflow(a, b, true), ctx.mkBVMulNoUnderflow(a, b)))
                            : ctx.mkNot(ctx.mkBVMulNoOverflow(a, b, false));
                case ISHL -> {
                    if (n == 1) yield ctx.mkFalse(); // the count modulo 1 is 0: nothing moves
                    int k = Integer.numberOfTrailingZeros(n);
                    BitVecExpr low = ctx.mkExtract(k - 1, 0, b);
                    BitVecExpr count = n > k ? ctx.mkZeroExt(n - k, low) : low;
                    BitVecExpr shifted = ctx.mkBVSHL(a, count);
                    BitVecExpr back = signed ? ctx.mkBVASHR(shifted, count) : ctx.mkBVLSHR(shifted, count);
                    yield ctx.mkNot(ctx.mkEq(back, a));
                }
                default -> throw new IllegalArgumentException(op.opName() + " has no wrap flags");
            };
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
}
