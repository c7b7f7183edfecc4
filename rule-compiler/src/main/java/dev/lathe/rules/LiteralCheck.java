package dev.lathe.rules;

import static dev.lathe.rules.CheckText.article;
import static dev.lathe.rules.CheckText.isFloat;

import dev.lathe.ir.op.Bits;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.ir.rewrite.RuleLiteral;
import dev.lathe.rules.ProtoTree.PLit;
import dev.lathe.rules.ast.Ast;
import java.math.BigInteger;
import java.util.List;

/** The phase that checks the rule's literals, once their sizes and readings are known. */
final class LiteralCheck {
    private final RuleContext ctx;
    private final List<PLit> lits;
    private final SizeClasses sizes;

    LiteralCheck(RuleContext ctx) {
        this.ctx = ctx;
        this.lits = ctx.lits;
        this.sizes = ctx.sizes;
    }

    private void error(Ast.Pos pos, String message) {
        ctx.error(pos, message);
    }

    /**
     * Checks every literal against how it is read and the sizes it may have: a float spelling
     * where an integer is read, a boolean where the operand cannot be 1 bit, a value that fits
     * no size the operand may have, a decimal above the signed range where the sign matters.
     */
    void check() {
        for (PLit l : lits) {
            if (l.cls < 0) continue;
            // 1@f32 where iadd reads an integer: the annotation says one thing, the op another
            if (l.annType != null
                    && l.context != null
                    && l.context != TypeClass.ANY
                    && l.annType != TypeClass.ANY
                    && l.annType != TypeClass.BOOL
                    && l.context != TypeClass.BOOL
                    && isFloat(l.annType) != isFloat(l.context)) {
                error(
                        l.annPos != null ? l.annPos : l.pos,
                        l.text + " is annotated as " + article(l.annType) + ", but "
                                + (l.consumer != null ? l.consumer.opName() : "the op reading it") + " reads it as "
                                + (isFloat(l.context) ? "a float" : "an integer"));
                continue;
            }
            TypeClass read = l.annType != null ? l.annType : l.context;
            // true/false are 1-bit values: fine wherever the operand can be 1 bit (the integer
            // ops that double as boolean ops), wrong where it cannot (floats, 8-bit and wider).
            if (l.bool()
                    && read != null
                    && read != TypeClass.BOOL
                    && read != TypeClass.ANY
                    && (sizes.legal(l.cls) & Bits.sizeFlag(1)) == 0) {
                int size = sizes.fixed(l.cls);
                error(
                        l.pos,
                        l.text + " is a 1-bit boolean, but this operand is " + read.spelling()
                                + (read == TypeClass.FLOAT
                                        ? ""
                                        : size != 0 ? " of " + size + " bits" : " of 8 bits or more"));
                continue;
            }
            if (l.floatSpelling() && read == TypeClass.BOOL) {
                error(l.pos, "float literal " + l.text + " where a 1-bit boolean is expected: write true or false");
                continue;
            }
            if (l.floatSpelling() && (read == TypeClass.INT || read == TypeClass.UINT)) {
                error(l.pos, "float literal " + l.text + " where an integer is expected");
                continue;
            }
            boolean asFloat =
                    read == TypeClass.FLOAT || (read != TypeClass.INT && read != TypeClass.UINT && l.floatSpelling());
            String digits = l.text.startsWith("-") ? l.text.substring(1) : l.text;
            if (l.kind == Ast.LitKind.INT && digits.matches("0[0-9]+")) {
                ctx.warning(
                        l.pos,
                        l.text + " is read as decimal " + (l.text.startsWith("-") ? "-" : "")
                                + digits.replaceFirst("^0+(?=.)", "") + " (there is no octal); drop the leading zero");
            }
            if (asFloat && l.kind == Ast.LitKind.INT && digits.matches("0+") && l.text.startsWith("-")) {
                ctx.warning(
                        l.pos, l.text + " is the integer 0, which is +0.0 as a float: write -0.0 for negative zero");
            }
            RuleLiteral lit = RuleLiteral.of(l.text);
            int r = sizes.find(l.cls);
            int f = sizes.fixed(r);
            if (!asFloat && readsSigned(l) && aboveSignedRange(l, lit, r)) continue;
            if (f != 0) {
                if (!lit.fits(f, asFloat)) {
                    String why = asFloat ? lit.floatProblem(f) : null;
                    if (f == 1 && !asFloat) {
                        error(l.pos, l.text + " is not a 1-bit value: write true or false");
                    } else {
                        error(
                                l.pos,
                                l.text + " does not fit in " + f + " bits" + (asFloat ? " as a float" : "")
                                        + (why == null ? "" : " (it " + why + ")"));
                    }
                }
            } else {
                if (Bits.sizesIn(sizes.legal(r)).stream().noneMatch(size -> lit.fits(size, asFloat))) {
                    String why = asFloat ? lit.floatProblem(64) : null;
                    error(
                            l.pos,
                            l.text + " does not fit any bit size this operand may have"
                                    + (why == null ? "" : " (at 64 bits it " + why + ")"));
                }
            }
        }
    }

    /**
     * Whether the literal is a decimal integer that an op reads as signed where the sign
     * matters (a comparison, min/max, division, a right shift's value …). There, 128 at 8
     * bits is -128: a literal above the signed range would silently mean a negative number.
     * ({@link Op#isSignBlind} ops such as iadd and ieq see the same bits either way; hex is
     * raw bits.)
     */
    private static boolean readsSigned(PLit l) {
        return l.consumer != null
                && l.kind == Ast.LitKind.INT
                && !l.consumer.isSignBlind()
                && l.consumer.input(l.operand).typeClass() == TypeClass.INT;
    }

    /** Reports (and returns true) when a signed-read literal is above the signed range at a size it may have. */
    private boolean aboveSignedRange(PLit l, RuleLiteral lit, int cls) {
        BigInteger value = new BigInteger(l.text);
        int f = sizes.fixed(cls);
        for (int size : new int[] {8, 16, 32, 64}) {
            boolean possible = f != 0 ? f == size : (sizes.legal(cls) & Bits.sizeFlag(size)) != 0;
            if (!possible || !lit.fits(size, false)) continue;
            if (value.compareTo(BigInteger.ONE.shiftLeft(size - 1)) >= 0) {
                long wrapped = Bits.sext(value.longValue(), size);
                error(
                        l.pos,
                        l.text + " is above the signed " + size + "-bit range: " + l.consumer.opName()
                                + " would read it as "
                                + wrapped
                                + (f != 0
                                        ? ""
                                        : "; fix the size, as in @32, or write the value " + l.consumer.opName()
                                                + " should see"));
                return true;
            }
        }
        return false;
    }
}
