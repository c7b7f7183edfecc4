#version 450
// Sampling with constant texel offsets (textureOffset, texelFetchOffset, textureLodOffset) and a bias.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;

void main() {
    vec4 a = textureOffset(image, uv, ivec2(1, -1));
    vec4 b = texelFetchOffset(image, ivec2(uv * 4.0), 0, ivec2(-1, 1));
    vec4 c = textureLodOffset(image, uv, 0.0, ivec2(2, 0));
    color = (a + b + c + texture(image, uv, 1.5)) * 0.25;
}
