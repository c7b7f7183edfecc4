#version 450
// A 3x3 box blur with nested loops over a texture.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;
layout(push_constant) uniform P { vec2 texel; } p;

void main() {
    vec4 sum = vec4(0.0);
    for (int y = -1; y <= 1; y++) {
        for (int x = -1; x <= 1; x++) {
            sum += texture(image, uv + vec2(x, y) * p.texel);
        }
    }
    color = sum / 9.0;
}
