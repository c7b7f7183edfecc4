package dev.lathe.ir.interp;

/**
 * Texture contents for the interpreter: one mip level of {@code width × height × depth}
 * texels, each four 32-bit components (raw bits) in row-major order (x fastest).
 */
public record Texture(int width, int height, int depth, long[] texels) {
    public Texture {
        if (width < 1 || height < 1 || depth < 1) throw new IllegalArgumentException("texture sizes must be positive");
        if ((long) width * height * depth * 4 != texels.length) {
            throw new IllegalArgumentException("a " + width + "x" + height + "x" + depth + " texture needs "
                    + ((long) width * height * depth * 4) + " component values, got " + texels.length);
        }
        texels = texels.clone();
    }

    /** Component c of texel (x, y, z); no bounds check. */
    long component(int x, int y, int z, int c) {
        return texels[(((z * height) + y) * width + x) * 4 + c];
    }

    @Override
    public long[] texels() {
        return texels.clone();
    }
}
