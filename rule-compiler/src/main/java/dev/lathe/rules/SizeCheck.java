package dev.lathe.rules;

import static dev.lathe.rules.CheckText.at;
import static dev.lathe.rules.CheckText.bits;
import static dev.lathe.rules.CheckText.sizesText;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.OperandType;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.ProtoTree.P;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ProtoTree.POp;
import dev.lathe.rules.ProtoTree.PVar;
import dev.lathe.rules.ProtoTree.VarInfo;
import dev.lathe.rules.ast.Ast;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The phase that works out bit sizes over the whole rule ({@link SizeClasses}): the operands an
 * op requires to share a size, every occurrence of a variable, the pattern's and the
 * replacement's results, and the sizes annotations fix, are tied into classes, each keeping the
 * sizes every op on it allows. A class with two fixed sizes, or with no size left, is an error;
 * so is a replacement value whose size nothing in the pattern decides.
 */
final class SizeCheck {
    private final RuleContext ctx;
    private final Map<String, VarInfo> vars;
    private final List<POp> ops;
    private final SizeClasses sizes;
    /** Ops already reported for their size, and classes reported as having no size at all, or none the pattern decides. */
    private final Set<POp> sizeReported = new HashSet<>();

    private final Set<Integer> reportedEmpty = new HashSet<>();
    private final Set<Integer> undecidableReported = new HashSet<>();

    SizeCheck(RuleContext ctx) {
        this.ctx = ctx;
        this.vars = ctx.vars;
        this.ops = ctx.ops;
        this.sizes = ctx.sizes;
    }

    private void error(Ast.Pos pos, String message) {
        ctx.error(pos, message);
    }

    /** Ties the sizes of {@code a} and {@code b}; two different fixed sizes are a mismatch, said once a class. */
    void unify(int a, int b, Ast.Pos pos, String why) {
        int ra = sizes.find(a), rb = sizes.find(b);
        if (ra == rb) return;
        int fa = sizes.fixed(ra), fb = sizes.fixed(rb);
        boolean conflict = false;
        if (fa != 0 && fb != 0 && fa != fb && !sizes.conflicted(ra) && !sizes.conflicted(rb)) {
            // A side whose size is the requirement itself (operand 2 of ldexp is 32 bits) is not
            // named again: "must be 32 bits, but it is 64 bits (@64 at 4:14)".
            if (sameFact(why, ra)) {
                error(pos, "bit-size mismatch: " + why + ", but it is " + bits(fb) + because(rb));
            } else if (sameFact(why, rb)) {
                error(pos, "bit-size mismatch: " + why + ", but it is " + bits(fa) + because(ra));
            } else {
                error(
                        pos,
                        "bit-size mismatch: " + why + ", but one side is " + bits(fa) + because(ra) + " and the other "
                                + bits(fb) + because(rb));
            }
            conflict = true;
        }
        // Merged even after a mismatch, so that what else ties the two sides (the
        // replacement, another use of the same variables) does not report it again.
        sizes.union(ra, rb, conflict);
    }

    void assign(P p, boolean pattern) {
        if (p instanceof POp o) {
            for (P s : o.srcs) assign(s, pattern);
            Op op = o.op;
            if (op.hasUnsizedOperands()) {
                o.opCls = sizes.add(
                        o.opSize,
                        op.legalBitSizes(),
                        pattern,
                        o.opSize == 0 ? null : op.opName() + "@" + o.opSize + " at " + at(o.pos));
                if (o.opSize != 0 && !op.isLegalBitSize(o.opSize) && sizeReported.add(o)) {
                    error(
                            o.pos,
                            op.opName() + " does not work on " + o.opSize + "-bit values (legal: "
                                    + op.legalBitSizeList() + ")");
                }
            }
            OperandType out = op.output();
            o.cls = out.isSized()
                    ? sizes.add(
                            out.bitSize(),
                            Bits.sizeFlag(out.bitSize()),
                            pattern,
                            op.opName() + " gives " + bits(out.bitSize()))
                    : o.opCls;
            for (int i = 0; i < o.srcs.size(); i++) {
                OperandType in = op.input(i);
                int want = in.isSized()
                        ? sizes.add(
                                in.bitSize(),
                                Bits.sizeFlag(in.bitSize()),
                                pattern,
                                "operand " + (i + 1) + " of " + op.opName() + " is " + bits(in.bitSize()))
                        : o.opCls;
                P s = o.srcs.get(i);
                if (s instanceof PLit lit) {
                    lit.consumer = op;
                    lit.operand = i;
                }
                // fadd(a, flt(b, c)): said at the comparison, with the conversion that was meant
                if (s instanceof POp so
                        && so.op != null
                        && so.op.output().isSized()
                        && so.op.output().bitSize() == 1
                        && so.op.output().typeClass() == TypeClass.BOOL
                        && !in.isSized()
                        && (in.typeClass() == TypeClass.FLOAT
                                || in.typeClass() == TypeClass.INT
                                || in.typeClass() == TypeClass.UINT)
                        && (op.legalBitSizes() & Bits.sizeFlag(1)) == 0
                        && sizeReported.add(o)) {
                    boolean fl = in.typeClass() == TypeClass.FLOAT;
                    boolean toBool = op.output().isSized() && op.output().bitSize() == 1;
                    error(
                            so.pos,
                            so.op.opName() + " gives a 1-bit boolean, but " + op.opName() + " reads "
                                    + (fl ? "a float" : "an integer")
                                    + " of " + sizesText(op.legalBitSizes())
                                    + (toBool
                                            ? ": the boolean needs no " + op.opName()
                                            : ": convert it with " + (fl ? "b2f32" : "b2i32") + "(…)"));
                    continue;
                }
                unify(
                        want,
                        s.cls,
                        s.pos,
                        "operand " + (i + 1) + " of " + op.opName() + " must be "
                                + (in.isSized() ? bits(in.bitSize()) : "the size of its other operands"));
            }
            // After the operand: '!' on a 32-bit value is reported at the '!', as a misused '!'.
            if ("unary!".equals(o.infix)) {
                unify(
                        sizes.add(1, Bits.sizeFlag(1), pattern, "'!' is boolean not"),
                        o.opCls,
                        o.pos,
                        "'!' must be on a 1-bit value (use '~' for the bits of an integer)");
            }
        } else if (p instanceof PVar v) {
            VarInfo info = vars.get(v.name);
            if (info.cls < 0) info.cls = sizes.add(0, SizeClasses.ANY_SIZE, pattern, null);
            p.cls = info.cls;
        } else {
            p.cls = sizes.add(0, SizeClasses.ANY_SIZE, pattern, null);
        }
        if (p.outSize != 0) {
            int f = sizes.add(
                    p.outSize,
                    Bits.sizeFlag(p.outSize),
                    pattern,
                    "@" + p.outSize + " at "
                            + at(
                                    p instanceof POp && p.outSizePos != null
                                            ? p.outSizePos
                                            : p.pos)); // an op's start may be far from its @
            unify(f, p.cls, p.pos, "the annotation asks for " + p.outSize + " bits");
        }
    }

