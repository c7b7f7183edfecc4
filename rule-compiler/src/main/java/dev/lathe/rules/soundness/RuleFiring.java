package dev.lathe.rules.soundness;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.BaseType;
import dev.lathe.ir.Function;
import dev.lathe.ir.IrBuilder;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Value;
import dev.lathe.ir.VarType;
import dev.lathe.ir.Variable;
import dev.lathe.ir.interp.Interpreter;
import dev.lathe.ir.interp.ShaderInputs;
import dev.lathe.ir.interp.ShaderOutputs;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.Predicate;
import dev.lathe.ir.rewrite.RewritePass;
import dev.lathe.ir.rewrite.RuleInfo;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.ir.rewrite.RuleStats;
import dev.lathe.ir.text.IrPrinter;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.GateAssignment;
import dev.lathe.rules.model.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;

/**
 * Exercises a rule's matcher — the generated class, or any {@link RuleSet} — on a program made
 * of the rule's own pattern, at every size the rule applies at. Random programs leave many
 * matchers untouched (a deep pattern, a rare constant, a condition only the range analysis can
 * grant); this one cannot miss.
 *
 * <p>The pattern is built as IR: each variable a uniform (also stored to an output of its own, so
 * a run shows what the pattern read), each {@code #} variable a constant drawn to satisfy its
 * conditions. A condition on a variable that is not a constant holds only when the range analysis
 * shows it, so such a variable is <i>shaped</i>: read through a small expression whose range
 * satisfies it ({@code imax(x, 0)} for {@code is_not_negative}, {@code fsat(x)} for
 * {@code is_in_unit_interval}, {@code umin(x, 31)} for {@code ult_const(a, 32)}, …), tried in turn
 * until the rule fires. The rewrite pass runs with every other rule of the set disabled, so no
 * other rule gets there first, and the rule must rewrite the pattern's root.
 *
 * <p>Then both programs, before and after the rewrite, run on input sets (edge values and random
 * ones), and on each:
 * <ul>
 *   <li>every condition holds on the values the pattern read: the analysis that let the rule fire was right;
 *   <li>before the rewrite the output is what the op table gives for the pattern, and after it what
 *       it gives for the replacement: the matcher built the rule's replacement;
 *   <li>an exact rule keeps the outputs under the NaN contract; an inexact one stays within the
 *       soundness checker's tolerance.
 * </ul>
 */
public final class RuleFiring {
    private RuleFiring() {}

    /** How many input sets each program runs on. */
    static final int INPUT_SETS = 32;
    /** How many combinations of shapes to try before giving up on a rule. */
    private static final int MAX_COMBINATIONS = 400;

    /** The outcome: {@code ok}, or the first failure, with the program. */
    public record Result(boolean ok, String message) {}

    /** Exercises {@code rule}, whose matcher is the rule of that name in {@code rules}. */
    public static Result exercise(RuleSet rules, CheckedRule rule) {
        int index = -1;
        Set<String> others = new HashSet<>();
        for (int i = 0; i < rules.rules().size(); i++) {
            RuleInfo info = rules.rules().get(i);
            if (info.name().equals(rule.name())) index = i;
            else others.add(info.name());
        }
        if (index < 0)
            return new Result(
                    false, rule.location() + ": the rule set " + rules.passName() + " has no rule " + rule.name());
        if (rule.usesVectors())
            return new Result(
                    false,
                    rule.location() + ": rule " + rule.name() + " reads vectors (horizontal ops, swizzles); programs"
                            + " made of a rule's own pattern are built of one component only, so it cannot be exercised"
                            + " this way yet (the sampling checker covers it)");
        RuleEvaluator ev = new RuleEvaluator(rule);
        List<RuleEvaluator.Sizes> all = ev.applicable(Bits.ALL_SIZES);
        if (all.isEmpty()) return new Result(false, rule.location() + ": rule " + rule.name() + " applies at no size");
        long seed = rule.name().hashCode() * 1_000_003L + rule.line();
        List<String> sizes = new ArrayList<>();
        Set<String> shaped = new LinkedHashSet<>();
        for (RuleEvaluator.Sizes s : all) {
            SizeRun run = new SizeRun(rules, index, others, rule, ev, s, new SplittableRandom(seed ^ s.hashCode()));
            String failure = run.run();
            if (failure != null) return new Result(false, failure);
            sizes.add(label(rule, s));
            shaped.addAll(run.shapedText);
        }
        return new Result(
                true,
                rule.location() + ": rule " + rule.name() + " fired on its own pattern at " + String.join(", ", sizes)
                        + (sizes.equals(List.of("1")) ? " bit" : " bits")
                        + (shaped.isEmpty() ? "" : " (" + String.join(", ", shaped) + ")")
                        + " and kept its meaning on " + INPUT_SETS + " input sets each");
    }

