#version 450
// Manual bilinear filtering from four texel fetches.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D image;

void main() {
    vec2 size = vec2(textureSize(image, 0));
    vec2 p = uv * size - 0.5;
    ivec2 i = ivec2(floor(p));
    vec2 f = fract(p);
    vec4 a = texelFetch(image, i, 0), b = texelFetch(image, i + ivec2(1, 0), 0);
    vec4 c = texelFetch(image, i + ivec2(0, 1), 0), d = texelFetch(image, i + ivec2(1, 1), 0);
    color = mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}
