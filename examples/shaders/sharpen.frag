#version 450
// A 3x3 sharpening kernel over texture samples, clamped.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;
layout(set = 0, binding = 1) uniform K { vec2 texel; float strength; } k;

void main() {
    vec4 center = texture(image, uv);
    vec4 around = texture(image, uv + vec2(k.texel.x, 0)) + texture(image, uv - vec2(k.texel.x, 0))
                + texture(image, uv + vec2(0, k.texel.y)) + texture(image, uv - vec2(0, k.texel.y));
    color = clamp(center + k.strength * (4.0 * center - around), 0.0, 1.0);
}
