#version 450
// Lambert diffuse lighting with an ambient floor.
layout(location = 0) in vec3 normal;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Light {
    vec3 direction;
    vec3 albedo;
    float ambient;
} light;

void main() {
    float ndl = max(dot(normalize(normal), normalize(light.direction)), 0.0);
    color = vec4(light.albedo * max(ndl, light.ambient), 1.0);
}