    private static String label(CheckedRule rule, RuleEvaluator.Sizes s) {
        return Integer.toString(s.of(RuleEvaluator.rootClass(rule)));
    }

    /**
     * Builds {@code n} (a pattern or part of one) with {@code vars} for its variables, literals as
     * constants of their class's size and ops of one component: the IR a rule is written to match.
     */
    public static Value build(IrBuilder b, Node n, Map<String, Value> vars, IntUnaryOperator classSize) {
        return build(b, n, vars, classSize, false);
    }

    /** As above; with {@code reassociating}, every float op also carries {@code reassoc} (what a ~~> rule needs). */
    public static Value build(
            IrBuilder b, Node n, Map<String, Value> vars, IntUnaryOperator classSize, boolean reassociating) {
        if (n instanceof Node.VarNode v) return vars.get(v.name());
        if (n instanceof Node.ConstNode c) {
            int size = classSize.applyAsInt(c.sizeClass());
            return b.constant(size, RuleLiteral.of(c.text()).bits(size, c.asFloat()));
        }
        Node.OpNode op = (Node.OpNode) n;
        Value[] srcs = new Value[op.srcs().size()];
        for (int i = 0; i < srcs.length; i++) srcs[i] = build(b, op.srcs().get(i), vars, classSize, reassociating);
        AluInstr i = b.aluInstr(op.op(), 1, classSize.applyAsInt(op.sizeClass()), srcs);
        // the pattern's flags: the instruction carries what the rule asks for
        i.setFlags(
                reassociating && AluFlag.REASSOC.appliesTo(op.op()) ? op.flags().with(AluFlag.REASSOC) : op.flags());
        return i.def();
    }

    /** The scalar type a value of {@code bits} is stored and read as. */
    static VarType scalar(int bits) {
        return bits == 1 ? new VarType(BaseType.BOOL, 1, 1) : new VarType(BaseType.UINT, bits, 1);
    }

    /**
     * How a variable is read from its uniform {@code x}: as it is, or through an expression whose
     * range the analysis knows; {@code name} spells it with {@code x} for the uniform.
     */
    private record Shape(String name, ShapeBuilder make) {
        /** How variable {@code v} is read with this shape: {@code a = imax(u_a, 0)}. */
        String reading(String v) {
            return v + " = " + name.replaceAll("\\bx\\b", "u_" + v);
        }
    }

    private interface ShapeBuilder {
        Value make(IrBuilder b, Value x, int bits);
    }

    private static final Shape PLAIN = new Shape("x", (b, x, bits) -> x);

