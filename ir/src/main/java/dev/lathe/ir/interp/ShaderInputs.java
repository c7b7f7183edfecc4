package dev.lathe.ir.interp;

import java.util.HashMap;
import java.util.Map;

/**
 * What one run of a shader reads: values of inputs and uniforms (raw bits per component;
 * uniform arrays element after element), storage buffer contents (bytes), textures, and system
 * values. Anything not given reads as zero; a buffer not given is empty (loads read zero,
 * stores are dropped).
 */
public final class ShaderInputs {
    private final Map<String, long[]> values = new HashMap<>();
    private final Map<String, byte[]> buffers = new HashMap<>();
    private final Map<String, Texture> textures = new HashMap<>();
    private int[] localInvocationId = {0, 0, 0};
    private int[] workgroupId = {0, 0, 0};
    private int[] numWorkgroups = {1, 1, 1};
    private long[] fragCoord = {0x3f000000L, 0x3f000000L, 0, 0x3f800000L};
    private boolean frontFace = true;
    private int vertexId;
    private int instanceId;
    private int primitiveId;
    private int invocationId;

    /** Sets an input or uniform by name. */
    public ShaderInputs set(String name, long... bits) {
        values.put(name, bits.clone());
        return this;
    }

    /** The raw bits given for input or uniform {@code name}, or null when none were. */
    public long[] value(String name) {
        return values.get(name);
    }

    /**
     * Where device memory starts: its byte k is at address {@code DEVICE_MEMORY_BASE + k}. It is
     * not 0, so a null pointer reads zeros (as any address outside the region) and writes nowhere.
     */
    public static final long DEVICE_MEMORY_BASE = 0x1_0000_0000L;

    /** The key of device memory among the buffers (no variable can be named so). */
    public static final String DEVICE_MEMORY = "device memory";

    /** The contents of device memory ({@code load_global}/{@code store_global}), from {@link #DEVICE_MEMORY_BASE} on. */
    public ShaderInputs setDeviceMemory(byte[] bytes) {
        return setBuffer(DEVICE_MEMORY, bytes);
    }

    /** Sets the contents of storage buffer {@code name} (a copy of {@code bytes}). */
    public ShaderInputs setBuffer(String name, byte[] bytes) {
        buffers.put(name, bytes.clone());
        return this;
    }

    /** A buffer from 32-bit words, little-endian. */
    public ShaderInputs setBufferWords(String name, long... words) {
        byte[] b = new byte[words.length * 4];
        for (int i = 0; i < words.length; i++) {
            for (int k = 0; k < 4; k++) b[i * 4 + k] = (byte) (words[i] >>> (8 * k));
        }
        buffers.put(name, b);
        return this;
    }

    /** The contents given for buffer {@code name} (a copy), or null when none were. */
    public byte[] buffer(String name) {
        byte[] b = buffers.get(name);
        return b == null ? null : b.clone();
    }

    /** Every buffer given, by name, device memory under {@link #DEVICE_MEMORY} (copies). */
    public Map<String, byte[]> buffers() {
        Map<String, byte[]> out = new HashMap<>();
        buffers.forEach((k, v) -> out.put(k, v.clone()));
        return out;
    }

    /**
     * Sets the contents of texture or storage image {@code name}; element k of an array of textures is named
     * {@code name[k]} ({@link dev.lathe.ir.Variable#elementName}).
     */
    public ShaderInputs setTexture(String name, Texture t) {
        textures.put(name, t);
        return this;
    }

    /** The texture given for {@code name}, or null (it then reads as a single texel of zeros). */
    public Texture texture(String name) {
        return textures.get(name);
    }

    /** The invocation's id within its workgroup (default 0, 0, 0; a dispatch sets it for each invocation it runs). */
    public ShaderInputs setLocalInvocationId(int x, int y, int z) {
        localInvocationId = new int[] {x, y, z};
        return this;
    }

    /** The id of the invocation's workgroup (default 0, 0, 0; a dispatch sets it for each workgroup). */
    public ShaderInputs setWorkgroupId(int x, int y, int z) {
        workgroupId = new int[] {x, y, z};
        return this;
    }

    /** How many workgroups the dispatch has in each dimension (default 1, 1, 1; a dispatch sets it). */
    public ShaderInputs setNumWorkgroups(int x, int y, int z) {
        numWorkgroups = new int[] {x, y, z};
        return this;
    }

    /** The fragment position as four f32 values (default 0.5, 0.5, 0, 1). */
    public ShaderInputs setFragCoord(float x, float y, float z, float w) {
        fragCoord = new long[] {f(x), f(y), f(z), f(w)};
        return this;
    }

    private static long f(float v) {
        return Float.floatToRawIntBits(v) & 0xffffffffL;
    }

    /** Whether the fragment is on a front-facing primitive (default true). */
    public ShaderInputs setFrontFace(boolean front) {
        frontFace = front;
        return this;
    }

    /** The vertex shader's vertex index (default 0). */
    public ShaderInputs setVertexId(int id) {
        vertexId = id;
        return this;
    }

    /** The vertex shader's instance index (default 0). */
    public ShaderInputs setInstanceId(int id) {
        instanceId = id;
        return this;
    }

    /** A geometry shader's input primitive number (default 0). */
    public ShaderInputs setPrimitiveId(int id) {
        primitiveId = id;
        return this;
    }

    /** A geometry shader's invocation among those of one primitive (default 0). */
    public ShaderInputs setInvocationId(int id) {
        invocationId = id;
        return this;
    }

    /** A geometry shader's input primitive number. */
    public int primitiveId() {
        return primitiveId;
    }

    /** A geometry shader's invocation among those of one primitive. */
    public int invocationId() {
        return invocationId;
    }

    /** The local invocation id, x, y, z (a copy). */
    public int[] localInvocationId() {
        return localInvocationId.clone();
    }

    /** The workgroup id, x, y, z (a copy). */
    public int[] workgroupId() {
        return workgroupId.clone();
    }

    /** The number of workgroups, x, y, z (a copy). */
    public int[] numWorkgroups() {
        return numWorkgroups.clone();
    }

    /** The fragment position as four f32 bit patterns (a copy). */
    public long[] fragCoord() {
        return fragCoord.clone();
    }

    /** Whether the fragment is front-facing. */
    public boolean frontFace() {
        return frontFace;
    }

    /** The vertex index. */
    public int vertexId() {
        return vertexId;
    }

    /** The instance index. */
    public int instanceId() {
        return instanceId;
    }
}
