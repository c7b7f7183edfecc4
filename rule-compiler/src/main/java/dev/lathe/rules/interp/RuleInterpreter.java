package dev.lathe.rules.interp;

import dev.lathe.ir.AluFlag;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AluOperand;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.rewrite.Match;
import dev.lathe.ir.rewrite.Rewriter;
import dev.lathe.ir.rewrite.RuleInfo;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.ir.rewrite.RuleSet;
import dev.lathe.rules.model.CheckedFile;
import dev.lathe.rules.model.CheckedRule;
import dev.lathe.rules.model.Condition;
import dev.lathe.rules.model.Node;
import dev.lathe.rules.model.ReplacementShape;
import dev.lathe.rules.model.SizeClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Runs checked rules directly from their trees: the reference the generated matchers are
 * tested against (they must make exactly the same rewrites), and slower by design.
 *
 * <p>Matching is a depth-first search over the pattern in preorder; a commutative op tries its
 * operands in written order first, then swapped — the order generated code nests its loops in,
 * so both find the same first match.
 */
public final class RuleInterpreter implements RuleSet {
    private final CheckedFile file;
    private final List<RuleInfo> infos = new ArrayList<>();
    private final Map<Op, List<Integer>> byRootOp = new HashMap<>();
    private final Map<String, RuleLiteral> literals = new HashMap<>();
    private final Map<Op, Integer> heights;
    /** Per rule, {@link ReplacementShape#firsts} of its replacement. */
    private final List<Map<Integer, Integer>> firstOfShape = new ArrayList<>();

    public RuleInterpreter(CheckedFile file) {
        this.file = file;
        this.heights = file.nodeHeights();
        for (int i = 0; i < file.rules().size(); i++) {
            CheckedRule r = file.rules().get(i);
            infos.add(new RuleInfo(
                    r.name(),
                    r.location(),
                    r.text(),
                    r.exact(),
                    RuleInfo.NOT_PROVED,
                    r.gates().stream()
                            .map(dev.lathe.rules.model.GateClause::key)
                            .toList()));
            byRootOp.computeIfAbsent(r.pattern().op(), k -> new ArrayList<>()).add(i);
            firstOfShape.add(ReplacementShape.firsts(r.replacement()));
        }
    }

    @Override
    public String passName() {
        return file.passName();
    }

    @Override
    public List<RuleInfo> rules() {
        return infos;
    }

    @Override
    public boolean usesFacts() {
        return file.usesFacts();
    }

    @Override
    public int nodeHeight(Op op) {
        return heights.getOrDefault(op, 0);
    }

    @Override
    public int rewrite(AluInstr root, Rewriter rw) {
        for (int i : byRootOp.getOrDefault(root.op(), List.of())) {
            if (rw.enabled(i) && new Attempt(file.rules().get(i), firstOfShape.get(i), rw).run(root)) return i;
        }
        return -1;
    }

    private RuleLiteral literal(String text) {
        return literals.computeIfAbsent(text, RuleLiteral::of);
    }

    /** A value seen through a view. */
    private record Bound(Value value, byte[] view) {}

    /** One try of one rule at one root. */
    private final class Attempt {
        final CheckedRule rule;
        final Rewriter rw;
        /** The replacement's op nodes by the first node of their shape ({@link ReplacementShape#firsts}). */
        final Map<Integer, Integer> firsts;

        final Map<String, Bound> vars = new HashMap<>();
        final int[] sizes;
        final List<AluInstr> matched = new ArrayList<>();

        Attempt(CheckedRule rule, Map<Integer, Integer> firsts, Rewriter rw) {
            this.rule = rule;
            this.firsts = firsts;
            this.rw = rw;
            this.sizes = new int[rule.classes().size()];
        }

        boolean run(AluInstr root) {
            if (!setSize(rule.pattern().sizeClass(), root.def().bitSize())) return false;
            // a horizontal op read at the root's width bounds the width
            int most = rule.maxRootComponents();
            if (most > 0 && root.def().numComponents() > most) return false;
            return matchOp(rule.pattern(), root, rw.rootView(), this::finish);
        }

