package dev.lathe.ir;

import java.util.Locale;

/**
 * A named variable: part of the shader interface (input, output, uniform, storage buffer,
 * texture) or a function-local variable. Variables are typed (SSA values are not); intrinsics
 * refer to them by identity.
 *
 * <ul>
 *   <li>input/output: {@code type}, {@code location}, {@code flat} (inputs), {@code arrayLength}
 *       (a geometry shader's inputs: one element per vertex of its input primitive);
 *   <li>uniform: {@code type}, {@code arrayLength} (0: not an array), {@code location} = first
 *       slot in the uniform file, in vec4 (16-byte) slots;
 *   <li>buffer: {@code type} = the element type (used to read and print contents),
 *       {@code binding}; buffers are byte-addressed;
 *   <li>texture: {@code dim}, {@code type} = the texel type (always 4 components of 32 bits),
 *       {@code binding}, {@code unorm} (every texel component lies in [+0, 1], as a UNORM format decodes: never -0),
 *       {@code arrayLength} (0: not an array; an array of textures is indexed at run time, as
 *       SPIR-V's descriptor indexing does, and its element k is the texture
 *       {@link #elementName(int) name[k]} of the inputs);
 *   <li>constant: {@code type}, {@code arrayLength}, {@code data} — read-only data the shader
 *       carries itself (NIR's constant data: a local array that only ever held constants, moved
 *       out by {@code opt_large_constants}), read with {@code load_constant} at a run-time index;
 *   <li>local: {@code type}, {@code arrayLength};
 *   <li>shared: {@code type}, {@code arrayLength} — workgroup memory of a compute shader, one
 *       copy per workgroup that all its invocations read and write (zero at the start of a
 *       workgroup, as Lathe defines it).
 * </ul>
 */
public final class Variable {
    public enum Kind {
        INPUT,
        OUTPUT,
        UNIFORM,
        CONSTANT,
        BUFFER,
        TEXTURE,
        LOCAL,
        SHARED,
        IMAGE;

        public String spelling() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;
    private final String name;
    private final VarType type;
    private final int arrayLength;
    private final int location;
    private final int binding;
    private final boolean flat;
    private final boolean unorm;
    private final TextureDim dim;
    private ImageFormat format;
    private long[] data;
    private SourceLoc loc;

    /** The largest location, binding or array length a variable may have (the text format's limit too). */
    public static final int MAX_NUMBER = 1 << 24;

    private Variable(
            Kind kind,
            String name,
            VarType type,
            int arrayLength,
            int location,
            int binding,
            boolean flat,
            boolean unorm,
            TextureDim dim) {
        if (location < -1 || location > MAX_NUMBER)
            throw new IllegalArgumentException(
                    "@" + name + ": location " + location + " is outside 0 to " + MAX_NUMBER);
        if (binding < -1 || binding > MAX_NUMBER)
            throw new IllegalArgumentException("@" + name + ": binding " + binding + " is outside 0 to " + MAX_NUMBER);
        if (arrayLength < 0 || arrayLength > MAX_NUMBER)
            throw new IllegalArgumentException(
                    "@" + name + ": array length " + arrayLength + " is outside 1 to " + MAX_NUMBER);
        this.kind = kind;
        this.name = name;
        this.type = type;
        this.arrayLength = arrayLength;
        this.location = location;
        this.binding = binding;
        this.flat = flat;
        this.unorm = unorm;
        this.dim = dim;
    }

    /** Where the declaration was parsed from, for messages; null when it was not parsed. */
    public SourceLoc loc() {
        return loc;
    }

    public void setLoc(SourceLoc loc) {
        this.loc = loc;
    }

    /** "file:line:col: @name" (or "@name" for a variable that was not parsed), to start a message about it. */
    public String where() {
        return (loc == null ? "" : loc + ": ") + "@" + name;
    }

    public static Variable input(String name, VarType type, int location, boolean flat) {
        return input(name, type, location, flat, 0);
    }

    /** An input; with {@code vertices} > 0 a geometry shader's per-vertex input, an array of that many. */
    public static Variable input(String name, VarType type, int location, boolean flat, int vertices) {
        return new Variable(Kind.INPUT, name, type, vertices, location, -1, flat, false, null);
    }

    public static Variable output(String name, VarType type, int location) {
        return new Variable(Kind.OUTPUT, name, type, 0, location, -1, false, false, null);
    }