    /** The shapes worth trying for a variable of {@code bits}, given how its conditions read it. */
    private static List<Shape> shapes(List<Condition> conds, int bits) {
        List<Shape> out = new ArrayList<>();
        out.add(PLAIN);
        if (bits == 1) {
            out.add(iop("ior(x, true)", Op.IOR, 1));
            out.add(iop("iand(x, false)", Op.IAND, 0));
            return out;
        }
        boolean floats = conds.stream().anyMatch(c -> c.type() == TypeClass.FLOAT);
        if (floats) {
            out.add(fop("fmax(x, 0.0)", Op.FMAX, 0.0));
            out.add(fop("fmax(x, 1.0)", Op.FMAX, 1.0));
            out.add(fop("fmin(x, -0.0)", Op.FMIN, -0.0));
            out.add(fop("fmin(x, -1.0)", Op.FMIN, -1.0));
            out.add(new Shape("fsat(x)", (b, x, n) -> alu(b, Op.FSAT, n, x)));
            out.add(new Shape("fmin(fmax(x, -1000.0), 1000.0)", (b, x, n) -> finite(b, x, n)));
            out.add(new Shape(
                    "fadd(fsat(x), 1.0)", (b, x, n) -> alu(b, Op.FADD, n, alu(b, Op.FSAT, n, x), f(b, 1.0, n))));
            out.add(new Shape(
                    "ffloor(fmin(fmax(x, -1000.0), 1000.0))", (b, x, n) -> alu(b, Op.FFLOOR, n, finite(b, x, n))));
            out.add(new Shape(
                    "ffloor(fmax(fmin(x, 1000.0), 0.0))",
                    (b, x, n) -> alu(
                            b,
                            Op.FFLOOR,
                            n,
                            alu(b, Op.FMAX, n, alu(b, Op.FMIN, n, x, f(b, 1000.0, n)), f(b, 0.0, n)))));
            out.add(new Shape(
                    "ffloor(fmin(fmax(x, -1000.0), -0.0))",
                    (b, x, n) -> alu(
                            b,
                            Op.FFLOOR,
                            n,
                            alu(b, Op.FMIN, n, alu(b, Op.FMAX, n, x, f(b, -1000.0, n)), f(b, -0.0, n)))));
            return out;
        }
        out.add(iop("imax(x, 0)", Op.IMAX, 0));
        out.add(iop("imax(x, 1)", Op.IMAX, 1));
        out.add(iop("imin(x, 0)", Op.IMIN, 0));
        out.add(iop("imin(x, -1)", Op.IMIN, -1));
        out.add(new Shape("ushr(x, 1)", (b, x, n) -> alu(b, Op.USHR, n, x, b.constant(32, 1))));
        for (Condition c : conds) {
            long k = c.bound();
            if (c.predicate() == Predicate.ULT_CONST && k > 0) {
                out.add(iop("umin(x, " + (k - 1) + ")", Op.UMIN, k - 1));
                out.add(new Shape(
                        "umax(umin(x, " + (k - 1) + "), 1)",
                        (b, x, n) -> alu(b, Op.UMAX, n, alu(b, Op.UMIN, n, x, i(b, k - 1, n)), i(b, 1, n))));
            }
            if (c.predicate() == Predicate.ILT_CONST) {
                out.add(iop("imin(x, " + (k - 1) + ")", Op.IMIN, k - 1));
                out.add(new Shape(
                        "imax(imin(x, " + (k - 1) + "), 0)",
                        (b, x, n) -> alu(b, Op.IMAX, n, alu(b, Op.IMIN, n, x, i(b, k - 1, n)), i(b, 0, n))));
            }
        }
        return out;
    }

    private static Shape fop(String name, Op op, double c) {
        return new Shape(name, (b, x, bits) -> alu(b, op, bits, x, f(b, c, bits)));
    }

    private static Shape iop(String name, Op op, long c) {
        return new Shape(name, (b, x, bits) -> alu(b, op, bits, x, i(b, c, bits)));
    }

    private static Value finite(IrBuilder b, Value x, int bits) {
        return alu(b, Op.FMIN, bits, alu(b, Op.FMAX, bits, x, f(b, -1000.0, bits)), f(b, 1000.0, bits));
    }

    private static Value alu(IrBuilder b, Op op, int bits, Value... srcs) {
        return b.aluInstr(op, 1, bits, srcs).def();
    }

    private static Value f(IrBuilder b, double d, int bits) {
        return b.constant(bits, FloatBits.fromDouble(d, bits));
    }

