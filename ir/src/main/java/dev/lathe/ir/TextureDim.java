package dev.lathe.ir;

/**
 * Texture dimensionality; the number of coordinates a sample takes. A cube map takes a direction
 * (three coordinates) and is stored as a 3D texture whose layers are its faces +X −X +Y −Y +Z −Z
 * ({@link dev.lathe.ir.interp.CubeMap}); its size is that texture's. Storage images are never
 * cube maps.
 */
public enum TextureDim {
    D1("1d", 1),
    D2("2d", 2),
    D3("3d", 3),
    CUBE("cube", 3);

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

    public static TextureDim parse(String s) {
        for (TextureDim d : values()) {
            if (d.spelling.equals(s)) return d;
        }
        return null;
    }
}
