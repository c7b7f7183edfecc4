#version 450
// Reinhard and exposure tone mapping with gamma, mixed by a uniform.
layout(location = 0) in vec3 hdr;
layout(location = 0) out vec4 color;
layout(push_constant) uniform Push { float exposure; float blend; } pc;

void main() {
    vec3 reinhard = hdr / (hdr + vec3(1.0));
    vec3 exposed = vec3(1.0) - exp(-hdr * pc.exposure);
    vec3 mapped = mix(reinhard, exposed, clamp(pc.blend, 0.0, 1.0));
    mapped = pow(max(mapped, vec3(0.0)), vec3(1.0 / 2.2));
    float vignette = smoothstep(0.0, 1.0, mapped.g);
    color = vec4(mapped, vignette);
}
