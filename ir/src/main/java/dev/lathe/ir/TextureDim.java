package dev.lathe.ir;

/**
 * Texture dimensionality; the number of coordinates a sample takes. A cube map takes a direction
 * (three coordinates) and is stored as a 3D texture whose layers are its faces +X −X +Y −Y +Z −Z
 * ({@link dev.lathe.ir.interp.CubeMap}); its size is that texture's. An array of 1D or 2D
 * textures takes the layer as its last coordinate, unnormalized: the layer sampled is that
 * coordinate rounded to nearest even and clamped to the layers (a NaN layer is layer 0), and the
 * layers are the texture's last dimension. An array of cube maps takes a direction and then the
 * cube, unnormalized as an array's layer (rounded to nearest even, clamped to the cubes): it is
 * stored as one 3D texture of all the cubes' faces, cube k's faces at layers 6k to 6k + 5, and its
 * size is (width, height, cubes). Storage images are never cube maps or arrays.
 */
public enum TextureDim {
    D1("1d", 1),
    D2("2d", 2),
    D3("3d", 3),
    CUBE("cube", 3),
    D1_ARRAY("1darray", 2),
    D2_ARRAY("2darray", 3),
    CUBE_ARRAY("cubearray", 4);

    private final String spelling;
    private final int coords;

    TextureDim(String spelling, int coords) {
        this.spelling = spelling;
        this.coords = coords;
    }

    public String spelling() {
        return spelling;
    }

    public int coordinates() {
        return coords;
    }

    /** The components of the texture's size ({@code txs}): the coordinates, but an array of cube maps' three. */
    public int sizes() {
        return this == CUBE_ARRAY ? 3 : coords;
    }

    /** Whether the last coordinate picks a layer of an array of 1D or 2D textures (a cube array's is its own case). */
    public boolean arrayed() {
        return this == D1_ARRAY || this == D2_ARRAY;
    }

    /** Whether a storage image can have these dimensions. */
    public boolean forImages() {
        return this == D1 || this == D2 || this == D3;
    }

    public static TextureDim parse(String s) {
        for (TextureDim d : values()) {
            if (d.spelling.equals(s)) return d;
        }
        return null;
    }
}
