package dev.lathe.backend.compile;

import dev.lathe.backend.program.Program;
import dev.lathe.ir.Shader;
import dev.lathe.ir.Variable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each variable lives in the machine program: uniforms packed into the constant file
 * from c0.x (64-bit ones on an even scalar), then the shader's constant data alike, inputs and outputs in slots by declaration order,
 * buffers and textures by their binding, locals in local memory. Constants the code reads as
 * operands (immediates no instruction can encode, 64-bit values) go after the uniforms, one
 * scalar (or pair) per distinct value.
 */
final class Layout {
    final Map<String, Integer> slots = new LinkedHashMap<>();

    /** The suffix of a texture's entry in {@link #slots} when it is bindless: its first descriptor in the program's heap. */
    static final String HEAP = Program.HEAP;

    final Map<Integer, Long> constants = new LinkedHashMap<>();
    final Map<Variable, Integer> localOffsets = new LinkedHashMap<>();
    int nextConst;
    int localBytes;

    Layout(Shader s) {
        int in = 0, out = 0;
        for (Variable v : s.variables()) {
            switch (v.kind()) {
                case UNIFORM, CONSTANT -> { // Program.constantFileVariables
                    int units = v.type().bitSize() == 64 ? 2 : 1;
                    if (units == 2 && nextConst % 2 != 0) nextConst++;
                    slots.put(v.name(), nextConst);
                    nextConst += units * v.type().components() * Math.max(1, v.arrayLength());
                }
                case INPUT -> slots.put(v.name(), in++);
                case OUTPUT -> slots.put(v.name(), out++);
                default -> {}
            }
        }
        bindingSlots(s, Variable.Kind.BUFFER, "buffers");
        bindingSlots(s, Variable.Kind.TEXTURE, "textures");
        bindingSlots(s, Variable.Kind.IMAGE, "images");
        if (in > 32 || out > 32) throw new CompileException("the target has 32 input and 32 output slots");
        if (nextConst > 2048) moveToUniformMemory(s);
        for (Variable v : s.variables(Variable.Kind.CONSTANT)) {
            // the shader's constant data, in place before it starts (as ir3 uploads NIR's constant data)
            long[] data = v.data();
            int at = slots.get(v.name());
            for (long x : data) constants.put(at++, x);
        }
    }

    /** Constant scalars kept for the code's own constants when uniforms move to memory. */
    static final int CODE_CONSTANTS = 256;

    /** Uniform memory holds at most this many scalars (ldc's offset field reaches further). */
    static final int UNIFORM_MEMORY = 1 << 20;

    /**
     * Uniforms that do not fit the 2048-scalar constant file: as ir3 leaves large UBO ranges
     * in memory and loads them with {@code ldc}, the largest uniform arrays (ties: declaration
     * order) move to uniform memory, addressed by {@code ldc} from c2048 on, until the rest
     * leaves {@link #CODE_CONSTANTS} scalars free. The rest keep declaration order.
     */
    private void moveToUniformMemory(Shader s) {
        List<Variable> uniforms = Program.constantFileVariables(s);
        List<Variable> arrays = new ArrayList<>();
        for (Variable v : uniforms) if (v.isArray()) arrays.add(v);
        arrays.sort(Comparator.comparingLong(Layout::uniformScalars).reversed());
        Set<Variable> moved = new HashSet<>();
        long kept = 0;
        for (Variable v : uniforms) kept += uniformScalars(v) + 1;
        for (Variable v : arrays) {
            if (kept <= 2048 - CODE_CONSTANTS) break;
            moved.add(v);
            kept -= uniformScalars(v) + 1;
        }
        if (kept > 2048 - CODE_CONSTANTS) {
            throw new CompileException(
                    "uniforms that are no arrays need " + kept + " constant scalars; the constant file has 2048");
        }
        nextConst = 0;
        int memory = 2048;
        for (Variable v : uniforms) {
            int units = v.type().bitSize() == 64 ? 2 : 1;
            if (moved.contains(v)) {
                if (units == 2 && memory % 2 != 0) memory++;
                slots.put(v.name(), memory);
                memory += (int) uniformScalars(v);
                if (memory - 2048 > UNIFORM_MEMORY)
                    throw new CompileException(
                            "uniforms need more than " + UNIFORM_MEMORY + " scalars of uniform memory");
            } else {
                if (units == 2 && nextConst % 2 != 0) nextConst++;
                slots.put(v.name(), nextConst);
                nextConst += (int) uniformScalars(v);
            }
        }
    }

    private static long uniformScalars(Variable v) {
        return (long) (v.type().bitSize() == 64 ? 2 : 1) * v.type().components() * Math.max(1, v.arrayLength());
    }

    /**
     * Buffers and textures go to the slot of their binding; an array of textures takes a run of
     * slots from there, one per element (the texture instructions add the element to the first).
     * Several may want the same slots (the elements of a texture array, or bindings in
     * different descriptor sets): the first keeps them, the others take the lowest run no
     * binding names, so no two alias.
     */
    /**
     * Texture {@code v}, past the 32 slots, goes bindless: the next run of the program's descriptor
     * heap from {@code first} (as ir3 samples large descriptor arrays), named by a register at each
     * use. Returns the heap's next free descriptor.
     */
    private int toHeap(Variable v, int first) {
        slots.put(v.name() + HEAP, first);
        return first + Math.max(1, v.arrayLength());
    }

