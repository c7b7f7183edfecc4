#version 450
// Value noise from an integer hash: floor/fract on a lattice, bilinear smooth interpolation.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;

float hash(ivec2 q) {
    uint h = uint(q.x) * 0x8da6b343u ^ uint(q.y) * 0xd8163841u;
    h ^= h >> 13;
    h *= 0x85ebca6bu;
    return float(h & 0xffffu) / 65535.0;
}

void main() {
    vec2 cell = floor(p);
    vec2 f = fract(p);
    vec2 s = f * f * (3.0 - 2.0 * f);
    ivec2 i = ivec2(cell);
    float a = hash(i), b = hash(i + ivec2(1, 0)), c = hash(i + ivec2(0, 1)), d = hash(i + ivec2(1, 1));
    float v = mix(mix(a, b, s.x), mix(c, d, s.x), s.y);
    color = vec4(v, v, v, 1.0);
}
