#version 450
#extension GL_ARB_sparse_texture2 : enable
#extension GL_ARB_sparse_texture_clamp : enable
// Sparse residency: sample a partially resident texture and fall back to a low-resolution
// copy when a texel was not resident.
layout(binding = 0) uniform sampler2D detail;
layout(binding = 1) uniform sampler2D fallback;
layout(location = 0) in vec2 uv;
layout(location = 1) in float bias;
layout(location = 0) out vec4 color;

void main() {
    vec4 texel = vec4(0.0);
    int code = sparseTextureARB(detail, uv, texel, bias);
    if (!sparseTexelsResidentARB(code)) {
        texel = texture(fallback, uv);
    }
    vec4 fetched;
    int code2 = sparseTexelFetchARB(detail, ivec2(3, 4), 0, fetched);
    color = sparseTexelsResidentARB(code2) ? mix(texel, fetched, 0.25) : texel;
}
