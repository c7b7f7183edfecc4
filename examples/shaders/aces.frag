#version 450
// ACES filmic tone-mapping curve with sRGB encoding.
layout(location = 0) in vec3 hdr;
layout(location = 0) out vec4 color;

vec3 aces(vec3 x) {
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 srgb(vec3 c) {
    vec3 lo = c * 12.92;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return mix(lo, hi, step(vec3(0.0031308), c));
}

void main() {
    color = vec4(srgb(aces(hdr)), 1.0);
}
