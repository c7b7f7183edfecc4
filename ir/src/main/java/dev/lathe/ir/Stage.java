package dev.lathe.ir;

import java.util.Locale;

/** The shader stage. */
public enum Stage {
    VERTEX,
    FRAGMENT,
    COMPUTE,
    /** One invocation per input primitive (per {@code invocations} count), emitting a stream of vertices ({@link GeometryLayout}). */
    GEOMETRY;

    public String spelling() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Stage parse(String s) {
        for (Stage st : values()) {
            if (st.spelling().equals(s)) return st;
        }
        return null;
    }
}
