#version 450
// A fragment shader reading a material and a light from uniform blocks, with values that
// depend on uniforms only (the light's colour times its intensity, the squared range, a
// roughness remapped to alpha) mixed with per-fragment work.
layout(location = 0) in vec3 worldPos;
layout(location = 1) in vec3 worldNormal;
layout(location = 0) out vec4 color;

layout(set = 0, binding = 0) uniform Light {
    vec4 position;
    vec4 color;
    float intensity;
    float range;
} light;

layout(set = 0, binding = 1) uniform Material {
    vec4 albedo;
    float roughness;
    float metallic;
    vec2 pad;
} material;

void main() {
    vec3 n = normalize(worldNormal);
    vec3 toLight = light.position.xyz - worldPos;
    float d2 = dot(toLight, toLight);
    float range2 = light.range * light.range;
    float falloff = clamp(1.0 - d2 / range2, 0.0, 1.0);
    float alpha = material.roughness * material.roughness;
    float ndotl = max(dot(n, toLight * inversesqrt(d2)), 0.0);
    vec3 radiance = light.color.rgb * light.intensity * falloff * falloff;
    vec3 diffuse = material.albedo.rgb * (1.0 - material.metallic);
    float spec = pow(ndotl, 2.0 / (alpha * alpha + 1e-4));
    color = vec4(radiance * (diffuse * ndotl + spec * material.metallic), material.albedo.a);
}