    private static Value i(IrBuilder b, long v, int bits) {
        return b.constant(bits, v & Bits.mask(bits));
    }

    /** The program of one attempt: the shader and the pattern's root in it. */
    private record Program(Shader shader, AluInstr root) {}

    /** Exercising one size assignment. */
    private static final class SizeRun {
        final RuleSet rules;
        final int index;
        final Set<String> others;
        final CheckedRule rule;
        final RuleEvaluator ev;
        final RuleEvaluator.Sizes sizes;
        final SplittableRandom rnd;
        final Map<String, Integer> bits = new HashMap<>();
        final Map<String, List<Condition>> conds = new HashMap<>();
        final Map<String, Long> constants = new LinkedHashMap<>();
        /** How the conditioned variables were read when the rule fired ({@code a = fmax(u_a, 0.0)}). */
        final List<String> shapedText = new ArrayList<>();
        /** The variables read from uniforms, in binding order. */
        final List<String> inputs = new ArrayList<>();
        /** The target options, stage and float controls the program is built for: ones on which the rule's gates hold. */
        GateAssignment gates;

        SizeRun(
                RuleSet rules,
                int index,
                Set<String> others,
                CheckedRule rule,
                RuleEvaluator ev,
                RuleEvaluator.Sizes sizes,
                SplittableRandom rnd) {
            this.rules = rules;
            this.index = index;
            this.others = others;
            this.rule = rule;
            this.ev = ev;
            this.sizes = sizes;
            this.rnd = rnd;
            for (String v : rule.variables()) bits.put(v, sizes.of(ev.varClass(v)));
            for (Condition c : rule.conditions())
                conds.computeIfAbsent(c.var().name(), k -> new ArrayList<>()).add(c);
        }

        String at() {
            return rule.file() + ":" + rule.line() + ":" + rule.column() + ": rule " + rule.name() + " at "
                    + label(rule, sizes) + (label(rule, sizes).equals("1") ? " bit" : " bits");
        }

        /** Null when the rule fired and kept its meaning, else what went wrong. */
        String run() {
            gates = GateAssignment.satisfying(rule.gates());
            // gates that no shader Lathe compiles satisfies (stage(geometry)): the rule never fires, rightly
            if (gates == null) return null;
            Set<String> constOnly = new HashSet<>();
            collectConstOnly(rule.pattern(), constOnly);
            for (String v : rule.variables()) {
                if (!constOnly.contains(v)) {
                    inputs.add(v);
                    continue;
                }
                Long c = constantFor(v);
                if (c == null) return at() + ": no value of #" + v + " satisfies its conditions";
                constants.put(v, c);
            }
            // Shapes: the product of each conditioned variable's candidates, in order.
            List<String> shaped = new ArrayList<>();
            List<List<Shape>> options = new ArrayList<>();
            for (String v : inputs) {
                if (conds.containsKey(v)) {
                    shaped.add(v);
                    options.add(shapes(conds.get(v), bits.get(v)));
                }
            }
            int[] pick = new int[shaped.size()];
            for (int attempt = 0; attempt < MAX_COMBINATIONS; attempt++) {
                Map<String, Shape> chosen = new HashMap<>();
                for (String v : inputs) chosen.put(v, PLAIN);
                for (int k = 0; k < shaped.size(); k++)
                    chosen.put(shaped.get(k), options.get(k).get(pick[k]));
                Program after = build(chosen);
                RuleStats stats = new RuleStats(rules);
                new RewritePass(rules, stats, RewritePass.CACHED, others, gatesOpen())
                        .run(after.shader().entryPoint());
                if (stats.fired(index) > 0 && !after.root().isInserted()) {
                    for (String v : shaped) shapedText.add(chosen.get(v).reading(v));
                    return compare(build(chosen), after, chosen, stats.fired(index) == 1);
                }
                int k = 0;
                while (k < pick.length && ++pick[k] == options.get(k).size()) pick[k++] = 0;
                if (k == pick.length) break;
            }
            Map<String, Shape> plain = new HashMap<>();
            for (String v : inputs) plain.put(v, PLAIN);
            return at() + " does not fire on a program made from its pattern"
                    + (shaped.isEmpty()
                            ? ""
                            : " (nor with " + shaped + " read through any shape whose range satisfies "
                                    + conditionText() + ")")
                    + ":\n" + IrPrinter.print(build(plain).shader());
        }

