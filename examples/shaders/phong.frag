#version 450
// Phong lighting: ambient, diffuse and specular with reflect and pow.
layout(location = 0) in vec3 normal;
layout(location = 1) in vec3 view;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Material { vec3 light; vec3 diffuse; float shininess; } mat;

void main() {
    vec3 n = normalize(normal);
    vec3 l = normalize(mat.light);
    vec3 v = normalize(view);
    float diff = max(dot(n, l), 0.0);
    vec3 r = reflect(-l, n);
    float spec = diff > 0.0 ? pow(max(dot(r, v), 0.0), mat.shininess) : 0.0;
    color = vec4(mat.diffuse * (0.1 + diff) + vec3(spec), 1.0);
}
