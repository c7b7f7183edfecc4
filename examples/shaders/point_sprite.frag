#version 450
// A point sprite: gl_PointCoord rotated by the particle's angle picks a texel of one of two
// sprite textures; the corners outside the round sprite are discarded.
layout(binding = 0) uniform sampler2D smoke;
layout(binding = 1) uniform sampler2D fire;
layout(location = 0) in vec4 tint;
layout(location = 1) in float angle;
layout(location = 2) flat in int kind;
layout(location = 0) out vec4 color;

void main() {
    vec2 p = gl_PointCoord - 0.5;
    if (dot(p, p) > 0.25) discard;
    float c = cos(angle), s = sin(angle);
    vec2 uv = vec2(c * p.x - s * p.y, s * p.x + c * p.y) + 0.5;
    vec4 texel = kind == 0 ? texture(smoke, uv) : texture(fire, uv);
    color = texel * tint;
}