        private boolean match(Node n, Value v, byte[] view, BooleanSupplier k) {
            int[] saved = sizes.clone();
            if (!setSize(n.sizeClass(), v.bitSize())) return false;
            boolean ok;
            if (n instanceof Node.OpNode op) {
                AluInstr i = Match.alu(v, op.op());
                ok = i != null && horizontalView(op, view) && matchOp(op, i, view, k);
            } else if (n instanceof Node.VarNode var) {
                Bound b = vars.get(var.name());
                if (b != null) {
                    ok = Match.same(b.value(), b.view(), v, view) && k.getAsBoolean();
                } else if (var.constOnly() && !Match.isConstant(v)) {
                    ok = false;
                } else {
                    vars.put(var.name(), new Bound(v, view));
                    ok = k.getAsBoolean();
                    if (!ok) vars.remove(var.name());
                }
            } else {
                Node.ConstNode c = (Node.ConstNode) n;
                ok = Match.isLiteral(v, view, literal(c.text()), c.asFloat()) && k.getAsBoolean();
            }
            if (!ok) System.arraycopy(saved, 0, sizes, 0, sizes.length);
            return ok;
        }

        /** A horizontal op's result is matched read in order, or at its swizzle's components. */
        private boolean horizontalView(Node.OpNode op, byte[] view) {
            if (!op.op().isHorizontal()) return true;
            if (op.swizzle().isEmpty()) return Match.isIdentity(view);
            return Match.viewIs(view, ints(op.swizzle()));
        }

        private static int[] ints(String swizzle) {
            byte[] b = Node.swizzleComponents(swizzle);
            int[] out = new int[b.length];
            for (int c = 0; c < b.length; c++) out[c] = b[c];
            return out;
        }

        private boolean matchOp(Node.OpNode op, AluInstr i, byte[] view, BooleanSupplier k) {
            if (op.once() && !Match.hasOneUse(i.def())) return false;
            if (!i.flags().containsAll(op.flags())) return false;
            for (var u : op.uses()) if (!u.holds(i.def())) return false;
            if (rule.reassociating() && AluFlag.REASSOC.appliesTo(i.op()) && !i.has(AluFlag.REASSOC)) return false;
            if (op.opClass() >= 0 && !setSize(op.opClass(), i.unsizedBitSize())) return false;
            matched.add(i);
            int tries = op.op().isCommutative() ? 2 : 1;
            for (int s = 0; s < tries; s++) {
                int swap = s;
                if (children(op, i, view, 0, swap, k)) return true;
            }
            matched.remove(matched.size() - 1);
            return false;
        }

        /** Matches pattern operand {@code j} and the ones after it; a swap exchanges sources 0 and 1. */
        private boolean children(Node.OpNode op, AluInstr i, byte[] view, int j, int swap, BooleanSupplier k) {
            if (j == op.srcs().size()) return k.getAsBoolean();
            int srcIndex = swap == 1 && j < 2 ? 1 - j : j;
            var src = i.src(srcIndex);
            // a horizontal op reads a fixed count of each operand, whatever the root's view of it
            byte[] outer =
                    op.op().isHorizontal() ? Match.identity(op.op().input(j).components()) : view;
            return match(
                    op.srcs().get(j), src.value(), Match.view(src, outer), () -> children(op, i, view, j + 1, swap, k));
        }

        private boolean setSize(int cls, int bits) {
            SizeClass c = rule.sizeClass(cls);
            if (c.isFixed() && c.fixed() != bits) return false;
            if (sizes[cls] == 0) {
                sizes[cls] = bits;
                return true;
            }
            return sizes[cls] == bits;
        }

