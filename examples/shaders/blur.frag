#version 450
// A 5-tap horizontal Gaussian blur of a texture.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;
layout(set = 0, binding = 1) uniform Params { float texel; } params;

void main() {
    const float weights[5] = float[](0.0625, 0.25, 0.375, 0.25, 0.0625);
    vec4 sum = vec4(0.0);
    for (int i = 0; i < 5; i++) {
        vec2 at = uv + vec2(float(i - 2) * params.texel, 0.0);
        sum += texture(image, at) * weights[i];
    }
    color = sum;
}
