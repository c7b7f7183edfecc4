package dev.lathe.ir.rewrite;

import dev.lathe.ir.AluFlags;
import dev.lathe.ir.AluInstr;
import dev.lathe.ir.AluOperand;
import dev.lathe.ir.Function;
import dev.lathe.ir.Instr;
import dev.lathe.ir.LoadConstInstr;
import dev.lathe.ir.Src;
import dev.lathe.ir.Swizzled;
import dev.lathe.ir.Value;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a rule needs while it fires: builds the replacement right before the matched root
 * (every new instruction has the root's component count and inherits its exact flag), folds
 * constant expressions with the op table, and finally points the root's uses at the result.
 * One instance serves a whole pass; {@link #begin} starts each match attempt.
 */
public final class Rewriter {
    private final Function fn;
    private final ValueFacts facts;
    private AluInstr root;
    private final List<Instr> created = new ArrayList<>();
    private final List<Instr> moved = new ArrayList<>();
    private Value result;
    private final java.util.BitSet disabled;

    public Rewriter(Function fn) {
        this(fn, ValueFacts.NONE);
    }

    public Rewriter(Function fn, ValueFacts facts) {
        this(fn, facts, new java.util.BitSet());
    }

    /** With the rules numbered in {@code disabled} never applied ({@code --disable-rules}). */
    public Rewriter(Function fn, ValueFacts facts, java.util.BitSet disabled) {
        this.fn = fn;
        this.facts = facts;
        this.disabled = disabled;
    }

    /** Whether rule number {@code rule} of the rule set may fire (a rule set tries only those). */
    public boolean enabled(int rule) {
        return !disabled.get(rule);
    }

    /** Whether a rule condition with a literal ({@code ult_const(a, 256)}) holds for a bound variable. */
    public boolean test(Predicate p, Value v, byte[] view, TypeClass type, long bound) {
        return Predicates.test(p, v, view, type, bound, facts, root);
    }

    /** Whether a rule condition without a literal ({@code is_gt_zero(a)}) holds for a bound variable. */
    public boolean test(Predicate p, Value v, byte[] view, TypeClass type) {
        return Predicates.test(p, v, view, type, 0, facts, root);
    }

    /** Starts matching at {@code root}. */
    public void begin(AluInstr root) {
        this.root = root;
        this.created.clear();
        this.moved.clear();
        this.result = null;
    }

    public AluInstr root() {
        return root;
    }

    /** The root's identity view. */
    public byte[] rootView() {
        return Match.identity(root.def().numComponents());
    }

    /** False when an inexact ({@code ~=>}) rule would touch an instruction marked exact. */
    public boolean inexactAllowed(AluInstr... matched) {
        for (AluInstr a : matched) {
            if (a.isExact()) return false;
        }
        return true;
    }

    /**
     * {@code flt[exact](…)}: marks an instruction this rewrite built exact (no inexact rule may
     * touch it later); a value it did not build (folded to a constant, or found) is left alone.
     */
    public Value exact(Value v) {
        if (v.parent() instanceof AluInstr a && created.contains(a)) a.setExact(true);
        return v;
    }

    /** A bound variable as an operand of a replacement op. */
    public AluOperand operand(Value v, byte[] view) {
        return new Swizzled(v, view);
    }

    /** A new ALU instruction of the root's width, before the root. */
    public Value op(Op op, int bits, AluOperand... srcs) {
        return op(op, bits, 0, srcs);
    }

    /**
     * A new ALU instruction of {@code comps} components (0: the root's width) before the root: a
     * horizontal op has its result's count, a per-component op under one the count it is read at.
     */
    public Value op(Op op, int bits, int comps, AluOperand... srcs) {
        if (comps == 0) comps = root.def().numComponents();
        Value[] vals = new Value[srcs.length];
        byte[][] swz = new byte[srcs.length][];
        for (int i = 0; i < srcs.length; i++) {
            vals[i] = srcs[i].value();
            byte[] s = srcs[i].swizzle();
            swz[i] = s != null ? s : Match.identity(op.inputComponents(i, comps));
        }
        AluInstr i = new AluInstr(fn, op, comps, bits, vals, swz);
        // As NIR does: new instructions take the root's exact mark and float controls (what the
        // author allowed for the value they compute), never its wrap flags (nsw/nuw speak of one
        // operation's operands).
        i.setExact(root.isExact());
        i.setFlags(root.flags().intersect(AluFlags.FLOAT_CONTROLS).applicableTo(op));
        i.insertBefore(root);
        created.add(i);
        return i.def();
    }

    /** A literal splatted to the root's width. */
    public Value literal(RuleLiteral lit, int bits, boolean asFloat) {
        long[] comps = new long[root.def().numComponents()];
        Arrays.fill(comps, lit.bits(bits, asFloat));
        return constant(bits, comps);
    }

    /** A literal splatted to {@code comps} components (an operand of a horizontal op). */
    public Value literal(RuleLiteral lit, int bits, boolean asFloat, int comps) {
        long[] values = new long[comps];
        Arrays.fill(values, lit.bits(bits, asFloat));
        return constant(bits, values);
    }

    /**
     * A built value read at its first {@code n} components (0: the root's width): a horizontal
     * op's result read whole or in order, as the pattern's were matched.
     */
    public AluOperand prefix(Value v, int n) {
        return new Swizzled(v, Match.identity(n == 0 ? root.def().numComponents() : n));
    }

    /** A built value read at the given components ({@code unpack_64_2x32(a).y}). */
    public AluOperand part(Value v, int... comps) {
        byte[] s = new byte[comps.length];
        for (int c = 0; c < comps.length; c++) s[c] = (byte) comps[c];
        return new Swizzled(v, s);
    }

    /** The bits of a literal at the root's width (for constant folding). */
    public long[] literalComponents(RuleLiteral lit, int bits, boolean asFloat) {
        long[] comps = new long[root.def().numComponents()];
        Arrays.fill(comps, lit.bits(bits, asFloat));
        return comps;
    }

    /** A constant with one value per component. */
    public Value constant(int bits, long[] comps) {
        LoadConstInstr c = new LoadConstInstr(fn, bits, comps);
        c.insertBefore(root);
        created.add(c);
        return c.def();
    }

    /** Folds a constant expression per component with the op table. */
    public long[] fold(Op op, int unsizedBits, long[]... srcs) {
        return op.evaluate(unsizedBits, root.def().numComponents(), srcs);
    }

    /**
     * Replaces the root's value by {@code v} seen through {@code view}: directly when that is
     * the whole value, else through a {@code mov} that copy_prop removes later.
     */
    public void replace(Value v, byte[] view) {
        Value d = root.def();
        Value r = v;
        if (v.numComponents() != d.numComponents() || view != Match.identity(view.length) && !isIdentity(view)) {
            r = op(Op.MOV, d.bitSize(), new Swizzled(v, view));
        }
        result = r;
        for (Src u = d.firstUse(); u != null; u = u.nextUse()) {
            if (u.instr() != null) moved.add(u.instr());
        }
        d.replaceAllUsesWith(r);
    }

    private static boolean isIdentity(byte[] view) {
        for (int i = 0; i < view.length; i++) {
            if (view[i] != i) return false;
        }
        return true;
    }

    /** The instructions the last rule created (the driver revisits them). */
    public List<Instr> created() {
        return created;
    }

    /** The instructions that used the root and now use the result (the driver revisits them). */
    public List<Instr> moved() {
        return moved;
    }

    /** The value that replaced the root, or null if nothing fired. */
    public Value result() {
        return result;
    }
}
