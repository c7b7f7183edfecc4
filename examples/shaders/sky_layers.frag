#version 450
// Environment and layered textures: a sky from a cube map (face selection by the major axis of
// the direction), terrain detail from a 2D texture array (the layer is rounded and clamped),
// a texel fetched from a layer, a point-light shadow from a cube shadow map, and their sizes.
layout(location = 0) in vec3 viewDir;
layout(location = 1) in vec2 uv;
layout(location = 2) in float material;
layout(location = 3) in vec3 toLight;
layout(location = 0) out vec4 color;

layout(binding = 0) uniform samplerCube sky;
layout(binding = 1) uniform sampler2DArray detail;
layout(binding = 2) uniform samplerCubeShadow pointShadow;
layout(binding = 3) uniform sampler1DArray ramps;

void main() {
    vec3 d = normalize(viewDir);
    vec4 skyColor = texture(sky, d);
    vec4 layered = texture(detail, vec3(uv * 4.0, material));
    vec4 offsetLayer = textureOffset(detail, vec3(uv, material + 1.0), ivec2(1, -1));
    ivec3 size = textureSize(detail, 0);
    vec4 fetched = texelFetch(detail, ivec3(size.xy / 2, size.z - 1), 0);
    float lit = texture(pointShadow, vec4(normalize(toLight), length(toLight) * 0.05));
    vec4 ramp = texture(ramps, vec2(layered.r, 1.0));
    ivec2 skySize = textureSize(sky, 0);
    float mip = float(skySize.x) / 512.0;
    color = mix(skyColor, layered * ramp, 0.5) * (0.25 + 0.75 * lit) + 0.1 * fetched + 0.05 * offsetLayer + vec4(mip * 0.01);
}
