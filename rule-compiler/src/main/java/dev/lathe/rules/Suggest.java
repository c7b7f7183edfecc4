package dev.lathe.rules;

import java.util.List;

/** "Did you mean …?": the closest known name by edit distance, when it is close enough. */
final class Suggest {
    private Suggest() {}

    static String closest(String name, List<String> known) {
        // Names are lower case: FMUL is fmul written in the wrong case, not four edits away.
        for (String k : known) {
            if (k.equalsIgnoreCase(name)) return k;
        }
        String best = null;
        int bestDist = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(name, k);
            if (d < bestDist) {
                bestDist = d;
                best = k;
            }
        }
        return bestDist <= Math.max(1, name.length() / 3) ? best : null;
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
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        switch (lower) {
            case "fma", "fmad", "mad", "madd", "fmadd" -> {
                return "ffma";
            }
            default -> { }
        }
        List<String> typed = new java.util.ArrayList<>();
        for (String prefix : new String[] {"f", "i", "u"}) {
            if (known.contains(prefix + lower)) typed.add(prefix + lower);
        }
        if (!typed.isEmpty()) return oneOf(typed);
        List<String> longer = new java.util.ArrayList<>();
        for (String k : known) {
            if (k.startsWith(lower) && k.length() <= lower.length() + 3) longer.add(k);
        }
        if (!longer.isEmpty() && longer.size() <= 4) return oneOf(longer);
        return closest(name, known);
    }

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