    /** Whether class {@code root} is fixed by the very requirement {@code why} states. */
    private boolean sameFact(String why, int root) {
        String w = sizes.fixedWhy(root);
        if (w != null && w.startsWith("@") && why.startsWith("the annotation asks for")) return true; // a@32 itself
        return w != null && w.contains(" is ") && why.startsWith(w.replaceFirst(" is .*", " must be"));
    }

    private String because(int root) {
        String why = sizes.fixedWhy(root);
        return why == null ? "" : " (" + why + ")";
    }

    /**
     * Whether the pattern's and the replacement's results can have a size in common. When
     * both are fixed, unify reports the mismatch; when a side is a set of sizes (fadd: 16 to
     * 64 bits) that the other misses (flt gives 1 bit), it is said here once, as a mismatch of
     * the two results, rather than as every op of the merged class having no size left.
     */
    boolean sizesMeet(int patternCls, int replacementCls, Ast.Pos pos) {
        int rp = sizes.find(patternCls), rr = sizes.find(replacementCls);
        int fp = sizes.fixed(rp), fr = sizes.fixed(rr);
        if (fp != 0 && fr != 0) return true;
        int sp = fp != 0 ? Bits.sizeFlag(fp) : sizes.legal(rp), sr = fr != 0 ? Bits.sizeFlag(fr) : sizes.legal(rr);
        if ((sp & sr) != 0) return true;
        error(
                pos,
                "bit-size mismatch: the replacement must have the bit size of the pattern, but the pattern's result is "
                        + sizeSet(rp) + " and the replacement's " + sizeSet(rr));
        return false;
    }

    private String sizeSet(int root) {
        if (sizes.fixed(root) != 0) return bits(sizes.fixed(root)) + because(root);
        return sizesText(sizes.legal(root));
    }

    void checkClasses() {
        for (POp o : ops) {
            if (o.opCls < 0 || sizeReported.contains(o)) continue;
            int r = sizes.find(o.opCls);
            int f = sizes.fixed(r);
            if (sizes.conflicted(r)) continue;
            if (f != 0 && !o.op.isLegalBitSize(f)) {
                String why = sizes.fixedWhy(r);
                error(
                        o.pos,
                        o.op.opName() + " does not work on " + f + "-bit values (legal: " + o.op.legalBitSizeList()
                                + ")" + (why == null ? "" : ": " + why));
                sizeReported.add(o);
            } else if (f == 0 && sizes.legal(r) == 0 && reportedEmpty.add(r)) {
                sizeReported.add(o);
                error(
                        o.pos,
                        "no bit size works for every op on this value (" + o.op.opName() + " needs "
                                + o.op.legalBitSizeList() + ")");
            }
        }
    }

    /** Every class used by the replacement must be fixed or have a member in the pattern. */
    void checkReplacementSizes(P replacement) {
        ArrayDeque<P> work = new ArrayDeque<>(List.of(replacement));
        while (!work.isEmpty()) {
            P p = work.removeFirst();
            if (p instanceof POp o) {
                work.addAll(o.srcs);
                if (o.opCls >= 0) requireDecidable(o.opCls, o.pos, o.op.opName());
            } else if (p instanceof PLit l) {
                requireDecidable(l.cls, l.pos, "literal " + l.text);
            }
        }
    }

    private void requireDecidable(int cls, Ast.Pos pos, String what) {
        int r = sizes.find(cls);
        if (sizes.fixed(r) == 0 && !sizes.inPattern(r) && undecidableReported.add(r)) {
            error(
                    pos,
                    "cannot tell the bit size of " + what + " in the replacement: nothing in the pattern has it; "
                            + "tie it to a pattern value or write a size, as in " + what.replace("literal ", "")
                            + "@32");
        }
    }
}
