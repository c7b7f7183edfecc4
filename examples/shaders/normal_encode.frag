#version 450
// Normal encoding for a G-buffer: packSnorm4x8 / packSnorm2x16 and back, with the round-trip error.
layout(location = 0) in vec3 normal;
layout(location = 0) out uvec2 encoded;
layout(location = 1) out vec4 error;

void main() {
    vec3 n = normalize(normal);
    uint a = packSnorm4x8(vec4(n, 0.0));
    uint b = packSnorm2x16(n.xy);
    vec4 back = unpackSnorm4x8(a);
    vec2 back2 = unpackSnorm2x16(b);
    encoded = uvec2(a, b);
    error = vec4(back.xyz - n, length(back2 - n.xy));
}
