package dev.lathe.rules.soundness;

import dev.lathe.ir.op.FloatBits;
import dev.lathe.ir.op.Op;
import dev.lathe.ir.op.TypeClass;
import dev.lathe.rules.model.CheckedRule;
import java.util.ArrayList;
import java.util.List;

/**
 * A refuted rule read under NIR's own semantics, as the op table states them: the ops
 * nir_opcodes.py defines otherwise evaluated its way ({@link Op#evaluateAsNir}), a pattern whose
 * result NIR leaves undefined ({@link Op#nirUndefined}: a float conversion out of range, a
 * bitfield past the top bit, an operand outside an op's stated domain) or that reads an op at a
 * size NIR lacks taken to allow anything, and any two NaNs alike (NIR keeps no NaN's bits;
 * Lathe's NaN contract keeps them through moves, {@code fneg} and {@code fabs}).
 *
 * <p>The counterexample is run again that way. If the two sides still differ the rule is wrong
 * in NIR ({@link Kind#WRONG_IN_NIR}, said with what differs: a zero's sign, a NaN, an infinity or
 * a value). If they agree, the rule is checked again under NIR's semantics (sampling, as the
 * checker does): another input on which it is wrong makes it wrong in NIR too; none makes it
 * wrong only under Lathe's reading ({@link Kind#DIFFERS_FROM_LATHE}, said with which part).
 *
 * @param kind   the class
 * @param detail what differs (for a rule wrong in NIR, with NIR's values), or which of Lathe's
 *               semantics makes the difference
 */
public record NirReading(Kind kind, String detail) {
    public enum Kind {
        WRONG_IN_NIR,
        DIFFERS_FROM_LATHE
    }

    /** The line's words: {@code wrong in NIR: the sign of a zero …}. */
    public String text() {
        return kind == Kind.WRONG_IN_NIR ? "wrong in NIR: " + detail : "differs from Lathe's semantics: " + detail;
    }

    /** A short tag for tables ({@code wrong-in-nir}, {@code differs-from-lathe}). */
    public String tag() {
        return kind == Kind.WRONG_IN_NIR ? "wrong-in-nir" : "differs-from-lathe";
    }

    /** {@link #of(CheckedRule, Verdict, SoundnessChecker.Settings)} with the checker's default settings. */
    public static NirReading of(CheckedRule rule, Verdict verdict) {
        return of(rule, verdict, SoundnessChecker.Settings.defaults());
    }

    /**
     * The refutation of an exact rule read under NIR's semantics; null for a rule that is not
     * exact (reassociation and inexact rules are judged otherwise) or a verdict with no
     * counterexample. {@code settings} are the sampling's, should the counterexample not stand.
     */
    public static NirReading of(CheckedRule rule, Verdict verdict, SoundnessChecker.Settings settings) {
        if (verdict == null || verdict.counterexample() == null || !rule.exact() || rule.approximate()) return null;
        RuleEvaluator nir = new RuleEvaluator(rule, true);
        String wrong = wrongAt(rule, verdict.counterexample(), nir);
        if (wrong != null) return new NirReading(Kind.WRONG_IN_NIR, wrong);
        // the first that applies is the whole story: a pattern NIR cannot have, or one undefined
        // there, allows anything; then NIR's own definitions; then NaN bits
        List<String> which = new ArrayList<>();
        if (!nir.nirAbsent.isEmpty())
            which.add("NIR has no " + String.join(", ", nir.nirAbsent)
                    + ": nir_opcodes.py defines the op at fewer sizes than Lathe's op table");
        if (which.isEmpty()) for (String u : nir.nirUndefined) which.add("the pattern reads " + u);
        if (which.isEmpty()) for (Op op : nir.nirChanged) which.add(op.nirDifference());
        if (which.isEmpty())
            which.add("a NaN's bits: NIR treats every NaN alike, where Lathe's NaN contract keeps the bits a pattern"
                    + " moves (through fneg, fabs, vecN, bcsel) and asks the replacement to keep them");
        // the counterexample does not stand in NIR: is there one that does?
        Verdict again = new SoundnessChecker(settings, true).check(rule);
        if (again.kind() == Verdict.Kind.UNSOUND && again.counterexample() != null) {
            String other = wrongAt(rule, again.counterexample(), new RuleEvaluator(rule, true));
            if (other != null)
                return new NirReading(
                        Kind.WRONG_IN_NIR,
                        other + "; Lathe's counterexample differs only by " + String.join("; ", which));
        }
        return new NirReading(Kind.DIFFERS_FROM_LATHE, String.join("; ", which));
    }

