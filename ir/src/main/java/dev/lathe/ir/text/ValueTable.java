package dev.lathe.ir.text;

import dev.lathe.ir.Value;

/**
 * A function's values by name, the names being stretches of the source text: the parser looks
 * up every {@code %name} it reads without making a string of it (open addressing; a key is the
 * start and end of the name's first occurrence, the definition).
 */
final class ValueTable {
    private final String text;
    private int[] keyStart = new int[1024];
    private int[] keyEnd = new int[1024];
    private Value[] values = new Value[1024];
    private int size;

    ValueTable(String text) {
        this.text = text;
    }

    /** The value named by {@code text[start, end)}, or null. */
    Value get(int start, int end) {
        int mask = values.length - 1;
        for (int slot = hash(text, start, end) & mask; values[slot] != null; slot = (slot + 1) & mask) {
            if (keyEnd[slot] - keyStart[slot] == end - start
                    && text.regionMatches(keyStart[slot], text, start, end - start)) {
                return values[slot];
            }
        }
        return null;
    }

    /** The value named {@code name}, or null. */
    Value get(String name) {
        int mask = values.length - 1;
        for (int slot = hash(name, 0, name.length()) & mask; values[slot] != null; slot = (slot + 1) & mask) {
            if (keyEnd[slot] - keyStart[slot] == name.length() && text.startsWith(name, keyStart[slot]))
                return values[slot];
        }
        return null;
    }

    /** Adds the value named by {@code text[start, end)}, a name the caller found absent with {@link #get}. */
    void add(int start, int end, Value v) {
        if (2 * (size + 1) > values.length) grow();
        insert(start, end, v);
        size++;
    }

    private void insert(int start, int end, Value v) {
        int mask = values.length - 1;
        int slot = hash(text, start, end) & mask;
        while (values[slot] != null) slot = (slot + 1) & mask;
        keyStart[slot] = start;
        keyEnd[slot] = end;
        values[slot] = v;
    }

    private void grow() {
        int[] oldStart = keyStart, oldEnd = keyEnd;
        Value[] oldValues = values;
        keyStart = new int[oldValues.length * 2];
        keyEnd = new int[oldValues.length * 2];
        values = new Value[oldValues.length * 2];
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) insert(oldStart[i], oldEnd[i], oldValues[i]);
        }
    }

    private static int hash(CharSequence s, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) h = 31 * h + s.charAt(i);
        // Names are mostly consecutive numbers: spread them over the table.
        h *= 0x9E3779B9;
        return h ^ h >>> 16;
    }
}
