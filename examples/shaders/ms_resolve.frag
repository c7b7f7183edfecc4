#version 450
// Resolving multisampled G-buffer attachments by hand: average every sample, and look at
// one sample when the debug view asks for it.
layout(binding = 0) uniform sampler2DMS positions;
layout(binding = 1) uniform sampler2DMS albedo;
layout(binding = 2) uniform View { int mode; vec3 light; } view;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

vec4 resolve(sampler2DMS tex, ivec2 at) {
    vec4 sum = vec4(0.0);
    int n = textureSamples(tex);
    for (int s = 0; s < n; s++) sum += texelFetch(tex, at, s);
    return sum / float(max(n, 1));
}

void main() {
    ivec2 at = ivec2(vec2(textureSize(albedo)) * uv);
    switch (view.mode) {
    case 1:
        color = vec4(texelFetch(positions, at, 0).rgb, 1.0);
        return;
    case 2:
        color = texelFetch(albedo, at, 1).aaaa;
        return;
    }
    vec3 p = resolve(positions, at).xyz;
    float lit = max(dot(normalize(view.light - p), vec3(0.0, 0.0, 1.0)), 0.0);
    color = vec4(resolve(albedo, at).rgb * lit, 1.0);
}
