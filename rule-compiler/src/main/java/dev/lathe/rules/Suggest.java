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

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
