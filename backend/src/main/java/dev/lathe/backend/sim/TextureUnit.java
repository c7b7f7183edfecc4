package dev.lathe.backend.sim;

import dev.lathe.ir.interp.CubeMap;
import dev.lathe.ir.interp.Texture;

/**
 * Textures and storage images as cat5 and {@code ldib}/{@code stib} read and write them
 * ({@code backend/ISA.md}, "cat5 — textures" and "Storage images"), written from the ISA
 * description rather than borrowed from the interpreter: {@code sam} takes the nearest texel of
 * the one level, clamping to the edge (a NaN coordinate to texel 0); {@code isam} fetches at
 * integer coordinates, zero outside; {@code getsize} gives the sizes. A storage image's texels
 * are four little-endian 32-bit words each, x fastest, in the image's memory; outside the image a
 * load gives zero and a store or an atomic does nothing.
 */
final class TextureUnit {
    private TextureUnit() {}

    /** A texture that was not bound reads as one texel of zeros. */
    static final Texture UNBOUND = new Texture(1, 1, 1, new long[4]);

    /** The sizes of {@code dims} dimensions. */
    static long[] size(Texture t, int dims) {
        long[] all = {t.width(), t.height(), t.depth()};
        long[] out = new long[dims];
        System.arraycopy(all, 0, out, 0, dims);
        return out;
    }

    /**
     * {@code sam}, {@code samlod}: the nearest texel to f32 coordinates, clamped to the edge; on an
     * array of textures ({@code arrayed}: the descriptor says so) the last coordinate is the
     * layer, rounded to nearest even and clamped to the layers (NaN: layer 0).
     */
    static long[] sample(Texture t, long[] coord, boolean arrayed) {
        int[] sizes = {t.width(), t.height(), t.depth()};
        int[] at = new int[3];
        for (int c = 0; c < coord.length; c++) {
            float u = Float.intBitsToFloat((int) coord[c]);
            double scaled = arrayed && c == coord.length - 1 ? Math.rint(u) : Math.floor((double) u * sizes[c]);
            long i = Float.isNaN(u) ? 0 : (long) scaled;
            at[c] = (int) Math.max(0, Math.min(sizes[c] - 1, i));
        }
        return texel(t, at[0], at[1], at[2]);
    }

    /**
     * {@code sam}, {@code samlod} on a cube map (a texture whose descriptor says cube: the
     * instruction is a 3D one): the direction selects the face and its coordinates as Vulkan does
     * ({@link CubeMap}), then the nearest texel of the faces' 3D texture.
     */
    static long[] sampleCube(Texture t, long[] dir) {
        return sample(t, CubeMap.coordinates(dir[0], dir[1], dir[2]), false);
    }

    /**
     * {@code sam}, {@code samlod} on an array of cube maps (the four-coordinate form): the
     * direction selects the face, the fourth coordinate the cube ({@link CubeMap#arrayTexel}).
     */
    static long[] sampleCubeArray(Texture t, long[] coord) {
        int[] at = CubeMap.arrayTexel(coord, t.width(), t.height(), t.depth());
        return texel(t, at[0], at[1], at[2]);
    }

    /** {@code isam}: the texel at signed 32-bit coordinates; zero outside. */
    static long[] fetch(Texture t, long[] coord) {
        long[] at = signedCoordinates(coord);
        if (!inside(t, at)) return new long[4];
        return texel(t, (int) at[0], (int) at[1], (int) at[2]);
    }

    private static long[] texel(Texture t, int x, int y, int z) {
        long[] all = t.texels();
        int first = ((z * t.height() + y) * t.width() + x) * 4;
        long[] out = new long[4];
        System.arraycopy(all, first, out, 0, 4);
        return out;
    }

    private static long[] signedCoordinates(long[] coord) {
        long[] at = new long[3];
        for (int c = 0; c < coord.length; c++) at[c] = (int) coord[c];
        return at;
    }

    private static boolean inside(Texture t, long[] at) {
        return at[0] >= 0 && at[1] >= 0 && at[2] >= 0 && at[0] < t.width() && at[1] < t.height() && at[2] < t.depth();
    }

    /** The byte offset of the texel at signed coordinates in a storage image of {@code t}'s sizes, or -1 outside it. */
    static long imageOffset(Texture t, long[] coord) {
        long[] at = signedCoordinates(coord);
        if (!inside(t, at)) return -1;
        return ((at[2] * t.height() + at[1]) * t.width() + at[0]) * 16;
    }
}
