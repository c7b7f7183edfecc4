package dev.lathe.backend.isa;

/**
 * The comparison of a {@code cmps}. Float comparisons are IEEE: the ordered ones ({@code lt},
 * {@code ge}, {@code eq}) are false when an operand is NaN, the unordered ones ({@code ne},
 * {@code ltu}, {@code geu}, {@code equ}) true. Integer comparisons use {@code lt}, {@code ge},
 * {@code eq}, {@code ne}, signed or unsigned by the instruction's type.
 */
public enum Cond {
    LT("lt"),
    GE("ge"),
    EQ("eq"),
    NE("ne"),
    LTU("ltu"),
    GEU("geu"),
    EQU("equ");

    private final String text;

    Cond(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public int code() {
        return ordinal();
    }

    public static Cond ofCode(int code) {
        Cond[] all = values();
        return code >= 0 && code < all.length ? all[code] : null;
    }

    public static Cond ofText(String s) {
        for (Cond c : values()) {
            if (c.text.equals(s)) return c;
        }
        return null;
    }
}