        String conditionText() {
            return String.join(
                    ", ", rule.conditions().stream().map(Condition::text).toList());
        }

        private static void collectConstOnly(Node n, Set<String> out) {
            if (n instanceof Node.VarNode v && v.constOnly()) out.add(v.name());
            if (n instanceof Node.OpNode op) {
                for (Node s : op.srcs()) collectConstOnly(s, out);
            }
        }

        /** A value for a {@code #} variable that satisfies its conditions, or null. */
        Long constantFor(String v) {
            int b = bits.get(v);
            TypeClass t = rule.varTypes().get(v);
            List<Condition> cs = conds.getOrDefault(v, List.of());
            List<Long> edges = Values.edges(t, b);
            for (int attempt = 0; attempt < 2000; attempt++) {
                long value;
                if (!cs.isEmpty() && attempt % 2 == 0) {
                    Condition c = cs.get(rnd.nextInt(cs.size()));
                    value = Values.satisfying(rnd, c.predicate(), c.type(), b, c.bound());
                } else {
                    value = rnd.nextBoolean() ? edges.get(rnd.nextInt(edges.size())) : Values.random(rnd, t, b);
                }
                value &= Bits.mask(b);
                if (holds(cs, value, b)) return value;
            }
            return null;
        }

        private static boolean holds(List<Condition> cs, long value, int b) {
            for (Condition c : cs) {
                if (!c.predicate().holds(value, b, c.type(), c.bound())) return false;
            }
            return true;
        }

        /** Options that open the rule's gates (with {@link #gates}' stage and float controls). */
        private Set<String> gatesOpen() {
            return gates.options();
        }

        Program build(Map<String, Shape> shapes) {
            Shader s = new Shader(gates.stage());
            for (String fc : gates.floatControls()) s.addFloatControl(fc);
            int rootBits = sizes.of(rule.pattern().sizeClass());
            Variable o = s.addVariable(Variable.output("o", scalar(rootBits), 0));
            Function fn = s.addFunction("main");
            IrBuilder b = new IrBuilder(fn);
            Map<String, Value> vars = new HashMap<>();
            int location = 0;
            for (String v : rule.variables()) {
                int n = bits.get(v);
                if (constants.containsKey(v)) {
                    vars.put(v, b.constant(n, constants.get(v)));
                    continue;
                }
                Variable u = s.addVariable(Variable.uniform("u_" + v, scalar(n), 0, location));
                Variable out = s.addVariable(Variable.output("v_" + v, scalar(n), ++location));
                Value x = shapes.get(v).make().make(b, b.loadUniform(u), n);
                b.storeOutput(out, x);
                vars.put(v, x);
            }
            Value root = RuleFiring.build(b, rule.pattern(), vars, sizes::of, rule.reassociating());
            b.storeOutput(o, root);
            return new Program(s, (AluInstr) root.parent());
        }

