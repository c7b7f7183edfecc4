#version 450
// Cook-Torrance PBR: GGX distribution, Schlick-GGX geometry, Schlick Fresnel.
layout(location = 0) in vec3 normal;
layout(location = 1) in vec3 view;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Surface { vec3 albedo; float roughness; vec3 light; float metallic; } s;

float ggx(float ndh, float a) {
    float a2 = a * a;
    float d = ndh * ndh * (a2 - 1.0) + 1.0;
    return a2 / (3.14159265 * d * d);
}

float schlickG(float nd, float k) {
    return nd / (nd * (1.0 - k) + k);
}

void main() {
    vec3 n = normalize(normal), v = normalize(view), l = normalize(s.light);
    vec3 h = normalize(v + l);
    float ndl = max(dot(n, l), 0.001), ndv = max(dot(n, v), 0.001), ndh = max(dot(n, h), 0.0);
    float a = s.roughness * s.roughness;
    float k = (s.roughness + 1.0) * (s.roughness + 1.0) / 8.0;
    vec3 f0 = mix(vec3(0.04), s.albedo, s.metallic);
    vec3 f = f0 + (1.0 - f0) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    vec3 spec = ggx(ndh, a) * schlickG(ndv, k) * schlickG(ndl, k) * f / (4.0 * ndv * ndl);
    vec3 diffuse = (vec3(1.0) - f) * (1.0 - s.metallic) * s.albedo / 3.14159265;
    color = vec4((diffuse + spec) * ndl, 1.0);
}
