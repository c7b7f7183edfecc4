package dev.lathe.ir.interp;

import dev.lathe.ir.op.Op;

/**
 * A cube map sample's direction as the texture coordinates of its face, by Vulkan's face
 * selection (the spec's "Cube Map Face Selection"): the major axis is z when |z| ≥ |x| and
 * |z| ≥ |y|, else y when |y| ≥ |x|, else x; faces +X −X +Y −Y +Z −Z are layers 0–5 with
 * (sc, tc, ma) = (−z, −y, x), (z, −y, x), (x, z, y), (x, −z, y), (x, −y, z), (−x, −y, z), and
 * s = sc / (2|ma|) + ½, t = tc / (2|ma|) + ½ in f32 arithmetic (the op table's). The layer's
 * normalized coordinate is (face + ½) / 6, so a six-layer texture gives layer {@code face}. A NaN
 * component picks the x face and NaN coordinates (texel 0, as any NaN coordinate).
 *
 * <p>One definition for the interpreter, the Vulkan precision model and the target's texture
 * unit, which samples cube maps itself (backend/ISA.md, "cat5").
 */
public final class CubeMap {
    private CubeMap() {}

    /** The f32 bits of (s, t, layer coordinate) for direction (x, y, z), f32 bits. */
    public static long[] coordinates(long x, long y, long z) {
        float fx = f(x), fy = f(y), fz = f(z);
        float ax = Math.abs(fx), ay = Math.abs(fy), az = Math.abs(fz);
        boolean isZ = az >= ax && az >= ay;
        boolean isY = !isZ && ay >= ax;
        long sc, tc, ma;
        int face;
        if (isZ) {
            boolean pos = fz >= 0;
            sc = pos ? x : neg(x);
            tc = neg(y);
            ma = bits(az);
            face = pos ? 4 : 5;
        } else if (isY) {
            boolean pos = fy >= 0;
            sc = x;
            tc = pos ? z : neg(z);
            ma = bits(ay);
            face = pos ? 2 : 3;
        } else {
            boolean pos = fx >= 0;
            sc = pos ? neg(z) : z;
            tc = neg(y);
            ma = bits(ax);
            face = pos ? 0 : 1;
        }
        long twoMa = eval(Op.FMUL, ma, bits(2f));
        long half = bits(0.5f);
        long s = eval(Op.FADD, eval(Op.FDIV, sc, twoMa), half);
        long t = eval(Op.FADD, eval(Op.FDIV, tc, twoMa), half);
        long w = eval(Op.FDIV, eval(Op.FADD, bits(face), half), bits(6f));
        return new long[] {s, t, w};
    }

    /** The cubes of an array of cube maps whose faces' 3D texture is {@code depth} layers deep (six a cube). */
    public static int cubes(int depth) {
        return depth / 6;
    }

    /**
     * The texel of the faces' 3D texture ({@code width} × {@code height} × {@code depth}, cube k's
     * faces at layers 6k to 6k + 5) that nearest sampling of an array of cube maps takes at
     * direction (x, y, z) and cube coordinate {@code coord[3]}: the face and its texel as
     * {@link #coordinates} give them, in cube clamp(roundEven(cube), 0, cubes − 1) (NaN: cube 0),
     * as an array's layer is taken ({@link Interpreter#layer}).
     */
    public static int[] arrayTexel(long[] coord, int width, int height, int depth) {
        long[] st = coordinates(coord[0], coord[1], coord[2]);
        int cubes = Math.max(1, cubes(depth));
        int z = 6 * Interpreter.layer(coord[3], cubes) + Interpreter.nearest(st[2], 6);
        return new int[] {Interpreter.nearest(st[0], width), Interpreter.nearest(st[1], height), Math.min(z, depth - 1)
        };
    }

    private static long eval(Op op, long a, long b) {
        return op.evaluate(32, 1, new long[][] {{a}, {b}})[0];
    }

    private static float f(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static long bits(float f) {
        return Float.floatToRawIntBits(f) & 0xffffffffL;
    }

    private static long neg(long bits) {
        return bits ^ 0x80000000L;
    }
}
