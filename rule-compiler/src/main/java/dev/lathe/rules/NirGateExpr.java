package dev.lathe.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads the C expression of a NIR rule's condition string ({@code '!options->lower_bitops &&
 * (options->lower_int64_options & nir_lower_icmp64) != 0'}) and writes it as a Lathe gate
 * ({@code !option(lower_bitops) && option(lower_icmp64)}), or says why it cannot.
 *
 * <p>What it reads: {@code options->X} (an option, or for NIR's two bit-mask options
 * {@code lower_int64_options} and {@code lower_doubles_options} a mask whose bits are options of
 * their own, named as NIR's enum names them without {@code nir_}: {@code lower_icmp64},
 * {@code lower_dfloor}); {@code mask & (nir_lower_a | nir_lower_b)} with {@code != 0},
 * {@code == 0}, {@code == nir_lower_a} or as a truth value; {@code info->stage == MESA_SHADER_X};
 * NIR's float-control tests {@code nir_is_denorm_preserve(info->float_controls_execution_mode,
 * 32)} and its kin; {@code !}, {@code &&}, {@code ||}, {@code &} on truth values, parentheses,
 * {@code true}, {@code false}. Anything else is refused with the token it stopped at.
 */
final class NirGateExpr {
    /** Why a condition cannot be read. */
    static final class Unreadable extends RuntimeException {
        Unreadable(String message) {
            super(message);
        }
    }

    /** NIR's options that are bit masks; each bit is an option of its own in Lathe. */
    private static final List<String> MASK_OPTIONS = List.of("lower_int64_options", "lower_doubles_options");

    private static final Map<String, String> STAGES = Map.of(
            "MESA_SHADER_VERTEX", "vertex",
            "MESA_SHADER_FRAGMENT", "fragment",
            "MESA_SHADER_COMPUTE", "compute",
            "MESA_SHADER_GEOMETRY", "geometry",
            "MESA_SHADER_TESS_CTRL", "tess_ctrl",
            "MESA_SHADER_TESS_EVAL", "tess_eval");

    /** NIR's tests of info->float_controls_execution_mode, by the Lathe float control they ask about. */
    private static final Map<String, String> FLOAT_TESTS = Map.of(
            "nir_is_denorm_preserve", "denorm_preserve",
            "nir_is_denorm_flush_to_zero", "denorm_flush_to_zero",
            "nir_is_rounding_mode_rtne", "rounding_mode_rte",
            "nir_is_rounding_mode_rtz", "rounding_mode_rtz");

    /** A truth value, as a tree: an atom, a negation, an and, an or, or a constant. */
    private sealed interface Bool permits Atom, Not, And, Or, Const {}

    private record Atom(String text) implements Bool {}

    private record Not(Bool x) implements Bool {}

    private record And(Bool x, Bool y) implements Bool {}

    private record Or(Bool x, Bool y) implements Bool {}

    private record Const(boolean value) implements Bool {}

    /** What a subexpression is: a truth value, a set of mask bits, a mask option read through bits, the stage, a stage constant, an integer. */
    private sealed interface Val permits BoolVal, Bits, Masked, MaskOpt, StageVal, StageConst, IntVal {}

    private record BoolVal(Bool b) implements Val {}

    /** {@code nir_lower_a | nir_lower_b}: bits by their Lathe option names. */
    private record Bits(TreeSet<String> bits) implements Val {}

    /** {@code options->lower_int64_options & bits}: which of those bits the target sets. */
    private record Masked(TreeSet<String> bits) implements Val {}

    private record MaskOpt(String name) implements Val {}

    private record StageVal() implements Val {}

    private record StageConst(String stage) implements Val {}

    private record IntVal(long v) implements Val {}

    private final List<String> tokens;
    private int at;

    private NirGateExpr(List<String> tokens) {
        this.tokens = tokens;
    }