        /** Everything matched: check what remains, then build the replacement. */
        private boolean finish() {
            for (SizeClass c : rule.classes()) {
                int s = size(c.id());
                if (s != 0 && (Bits.sizeFlag(s) & c.legal()) == 0) return false;
            }
            for (Condition cond : rule.conditions()) {
                Bound b = vars.get(cond.var().name());
                if (!rw.test(cond.predicate(), b.value(), b.view(), cond.type(), cond.bound())) return false;
            }
            if (rule.usedBits() != 0 && !Match.onlyLowBitsUsed(rw.root().def(), rule.usedBits())) return false;
            if (!rule.exact() && !rw.inexactAllowed(matched.toArray(new AluInstr[0]))) return false;
            if (!replacementLiteralsFit(rule.replacement())) return false;
            Node r = rule.replacement();
            if (r instanceof Node.VarNode v) {
                Bound b = vars.get(v.name());
                rw.replace(b.value(), v.swizzle().isEmpty() ? b.view() : Match.compose(b.view(), ints(v.swizzle())));
            } else {
                built.clear();
                Value value = value(r);
                rw.replace(
                        value,
                        r instanceof Node.OpNode ro && !ro.swizzle().isEmpty()
                                ? Node.swizzleComponents(ro.swizzle())
                                : rw.rootView());
            }
            return true;
        }

        /** The replacement's subtrees built so far, by the first node of their shape: each shape is built once. */
        private final Map<Integer, Value> built = new HashMap<>();

        private int size(int cls) {
            SizeClass c = rule.sizeClass(cls);
            return c.isFixed() ? c.fixed() : sizes[cls];
        }

        private boolean replacementLiteralsFit(Node n) {
            if (n instanceof Node.ConstNode c) return literal(c.text()).fits(size(c.sizeClass()), c.asFloat());
            if (n instanceof Node.OpNode op) {
                for (Node s : op.srcs()) {
                    if (!replacementLiteralsFit(s)) return false;
                }
            }
            return true;
        }

        /** A replacement node as a new value (instructions are built before the root). */
        private Value value(Node n) {
            if (n instanceof Node.ConstNode c) {
                return c.components() > 0
                        ? rw.literal(literal(c.text()), size(c.sizeClass()), c.asFloat(), c.components())
                        : rw.literal(literal(c.text()), size(c.sizeClass()), c.asFloat());
            }
            Node.OpNode op = (Node.OpNode) n;
            if (op.constant()) return rw.constant(size(op.sizeClass()), fold(op));
            AluOperand[] srcs = new AluOperand[op.srcs().size()];
            for (int j = 0; j < srcs.length; j++) {
                Node s = op.srcs().get(j);
                if (s instanceof Node.VarNode v) {
                    Bound b = vars.get(v.name());
                    srcs[j] = rw.operand(
                            b.value(), v.swizzle().isEmpty() ? b.view() : Match.compose(b.view(), ints(v.swizzle())));
                } else {
                    int first = firsts.get(s.id());
                    Value v = built.get(first);
                    if (v == null) {
                        v = value(s);
                        built.put(first, v);
                    }
                    // a horizontal op's result: read in order at the operand's count, or at its swizzle
                    if (s instanceof Node.OpNode so && so.op().isHorizontal()) {
                        srcs[j] =
                                so.swizzle().isEmpty() ? rw.prefix(v, so.components()) : rw.part(v, ints(so.swizzle()));
                    } else {
                        srcs[j] = v;
                    }
                }
            }
            int comps = op.op().isHorizontal() ? op.op().output().components() : op.components();
            Value v = rw.op(op.op(), size(op.sizeClass()), comps, srcs);
            return op.builtExact() ? rw.exact(v) : v;
        }

        /** A constant expression's components, folded with the op table. */
        private long[] fold(Node n) {
            if (n instanceof Node.ConstNode c)
                return rw.literalComponents(literal(c.text()), size(c.sizeClass()), c.asFloat());
            if (n instanceof Node.VarNode v) {
                Bound b = vars.get(v.name());
                return Match.constants(b.value(), b.view());
            }
            Node.OpNode op = (Node.OpNode) n;
            long[][] srcs = new long[op.srcs().size()][];
            for (int j = 0; j < srcs.length; j++) srcs[j] = fold(op.srcs().get(j));
            return rw.fold(op.op(), op.opClass() < 0 ? 0 : size(op.opClass()), srcs);
        }
    }
}
