#version 450
// A checkerboard from integer cell parity, with anti-aliased lines by smoothstep.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    ivec2 cell = ivec2(floor(uv * 8.0));
    bool odd = ((cell.x + cell.y) & 1) == 1;
    vec2 f = fract(uv * 8.0);
    float edge = smoothstep(0.0, 0.05, min(min(f.x, f.y), min(1.0 - f.x, 1.0 - f.y)));
    color = vec4(vec3(odd ? 0.9 : 0.1) * edge, 1.0);
}
