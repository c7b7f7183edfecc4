#version 450
// Fractal Brownian motion: five octaves of value noise.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 color;

float hash(vec2 q) {
    return fract(sin(dot(q, vec2(12.9898, 78.233))) * 43758.5453);
}

float noise(vec2 q) {
    vec2 i = floor(q), f = fract(q);
    vec2 u = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash(i), hash(i + vec2(1, 0)), u.x), mix(hash(i + vec2(0, 1)), hash(i + vec2(1, 1)), u.x), u.y);
}

void main() {
    float v = 0.0, amp = 0.5;
    vec2 q = p;
    for (int o = 0; o < 5; o++) {
        v += amp * noise(q);
        q *= 2.0;
        amp *= 0.5;
    }
    color = vec4(v, v, v, 1.0);
}
