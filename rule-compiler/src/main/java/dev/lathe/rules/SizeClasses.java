package dev.lathe.rules;

import java.util.Arrays;

/**
 * The bit-size classes of one rule: a union-find (path halving) whose classes
 * carry what is known of their size — a fixed size, the sizes every op on them allows (as a
 * {@link dev.lathe.ir.op.Bits#sizeFlag} set), the sizes the pattern's ops allow, whether a
 * pattern value is in them, and what first fixed the size (for messages). Merging two classes
 * merges what they know; a class two different fixed sizes met in is marked conflicted (the
 * caller reports it once). The first class's root survives a merge, so a class the checks have
 * already reported on keeps its identity (rules are small: no union by rank is needed).
 */
final class SizeClasses {
    /** Every size a value may have (1, 8, 16, 32 and 64 bits). */
    static final int ANY_SIZE = 31;

    private int count;
    private int[] parent = new int[16];
    private int[] fixed = new int[16];
    private int[] legal = new int[16];
    private int[] patternLegal = new int[16];
    private boolean[] inPattern = new boolean[16];
    private boolean[] conflicted = new boolean[16];
    private String[] fixedWhy = new String[16];

    /**
     * A new class of one value: {@code fixedSize} (0 when open), the sizes it allows, whether the
     * value is in the pattern, and what fixes its size (null when nothing does).
     */
    int add(int fixedSize, int legalMask, boolean pattern, String why) {
        if (count == parent.length) grow();
        int id = count++;
        parent[id] = id;
        fixed[id] = fixedSize;
        legal[id] = legalMask;
        patternLegal[id] = pattern ? legalMask : ANY_SIZE;
        inPattern[id] = pattern;
        fixedWhy[id] = why;
        return id;
    }

    private void grow() {
        int n = parent.length * 2;
        parent = Arrays.copyOf(parent, n);
        fixed = Arrays.copyOf(fixed, n);
        legal = Arrays.copyOf(legal, n);
        patternLegal = Arrays.copyOf(patternLegal, n);
        inPattern = Arrays.copyOf(inPattern, n);
        conflicted = Arrays.copyOf(conflicted, n);
        fixedWhy = Arrays.copyOf(fixedWhy, n);
    }

    /** The representative of {@code x}'s class. */
    int find(int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /**
     * Merges the class of {@code b} into that of {@code a} and returns the root. The merged class
     * keeps a's fixed size when it has one, else b's (a conflict is marked, {@code conflict}, not
     * resolved), with the reason of the side whose size it keeps, and the sizes both allow.
     */
    int union(int a, int b, boolean conflict) {
        int ra = find(a), rb = find(b);
        if (ra == rb) return ra;
        if (fixed[ra] == 0 && fixed[rb] != 0) {
            fixed[ra] = fixed[rb];
            fixedWhy[ra] = fixedWhy[rb];
        }
        parent[rb] = ra;
        legal[ra] &= legal[rb];
        patternLegal[ra] &= patternLegal[rb];
        inPattern[ra] |= inPattern[rb];
        conflicted[ra] |= conflicted[rb] || conflict;
        return ra;
    }

    /** The fixed size of the class of {@code x}, or 0. */
    int fixed(int x) {
        return fixed[find(x)];
    }

    /** The sizes every op on the class of {@code x} allows. */
    int legal(int x) {
        return legal[find(x)];
    }

    /** The sizes the pattern's ops on the class of {@code x} allow. */
    int patternLegal(int x) {
        return patternLegal[find(x)];
    }

    /** Whether a pattern value is in the class of {@code x} (so a match decides its size). */
    boolean inPattern(int x) {
        return inPattern[find(x)];
    }

    /** Whether two different fixed sizes met in the class of {@code x}. */
    boolean conflicted(int x) {
        return conflicted[find(x)];
    }

    /** What fixed the size of the class of {@code x} ("fadd@32 at 3:5"), or null. */
    String fixedWhy(int x) {
        return fixedWhy[find(x)];
    }
}
