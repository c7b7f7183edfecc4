#version 450
// Image processing on storage images: a Sobel edge filter reads an rgba8 image with
// imageLoad (clamping coordinates to imageSize), writes the gradient magnitude to an r32f
// image, a quantized direction to an r32ui image and a tinted copy to an rgba16f image.
// Specialization constants stay at their defaults; LAST_BIN and WIDE are OpSpecConstantOps.
layout(local_size_x = 8, local_size_y = 8) in;

layout(constant_id = 0) const int THRESHOLD_PERCENT = 25;
layout(constant_id = 1) const int BINS = 8;
const int LAST_BIN = BINS - 1;
const bool WIDE = LAST_BIN > 3;

layout(binding = 0, rgba8) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D magnitude;
layout(binding = 2, r32ui) uniform writeonly uimage2D direction;
layout(binding = 3, rgba16f) uniform image2D tinted;

float luma(ivec2 p) {
    ivec2 size = imageSize(src);
    vec3 c = imageLoad(src, clamp(p, ivec2(0), size - 1)).rgb;
    return dot(c, vec3(0.299, 0.587, 0.114));
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(src);
    if (any(greaterThanEqual(p, size))) return;

    float tl = luma(p + ivec2(-1, -1)), t = luma(p + ivec2(0, -1)), tr = luma(p + ivec2(1, -1));
    float l = luma(p + ivec2(-1, 0)), r = luma(p + ivec2(1, 0));
    float bl = luma(p + ivec2(-1, 1)), b = luma(p + ivec2(0, 1)), br = luma(p + ivec2(1, 1));
    float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
    float gy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
    float mag = sqrt(gx * gx + gy * gy);

    imageStore(magnitude, p, vec4(mag));
    float angle = atan(gy, gx) * 0.15915494 + 0.5;
    float threshold = float(THRESHOLD_PERCENT) * (WIDE ? 0.01 : 0.02);
    uint bin = mag > threshold ? uint(clamp(int(angle * float(BINS)), 0, LAST_BIN)) : 255u;
    imageStore(direction, p, uvec4(bin));
    vec4 old = imageLoad(tinted, p);
    imageStore(tinted, p, mix(old, vec4(mag, mag * 0.5, 0.0, 1.0), 0.5));
}
