package dev.lathe.ir;

import java.util.Locale;

/**
 * What a geometry shader takes and gives: the primitive each invocation reads (its per-vertex
 * inputs are arrays of that many vertices), the strips it emits, the most vertices one invocation
 * may emit, and how many invocations run per input primitive (SPIR-V's {@code Invocations}).
 *
 * <p>In the text format: {@code shader geometry input(triangles) output(triangle_strip, 3)
 * invocations(1)}.
 */
public record GeometryLayout(InputPrimitive input, OutputPrimitive output, int maxVertices, int invocations) {
    /** The largest vertex count and invocation count the text format takes (Vulkan's minimum limits are 256 and 32). */
    public static final int MAX_VERTICES = 1024, MAX_INVOCATIONS = 32;

    /** Checks the counts (IllegalArgumentException). */
    public GeometryLayout {
        if (maxVertices < 1 || maxVertices > MAX_VERTICES)
            throw new IllegalArgumentException(
                    "a geometry shader emits 1 to " + MAX_VERTICES + " vertices, not " + maxVertices);
        if (invocations < 1 || invocations > MAX_INVOCATIONS)
            throw new IllegalArgumentException("a geometry shader runs 1 to " + MAX_INVOCATIONS
                    + " invocations per primitive, not " + invocations);
    }

    /** The primitive a geometry invocation reads (in SPIR-V's order of its execution modes, which the frontend relies on). */
    public enum InputPrimitive {
        POINTS(1),
        LINES(2),
        LINES_ADJACENCY(4),
        TRIANGLES(3),
        TRIANGLES_ADJACENCY(6);

        private final int vertices;

        InputPrimitive(int vertices) {
            this.vertices = vertices;
        }

        /** The vertices of one primitive: the length of every per-vertex input array. */
        public int vertices() {
            return vertices;
        }

        public String spelling() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static InputPrimitive parse(String s) {
            for (InputPrimitive p : values()) if (p.spelling().equals(s)) return p;
            return null;
        }
    }

    /** What the emitted vertices make: points, or strips that {@code end_primitive} cuts (in SPIR-V's order too). */
    public enum OutputPrimitive {
        POINTS(1),
        LINE_STRIP(2),
        TRIANGLE_STRIP(3);

        private final int vertices;

        OutputPrimitive(int vertices) {
            this.vertices = vertices;
        }

        /** The vertices one primitive needs: a strip with fewer makes nothing. */
        public int vertices() {
            return vertices;
        }

        public String spelling() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static OutputPrimitive parse(String s) {
            for (OutputPrimitive p : values()) if (p.spelling().equals(s)) return p;
            return null;
        }
    }

    /**
     * Why input {@code name} of array length {@code length} (0: no array) does not fit shader
     * {@code g} (null: not a geometry shader), or null when it does: a geometry shader's inputs,
     * and only its, hold one element per vertex of its input primitive.
     */
    public static String inputProblem(GeometryLayout g, String name, int length) {
        if (g == null)
            return length == 0 ? null : "only a geometry shader's inputs are arrays (one element per vertex)";
        int n = g.input().vertices();
        return length == n
                ? null
                : "a geometry shader's input holds one element per vertex of its input ("
                        + g.input().spelling() + "): @" + name + "[" + n + "]";
    }

    /** The header's text after the stage: {@code input(…) output(…, N) invocations(N)}. */
    public String spelling() {
        return "input(" + input.spelling() + ") output(" + output.spelling() + ", " + maxVertices + ") invocations("
                + invocations + ")";
    }
}
