package dev.lathe.ir;

/** The base type of an interface or local variable (SSA values have none; variables do). */
public enum BaseType {
    FLOAT('f'),
    INT('i'),
    UINT('u'),
    BOOL('b');

    private final char prefix;

    BaseType(char prefix) {
        this.prefix = prefix;
    }

    public char prefix() {
        return prefix;
    }

    static BaseType ofPrefix(char c) {
        for (BaseType t : values()) {
            if (t.prefix == c) return t;
        }
        return null;
    }
}