        /** Runs the program before and after the rewrite on the input sets; null when all is well. */
        String compare(Program before, Program after, Map<String, Shape> shapes, boolean firedOnce) {
            SoundnessChecker checker = new SoundnessChecker(SoundnessChecker.Settings.defaults());
            int rootBits = sizes.of(rule.pattern().sizeClass());
            int decided = 0;
            for (int set = 0; set < INPUT_SETS; set++) {
                ShaderInputs in = new ShaderInputs();
                Map<String, Long> given = new LinkedHashMap<>();
                for (String v : inputs) {
                    int n = bits.get(v);
                    TypeClass t = rule.varTypes().get(v);
                    List<Long> edges = Values.edges(t, n);
                    long x = (set % 2 == 0 ? edges.get(rnd.nextInt(edges.size())) : Values.random(rnd, t, n))
                            & Bits.mask(n);
                    given.put(v, x);
                    in.set("u_" + v, x);
                }
                ShaderOutputs was = new Interpreter(before.shader()).trackNans().run(in);
                ShaderOutputs is = new Interpreter(after.shader()).run(in);
                Map<String, Long> read = new LinkedHashMap<>(constants);
                for (String v : inputs) read.put(v, was.output("v_" + v)[0]);
                String where = " on uniforms " + given + " (the pattern read " + read + ", variables shaped as "
                        + shapeText(shapes) + ")";
                for (Condition c : rule.conditions()) {
                    String v = c.var().name();
                    if (!c.predicate().holds(read.get(v), bits.get(v), c.type(), c.bound())) {
                        return at() + " fired, but " + c.predicate().spelling() + "(" + v + ") is false" + where
                                + ": the range analysis granted a condition that does not hold\n"
                                + IrPrinter.print(before.shader());
                    }
                }
                RuleEvaluator.Outcome o = ev.evaluate(read, sizes);
                if (o.undecided() || o.patternPoison)
                    continue; // computed from open NaN bits, or poison under a flag: one outcome of many
                decided++;
                long p = was.output("o")[0], r = is.output("o")[0];
                if (p != o.pattern) {
                    return at() + ": the program computes " + Values.format(p, TypeClass.ANY, rootBits)
                            + " before the rewrite, but the op table gives "
                            + Values.format(o.pattern, TypeClass.ANY, rootBits) + " for the pattern" + where + "\n"
                            + IrPrinter.print(before.shader());
                }
                // A rule that fired again on its own replacement computes something else; the checks below still hold.
                boolean replacementDecided = o.replacementKind == RuleEvaluator.EXACT
                        || o.replacementKind == RuleEvaluator.OPEN && !(rootBits >= 16 && FloatBits.isNaN(r, rootBits));
                if (firedOnce && replacementDecided && r != o.replacement) {
                    return at() + ": the rewritten program computes " + Values.format(r, TypeClass.ANY, rootBits)
                            + ", but the op table gives "
                            + Values.format(o.replacement, TypeClass.ANY, rootBits) + " for the replacement" + where
                            + ": the matcher did not build what the rule says\nbefore:\n"
                            + IrPrinter.print(before.shader())
                            + "after:\n" + IrPrinter.print(after.shader());
                }
                if (rule.exact() && o.alternatives == null && rule.usedBits() == 0) {
                    ShaderOutputs.Comparison cmp = was.compareUnderNanContract(is);
                    if (cmp.kind() == ShaderOutputs.Comparison.Kind.BROKEN) {
                        return at() + " changed the program's outputs (" + cmp.detail() + ")" + where + "\nbefore:\n"
                                + IrPrinter.print(before.shader()) + "after:\n" + IrPrinter.print(after.shader());
                    }
                } else if (checker.refute(rule, sizes, read) != null) {
                    return at() + ": the rewritten program computes " + Values.format(r, TypeClass.ANY, rootBits)
                            + " where the pattern gave "
                            + Values.format(p, TypeClass.ANY, rootBits) + ", beyond an inexact rule's tolerance" + where
                            + "\nbefore:\n"
                            + IrPrinter.print(before.shader()) + "after:\n" + IrPrinter.print(after.shader());
                }
            }
            if (decided == 0)
                return at() + ": no input set gave the pattern a value the NaN contract decides\n"
                        + IrPrinter.print(before.shader());
            return null;
        }

        String shapeText(Map<String, Shape> shapes) {
            List<String> out = new ArrayList<>();
            for (String v : inputs) out.add(shapes.get(v).reading(v));
            return String.join(", ", out);
        }
    }
}
