package dev.lathe.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** "Did you mean …?": the closest known name by edit distance, when it is close enough. */
final class Suggest {
    private Suggest() {}

    static String closest(String name, List<String> known) {
        // Names are lower case: FMUL is fmul written in the wrong case, not four edits away.
        for (String k : known) {
            if (k.equalsIgnoreCase(name)) return k;
        }
        List<String> best = new ArrayList<>();
        int bestDist = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(name, k);
            if (d < bestDist) {
                bestDist = d;
                best.clear();
            }
            if (d == bestDist) best.add(k);
        }
        if (bestDist > Math.max(1, name.length() / 3)) return null;
        // Among equally near names, one the name starts with (a doubled last letter: fmull, iandd)
        // is the likely one; otherwise all are named, up to three.
        List<String> prefixes = best.stream().filter(name::startsWith).toList();
        if (prefixes.size() == 1) return prefixes.get(0);
        if (best.size() > 3) return null;
        return best.size() == 1 ? best.get(0) : String.join(" or ", best);
    }

    /**
     * Names from other compilers' rule languages (Mesa's NIR above all) with what Lathe calls
     * them; a value with a space is advice rather than a name.
     */
    private static final Map<String, String> OP_ELSEWHERE = Map.ofEntries(
            Map.entry("fsaturate", "fsat"),
            Map.entry("saturate", "fsat"),
            Map.entry("fclamp", "fsat (clamps to [0, 1]) or fmin(fmax(a, lo), hi)"),
            Map.entry("clamp", "fsat (clamps to [0, 1]) or fmin(fmax(a, lo), hi)"),
            Map.entry("i2b", "i2b1"),
            Map.entry("i2b32", "i2b1"),
            Map.entry("i2b8", "i2b1"),
            Map.entry("i2b16", "i2b1"),
            Map.entry("f2b", "f2b1"),
            Map.entry("f2b32", "f2b1"),
            Map.entry("f2b16", "f2b1"),
            Map.entry("imov", "mov"),
            Map.entry("fmov", "mov"),
            Map.entry("fne", "fneu"),
            Map.entry("fexp", "fexp2"),
            Map.entry("flog", "flog2"),
            Map.entry("frsqrt", "frsq"),
            Map.entry("fround", "fround_even"),
            Map.entry("fisinf", "fisfinite and fisnan"),
            Map.entry("inv", "frcp"),
            // the short names of GLSL's and the ISAs' bitfield instructions
            // (ubfe, ibfe and bfi are NIR's ops of those names, with their own edge cases)
            Map.entry("bfrev", "bitfield_reverse"),
            Map.entry("bitfieldextract", "ubitfield_extract or ibitfield_extract"),
            Map.entry("bitfieldinsert", "bitfield_insert"),
            Map.entry("bitfieldreverse", "bitfield_reverse"));

    /** Conditions from Mesa's rules, with how Lathe says them. */
    private static final Map<String, String> CONDITION_ELSEWHERE = Map.of(
            "is_pos_power_of_two",
            "write is_power_of_two, and is_gt_zero for a signed reading",
            "is_used_once",
            "write @once after the operation in the pattern, as in fmul(a, b)@once",
            "is_not_const",
            "there is none: a plain variable matches anything, #c only constants",
            "is_only_used_as_float",
            "Lathe has no such condition",
            "is_positive",
            "write is_gt_zero",
            "is_negative",
            "write is_lt_zero",
            "is_nan",
            "write is_a_number for its opposite; there is no is_nan",
            "is_not_nan",
            "write is_a_number");

    /** How Lathe says a condition of Mesa's rules that it does not have, or null. */
    static String conditionElsewhere(String name) {
        return CONDITION_ELSEWHERE.get(name.toLowerCase(Locale.ROOT));
    }

    /** For an unknown condition: the " (…)" that follows its name in the error. */
    static String forCondition(String name, List<String> known) {
        String elsewhere = CONDITION_ELSEWHERE.get(name.toLowerCase(Locale.ROOT));
        if (elsewhere != null) return " (" + elsewhere + ")";
        String near = closest(name, known);
        return near == null ? "; known: " + String.join(", ", known) : " (did you mean " + near + "?)";
    }

    /**
     * For an unknown op name: the op in another case, the ops it is the start of ({@code i2f}:
     * i2f16, i2f32, i2f64), the op with a type letter in front ({@code sqrt}: fsqrt), the usual
     * names of the fused multiply-add, or the closest name. Null when nothing is near.
     */
    static String forOp(String name, List<String> known) {
        for (String k : known) {
            if (k.equalsIgnoreCase(name)) return k;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (OP_ELSEWHERE.containsKey(lower)) return OP_ELSEWHERE.get(lower);
        // iadd32: a size glued to the name, where the op takes it as an annotation
        Matcher sized = SIZED_NAME.matcher(lower);
        if (sized.matches() && known.contains(sized.group(1))) return sized.group(1) + "@" + sized.group(2);
        switch (lower) {
            case "fma", "fmad", "mad", "madd", "fmadd" -> {
                return "ffma";
            }
            default -> {}
        }
        List<String> typed = new ArrayList<>();
        for (String prefix : new String[] {"f", "i", "u"}) {
            if (known.contains(prefix + lower)) typed.add(prefix + lower);
        }
        if (!typed.isEmpty()) return oneOf(typed);
        List<String> longer = new ArrayList<>();
        for (String k : known) {
            if (k.startsWith(lower) && k.length() <= lower.length() + 3) longer.add(k);
        }
        if (!longer.isEmpty() && longer.size() <= 4) return oneOf(longer);
        return closest(name, known);
    }

    /** An op name with a size glued on: iadd32, fmul_16. */
    private static final Pattern SIZED_NAME = Pattern.compile("(.*?)_?(1|8|16|32|64)");

    private static String oneOf(List<String> names) {
        return names.size() == 1 ? names.get(0) : "one of " + String.join(", ", names);
    }

    /** Edit distance, a swap of two neighbouring characters counting as one edit (optimal string alignment). */
    static int distance(String a, String b) {
        int[] prevPrev = new int[b.length() + 1];
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    cur[j] = Math.min(cur[j], prevPrev[j - 2] + 1); // two neighbours swapped: f2u23 for f2u32
                }
            }
            int[] t = prevPrev;
            prevPrev = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