    private void bindingSlots(Shader s, Variable.Kind kind, String what) {
        boolean[] taken = new boolean[32];
        List<Variable> rest = new ArrayList<>();
        int heap = 0;
        for (Variable v : s.variables(kind)) {
            int n = Math.max(1, v.arrayLength());
            if (kind == Variable.Kind.TEXTURE && v.binding() + n > 32) {
                heap = toHeap(v, heap);
                continue;
            }
            if (v.binding() + n > 32) {
                throw new CompileException(v.where() + ": binding " + v.binding()
                        + (n > 1 ? " and the " + (n - 1) + " after it are" : " is") + " past the target's 32 " + what);
            }
            if (free(taken, v.binding(), n)) {
                take(taken, v.binding(), n);
                slots.put(v.name(), v.binding());
            } else {
                rest.add(v);
            }
        }
        for (Variable v : rest) {
            int n = Math.max(1, v.arrayLength());
            int at = 0;
            while (at + n <= 32 && !free(taken, at, n)) at++;
            if (at + n > 32 && kind == Variable.Kind.TEXTURE) {
                heap = toHeap(v, heap);
                continue;
            }
            if (at + n > 32)
                throw new CompileException(v.where() + ": the shader has more than the target's 32 " + what);
            take(taken, at, n);
            slots.put(v.name(), at);
        }
    }

    private static boolean free(boolean[] taken, int at, int n) {
        for (int k = at; k < at + n; k++) if (taken[k]) return false;
        return true;
    }

    private static void take(boolean[] taken, int at, int n) {
        for (int k = at; k < at + n; k++) taken[k] = true;
    }

    /** The code's own 32-bit constants: their bits, and the scalar holding each. */
    private final Map<Long, Integer> scalars = new LinkedHashMap<>();

    /**
     * The constant-file index holding a 32-bit pattern the code reads as an operand (one scalar
     * per distinct value), or -1 when the file is full.
     */
    int constant32(long bits) {
        long b = bits & 0xffffffffL;
        Integer at = scalars.get(b);
        if (at != null) return at;
        if (nextConst + 1 > 2048) return -1;
        constants.put(nextConst, b);
        scalars.put(b, nextConst);
        return nextConst++;
    }

    /** {@code n} consecutive constant-file scalars holding zero (where a clamped index reads), or -1 when the file is full. */
    int zeros(int n) {
        if (nextConst + n > 2048) return -1;
        int at = nextConst;
        for (int k = 0; k < n; k++) constants.put(at + k, 0L);
        nextConst += n;
        return at;
    }

    /** A constant-file scalar the preamble fills ({@code stc}), or -1 when the file is full. */
    int preambleScalar() {
        if (nextConst + 1 > 2048) return -1;
        return nextConst++;
    }

    /** The constant-file index holding a 64-bit pattern (one pair per distinct value). */
    int constant64(long bits) {
        for (var e : constants.entrySet()) {
            if (e.getKey() % 2 == 0
                    && e.getValue() == (bits & 0xffffffffL)
                    && Long.valueOf(bits >>> 32).equals(constants.get(e.getKey() + 1))) {
                return e.getKey();
            }
        }
        if (nextConst % 2 != 0) nextConst++;
        if (nextConst + 2 > 2048) throw new CompileException("the constant file is full (2048 scalars)");
        int at = nextConst;
        constants.put(at, bits & 0xffffffffL);
        constants.put(at + 1, bits >>> 32);
        nextConst += 2;
        return at;
    }

    /**
     * The constant scalar where the driver writes a buffer's size in bytes, or the first of an
     * image's sizes (one per dimension), as ir3's driver params hold them; taken on first use,
     * its slot is named {@code NAME.size}.
     */
    int sizeSlot(Variable v) {
        Integer at = slots.get(v.name() + ".size");
        if (at != null) return at;
        int n = v.kind() == Variable.Kind.IMAGE ? v.dim().coordinates() : 1;
        if (nextConst + n > 2048) throw new CompileException("the constant file is full (2048 scalars)");
        slots.put(v.name() + ".size", nextConst);
        nextConst += n;
        return nextConst - n;
    }

    /**
     * The texture slot read-only image {@code v} is also bound to ({@code .slot @NAME.tex N}, for
     * {@code isam}): taken on first use, the lowest slot no texture (nor another image) has; -1
     * when all 32 are taken.
     */
    int imageTexture(Variable v, Shader s) {
        String key = v.name() + Program.IMAGE_TEXTURE;
        Integer at = slots.get(key);
        if (at != null) return at;
        boolean[] taken = new boolean[32];
        for (Variable t : s.variables(Variable.Kind.TEXTURE)) {
            Integer first = slots.get(t.name());
            if (first != null) take(taken, first, Math.max(1, t.arrayLength()));
        }
        for (Variable i : s.variables(Variable.Kind.IMAGE)) {
            Integer alias = slots.get(i.name() + Program.IMAGE_TEXTURE);
            if (alias != null) taken[alias] = true;
        }
        for (int k = 0; k < 32; k++) {
            if (!taken[k]) {
                slots.put(key, k);
                return k;
            }
        }
        return -1;
    }

    /** Local memory for a local variable (every element), plus one spare element where dropped stores go. */
    int local(Variable v) {
        Integer at = localOffsets.get(v);
        if (at != null) return at;
        int elem = elementBytes(v);
        int align = Math.min(8, Integer.highestOneBit(Math.max(1, elem)));
        localBytes = (localBytes + align - 1) / align * align;
        localOffsets.put(v, localBytes);
        localBytes += elem * (Math.max(1, v.arrayLength()) + 1);
        return localOffsets.get(v);
    }

    static int elementBytes(Variable v) {
        return v.type().components() * Math.max(v.type().bitSize(), 8) / 8;
    }
}
