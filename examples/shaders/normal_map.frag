#version 450
// Tangent-space normal mapping: a TBN matrix times the decoded normal.
layout(location = 0) in vec3 t;
layout(location = 1) in vec3 b;
layout(location = 2) in vec3 n;
layout(location = 3) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D normals;

void main() {
    mat3 tbn = mat3(normalize(t), normalize(b), normalize(n));
    vec3 tn = texture(normals, uv).xyz * 2.0 - 1.0;
    vec3 world = normalize(tbn * tn);
    color = vec4(world * 0.5 + 0.5, 1.0);
}