    /** The Lathe gate for {@code condition}: "" when it always holds; an Unreadable when it cannot be read or never holds. */
    static String translate(String condition) {
        NirGateExpr p = new NirGateExpr(tokenize(condition));
        Val v = p.or();
        if (p.at != p.tokens.size()) throw new Unreadable("'" + p.tokens.get(p.at) + "' is not read here");
        Bool b = simplify(truth(v));
        if (b instanceof Const c) {
            if (c.value()) return "";
            throw new Unreadable("it never holds");
        }
        return print(b, 0);
    }

    private static List<String> tokenize(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) j++;
                // options->x and info->x are one token
                if (s.startsWith("->", j)) {
                    j += 2;
                    while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else if (Character.isDigit(c)) {
                int j = i;
                while (j < s.length() && Character.isLetterOrDigit(s.charAt(j))) j++;
                out.add(s.substring(i, j));
                i = j;
            } else {
                String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
                if (List.of("&&", "||", "==", "!=").contains(two)) {
                    out.add(two);
                    i += 2;
                } else if ("!&|(),".indexOf(c) >= 0) {
                    out.add(String.valueOf(c));
                    i++;
                } else {
                    throw new Unreadable("'" + c + "' is not read");
                }
            }
        }
        return out;
    }

    private String peek() {
        return at < tokens.size() ? tokens.get(at) : "";
    }

    private String next() {
        if (at >= tokens.size()) throw new Unreadable("it ends too early");
        return tokens.get(at++);
    }

    private void expect(String t) {
        String n = next();
        if (!n.equals(t)) throw new Unreadable("expected '" + t + "' where '" + n + "' is");
    }

    private Val or() {
        Val v = and();
        while (peek().equals("||")) {
            next();
            v = new BoolVal(new Or(truth(v), truth(and())));
        }
        return v;
    }

    private Val and() {
        Val v = bitOr();
        while (peek().equals("&&")) {
            next();
            v = new BoolVal(new And(truth(v), truth(bitOr())));
        }
        return v;
    }

    // C's precedence: == binds tighter than &, & tighter than |
    private Val bitOr() {
        Val v = bitAnd();
        while (peek().equals("|")) {
            next();
            Val w = bitAnd();
            if (v instanceof Bits a && w instanceof Bits b) {
                TreeSet<String> u = new TreeSet<>(a.bits());
                u.addAll(b.bits());
                v = new Bits(u);
            } else {
                v = new BoolVal(new Or(truth(v), truth(w)));
            }
        }
        return v;
    }

    private Val bitAnd() {
        Val v = equality();
        while (peek().equals("&")) {
            next();
            Val w = equality();
            if (v instanceof MaskOpt && w instanceof Bits b) v = new Masked(b.bits());
            else if (v instanceof Bits b && w instanceof MaskOpt) v = new Masked(b.bits());
            else v = new BoolVal(new And(truth(v), truth(w)));
        }
        return v;
    }

    private Val equality() {
        Val v = unary();
        if (peek().equals("==") || peek().equals("!=")) {
            boolean eq = next().equals("==");
            Val w = unary();
            Bool b = equal(v, w);
            v = new BoolVal(eq ? b : new Not(b));
        }
        return v;
    }

    private Bool equal(Val v, Val w) {
        if (v instanceof StageVal && w instanceof StageConst s) return new Atom("stage(" + s.stage() + ")");
        if (w instanceof StageVal && v instanceof StageConst s) return new Atom("stage(" + s.stage() + ")");
        if (v instanceof Masked m && w instanceof IntVal i && i.v() == 0) return new Not(truth(m));
        if (v instanceof Masked m && w instanceof Bits b) {
            // (mask & m) == b: each bit of m set exactly when it is in b; a bit of b outside m never is
            Bool out = new Const(true);
            for (String bit : b.bits()) if (!m.bits().contains(bit)) return new Const(false);
            for (String bit : m.bits()) {
                Bool a = new Atom("option(" + bit + ")");
                out = new And(out, b.bits().contains(bit) ? a : new Not(a));
            }
            return out;
        }
        if (v instanceof BoolVal && w instanceof IntVal i && i.v() == 0) return new Not(truth(v));
        throw new Unreadable("a comparison of " + describe(v) + " with " + describe(w) + " is not read");
    }

    private Val unary() {
        if (peek().equals("!")) {
            next();
            return new BoolVal(new Not(truth(unary())));
        }
        return primary();
    }

    private Val primary() {
        String t = next();
        if (t.equals("(")) {
            Val v = or();
            expect(")");
            return v;
        }
        if (t.startsWith("options->")) {
            String name = t.substring("options->".length());
            return MASK_OPTIONS.contains(name) ? new MaskOpt(name) : new BoolVal(new Atom("option(" + name + ")"));
        }
        if (t.equals("info->stage")) return new StageVal();
        if (STAGES.containsKey(t)) return new StageConst(STAGES.get(t));
        if (t.startsWith("MESA_SHADER_")) throw new Unreadable("Lathe's gates know no stage " + t);
        if (t.startsWith("nir_lower_")) {
            TreeSet<String> one = new TreeSet<>();
            one.add(t.substring("nir_".length()));
            return new Bits(one);
        }
        if (FLOAT_TESTS.containsKey(t)) {
            expect("(");
            expect("info->float_controls_execution_mode");
            expect(",");
            String width = next();
            expect(")");
            if (!List.of("16", "32", "64").contains(width))
                throw new Unreadable(t + " at width " + width + " is not read");
            return new BoolVal(new Atom("float_controls(" + FLOAT_TESTS.get(t) + width + ")"));
        }
        if (t.equals("true") || t.equals("false")) return new BoolVal(new Const(t.equals("true")));
        if (t.chars().allMatch(Character::isDigit)) return new IntVal(Long.parseLong(t));
        throw new Unreadable("'" + t + "' is not read");
    }

    private static Bool truth(Val v) {
        if (v instanceof BoolVal b) return b.b();
        if (v instanceof Masked m) {
            Bool out = new Const(false);
            for (String bit : m.bits()) out = new Or(out, new Atom("option(" + bit + ")"));
            return out;
        }
        if (v instanceof IntVal i) return new Const(i.v() != 0);
        throw new Unreadable(describe(v) + " is not a truth value");
    }

    private static String describe(Val v) {
        if (v instanceof Bits b) return "mask bits " + b.bits();
        if (v instanceof Masked) return "a masked option";
        if (v instanceof MaskOpt m) return "the mask " + m.name();
        if (v instanceof StageVal) return "the stage";
        if (v instanceof StageConst) return "a stage";
        if (v instanceof IntVal i) return "the number " + i.v();
        return "a truth value";
    }

    /** Folds constants and double negations. */
    private static Bool simplify(Bool b) {
        if (b instanceof Not n) {
            Bool x = simplify(n.x());
            if (x instanceof Const c) return new Const(!c.value());
            if (x instanceof Not nn) return nn.x();
            return new Not(x);
        }
        if (b instanceof And a) {
            Bool x = simplify(a.x()), y = simplify(a.y());
            if (x instanceof Const c) return c.value() ? y : c;
            if (y instanceof Const c) return c.value() ? x : c;
            return new And(x, y);
        }
        if (b instanceof Or o) {
            Bool x = simplify(o.x()), y = simplify(o.y());
            if (x instanceof Const c) return c.value() ? c : y;
            if (y instanceof Const c) return c.value() ? x : c;
            return new Or(x, y);
        }
        return b;
    }

    /** Lathe's spelling; {@code level} 0 top, 1 inside &&, 2 under ! (parenthesize what binds looser). */
    private static String print(Bool b, int level) {
        if (b instanceof Atom a) return a.text();
        if (b instanceof Not n) return "!" + print(n.x(), 2);
        if (b instanceof And a) return paren(print(a.x(), 1) + " && " + print(a.y(), 1), level >= 2);
        if (b instanceof Or o) return paren(print(o.x(), 0) + " || " + print(o.y(), 0), level >= 1);
        throw new IllegalStateException("constants are folded before printing");
    }

    private static String paren(String s, boolean wrap) {
        return wrap ? "(" + s + ")" : s;
    }
}
