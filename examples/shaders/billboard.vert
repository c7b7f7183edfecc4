#version 450
// Expands each particle into a screen-facing quad from gl_VertexIndex.
layout(location = 0) in vec3 center;
layout(location = 1) in float size;
layout(location = 0) out vec2 uv;
layout(set = 0, binding = 0) uniform Camera { mat4 view_proj; vec3 right; vec3 up; } cam;

void main() {
    int corner = gl_VertexIndex & 3;
    vec2 offset = vec2((corner & 1) == 0 ? -1.0 : 1.0, (corner & 2) == 0 ? -1.0 : 1.0);
    vec3 world = center + (cam.right * offset.x + cam.up * offset.y) * size;
    uv = offset * 0.5 + 0.5;
    gl_Position = cam.view_proj * vec4(world, 1.0);
}