    public static Variable uniform(String name, VarType type, int arrayLength, int location) {
        return new Variable(Kind.UNIFORM, name, type, arrayLength, location, -1, false, false, null);
    }

    public static Variable buffer(String name, VarType elementType, int binding) {
        return new Variable(Kind.BUFFER, name, elementType, 0, -1, binding, false, false, null);
    }

    public static Variable texture(String name, TextureDim dim, BaseType texelBase, int binding, boolean unorm) {
        return texture(name, dim, texelBase, binding, unorm, 0);
    }

    /** A texture, or with {@code arrayLength} > 0 an array of textures alike. */
    public static Variable texture(
            String name, TextureDim dim, BaseType texelBase, int binding, boolean unorm, int arrayLength) {
        if (unorm && texelBase != BaseType.FLOAT) {
            throw new IllegalArgumentException("only float textures can be unorm");
        }
        return new Variable(
                Kind.TEXTURE, name, new VarType(texelBase, 32, 4), arrayLength, -1, binding, false, unorm, dim);
    }

    /** The name element {@code k} of an array of textures goes by in the inputs ({@code name[k]}); the name itself for one texture. */
    public String elementName(int k) {
        return isArray() ? name + "[" + k + "]" : name;
    }

    /**
     * A storage image: read and written texel by texel at integer coordinates, each texel four
     * 32-bit components of the format's base type, kept at the format's precision.
     */
    public static Variable image(String name, TextureDim dim, ImageFormat format, int binding) {
        Variable v =
                new Variable(Kind.IMAGE, name, new VarType(format.base(), 32, 4), 0, -1, binding, false, false, dim);
        v.format = format;
        return v;
    }

    public static Variable shared(String name, VarType type, int arrayLength) {
        return new Variable(Kind.SHARED, name, type, arrayLength, -1, -1, false, false, null);
    }

    /**
     * Constant data: {@code data} holds each element's components in order (element-major), each
     * the bit pattern of one component, {@code type.components() * max(1, arrayLength)} of them.
     */
    public static Variable constant(String name, VarType type, int arrayLength, long[] data) {
        int n = type.components() * Math.max(1, arrayLength);
        if (data.length != n)
            throw new IllegalArgumentException(
                    "@" + name + " holds " + n + " component" + (n == 1 ? "" : "s") + ", not " + data.length);
        Variable v = new Variable(Kind.CONSTANT, name, type, arrayLength, -1, -1, false, false, null);
        v.data = data.clone();
        for (int k = 0; k < n; k++) v.data[k] &= dev.lathe.ir.op.Bits.mask(type.bitSize());
        return v;
    }

    /**
     * Element {@code index} (an unsigned 32-bit index) of constant data, its components' bit
     * patterns; zero past the end, as {@code load_constant} reads it.
     */
    public long[] constantElement(long index) {
        int c = type.components();
        long[] r = new long[c];
        if (index >= 0 && index < Math.max(1, arrayLength)) System.arraycopy(data, (int) index * c, r, 0, c);
        return r;
    }

    /** Constant data's components, element-major; null for other kinds. */
    public long[] data() {
        return data == null ? null : data.clone();
    }

    public static Variable local(String name, VarType type, int arrayLength) {
        return new Variable(Kind.LOCAL, name, type, arrayLength, -1, -1, false, false, null);
    }

    public Kind kind() {
        return kind;
    }

    public String name() {
        return name;
    }

    public VarType type() {
        return type;
    }

    public boolean isArray() {
        return arrayLength > 0;
    }

    public int arrayLength() {
        return arrayLength;
    }

    public int location() {
        return location;
    }

    public int binding() {
        return binding;
    }

    public boolean isFlat() {
        return flat;
    }

    public boolean isUnorm() {
        return unorm;
    }

    public TextureDim dim() {
        return dim;
    }

    /** A storage image's format; null for other kinds. */
    public ImageFormat format() {
        return format;
    }

    /** Number of vec4 (16-byte) uniform slots one element takes (at least one). */
    public int slotsPerElement() {
        int bytes = type.components() * Math.max(type.bitSize(), 8) / 8;
        return Math.max(1, (bytes + 15) / 16);
    }

    /** Total uniform slots: elements times {@link #slotsPerElement()}. */
    public int slotCount() {
        return slotsPerElement() * Math.max(1, arrayLength);
    }

    @Override
    public String toString() {
        return "@" + name;
    }
}
