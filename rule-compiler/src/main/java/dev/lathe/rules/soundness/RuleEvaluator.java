package dev.lathe.rules.soundness;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.MediumPrecision;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.SizeClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates both sides of a rule on one component with the op table: the value the pattern
 * computes and the value the replacement computes, for given variable values and bit sizes.
 * Rules work per component, so one component is the whole story. Along the way it records the
 * largest finite float magnitude among the inputs and the pattern's values (intermediates and
 * result), which bounds the rounding an inexact rule may introduce: the replacement's own values
 * do not count, or a detour through a huge intermediate would excuse any error.
 *
 * <p>Each side's value also has a provenance under the NaN contract ({@code ir/README.md},
 * "NaN"): {@link #EXACT} bits; {@link #OPEN} — a NaN a float operation made (or moved along),
 * which may be any NaN; {@link #UNDECIDED} — computed from an open NaN's bits, so one outcome
 * of many.
 */
final class RuleEvaluator {
    private final CheckedRule rule;
    private final Map<String, RuleLiteral> literals = new HashMap<>();

    private final boolean flagged;

    /**
     * Whether ops are evaluated as nir_opcodes.py defines them where that differs from the op
     * table ({@link Op#evaluateAsNir}): a counterexample re-run under NIR's semantics ({@link NirReading}).
     */
    private final boolean asNir;

    /** The ops (as NIR) whose value differed from the op table's at some evaluation. */
    final java.util.Set<Op> nirChanged = java.util.EnumSet.noneOf(Op.class);

    /** The ops evaluated at a size NIR does not have them at ({@link Op#inNirAt}), as "name@bits". */
    final java.util.Set<String> nirAbsent = new java.util.TreeSet<>();

    /** Where the pattern read an op where NIR leaves its result undefined ({@link Op#nirUndefined}). */
    final java.util.Set<String> nirUndefined = new java.util.TreeSet<>();

    /** Whether the side being evaluated is the pattern, and whether it hit an undefined result now. */
    private boolean inPattern, patternUndefined;

    RuleEvaluator(CheckedRule rule) {
        this(rule, false);
    }

    /**
     * @param asNir evaluate as NIR defines ops ({@link Op#evaluateAsNir}), noting the ops NIR
     *              defines otherwise, has at no such size, or leaves undefined (a pattern
     *              undefined there is poison: {@link Outcome#patternPoison})
     */
    RuleEvaluator(CheckedRule rule, boolean asNir) {
        this.rule = rule;
        this.asNir = asNir;
        this.flagged = hasFlags(rule.pattern());
        this.slotNames = slots(rule);
    }

    /** The op applied, as NIR defines it when {@link #asNir}. */
    private long[] apply(Op op, int unsized, int comps, long[][] srcs) {
        long[] lathe = op.evaluate(unsized, comps, srcs);
        if (asNir && !op.inNirAt(unsized)) {
            nirAbsent.add(op.opName() + "@" + unsized);
            if (inPattern) patternUndefined = true; // NIR has no such instruction to match
        }
        if (asNir && inPattern) {
            String u = op.nirUndefined(unsized, srcs);
            if (u != null) {
                nirUndefined.add(u);
                patternUndefined = true;
            }
        }
        if (!asNir || op.nirDifference() == null) return lathe;
        long[] nir = op.evaluateAsNir(unsized, comps, srcs);
        if (!java.util.Arrays.equals(lathe, nir)) nirChanged.add(op);
        return nir;
    }

    /**
     * Whether the pattern may have more than one value: an op of it asks for flags, or it
     * converts a mediump conversion's result ({@link #widens}).
     */
    static boolean hasFlags(Node n) {
        if (!(n instanceof Node.OpNode op)) return false;
        if (!op.flags().isEmpty() || widens(op)) return true;
        for (Node s : op.srcs()) if (hasFlags(s)) return true;
        return false;
    }

    /**
     * Whether {@code op} converts the result of one of NIR's mediump conversions, and so may
     * read it from the mp op's 32-bit source ({@link MediumPrecision}).
     */
    static boolean widens(Node.OpNode op) {
        return op.srcs().size() == 1
                && op.srcs().get(0) instanceof Node.OpNode mp
                && MediumPrecision.wide(mp.op()) != null
                && MediumPrecision.widens(op.op());
    }

    /** The sizes of every class for one size assignment of the free classes. */
    record Sizes(int[] bySizeClass) {
        int of(int cls) {
            return bySizeClass[cls];
        }
    }

    static final int EXACT = 0, OPEN = 1, UNDECIDED = 2;

    /** One evaluation's outcome. */
    static final class Outcome {
        long pattern;
        long replacement;
        int patternKind;
        int replacementKind;
        double maxMagnitude;
        /** A float op of the pattern made an infinity from finite operands: the pattern overflowed. */
        boolean patternOverflowed;
        /**
         * Where the pattern's ops carry flags: every value the pattern may have (the one the op
         * table gives first), with their provenances; null without flags.
         */
        long[] alternatives;

        int[] alternativeKinds;
        /** A flag made the pattern poison (nnan on a NaN, nsw on a wrap …): any replacement will do. */
        boolean patternPoison;
        /**
         * Both roots are mediump conversions and the values a conversion reading them may take
         * at 32 bits differ ({@link MediumPrecision}): {@link #patternWide}, {@link #replacementWide}.
         */
        boolean wideDiffers;

        long patternWide, replacementWide;

        /** Whether no value the pattern may have is decided by the NaN contract. */
        boolean undecided() {
            if (alternatives == null) return patternKind == UNDECIDED;
            for (int k : alternativeKinds) if (k != UNDECIDED) return false;
            return true;
        }
    }

    /** One value a pattern with flags may have: its bits, provenance, and whether it is poison. */
    private record Alt(long bits, int kind, boolean poison) {}

    /** More values than this for one pattern is a rule no one writes; the evaluation says so. */
    private static final int MAX_ALTERNATIVES = 4096;

    /** A value and its provenance. */
    private record Result(long bits, int kind) {}

    /** Whether every literal of the rule has a value at these sizes (otherwise the rule does not apply). */
    boolean literalsFit(Sizes sizes) {
        return fits(rule.pattern(), sizes) && fits(rule.replacement(), sizes);
    }

    private boolean fits(Node n, Sizes sizes) {
        if (n instanceof Node.ConstNode c) return literal(c.text()).fits(sizes.of(c.sizeClass()), c.asFloat());
        if (n instanceof Node.OpNode op) {
            for (Node s : op.srcs()) {
                if (!fits(s, sizes)) return false;
            }
        }
        return true;
    }

    Outcome evaluate(Map<String, Long> vars, Sizes sizes) {
        return evaluate(vars, sizes, 0);
    }

    /**
     * Both sides at component {@code c} of the root ({@link CheckedRule#checkedWidth}). A vector
     * variable's components are inputs of their own ({@link #slots}).
     */
    Outcome evaluate(Map<String, Long> vars, Sizes sizes, int c) {
        this.comp = c;
        Outcome o = new Outcome();
        for (Map.Entry<String, Long> e : vars.entrySet()) {
            String var = varOf(e.getKey());
            int bits = sizes.of(varClass(var));
            if (Values.isFloat(rule.varTypes().get(var), bits)) note(o, e.getValue(), bits);
        }
        Result p;
        inPattern = true;
        patternUndefined = false;
        if (flagged) {
            List<Alt> alts = evalAll(rule.pattern(), vars, sizes, o);
            o.alternatives = new long[alts.size()];
            o.alternativeKinds = new int[alts.size()];
            for (int k = 0; k < alts.size(); k++) {
                o.alternatives[k] = alts.get(k).bits();
                o.alternativeKinds[k] = alts.get(k).kind();
                o.patternPoison |= alts.get(k).poison();
            }
            p = new Result(alts.get(0).bits(), alts.get(0).kind());
        } else {
            p = eval(rule.pattern(), vars, sizes, o);
        }
        // The tolerance of an inexact rule is the pattern's: the replacement's values are noted
        // nowhere, or a detour through a huge intermediate (a + 1e30 - 1e30) would excuse any error.
        inPattern = false;
        // as NIR defines ops, a pattern whose result is undefined there may be replaced by anything
        if (patternUndefined) o.patternPoison = true;
        Result r = eval(rule.replacement(), vars, sizes, new Outcome());
        if (rule.replacement() instanceof Node.OpNode rr && MediumPrecision.wide(rr.op()) != null)
            compareWide((Node.OpNode) rule.pattern(), rr, vars, sizes, o);
        o.pattern = p.bits();
        o.patternKind = p.kind();
        o.replacement = r.bits();
        o.replacementKind = r.kind();
        return o;
    }

    /**
     * Both roots are mediump conversions (the compiler refuses a replacement rooted at one
     * otherwise): a conversion reading the rewritten value may read it at 32 bits, so that value
     * must be one the pattern's could be read as (its source may take several values).
     */
    private void compareWide(Node.OpNode p, Node.OpNode r, Map<String, Long> vars, Sizes sizes, Outcome o) {
        Op wp = MediumPrecision.wide(p.op());
        o.replacementWide = MediumPrecision.wideValue(
                r.op(), eval(r.srcs().get(0), vars, sizes, new Outcome()).bits());
        boolean some = false;
        for (Alt x : evalAll(p.srcs().get(0), vars, sizes, new Outcome())) {
            long w = MediumPrecision.wideValue(p.op(), x.bits());
            if (!some) o.patternWide = w;
            some = true;
            boolean nans = wp.output().typeClass() == dev.lathe.ir.op.TypeClass.FLOAT
                    && FloatBits.isNaN(w, 32)
                    && FloatBits.isNaN(o.replacementWide, 32);
            if (x.poison() || w == o.replacementWide || nans) return;
        }
        o.wideDiffers = true;
    }

    /** The root component being evaluated; nodes read at the rule's width are read there too. */
    private int comp;

    /**
     * Each variable's inputs, in binding order: one for a variable of one component (its name),
     * else one per component ({@code a.x}, {@code a.y} …): a variable read at the rule's width
     * has {@link CheckedRule#checkedWidth} of them.
     */
    static Map<String, List<String>> slots(CheckedRule rule) {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        for (String v : rule.variables()) {
            int k = varCount(rule, v);
            List<String> names = new ArrayList<>();
            for (int j = 0; j < k; j++) names.add(slot(v, j, k));
            out.put(v, List.copyOf(names));
        }
        return out;
    }

    /** How many components of variable {@code v} the checker gives values. */
    static int varCount(CheckedRule rule, String v) {
        Node.VarNode first = firstVar(rule.pattern(), v);
        int k = first == null ? 0 : first.varComponents();
        return k > 0 ? k : rule.checkedWidth();
    }

    private static String slot(String var, int j, int count) {
        return count == 1 ? var : var + "." + Node.SWIZZLE_LETTERS.charAt(j);
    }

    /** The variable an input belongs to ({@code a} for {@code a.y}). */
    static String varOf(String slot) {
        int dot = slot.indexOf('.');
        return dot < 0 ? slot : slot.substring(0, dot);
    }

    /** Each variable's input names by component, made once: the evaluation reads them per sample. */
    private final Map<String, List<String>> slotNames;

    /** The input variable {@code v}'s component {@code j} is read from. */
    private String slotOf(Node.VarNode v, int j) {
        int at = v.swizzle().isEmpty()
                ? j
                : Node.SWIZZLE_LETTERS.indexOf(v.swizzle().charAt(j));
        return slotNames.get(v.name()).get(at);
    }

    private static Node.VarNode firstVar(Node node, String name) {
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>(List.of(node));
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (n instanceof Node.VarNode v && v.name().equals(name)) return v;
            if (n instanceof Node.OpNode op)
                for (int i = op.srcs().size() - 1; i >= 0; i--)
                    work.push(op.srcs().get(i));
        }
        return null;
    }

    private final Map<String, Integer> varClasses = new HashMap<>();

    int varClass(String name) {
        return varClasses.computeIfAbsent(name, n -> findVar(rule.pattern(), n));
    }

    private static int findVar(Node node, String name) {
        if (node instanceof Node.VarNode v && v.name().equals(name)) return v.sizeClass();
        if (node instanceof Node.OpNode op) {
            for (Node s : op.srcs()) {
                int c = findVar(s, name);
                if (c >= 0) return c;
            }
        }
        return -1;
    }

    private Result eval(Node n, Map<String, Long> vars, Sizes sizes, Outcome o) {
        return eval(n, comp, vars, sizes, o);
    }

    /** Component {@code c} of the value {@code n} is read as. */
    private Result eval(Node n, int c, Map<String, Long> vars, Sizes sizes, Outcome o) {
        if (n instanceof Node.VarNode v) return new Result(vars.get(slotOf(v, c)), EXACT);
        if (n instanceof Node.ConstNode k)
            return new Result(literal(k.text()).bits(sizes.of(k.sizeClass()), k.asFloat()), EXACT);
        Node.OpNode op = (Node.OpNode) n;
        if (op.op().isHorizontal()) return horizontal(op, c, vars, sizes, o);
        long[][] srcs = new long[op.srcs().size()][];
        int[] kinds = new int[srcs.length];
        for (int i = 0; i < srcs.length; i++) {
            Result s = eval(op.srcs().get(i), c, vars, sizes, o);
            srcs[i] = new long[] {s.bits()};
            kinds[i] = s.kind();
        }
        int unsized = op.opClass() < 0 ? 0 : sizes.of(op.opClass());
        long r = apply(op.op(), unsized, 1, srcs)[0];
        int outBits = op.op().outputBits(unsized);
        if (Values.isFloat(op.op().output().typeClass(), outBits)) {
            note(o, r, outBits);
            if (Double.isInfinite(FloatBits.toDouble(r, outBits)) && finiteOperands(op.op(), unsized, srcs))
                o.patternOverflowed = true;
        }
        return new Result(r, provenance(op.op(), srcs, kinds, r, outBits));
    }

    /**
     * Component {@code c} of a horizontal op's result as it is read (in order, or at its
     * swizzle's components): the op evaluated on every component of its operands. Its
     * provenance is the worst of the components it reads ({@code vecN}: of the one it moves).
     */
    private Result horizontal(Node.OpNode op, int c, Map<String, Long> vars, Sizes sizes, Outcome o) {
        int at = op.swizzle().isEmpty()
                ? c
                : Node.SWIZZLE_LETTERS.indexOf(op.swizzle().charAt(c));
        long[][] srcs = new long[op.srcs().size()][];
        int[] kinds = new int[srcs.length];
        for (int i = 0; i < srcs.length; i++) {
            int k = op.op().input(i).components();
            srcs[i] = new long[k];
            for (int j = 0; j < k; j++) {
                Result s = eval(op.srcs().get(i), j, vars, sizes, o);
                srcs[i][j] = s.bits();
                kinds[i] = Math.max(kinds[i], s.kind()); // EXACT < OPEN < UNDECIDED
            }
        }
        int unsized = op.opClass() < 0 ? 0 : sizes.of(op.opClass());
        long r = apply(op.op(), unsized, op.op().output().components(), srcs)[at];
        int outBits = op.op().outputBits(unsized);
        if (Values.isFloat(op.op().output().typeClass(), outBits)) note(o, r, outBits);
        // vecN moves the one source the component comes from; the others, as a scalar op's
        if (op.op().movesData()) return new Result(r, kinds[at]);
        return new Result(r, provenance(op.op(), srcs, kinds, r, outBits));
    }

    /**
     * Every value a pattern with flags may have ({@link FlagSemantics}): each op evaluated on
     * every combination of its operands' values, nsz reading each zero float operand with both
     * signs and giving a zero result with both, the IEEE choice first.
     */
    private List<Alt> evalAll(Node n, Map<String, Long> vars, RuleEvaluator.Sizes sizes, Outcome o) {
        if (!(n instanceof Node.OpNode op) || op.op().isHorizontal()) {
            // a horizontal op is evaluated with IEEE's choices below it only: stricter, never laxer
            Result r = eval(n, vars, sizes, o);
            return List.of(new Alt(r.bits(), r.kind(), false));
        }
        int k = op.srcs().size();
        List<List<Alt>> in = new ArrayList<>(k);
        for (Node s : op.srcs()) in.add(evalAll(s, vars, sizes, o));
        int unsized = op.opClass() < 0 ? 0 : sizes.of(op.opClass());
        int outBits = op.op().outputBits(unsized);
        boolean nsz = op.flags().has(dev.lathe.ir.AluFlag.NSZ);
        java.util.LinkedHashSet<Alt> out = new java.util.LinkedHashSet<>();
        int[] pick = new int[k];
        while (true) {
            long[][] srcs = new long[k][];
            int[] kinds = new int[k];
            boolean poisonIn = false;
            for (int i = 0; i < k; i++) {
                Alt a = in.get(i).get(pick[i]);
                srcs[i] = new long[] {a.bits()};
                kinds[i] = a.kind();
                // bcsel: only the arm it takes passes poison on
                boolean taken = op.op() != Op.BCSEL
                        || i == 0
                        || i == ((in.get(0).get(pick[0]).bits() & 1) != 0 ? 1 : 2);
                poisonIn |= a.poison() && taken;
            }
            // nsz: each zero float operand read with both signs
            int flips = 0;
            int[] flippable = new int[k];
            for (int i = 0; nsz && i < k; i++) {
                int b = op.op().inputBits(i, unsized);
                if (FlagSemantics.floatOperand(op.op(), i, b) && FlagSemantics.isZero(srcs[i][0], b))
                    flippable[flips++] = i;
            }
            for (int m = 0; m < 1 << flips; m++) {
                long[][] s = new long[k][];
                for (int i = 0; i < k; i++) s[i] = srcs[i].clone();
                for (int f = 0; f < flips; f++) {
                    int i = flippable[f];
                    if ((m >> f & 1) != 0)
                        s[i][0] = FlagSemantics.flipSign(s[i][0], op.op().inputBits(i, unsized));
                }
                long r = apply(op.op(), unsized, 1, s)[0];
                if (Values.isFloat(op.op().output().typeClass(), outBits)) note(o, r, outBits);
                boolean poison = poisonIn || FlagSemantics.poison(op.op(), op.flags(), unsized, s, r);
                int kind = provenance(op.op(), s, kinds, r, outBits);
                out.add(new Alt(r, kind, poison));
                if (nsz && FlagSemantics.floatResult(op.op(), outBits) && FlagSemantics.isZero(r, outBits))
                    out.add(new Alt(FlagSemantics.flipSign(r, outBits), kind, poison));
            }
            if (out.size() > MAX_ALTERNATIVES)
                throw new IllegalStateException(rule.name() + ": its pattern has more than " + MAX_ALTERNATIVES
                        + " values under its nsz flags");
            int i = 0;
            while (i < k && ++pick[i] == in.get(i).size()) pick[i++] = 0;
            if (i == k) break;
        }
        if (widens(op)) {
            // mediump: the conversion may read the mp op's source converted at 32 bits
            Node.OpNode mp = (Node.OpNode) op.srcs().get(0);
            for (Alt x : evalAll(mp.srcs().get(0), vars, sizes, o)) {
                long[][] s = {{MediumPrecision.wideValue(mp.op(), x.bits())}};
                long r = op.op().evaluate(32, 1, s)[0];
                if (Values.isFloat(op.op().output().typeClass(), outBits)) note(o, r, outBits);
                out.add(new Alt(r, provenance(op.op(), s, new int[] {x.kind()}, r, outBits), x.poison()));
            }
        }
        return List.copyOf(out);
    }

    /** The provenance of one op's result (one component: a vecN's is its first source's). */
    private static int provenance(Op op, long[][] srcs, int[] kinds, long result, int outBits) {
        // bcsel: only the arm it takes matters (the interpreter's NanProvenance agrees), so a
        // guarded arm may read a NaN's bits on the inputs where it is not taken.
        if (op == Op.BCSEL) return kinds[0] == UNDECIDED ? UNDECIDED : kinds[(srcs[0][0] & 1) != 0 ? 1 : 2];
        for (int k : kinds) if (k == UNDECIDED) return UNDECIDED;
        if (op.movesData()) return kinds[0];
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == OPEN && op.readsBits(i)) return UNDECIDED;
        }
        return op.computesFloat() && outBits >= 16 && FloatBits.isNaN(result, outBits) ? OPEN : EXACT;
    }

    /** Whether no float operand of the op is infinite or NaN. */
    private static boolean finiteOperands(Op op, int unsized, long[][] srcs) {
        for (int i = 0; i < srcs.length; i++) {
            int b = op.inputBits(i, unsized);
            if (Values.isFloat(op.input(i).typeClass(), b) && !Double.isFinite(FloatBits.toDouble(srcs[i][0], b))) {
                return false;
            }
        }
        return true;
    }

    private static void note(Outcome o, long bits, int size) {
        double d = FloatBits.toDouble(bits, size);
        if (Double.isFinite(d)) o.maxMagnitude = Math.max(o.maxMagnitude, Math.abs(d));
    }

    RuleLiteral literal(String text) {
        return literals.computeIfAbsent(text, RuleLiteral::of);
    }

    /**
     * The size class that names a rule's size: its root's variable-size operands (feq compares
     * 32-bit values even though its result is 1 bit), or its result when there are none.
     */
    static int rootClass(CheckedRule rule) {
        return rule.pattern().opClass() >= 0
                ? rule.pattern().opClass()
                : rule.pattern().sizeClass();
    }

    /**
     * The size assignments to check or prove: those whose root size is in {@code rootSizes}
     * ({@code Bits.sizeFlag} set) and at which every literal of the rule has a value.
     */
    List<Sizes> applicable(int rootSizes) {
        List<Sizes> out = new ArrayList<>();
        int root = rootClass(rule);
        for (Sizes sizes : sizeAssignments(rule, Bits.ALL_SIZES)) {
            if ((rootSizes & Bits.sizeFlag(sizes.of(root))) != 0 && literalsFit(sizes)) out.add(sizes);
        }
        return out;
    }

    /** Every assignment of legal sizes to the classes (fixed classes keep their size). */
    static List<Sizes> sizeAssignments(CheckedRule rule, int allowedSizes) {
        List<SizeClass> classes = rule.classes();
        List<Sizes> out = new ArrayList<>();
        int[] cur = new int[classes.size()];
        assign(classes, 0, cur, allowedSizes, out);
        return out;
    }

    private static void assign(List<SizeClass> classes, int i, int[] cur, int allowed, List<Sizes> out) {
        if (i == classes.size()) {
            out.add(new Sizes(cur.clone()));
            return;
        }
        SizeClass c = classes.get(i);
        if (c.isFixed()) {
            cur[i] = c.fixed();
            assign(classes, i + 1, cur, allowed, out);
            return;
        }
        for (int bits : new int[] {1, 8, 16, 32, 64}) {
            int flag = Bits.sizeFlag(bits);
            if ((c.legal() & flag) != 0 && (allowed & flag) != 0) {
                cur[i] = bits;
                assign(classes, i + 1, cur, allowed, out);
            }
        }
    }
}
