package dev.lathe.rules.soundness;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Checks that a rule is sound by evaluating both sides with the op table on many inputs, at
 * every bit size the rule can match.
 *
 * <p>For each size: all combinations of edge values (0, -0, ±1, ±2, ±0.5, ±inf, NaN, the size's
 * smallest and largest normals and subnormals, MIN/MAX, powers of two and their neighbours,
 * one value of each float class) when there are few enough, else a seeded random selection of
 * them; every pair of 8-bit values for integer rules of at most two variables; then seeded
 * random inputs until {@link Settings#samples} inputs were compared. Inputs must satisfy the
 * rule's conditions; variables with a condition are drawn by a generator aimed at it, so
 * filtering does not starve. A rule with too few inputs meeting its conditions is
 * <em>unchecked</em>, never passed.
 *
 * <p>Comparison follows the NaN contract ({@code ir/README.md}, "NaN"): a NaN a float
 * operation made may be any NaN, every other bit is exact. So for {@code =>}: where the
 * pattern's value is such a NaN, the replacement must give a NaN (any); elsewhere the same bits,
 * and the replacement may not give a NaN of open bits where the pattern's bits were exact
 * ({@code mov(a) => fmul(a, 1.0)} changes the integer 0x7f800001). An input on which the
 * pattern's value depends on an open NaN's bits decides nothing and is skipped; a replacement
 * that depends on them where the pattern does not is wrong. {@code ~=>} also accepts:
 * <ul>
 *   <li>zeros that differ in sign;
 *   <li>one side NaN when an input is NaN or infinite;
 *   <li>finite results at most {@value #ULP_BOUND} ulps apart (a rule of an {@code approximate(N ulp)}
 *       pass, whatever its arrow: N), ulps of the largest magnitude
 *       among the inputs and the pattern's values (intermediates, result) — so fusing a
 *       multiply-add or reassociating a sum passes, and a wrong result does not, even one that
 *       detours through a huge intermediate of its own ({@code a + 1e30 - 1e30});
 *   <li>one side infinite and the other finite when an input or a value of the pattern is
 *       within a factor of two of the largest finite value, or the pattern overflowed (a float
 *       op of it made an infinity from finite operands): the computation was at the edge of
 *       overflow, and fusing or reassociating moves where it overflows.
 * </ul>
 * The first failure is shrunk toward simple values.
 */
public final class SoundnessChecker {
    /** How far apart inexact results may be, in ulps of the largest magnitude involved. */
    public static final int ULP_BOUND = 4;

    /**
     * @param samples  inputs to compare per bit size (after edge values), at least
     * @param seed     the random seed; the same seed gives the same inputs
     * @param sizes    the sizes of the matched value to check ({@code Bits.sizeFlag} set)
     */
    public record Settings(int samples, long seed, int sizes) {
        public static Settings defaults() {
            return new Settings(10_000, 0x1a7e, Bits.ALL_SIZES);
        }
    }

    private final Settings settings;

    public SoundnessChecker(Settings settings) {
        this(settings, false);
    }

    /**
     * A checker that reads rules under NIR's semantics when {@code asNir} ({@link NirReading}):
     * ops as nir_opcodes.py defines them ({@link dev.lathe.ir.op.Op#evaluateAsNir}), a pattern
     * whose result NIR leaves undefined as allowing anything, and any two NaNs alike.
     */
    public SoundnessChecker(Settings settings, boolean asNir) {
        this.settings = settings;
        this.asNir = asNir;
    }

    private final boolean asNir;

    public Settings settings() {
        return settings;
    }

    /** An input assignment: a value per variable. */
    private record Input(Map<String, Long> vars) {}

    public Verdict check(CheckedRule rule) {
        RuleEvaluator ev = new RuleEvaluator(rule, asNir);
        long checked = 0;
        List<String> checkedSizes = new ArrayList<>();
        int rootClass = RuleEvaluator.rootClass(rule);
        // A per-rule seed: the same whatever order rules are checked in.
        long ruleSeed = settings.seed() * 31 + rule.name().hashCode() * 1_000_003L + rule.line();
        if (rule.reassociating() && rule.usesVectors()) {
            return new Verdict(
                    Verdict.Kind.UNCHECKED,
                    rule.name(),
                    rule.location() + ": rule " + rule.name() + " is unchecked: a reassociation rule (~~>) is"
                            + " checked over the real numbers, where vectors (horizontal ops, swizzles) have no reading"
                            + " yet",
                    0,
                    "",
                    null);
        }
        for (RuleEvaluator.Sizes sizes : ev.applicable(settings.sizes())) {
            int rootBits = sizes.of(rootClass);
            SizeRun run = new SizeRun(rule, ev, sizes, new SplittableRandom(ruleSeed ^ rootBits));
            Verdict v;
            try {
                v = run.execute();
            } catch (RealEvaluator.NoRealMeaning e) {
                return new Verdict(
                        Verdict.Kind.UNCHECKED,
                        rule.name(),
                        rule.location() + ": rule " + rule.name() + " is unchecked: a reassociation rule (~~>) is"
                                + " checked over the real numbers, where " + e.getMessage() + " has no meaning",
                        checked,
                        Integer.toString(rootBits),
                        null);
            }
            if (v != null) return v;
            checked += run.compared;
            String label = rootBits + "";
            if (!checkedSizes.contains(label)) checkedSizes.add(label);
            if (run.compared < minimumChecked() && !(run.exhaustive && run.compared > 0)) {
                return new Verdict(
                        Verdict.Kind.UNCHECKED,
                        rule.name(),
                        rule.location() + ": rule " + rule.name()
                                + " is unchecked at " + rootBits + (rootBits == 1 ? " bit: only " : " bits: only ")
                                + run.compared + " of " + run.attempts
                                + " inputs satisfy its conditions (" + conditionText(rule) + ")",
                        checked,
                        label,
                        null);
            }
        }
        if (checkedSizes.isEmpty()) {
            return new Verdict(
                    Verdict.Kind.UNCHECKED,
                    rule.name(),
                    rule.location() + ": rule " + rule.name()
                            + " is unchecked: it applies at no bit size that was asked for",
                    0,
                    "",
                    null);
        }
        return new Verdict(
                Verdict.Kind.SOUND,
                rule.name(),
                rule.location() + ": rule " + rule.name() + " is sound ("
                        + (rule.approximate() ? "within " + shownUlps(rule.ulpBound()) + ", " : "") + checked
                        + " inputs at "
                        + String.join(", ", checkedSizes) + (checkedSizes.equals(List.of("1")) ? " bit)" : " bits)"),
                checked,
                String.join(",", checkedSizes),
                null);
    }

    /**
     * The unsound verdict for {@code in} (shrunk toward simple values) when the op table shows the
     * rule wrong on it at these sizes, else null: how a proof's model becomes a counterexample
     * printed like this checker's, and how a disagreement between the model and the op table is
     * caught.
     */
    Verdict refute(CheckedRule rule, RuleEvaluator.Sizes sizes, Map<String, Long> in) {
        SizeRun run = new SizeRun(rule, new RuleEvaluator(rule), sizes, new SplittableRandom(settings.seed()));
        if (!run.fails(in)) return null;
        return rule.reassociating() ? run.realUnsound(run.shrink(in)) : run.unsound(run.shrink(in));
    }

    /** {@code 2 ulps}, {@code 0.5 ulp}. */
    static String shownUlps(double ulps) {
        String n = ulps == Math.rint(ulps) ? Long.toString((long) ulps) : Double.toString(ulps);
        return n + (ulps == 1 ? " ulp" : " ulps");
    }

    private int minimumChecked() {
        return Math.max(1, settings.samples() / 10);
    }

    private static String conditionText(CheckedRule rule) {
        List<String> out = new ArrayList<>();
        for (Condition c : rule.conditions()) out.add(c.text());
        return String.join(", ", out);
    }

    /** Checking one size assignment. */
    private final class SizeRun {
        final CheckedRule rule;
        final RuleEvaluator ev;
        final RuleEvaluator.Sizes sizes;
        final SplittableRandom rnd;
        final List<String> vars;
        final Map<String, TypeClass> types;
        final Map<String, Integer> bits = new HashMap<>();
        final Map<String, List<Condition>> conds = new HashMap<>();
        long compared;
        long attempts;
        /** Every input of these sizes was tried: nothing is left to sample. */
        boolean exhaustive;

        SizeRun(CheckedRule rule, RuleEvaluator ev, RuleEvaluator.Sizes sizes, SplittableRandom rnd) {
            this.rule = rule;
            this.ev = ev;
            this.sizes = sizes;
            this.rnd = rnd;
            // one input per component of a vector variable (a.x, a.y …), each read as the variable is
            Map<String, List<String>> slots = RuleEvaluator.slots(rule);
            this.slotsOf = slots;
            this.vars = slots.values().stream().flatMap(List::stream).toList();
            Map<String, TypeClass> byInput = new HashMap<>();
            for (String v : vars) byInput.put(v, rule.varTypes().get(RuleEvaluator.varOf(v)));
            this.types = byInput;
            this.width = rule.checkedWidth();
            this.real = new RealEvaluator(rule);
            for (String v : vars) bits.put(v, sizes.of(ev.varClass(RuleEvaluator.varOf(v))));
            for (Condition c : rule.conditions())
                for (String v : slots.get(c.var().name()))
                    conds.computeIfAbsent(v, k -> new ArrayList<>()).add(c);
        }

        /** Each variable's inputs. */
        final Map<String, List<String>> slotsOf;
        /** The root components compared ({@link CheckedRule#checkedWidth}). */
        final int width;
        /** The component the last failing comparison was at. */
        int failedAt;

        /** The size of the matched value (how floats and integers are read when comparing). */
        int rootBits() {
            return sizes.of(rule.pattern().sizeClass());
        }

        /** The size a report names: the root's operand size, else its result size. */
        int ruleBits() {
            return sizes.of(RuleEvaluator.rootClass(rule));
        }

        /** Null when every comparison held, else the unsound verdict. */
        Verdict execute() {
            List<List<Long>> edges = new ArrayList<>();
            long combos = 1;
            List<String> literals = new ArrayList<>();
            literalsOf(rule.pattern(), literals);
            literalsOf(rule.replacement(), literals);
            for (String v : vars) {
                List<Long> e = new ArrayList<>(Values.edges(types.get(v), bits.get(v)));
                addLiteralEdges(e, literals, types.get(v), bits.get(v));
                edges.add(e);
                combos = combos > 1_000_000 ? combos : combos * e.size();
            }
            boolean allInt = true;
            for (String v : vars) {
                TypeClass t = types.get(v);
                allInt &= (t == TypeClass.INT || t == TypeClass.UINT || t == TypeClass.BOOL || bits.get(v) < 16);
                allInt &= bits.get(v) <= 8;
            }
            if (allInt && vars.size() <= 2 && vars.size() > 0) {
                // every combination of (at most 8-bit) values
                int n0 = 1 << bits.get(vars.get(0));
                int n1 = vars.size() == 2 ? 1 << bits.get(vars.get(1)) : 1;
                for (int a = 0; a < n0; a++) {
                    for (int b = 0; b < n1; b++) {
                        Map<String, Long> in = new LinkedHashMap<>();
                        in.put(vars.get(0), (long) a);
                        if (vars.size() == 2) in.put(vars.get(1), (long) b);
                        Verdict v = tryInput(in);
                        if (v != null) return v;
                    }
                }
                exhaustive = true;
                return null;
            }
            if (vars.isEmpty()) return tryInput(new LinkedHashMap<>());
            if (combos <= 20_000) {
                int[] idx = new int[vars.size()];
                while (true) {
                    Map<String, Long> in = new LinkedHashMap<>();
                    for (int i = 0; i < vars.size(); i++)
                        in.put(vars.get(i), edges.get(i).get(idx[i]));
                    Verdict v = tryInput(in);
                    if (v != null) return v;
                    int k = 0;
                    while (k < idx.length && ++idx[k] == edges.get(k).size()) idx[k++] = 0;
                    if (k == idx.length) break;
                }
            } else {
                for (int n = 0; n < 20_000; n++) {
                    Map<String, Long> in = new LinkedHashMap<>();
                    for (int i = 0; i < vars.size(); i++)
                        in.put(
                                vars.get(i),
                                edges.get(i).get(rnd.nextInt(edges.get(i).size())));
                    Verdict v = tryInput(in);
                    if (v != null) return v;
                }
            }
            long target = compared + settings.samples();
            long limit = attempts + 30L * settings.samples();
            while (compared < target && attempts < limit) {
                Map<String, Long> in = new LinkedHashMap<>();
                for (int i = 0; i < vars.size(); i++) {
                    String v = vars.get(i);
                    int b = bits.get(v);
                    TypeClass t = types.get(v);
                    List<Condition> cs = conds.get(v);
                    long value;
                    int pick = rnd.nextInt(10);
                    if (cs != null && pick < 8) {
                        Condition c = cs.get(rnd.nextInt(cs.size()));
                        value = Values.satisfying(rnd, c.predicate(), c.type(), b, c.bound());
                    } else if (pick < 2) {
                        value = edges.get(i).get(rnd.nextInt(edges.get(i).size()));
                    } else {
                        value = Values.random(rnd, t, b);
                    }
                    in.put(v, value & Bits.mask(b));
                }
                Verdict v = tryInput(in);
                if (v != null) return v;
            }
            return null;
        }

        private static void literalsOf(Node n, List<String> out) {
            if (n instanceof Node.ConstNode c) out.add(c.text());
            if (n instanceof Node.OpNode op) {
                for (Node x : op.srcs()) literalsOf(x, out);
            }
        }

        /**
         * The rule's own literals, and the values next to them, as values of a variable: where a
         * rule is wrong by one (ige(a, 1000) against ilt(1000, a)), random inputs of 32 bits
         * almost never meet the one value that shows it. Integers take v - 1, v and v + 1; floats
         * the value and its neighbours both ways. Condition bounds count too.
         */
        private void addLiteralEdges(List<Long> edges, List<String> literals, TypeClass t, int b) {
            Set<Long> have = new HashSet<>(edges);
            List<Long> more = new ArrayList<>();
            for (Condition c : rule.conditions()) {
                if (c.predicate().takesLiteral()) more.add(c.bound());
            }
            boolean asFloat = t == TypeClass.FLOAT && b >= 16;
            for (String text : literals) {
                RuleLiteral lit = RuleLiteral.of(text);
                if (lit.fits(b, asFloat)) more.add(lit.bits(b, asFloat));
                else if (lit.fits(b, !asFloat)) more.add(lit.bits(b, !asFloat));
            }
            for (long v : more) {
                // (a float's bit pattern + 1 or - 1 is its neighbour away from or toward zero)
                for (long x : new long[] {v, v + 1, v - 1}) {
                    long m = x & Bits.mask(b);
                    if (have.add(m)) edges.add(m);
                }
            }
        }

        /** Every condition on every component of its variable (NIR's conditions ask each component), or some. */
        private boolean satisfies(Map<String, Long> in) {
            for (Condition c : rule.conditions()) {
                boolean any = false, every = true;
                for (String v : slotsOf.get(c.var().name())) {
                    boolean h = c.predicate().holds(in.get(v), bits.get(v), c.type(), c.bound());
                    any |= h;
                    every &= h;
                }
                // is_any_comp_nan asks it of some component
                if (c.predicate().anyComponent() ? !any : !every) return false;
            }
            return true;
        }

        /**
         * Whether some root component disagrees (the first one is {@link #failedAt}); {@code
         * counted} tells whether any component was decided, so the input counts as compared.
         */
        private boolean disagrees(Map<String, Long> in, boolean[] counted) {
            for (int c = 0; c < width; c++) {
                RuleEvaluator.Outcome o = ev.evaluate(in, sizes, c);
                if (o.undecided()) continue; // the pattern's value is one of many
                if (o.patternPoison) continue; // a flag of the pattern allows anything here
                counted[0] = true;
                if (!agrees(o, in)) {
                    failedAt = c;
                    return true;
                }
            }
            return false;
        }

        private final RealEvaluator real;

        private Verdict tryInput(Map<String, Long> in) {
            attempts++;
            if (!satisfies(in)) return null;
            if (rule.reassociating()) {
                // over the reals: finite inputs, where the pattern is defined
                if (!RealEvaluator.finiteInputs(in, bits, types)) return null;
                if (real.pattern(in, sizes, ev) instanceof RealEvaluator.Undefined) return null;
                compared++;
                return realFails(in) ? realUnsound(shrink(in)) : null;
            }
            boolean[] counted = {false};
            boolean bad = disagrees(in, counted);
            if (counted[0]) compared++;
            if (!bad) return null;
            Map<String, Long> small = shrink(in);
            return unsound(small);
        }

        private boolean realFails(Map<String, Long> in) {
            if (!RealEvaluator.finiteInputs(in, bits, types)) return false;
            RealEvaluator.Val p = real.pattern(in, sizes, ev);
            RealEvaluator.Val r = real.replacement(in, sizes, ev);
            // a side past double's range (exp2 of a large f64) is not decided here: no verdict
            if (RealEvaluator.beyondDouble(p) || RealEvaluator.beyondDouble(r)) return false;
            return !(p instanceof RealEvaluator.Undefined) && !RealEvaluator.same(p, r);
        }

        private Verdict realUnsound(Map<String, Long> in) {
            List<String> parts = new ArrayList<>();
            for (String v : vars) {
                String at = bits.get(v) == ruleBits() ? "" : "@" + bits.get(v);
                parts.add(v + at + " = " + Values.format(in.get(v), types.get(v), bits.get(v)));
            }
            String msg = rule.file() + ":" + rule.line() + ":" + rule.column() + ": rule " + rule.name()
                    + " is wrong over the real numbers at " + ruleBits() + " bits: "
                    + (parts.isEmpty() ? "" : String.join(", ", parts) + ": ") + "pattern gives "
                    + RealEvaluator.show(real.pattern(in, sizes, ev)) + ", replacement gives "
                    + RealEvaluator.show(real.replacement(in, sizes, ev)) + " (computed exactly)";
            return new Verdict(Verdict.Kind.UNSOUND, rule.name(), msg, compared, Integer.toString(ruleBits()), null);
        }

        private boolean fails(Map<String, Long> in) {
            if (!satisfies(in)) return false;
            if (rule.reassociating()) return realFails(in);
            return disagrees(in, new boolean[1]);
        }

        /**
         * Whether the two sides agree under the rule's exactness and the NaN contract: the
         * replacement gives one of the values the pattern may have (one, unless flags allow more).
         */
        boolean agrees(RuleEvaluator.Outcome o, Map<String, Long> in) {
            if (o.wideDiffers) return false;
            if (o.alternatives == null) return agrees(o.pattern, o.patternKind, o, in);
            for (int k = 0; k < o.alternatives.length; k++) {
                if (o.alternativeKinds[k] != RuleEvaluator.UNDECIDED
                        && agrees(o.alternatives[k], o.alternativeKinds[k], o, in)) return true;
            }
            return false;
        }

        private boolean agrees(long p, int patternKind, RuleEvaluator.Outcome o, Map<String, Long> in) {
            long r = o.replacement;
            if (rule.usedBits() != 0) return ((p ^ r) & Bits.mask(rule.usedBits())) == 0; // only those bits are read
            int n = rootBits();
            boolean bothNaN = n >= 16 && FloatBits.isNaN(p, n) && FloatBits.isNaN(r, n);
            if (asNir && rule.exact() && !rule.approximate()) {
                // NIR keeps no NaN's bits: any two NaNs are alike, whatever made them
                TypeClass t = rule.pattern().op().output().typeClass();
                return p == r || bothNaN && (t == TypeClass.FLOAT || t == TypeClass.ANY);
            }
            if (o.replacementKind == RuleEvaluator.UNDECIDED) return false;
            if (rule.exact() && !rule.approximate()) {
                if (patternKind == RuleEvaluator.OPEN)
                    return n >= 16 && FloatBits.isNaN(r, n); // any NaN may stand there
                return p == r && o.replacementKind == RuleEvaluator.EXACT;
            }
            if (p == r) return true;
            TypeClass rootType = rule.pattern().op().output().typeClass();
            boolean floaty = n >= 16 && (rootType == TypeClass.FLOAT || rootType == TypeClass.ANY);
            if (!floaty) return false;
            double x = FloatBits.toDouble(p, n), y = FloatBits.toDouble(r, n);
            if (bothNaN) return true;
            if (x == 0 && y == 0) return true; // the sign of zero
            if (x != x || y != y) return anyInputNotFinite(in);
            if (Double.isInfinite(x) || Double.isInfinite(y)) {
                double largest = n == 16 ? 65504.0 : n == 32 ? Float.MAX_VALUE : Double.MAX_VALUE;
                return !(Double.isInfinite(x) && Double.isInfinite(y))
                        && (o.maxMagnitude >= largest / 2 || o.patternOverflowed);
            }
            // an approximate pass states its own bound (approximate(N ulp)); ~=> has ULP_BOUND
            double ulps = rule.approximate() ? rule.ulpBound() : ULP_BOUND;
            double bound = ulps * ulp(Math.max(o.maxMagnitude, Math.abs(x)), n); // the pattern's values only
            return Math.abs(x - y) <= bound;
        }

        /** The pattern's other values under its flags: {@code  (or -0.0 (0x8000), as its flags allow)}. */
        private static String others(RuleEvaluator.Outcome o, TypeClass type, int n) {
            if (o.alternatives == null || o.alternatives.length < 2) return "";
            List<String> more = new ArrayList<>();
            for (int k = 1; k < o.alternatives.length; k++) more.add(Values.format(o.alternatives[k], type, n));
            return " (or " + String.join(" or ", more) + ", as its flags allow)";
        }

        private boolean anyInputNotFinite(Map<String, Long> in) {
            for (Map.Entry<String, Long> e : in.entrySet()) {
                int b = bits.get(e.getKey());
                TypeClass t = types.get(e.getKey());
                if (b >= 16
                        && (t == TypeClass.FLOAT || t == TypeClass.ANY)
                        && !Double.isFinite(FloatBits.toDouble(e.getValue(), b))) {
                    return true;
                }
            }
            return false;
        }

        private double ulp(double magnitude, int n) {
            return switch (n) {
                case 16 -> Math.max(Math.ulp((float) magnitude) * 8192.0, 0x1p-24);
                case 32 -> Math.ulp((float) magnitude);
                default -> Math.ulp(magnitude);
            };
        }

        /** Repeatedly replaces a variable by a simpler value that still fails. */
        private Map<String, Long> shrink(Map<String, Long> failing) {
            Map<String, Long> cur = new LinkedHashMap<>(failing);
            boolean changed = true;
            int rounds = 0;
            while (changed && rounds++ < 50) {
                changed = false;
                for (String v : vars) {
                    int b = bits.get(v);
                    TypeClass t = types.get(v);
                    double best = Values.complexity(cur.get(v), t, b);
                    for (long cand : Values.simpler(cur.get(v), t, b)) {
                        cand &= Bits.mask(b);
                        if (Values.complexity(cand, t, b) >= best) continue;
                        Map<String, Long> next = new LinkedHashMap<>(cur);
                        next.put(v, cand);
                        if (fails(next)) {
                            cur = next;
                            best = Values.complexity(cand, t, b);
                            changed = true;
                        }
                    }
                }
            }
            return cur;
        }

        /** How a mediump root's value read at 32 bits is shown: as its wide conversion's result. */
        private TypeClass wideType() {
            return dev.lathe.ir.op.MediumPrecision.wide(rule.pattern().op())
                    .output()
                    .typeClass();
        }

        private Verdict unsound(Map<String, Long> in) {
            disagrees(in, new boolean[1]);
            RuleEvaluator.Outcome o = ev.evaluate(in, sizes, failedAt);
            int n = rootBits();
            TypeClass rootType = rule.pattern().op().output().typeClass();
            if (rootType == TypeClass.ANY)
                rootType =
                        types.values().stream().anyMatch(t -> t == TypeClass.FLOAT) ? TypeClass.FLOAT : TypeClass.INT;
            List<String> parts = new ArrayList<>();
            // A variable whose size is not the rule's (conversions) says its size: a@64 = ….
            for (String v : vars) {
                String at = bits.get(v) == ruleBits() ? "" : "@" + bits.get(v);
                parts.add(v + at + " = " + Values.format(in.get(v), types.get(v), bits.get(v)));
            }
            boolean opens = o.patternKind == RuleEvaluator.EXACT && o.replacementKind != RuleEvaluator.EXACT;
            String replacement = Values.format(o.replacement, rootType, n);
            if (opens) {
                replacement = o.replacementKind == RuleEvaluator.OPEN
                        ? "a NaN a float operation makes, whose bits are open (here " + replacement
                                + "), where the pattern's bits are kept"
                        : replacement + ", computed from the bits of a NaN a float operation makes (open bits)";
            }
            String msg =
                    rule.file() + ":" + rule.line() + ":" + rule.column() + ": rule " + rule.name() + " is unsound at "
                            + ruleBits() + (ruleBits() == 1 ? " bit: " : " bits: ")
                            + (parts.isEmpty() ? "" : String.join(", ", parts) + ": ")
                            + (width > 1 ? "at component " + Node.SWIZZLE_LETTERS.charAt(failedAt) + ", " : "")
                            + "pattern gives "
                            + Values.format(o.pattern, rootType, n) + others(o, rootType, n) + ", replacement gives "
                            + replacement
                            + (o.wideDiffers
                                    ? "; a conversion reading it may read it at 32 bits, where the pattern gives "
                                            + Values.format(o.patternWide, wideType(), 32) + " and the replacement "
                                            + Values.format(o.replacementWide, wideType(), 32)
                                    : "");
            return new Verdict(
                    Verdict.Kind.UNSOUND,
                    rule.name(),
                    msg,
                    compared,
                    Integer.toString(ruleBits()),
                    new Verdict.Counterexample(
                            n,
                            Map.copyOf(in),
                            Map.copyOf(bits),
                            o.pattern,
                            o.replacement,
                            Arrays.stream(sizes.bySizeClass()).boxed().toList(),
                            opens));
        }
    }
}