    /** What differs at a counterexample under NIR's semantics, or null where the sides agree there. */
    private static String wrongAt(CheckedRule rule, Verdict.Counterexample cex, RuleEvaluator nir) {
        RuleEvaluator.Sizes sizes = new RuleEvaluator.Sizes(
                cex.classSizes().stream().mapToInt(Integer::intValue).toArray());
        int n = sizes.of(rule.pattern().sizeClass());
        boolean floatRoot = floatRoot(rule, n);
        for (int c = 0; c < rule.checkedWidth(); c++) {
            RuleEvaluator.Outcome o = nir.evaluate(cex.inputs(), sizes, c);
            if (o.patternPoison || o.wideDiffers) continue;
            long[] patterns = o.alternatives != null ? o.alternatives : new long[] {o.pattern};
            boolean agree = false;
            for (long p : patterns) agree |= same(p, o.replacement, n, floatRoot, rule.usedBits());
            if (!agree) return difference(patterns[0], o.replacement, n, floatRoot, rule, c, cex);
        }
        return null;
    }

    private static boolean floatRoot(CheckedRule rule, int n) {
        if (n < 16) return false;
        TypeClass t = rule.pattern().op().output().typeClass();
        return t == TypeClass.FLOAT || t == TypeClass.ANY && rule.varTypes().containsValue(TypeClass.FLOAT);
    }

    private static boolean same(long p, long r, int n, boolean floatRoot, int usedBits) {
        if (usedBits != 0) return ((p ^ r) & dev.lathe.ir.op.Bits.mask(usedBits)) == 0;
        return p == r || floatRoot && FloatBits.isNaN(p, n) && FloatBits.isNaN(r, n);
    }

    /** What differs between the two sides' values under NIR's semantics, in words, with the inputs. */
    private static String difference(
            long p, long r, int n, boolean floatRoot, CheckedRule rule, int c, Verdict.Counterexample cex) {
        TypeClass type =
                floatRoot ? TypeClass.FLOAT : rule.pattern().op().output().typeClass();
        List<String> inputs = new ArrayList<>();
        for (var e : new java.util.TreeMap<>(cex.inputs()).entrySet()) {
            String var = RuleEvaluator.varOf(e.getKey());
            int bits = cex.inputBits().getOrDefault(e.getKey(), n);
            inputs.add(e.getKey() + " = "
                    + Values.format(e.getValue(), rule.varTypes().get(var), bits));
        }
        String values = (inputs.isEmpty() ? "" : String.join(", ", inputs) + ": ")
                + (rule.checkedWidth() > 1
                        ? "at component " + dev.lathe.rules.model.Node.SWIZZLE_LETTERS.charAt(c) + ", "
                        : "")
                + "NIR's pattern gives " + Values.format(p, type, n) + ", its replacement "
                + Values.format(r, type, n);
        if (!floatRoot) return "a value (" + values + ")";
        double x = FloatBits.toDouble(p, n), y = FloatBits.toDouble(r, n);
        if (x == 0 && y == 0) return "the sign of a zero, where the shader keeps zero signs (" + values + ")";
        if (Double.isNaN(x) || Double.isNaN(y)) return "a NaN against a number (" + values + ")";
        if (Double.isInfinite(x) || Double.isInfinite(y)) return "an infinity (" + values + ")";
        return "a value (" + values + ")";
    }
}
