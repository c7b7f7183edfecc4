package dev.lathe.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A shader: its stage (with the workgroup size for compute), its interface variables in
 * declaration order, and its functions. The entry point is the function named {@code main}.
 * Frontends inline every call, so the entry point is the only function that runs.
 */
public final class Shader {
    private final Stage stage;
    private final int[] workgroupSize = {1, 1, 1};
    private GeometryLayout geometry;
    private final java.util.SortedSet<String> floatControls = new java.util.TreeSet<>();
    private final Map<String, Variable> variables = new LinkedHashMap<>();
    private final List<Function> functions = new ArrayList<>();
    /** Memos that analyses of this shader share; see {@link #memo}. */
    private final Map<Class<?>, Object> memos = new HashMap<>();

    /** An empty shader for {@code stage}: no variables, no functions, a workgroup of 1 × 1 × 1. */
    public Shader(Stage stage) {
        this.stage = stage;
    }

    /**
     * The memo of kind {@code kind} that the analyses of this shader share, made by
     * {@code make} the first time. Only memos of pure functions belong here (the range
     * analysis's transfer functions on classes of floats): they never change what an analysis
     * answers, only how often the same thing is computed — four analyses in one pipeline run
     * pay for it once. A shader is compiled by one thread at a time, and so is its memo used.
     */
    public <T> T memo(Class<T> kind, Supplier<T> make) {
        Object m = memos.get(kind);
        if (m == null) {
            m = make.get();
            memos.put(kind, m);
        }
        return kind.cast(m);
    }

    /** The pipeline stage the shader runs in: it decides which intrinsics are legal. */
    public Stage stage() {
        return stage;
    }

    /** A geometry shader's layout (null for other stages, and before it is set). */
    public GeometryLayout geometry() {
        return geometry;
    }

    /** Sets a geometry shader's layout; on another stage an IllegalArgumentException. */
    public void setGeometry(GeometryLayout layout) {
        if (stage != Stage.GEOMETRY) throw new IllegalArgumentException("only a geometry shader has a geometry layout");
        this.geometry = layout;
    }

    /** The compute workgroup size (1, 1, 1 for other stages). */
    public int[] workgroupSize() {
        return workgroupSize.clone();
    }

    /** The most invocations a workgroup may have (Adreno 6xx's limit; Vulkan guarantees 128). */
    public static final int MAX_WORKGROUP_INVOCATIONS = 1024;

    /** Why a workgroup size is not allowed, or null when it is. */
    public static String workgroupSizeProblem(long x, long y, long z) {
        if (x < 1 || y < 1 || z < 1) return "a workgroup size must be positive (" + x + ", " + y + ", " + z + ")";
        if (x * y * z > MAX_WORKGROUP_INVOCATIONS) {
            return "a workgroup of " + x + " x " + y + " x " + z + " invocations is more than "
                    + MAX_WORKGROUP_INVOCATIONS;
        }
        return null;
    }

    /** Sets the compute workgroup size; a size {@link #workgroupSizeProblem} refuses is an IllegalArgumentException. */
    public void setWorkgroupSize(int x, int y, int z) {
        String problem = workgroupSizeProblem(x, y, z);
        if (problem != null) throw new IllegalArgumentException(problem);
        workgroupSize[0] = x;
        workgroupSize[1] = y;
        workgroupSize[2] = z;
    }

    /**
     * The float-control execution modes the shader asks for ({@link FloatControls}), in name
     * order: facts that rules may be gated on.
     */
    public java.util.SortedSet<String> floatControls() {
        return Collections.unmodifiableSortedSet(floatControls);
    }

    /** Records that the shader asks for float control {@code mode}; an unknown one is an IllegalArgumentException. */
    public void addFloatControl(String mode) {
        if (!FloatControls.isKnown(mode))
            throw new IllegalArgumentException("unknown float control '" + mode + "' (expected one of "
                    + String.join(", ", FloatControls.ALL) + ")");
        floatControls.add(mode);
    }

    /**
     * Declares interface variable {@code v} and returns it. A local (locals belong to a function), a name already
     * declared, or a uniform whose slots overlap another uniform's is refused with an IllegalArgumentException.
     */
    public Variable addVariable(Variable v) {
        if (v.kind() == Variable.Kind.LOCAL) throw new IllegalArgumentException("locals belong to a function");
        if (variables.containsKey(v.name()))
            throw new IllegalArgumentException("@" + v.name() + " is already declared");
        if (v.kind() == Variable.Kind.UNIFORM) {
            for (Variable u : variables(Variable.Kind.UNIFORM)) {
                boolean disjoint =
                        v.location() + v.slotCount() <= u.location() || u.location() + u.slotCount() <= v.location();
                if (!disjoint) {
                    throw new IllegalArgumentException("uniform @" + v.name() + " (slots " + slots(v) + ") overlaps @"
                            + u.name() + " (slots " + slots(u) + ")");
                }
            }
        }
        variables.put(v.name(), v);
        return v;
    }

    private static String slots(Variable v) {
        return v.slotCount() == 1
                ? Integer.toString(v.location())
                : v.location() + "–" + (v.location() + v.slotCount() - 1);
    }

    /** The interface variable called {@code name}, or null. */
    public Variable variable(String name) {
        return variables.get(name);
    }

    /** Every interface variable, in declaration order (a copy). */
    public List<Variable> variables() {
        return List.copyOf(variables.values());
    }

    /** The interface variables of one kind, in declaration order. */
    public List<Variable> variables(Variable.Kind kind) {
        List<Variable> out = new ArrayList<>();
        for (Variable v : variables.values()) {
            if (v.kind() == kind) out.add(v);
        }
        return out;
    }

    /** The first uniform slot after every uniform declared so far (for automatic locations). */
    public int nextUniformLocation() {
        int next = 0;
        for (Variable v : variables.values()) {
            if (v.kind() == Variable.Kind.UNIFORM) next = Math.max(next, v.location() + v.slotCount());
        }
        return next;
    }

    /** Creates a function with an empty body block. */
    public Function addFunction(String name) {
        for (Function f : functions) {
            if (f.name().equals(name)) throw new IllegalArgumentException("function " + name + " is already defined");
        }
        Function f = new Function(this, name);
        functions.add(f);
        return f;
    }

    /** The functions in the order they were added (a read-only view). */
    public List<Function> functions() {
        return Collections.unmodifiableList(functions);
    }

    /** The entry point: the function named {@code main}. */
    public Function entryPoint() {
        for (Function f : functions) {
            if (f.name().equals("main")) return f;
        }
        throw new IllegalStateException("the shader has no function named main");
    }
}
